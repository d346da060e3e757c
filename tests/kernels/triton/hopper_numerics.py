"""Kernels whose Hopper numerics Triton's language tests (test_core.py) exercise, for cuda:90:
an fp8 GEMM with max_num_imprecise_acc, whose PTX reads each wgmma.mma_async's accumulators
before the wgmma.wait_group that retires it (undefined in the ISA, made defined by ptxas, which
serializes such wgmma); a bf16 cumulative sum (tl.cumsum keeps bf16, so every step rounds to bf16);
and tl.dot_scaled of e4m3 with e8m0 scales by f16, which Hopper runs as a conversion to bf16 and a
wgmma."""
import triton
import triton.language as tl


@triton.jit
def imprecise_gemm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   IMPRECISE: tl.constexpr):
    """C (f32, M x N) = A (M x K fp8, row-major) @ B (K x N fp8, row-major); Triton adds each
    IMPRECISE-deep product into the fp32 accumulator with add.f32."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=IMPRECISE)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def cumsum_bf16(x_ptr, z_ptr, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    """Z (f32) = the cumulative sum of X (bf16, BM x BN) along AXIS, as test_scan2d computes it."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(z_ptr + rm[:, None] * BN + rn[None, :], tl.cumsum(x, axis=AXIS, reverse=REVERSE))


@triton.jit
def scaled_dot_e4m3_f16(a_ptr, sa_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """C (f32, M x N) = (A (e4m3, M x K) scaled by 2^(SA - 127) per 32 of K) @ B (f16, K x N)."""
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    sa = tl.load(sa_ptr + rm[:, None] * (K // 32) + rs[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot_scaled(a, sa, "e4m3", b, None, "fp16"))


def _imprecise(name, elem, imprecise):
    return dict(name=name, fn=imprecise_gemm, arch=90,
                signature={"a_ptr": "*" + elem, "b_ptr": "*" + elem, "c_ptr": "*fp32", "M": "i32", "N": "i32",
                           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "IMPRECISE": "constexpr"},
                constexprs={"BM": 64, "BN": 64, "BK": 64, "IMPRECISE": imprecise},
                options={"num_warps": 4, "num_stages": 1})


def _cumsum(name, shape, axis, reverse):
    return dict(name=name, fn=cumsum_bf16, arch=90,
                signature={"x_ptr": "*bf16", "z_ptr": "*fp32", "BM": "constexpr", "BN": "constexpr",
                           "AXIS": "constexpr", "REVERSE": "constexpr"},
                constexprs={"BM": shape[0], "BN": shape[1], "AXIS": axis, "REVERSE": reverse},
                options={"num_warps": 4, "num_stages": 1})


CONFIGS = [
    _imprecise("imprecise90_fp8e4m3", "fp8e4nv", 32),
    _imprecise("imprecise90_fp8e5m2", "fp8e5", 64),
    _cumsum("cumsum90_bf16_row", (1, 1024), 1, False),
    _cumsum("cumsum90_bf16_cols_reverse", (32, 32), 0, True),
    dict(name="scaled_dot90_e4m3_f16", fn=scaled_dot_e4m3_f16, arch=90,
         signature={"a_ptr": "*fp8e4nv", "sa_ptr": "*u8", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "constexpr",
                    "N": "constexpr", "K": "constexpr"},
         constexprs={"M": 64, "N": 64, "K": 128}, options={"num_warps": 4, "num_stages": 1}),
]
