"""Blocked matmul with tl.dot in fp16, bf16, tf32 (fp32 inputs) and fp8
(e4m3, sm_90/sm_100 only), with grouped program ordering and masks."""
import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr, ALLOW_TF32: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = GROUP_M * num_n
    gid = pid // group
    first_m = gid * GROUP_M
    gsz = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % gsz
    pid_n = (pid % group) // gsz
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        if ALLOW_TF32:
            acc = tl.dot(a, b, acc, input_precision="tf32")
        else:
            acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _sig(ta, tc):
    return {"a_ptr": ta, "b_ptr": ta, "c_ptr": tc, "M": "i32", "N": "i32", "K": "i32",
            "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
            "stride_cm": "i32", "stride_cn": "constexpr",
            "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "GROUP_M": "constexpr", "ALLOW_TF32": "constexpr"}


def _ce(bm, bn, bk, tf32=False):
    return {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8, "ALLOW_TF32": tf32}


CONFIGS = [
    dict(name="matmul_fp16", fn=matmul, signature=_sig("*fp16", "*fp16"), constexprs=_ce(128, 128, 32),
         options={"num_warps": 4, "num_stages": 3}),
    dict(name="matmul_bf16", fn=matmul, signature=_sig("*bf16", "*fp32"), constexprs=_ce(64, 128, 64),
         options={"num_warps": 4, "num_stages": 2}),
    dict(name="matmul_tf32", fn=matmul, signature=_sig("*fp32", "*fp32"), constexprs=_ce(64, 64, 32, True),
         options={"num_warps": 4, "num_stages": 2}),
    dict(name="matmul_fp8", fn=matmul, signature=_sig("*fp8e4nv", "*fp16"), constexprs=_ce(128, 64, 64),
         options={"num_warps": 4, "num_stages": 3}, targets=(90, 100)),
]
