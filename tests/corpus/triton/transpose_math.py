"""2D tile transpose through tl.trans, plus transcendental math (exp, log,
sin, sqrt, rsqrt, erf via libdevice-free tl.math) on fp32/fp64."""
import triton
import triton.language as tl


@triton.jit
def transpose_tile(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=m)
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], tl.trans(x), mask=tl.trans(m))


@triton.jit
def math_fns(x_ptr, y_ptr, d_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.exp(x) + tl.log(tl.abs(x) + 1) + tl.sin(x) * tl.cos(x) + tl.sqrt(tl.abs(x)) + tl.rsqrt(tl.abs(x) + 1)
    y += tl.math.erf(x) + tl.math.floor(x) + tl.math.ceil(x) + tl.exp2(x) + tl.log2(tl.abs(x) + 1)
    y += tl.math.fma(x, x, 1.0) + tl.math.div_rn(x, 3.0) + tl.sigmoid(x)
    tl.store(y_ptr + offs, y, mask=m)
    d = x.to(tl.float64)
    tl.store(d_ptr + offs, tl.sqrt(d * d + 1.0) / (d + 2.0), mask=m)


CONFIGS = [
    dict(name="transpose", fn=transpose_tile,
         signature={"x_ptr": "*fp16", "y_ptr": "*fp16", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
         constexprs={"BM": 64, "BN": 64}, options={"num_warps": 4}),
    dict(name="math_fns", fn=math_fns,
         signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "d_ptr": "*fp64", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 256}, options={"num_warps": 4}),
]
