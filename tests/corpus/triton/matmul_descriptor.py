"""fp16 GEMM (fp32 accumulate, fp16 C) whose tiles move through TMA tensor descriptors:
  matmul_desc_device  plain pointers in, descriptors built in the kernel with
                      tl.make_tensor_descriptor (the CUtensorMaps are written to the
                      global scratch buffer Triton appends as a kernel parameter)
  matmul_desc_host    descriptors passed as kernel arguments (host TensorDescriptor:
                      a by-value CUtensorMap followed by the tensor's shape and strides)
A is [M, K], B is [K, N], C is [M, N], all row-major fp16; out-of-range rows/columns of
the last tiles are handled by the descriptors (zero fill on load, clipped on store)."""
import triton
import triton.language as tl


@triton.jit
def matmul_desc_device(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[BM, BN])
    num_n = tl.cdiv(N, BN)
    pid = tl.program_id(0)
    off_m = (pid // num_n) * BM
    off_n = (pid % num_n) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([off_m, k * BK])
        b = b_desc.load([k * BK, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


@triton.jit
def matmul_desc_host(a_desc, b_desc, c_desc, M, N, K,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    num_n = tl.cdiv(N, BN)
    pid = tl.program_id(0)
    off_m = (pid // num_n) * BM
    off_n = (pid % num_n) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([off_m, k * BK])
        b = b_desc.load([k * BK, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


_BM, _BN, _BK = 128, 128, 64
_CE = {"BM": _BM, "BN": _BN, "BK": _BK}

CONFIGS = [
    dict(name="matmul_desc_device", fn=matmul_desc_device,
         signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                    "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32",
                    "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
         constexprs=_CE, options={"num_warps": 4, "num_stages": 3}, targets=(90, 100)),
    dict(name="matmul_desc_host", fn=matmul_desc_host,
         signature={"a_desc": f"tensordesc<fp16[{_BM}, {_BK}]>", "b_desc": f"tensordesc<fp16[{_BK}, {_BN}]>",
                    "c_desc": f"tensordesc<fp16[{_BM}, {_BN}]>", "M": "i32", "N": "i32", "K": "i32",
                    "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
         constexprs=_CE, options={"num_warps": 4, "num_stages": 3}, targets=(90, 100)),
]
