"""libdevice's math functions (Triton's tl.extra libdevice, tutorial 07's asin among them) for cuda:90:
long polynomial and branchy code, full of mul/add pairs that ptxas fuses, IEEE divisions, square
roots and the .approx special functions. Each kernel applies every function to the same inputs
and stores function k's results at out[k * n + i]."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def math_f32(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """43 functions of f32 x (and of x, y for the binary ones), in the order of F32_FUNCTIONS."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    y = tl.load(y_ptr + i, mask=m)
    o = out_ptr + i
    tl.store(o + 0 * n, libdevice.acos(x), mask=m)
    tl.store(o + 1 * n, libdevice.asin(x), mask=m)
    tl.store(o + 2 * n, libdevice.atan(x), mask=m)
    tl.store(o + 3 * n, libdevice.acosh(x), mask=m)
    tl.store(o + 4 * n, libdevice.asinh(x), mask=m)
    tl.store(o + 5 * n, libdevice.atanh(x), mask=m)
    tl.store(o + 6 * n, libdevice.cbrt(x), mask=m)
    tl.store(o + 7 * n, libdevice.cos(x), mask=m)
    tl.store(o + 8 * n, libdevice.cosh(x), mask=m)
    tl.store(o + 9 * n, libdevice.cospi(x), mask=m)
    tl.store(o + 10 * n, libdevice.erf(x), mask=m)
    tl.store(o + 11 * n, libdevice.erfc(x), mask=m)
    tl.store(o + 12 * n, libdevice.erfcinv(x), mask=m)
    tl.store(o + 13 * n, libdevice.erfcx(x), mask=m)
    tl.store(o + 14 * n, libdevice.erfinv(x), mask=m)
    tl.store(o + 15 * n, libdevice.exp(x), mask=m)
    tl.store(o + 16 * n, libdevice.exp10(x), mask=m)
    tl.store(o + 17 * n, libdevice.exp2(x), mask=m)
    tl.store(o + 18 * n, libdevice.expm1(x), mask=m)
    tl.store(o + 19 * n, libdevice.lgamma(x), mask=m)
    tl.store(o + 20 * n, libdevice.log(x), mask=m)
    tl.store(o + 21 * n, libdevice.log10(x), mask=m)
    tl.store(o + 22 * n, libdevice.log1p(x), mask=m)
    tl.store(o + 23 * n, libdevice.log2(x), mask=m)
    tl.store(o + 24 * n, libdevice.normcdf(x), mask=m)
    tl.store(o + 25 * n, libdevice.normcdfinv(x), mask=m)
    tl.store(o + 26 * n, libdevice.rcbrt(x), mask=m)
    tl.store(o + 27 * n, libdevice.rsqrt(x), mask=m)
    tl.store(o + 28 * n, libdevice.sin(x), mask=m)
    tl.store(o + 29 * n, libdevice.sinh(x), mask=m)
    tl.store(o + 30 * n, libdevice.sinpi(x), mask=m)
    tl.store(o + 31 * n, libdevice.tan(x), mask=m)
    tl.store(o + 32 * n, libdevice.tanh(x), mask=m)
    tl.store(o + 33 * n, libdevice.tgamma(x), mask=m)
    tl.store(o + 34 * n, libdevice.j0(x), mask=m)
    tl.store(o + 35 * n, libdevice.y1(x), mask=m)
    tl.store(o + 36 * n, libdevice.cyl_bessel_i0(x), mask=m)
    tl.store(o + 37 * n, libdevice.atan2(x, y), mask=m)
    tl.store(o + 38 * n, libdevice.pow(x, y), mask=m)
    tl.store(o + 39 * n, libdevice.hypot(x, y), mask=m)
    tl.store(o + 40 * n, libdevice.fmod(x, y), mask=m)
    tl.store(o + 41 * n, libdevice.remainder(x, y), mask=m)
    tl.store(o + 42 * n, libdevice.fast_powf(x, y), mask=m)


