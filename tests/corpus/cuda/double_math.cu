// Double-precision math, rounded intrinsics and conversions.
// corpus-archs: auto:4
#include <cmath>

extern "C" __global__ void double_libm(const double *x, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i], a = fabs(v) + 1e-9;
    out[8 * i + 0] = sqrt(a) + rsqrt(a) + cbrt(v);
    out[8 * i + 1] = exp(v) + exp2(v) + expm1(v) + log(a) + log2(a) + log1p(a);
    out[8 * i + 2] = sin(v) + cos(v) + tan(v) + atan2(v, a);
    out[8 * i + 3] = pow(a, v) + hypot(v, a) + fmod(v, a);
    out[8 * i + 4] = tanh(v) + erf(v) + erfc(v) + lgamma(a) + tgamma(a);
    out[8 * i + 5] = floor(v) + ceil(v) + trunc(v) + round(v) + rint(v);
    out[8 * i + 6] = fma(v, a, 1.0) + fmin(v, a) + fmax(v, a) + copysign(a, v);
    double ip;
    out[8 * i + 7] = modf(v, &ip) + ip + j0(a) + y1(a);
}

extern "C" __global__ void double_rounded(const double *a, const double *b, double *out, float *fo, long long *lo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    out[6 * i + 0] = __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y);
    out[6 * i + 1] = __dmul_rn(x, y) + __dmul_rz(x, y) + __dmul_ru(x, y) + __dmul_rd(x, y);
    out[6 * i + 2] = __fma_rn(x, y, 1.0) + __fma_rz(x, y, 2.0) + __fma_ru(x, y, 3.0) + __fma_rd(x, y, 4.0);
    out[6 * i + 3] = __ddiv_rn(x, y) + __ddiv_rz(x, y) + __drcp_rn(y) + __dsqrt_rn(fabs(x));
    out[6 * i + 4] = __hiloint2double(__double2hiint(x), __double2loint(y));
    out[6 * i + 5] = __longlong_as_double(__double_as_longlong(x) & 0x7fffffffffffffffLL) + __ll2double_rz((long long)y);
    fo[2 * i + 0] = __double2float_rn(x) + __double2float_rz(x);
    fo[2 * i + 1] = __double2float_ru(y) + __double2float_rd(y);
    lo[2 * i + 0] = __double2ll_rn(x) + __double2ll_rz(x) + (long long)__double2int_ru(y) + __double2int_rd(y);
    lo[2 * i + 1] = (long long)(__double2ull_rz(fabs(x)) + __double2uint_rn(fabs(y)));
}

// Horner evaluation of a double polynomial with coefficients in constant memory.
__constant__ double poly_coef[16];

extern "C" __global__ void horner(const double *x, double *y, int n, int degree)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double acc = poly_coef[degree];
    for (int k = degree - 1; k >= 0; --k) acc = fma(acc, x[i], poly_coef[k]);
    y[i] = acc;
}
