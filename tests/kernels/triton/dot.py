"""Triton tl.dot kernels of the tests/kernels suite (compiled by generate.py, each for the target
its config names: cuda:80 for f16/bf16/tf32/fp32, cuda:89 for fp8, whose mma needs sm_89)."""
import triton
import triton.language as tl


@triton.jit
def dot_gemm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             PREC: tl.constexpr):
    """C (f32, M x N) = A (M x K, row-major) @ B (K x N, row-major), one BM x BN tile a program;
    PREC is tl.dot's input_precision (used for f32 inputs only)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def _gemm(name, elem, arch, prec="ieee"):
    return dict(name=name, fn=dot_gemm, arch=arch,
                signature={"a_ptr": "*" + elem, "b_ptr": "*" + elem, "c_ptr": "*fp32", "M": "i32", "N": "i32",
                           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                           "PREC": "constexpr"},
                constexprs={"BM": 32, "BN": 32, "BK": 32, "PREC": prec},
                options={"num_warps": 4, "num_stages": 1})


# name, function, target arch, signature, constexprs, options (num_warps fixes the block size;
# num_stages=1: no software pipelining).
CONFIGS = [
    _gemm("dot_f16", "fp16", 80),
    _gemm("dot_bf16", "bf16", 80),
    _gemm("dot_tf32", "fp32", 80, "tf32"),
    _gemm("dot_fp32_ieee", "fp32", 80, "ieee"),
    _gemm("dot_fp8e4m3", "fp8e4nv", 89),
    _gemm("dot_fp8e5m2", "fp8e5", 89),
]