@triton.jit
def math_f64(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """14 functions of f64 x (and of x, y), in the order of F64_FUNCTIONS."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    y = tl.load(y_ptr + i, mask=m)
    o = out_ptr + i
    tl.store(o + 0 * n, libdevice.exp(x), mask=m)
    tl.store(o + 1 * n, libdevice.log(x), mask=m)
    tl.store(o + 2 * n, libdevice.sin(x), mask=m)
    tl.store(o + 3 * n, libdevice.cos(x), mask=m)
    tl.store(o + 4 * n, libdevice.tan(x), mask=m)
    tl.store(o + 5 * n, libdevice.erf(x), mask=m)
    tl.store(o + 6 * n, libdevice.lgamma(x), mask=m)
    tl.store(o + 7 * n, libdevice.cbrt(x), mask=m)
    tl.store(o + 8 * n, libdevice.tanh(x), mask=m)
    tl.store(o + 9 * n, libdevice.asin(x), mask=m)
    tl.store(o + 10 * n, libdevice.sqrt(x), mask=m)
    tl.store(o + 11 * n, libdevice.rsqrt(x), mask=m)
    tl.store(o + 12 * n, libdevice.atan2(x, y), mask=m)
    tl.store(o + 13 * n, libdevice.pow(x, y), mask=m)


def _math(name, fn, elem):
    return dict(name=name, fn=fn, arch=90,
                signature={"x_ptr": "*" + elem, "y_ptr": "*" + elem, "out_ptr": "*" + elem, "n": "i32",
                           "BLOCK": "constexpr"},
                constexprs={"BLOCK": 256}, options={"num_warps": 4, "num_stages": 1})


CONFIGS = [_math("libdevice90_f32", math_f32, "fp32"), _math("libdevice90_f64", math_f64, "fp64")]


@triton.jit
def math2_f32(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """37 more f32 libdevice functions: the fast intrinsics, roundings to integers, the directed-rounding
    arithmetic and conversions (integer results stored as their bits)."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    y = tl.load(y_ptr + i, mask=m)
    o = out_ptr + i
    tl.store(o + 0 * n, libdevice.fast_expf(x), mask=m)
    tl.store(o + 1 * n, libdevice.fast_logf(x), mask=m)
    tl.store(o + 2 * n, libdevice.fast_sinf(x), mask=m)
    tl.store(o + 3 * n, libdevice.fast_cosf(x), mask=m)
    tl.store(o + 4 * n, libdevice.fast_tanf(x), mask=m)
    tl.store(o + 5 * n, libdevice.fast_exp10f(x), mask=m)
    tl.store(o + 6 * n, libdevice.fast_log2f(x), mask=m)
    tl.store(o + 7 * n, libdevice.fast_log10f(x), mask=m)
    tl.store(o + 8 * n, libdevice.fast_dividef(x, y), mask=m)
    tl.store(o + 9 * n, libdevice.rint(x), mask=m)
    tl.store(o + 10 * n, libdevice.round(x), mask=m)
    tl.store(o + 11 * n, libdevice.trunc(x), mask=m)
    tl.store(o + 12 * n, libdevice.floor(x), mask=m)
    tl.store(o + 13 * n, libdevice.ceil(x), mask=m)
    tl.store(o + 14 * n, libdevice.logb(x), mask=m)
    tl.store(o + 15 * n, libdevice.j1(x), mask=m)
    tl.store(o + 16 * n, libdevice.y0(x), mask=m)
    tl.store(o + 17 * n, libdevice.cyl_bessel_i1(x), mask=m)
    tl.store(o + 18 * n, libdevice.rsqrt_rn(x), mask=m)
    tl.store(o + 19 * n, libdevice.sqrt_rd(x), mask=m)
    tl.store(o + 20 * n, libdevice.sqrt_ru(x), mask=m)
    tl.store(o + 21 * n, libdevice.rcp_rz(x), mask=m)
    tl.store(o + 22 * n, libdevice.rcp_ru(x), mask=m)
    tl.store(o + 23 * n, libdevice.add_rd(x, y), mask=m)
    tl.store(o + 24 * n, libdevice.mul_ru(x, y), mask=m)
    tl.store(o + 25 * n, libdevice.div_rz(x, y), mask=m)
    tl.store(o + 26 * n, libdevice.div_rd(x, y), mask=m)
    tl.store(o + 27 * n, libdevice.fma_rz(x, y, x), mask=m)
    tl.store(o + 28 * n, libdevice.nextafter(x, y), mask=m)
    tl.store(o + 29 * n, libdevice.fdim(x, y), mask=m)
    tl.store(o + 30 * n, libdevice.rhypot(x, y), mask=m)
    tl.store(o + 31 * n, libdevice.saturatef(x), mask=m)
    tl.store(o + 32 * n, libdevice.float2int_rn(x).to(tl.float32, bitcast=True), mask=m)
    tl.store(o + 33 * n, libdevice.float2int_rd(x).to(tl.float32, bitcast=True), mask=m)
    tl.store(o + 34 * n, libdevice.float2uint_ru(x).to(tl.float32, bitcast=True), mask=m)
    tl.store(o + 35 * n, libdevice.ilogb(x).to(tl.float32, bitcast=True), mask=m)
    tl.store(o + 36 * n, libdevice.fast_powf(y, x), mask=m)


@triton.jit
def math2_f64(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """32 more f64 libdevice functions, the directed-rounding arithmetic and conversions."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    y = tl.load(y_ptr + i, mask=m)
    o = out_ptr + i
    tl.store(o + 0 * n, libdevice.exp2(x), mask=m)
    tl.store(o + 1 * n, libdevice.exp10(x), mask=m)
    tl.store(o + 2 * n, libdevice.expm1(x), mask=m)
    tl.store(o + 3 * n, libdevice.log2(x), mask=m)
    tl.store(o + 4 * n, libdevice.log10(x), mask=m)
    tl.store(o + 5 * n, libdevice.log1p(x), mask=m)
    tl.store(o + 6 * n, libdevice.sinh(x), mask=m)
    tl.store(o + 7 * n, libdevice.cosh(x), mask=m)
    tl.store(o + 8 * n, libdevice.asinh(x), mask=m)
    tl.store(o + 9 * n, libdevice.acosh(x), mask=m)
    tl.store(o + 10 * n, libdevice.atanh(x), mask=m)
    tl.store(o + 11 * n, libdevice.acos(x), mask=m)
    tl.store(o + 12 * n, libdevice.atan(x), mask=m)
    tl.store(o + 13 * n, libdevice.erfc(x), mask=m)
    tl.store(o + 14 * n, libdevice.erfinv(x), mask=m)
    tl.store(o + 15 * n, libdevice.tgamma(x), mask=m)
    tl.store(o + 16 * n, libdevice.normcdf(x), mask=m)
    tl.store(o + 17 * n, libdevice.j0(x), mask=m)
    tl.store(o + 18 * n, libdevice.y1(x), mask=m)
    tl.store(o + 19 * n, libdevice.rcbrt(x), mask=m)
    tl.store(o + 20 * n, libdevice.hypot(x, y), mask=m)
    tl.store(o + 21 * n, libdevice.fmod(x, y), mask=m)
    tl.store(o + 22 * n, libdevice.remainder(x, y), mask=m)
    tl.store(o + 23 * n, libdevice.add_rd(x, y), mask=m)
    tl.store(o + 24 * n, libdevice.div_rz(x, y), mask=m)
    tl.store(o + 25 * n, libdevice.sqrt_ru(x), mask=m)
    tl.store(o + 26 * n, libdevice.rcp_rd(x), mask=m)
    tl.store(o + 27 * n, libdevice.fma_ru(x, y, x), mask=m)
    tl.store(o + 28 * n, libdevice.double2float_rd(x).to(tl.float64), mask=m)
    tl.store(o + 29 * n, libdevice.double2ll_rz(x).to(tl.float64, bitcast=True), mask=m)
    tl.store(o + 30 * n, libdevice.sinpi(x), mask=m)
    tl.store(o + 31 * n, libdevice.cospi(x), mask=m)


CONFIGS += [_math("libdevice90_2_f32", math2_f32, "fp32"), _math("libdevice90_2_f64", math2_f64, "fp64")]
