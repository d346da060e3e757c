"""Element-wise code as ML kernels write it, for cuda:90: Triton's tl.math (exp, log, sqrt, rsqrt,
sin, cos, sigmoid, div_rn, fma), the usual activations built from them (GELU in its erf and tanh
forms, SiLU, softplus, Mish), and tutorial 04's dropout (tl.rand: Philox, then a float in [0, 1))."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def activations(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[k * n + i] = activation k of x[i]."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    o = out_ptr + i
    tl.store(o + 0 * n, tl.exp(x), mask=m)
    tl.store(o + 1 * n, tl.log(x), mask=m)
    tl.store(o + 2 * n, tl.sqrt(x), mask=m)
    tl.store(o + 3 * n, tl.math.rsqrt(x), mask=m)
    tl.store(o + 4 * n, tl.sin(x), mask=m)
    tl.store(o + 5 * n, tl.cos(x), mask=m)
    tl.store(o + 6 * n, tl.sigmoid(x), mask=m)
    tl.store(o + 7 * n, tl.math.div_rn(x, x + 3.0), mask=m)
    tl.store(o + 8 * n, tl.math.fma(x, x, -2.0), mask=m)
    tl.store(o + 9 * n, 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476)), mask=m)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(o + 10 * n, 0.5 * x * (1.0 + libdevice.tanh(inner)), mask=m)
    tl.store(o + 11 * n, x * tl.sigmoid(x), mask=m)
    softplus = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))
    tl.store(o + 12 * n, softplus, mask=m)
    tl.store(o + 13 * n, x * libdevice.tanh(softplus), mask=m)
    tl.store(o + 14 * n, tl.where(x > 0, x, 0.01 * x), mask=m)
    tl.store(o + 15 * n, tl.exp2(x) - tl.log2(tl.abs(x) + 1.0), mask=m)
    tl.store(o + 16 * n, x / (1.0 + tl.abs(x)), mask=m)
    tl.store(o + 17 * n, tl.math.sqrt_rn(tl.abs(x)) * 3.0 + x * 0.25, mask=m)


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    """Tutorial 04's seeded dropout: keep x / (1 - p) where tl.rand(seed, offset) > p."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    keep = tl.rand(seed, i) > p
    tl.store(out_ptr + i, tl.where(keep, x / (1 - p), 0.0), mask=m)


CONFIGS = [
    dict(name="activations90", fn=activations, arch=90,
         signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 256}, options={"num_warps": 4, "num_stages": 1}),
    dict(name="dropout90", fn=dropout, arch=90,
         signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "p": "fp32", "seed": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 4, "num_stages": 1}),
]
