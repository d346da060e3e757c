// The heavier CUDA math library functions: gamma family, Bessel functions,
// inverse error/normal functions, norm/rnorm, remquo, fast vs. accurate
// paths for float and double.
// corpus-archs: auto:2
// corpus-G: none

extern "C" __global__ void special_float(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], a = fabsf(v) + 0.5f;
    int q;
    out[8 * i + 0] = lgammaf(a) + tgammaf(a);
    out[8 * i + 1] = j0f(a) + j1f(a) + jnf(3, a) + y0f(a) + y1f(a) + ynf(2, a);
    out[8 * i + 2] = cyl_bessel_i0f(v) + cyl_bessel_i1f(v);
    out[8 * i + 3] = erfinvf(v * 0.5f) + erfcinvf(a) + normcdfinvf(fminf(a * 0.3f, 0.99f)) + erfcxf(v);
    out[8 * i + 4] = norm3df(v, a, 1.f) + rnorm4df(v, a, 1.f, 2.f) + rhypotf(v, a) + rcbrtf(a);
    out[8 * i + 5] = remquof(v, a, &q) + (float)q + nextafterf(v, a) + fmaf(v, v, -a);
    out[8 * i + 6] = asinhf(v) + acoshf(a + 1.f) + atanhf(v * 0.1f);
    float arr[4] = {v, a, 1.f, 2.f};
    out[8 * i + 7] = normf(4, arr) + rnormf(4, arr);
}

extern "C" __global__ void special_double(const double *x, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i], a = fabs(v) + 0.5;
    int q;
    out[6 * i + 0] = lgamma(a) + tgamma(a);
    out[6 * i + 1] = j0(a) + jn(4, a) + y0(a) + yn(3, a) + cyl_bessel_i0(v) + cyl_bessel_i1(v);
    out[6 * i + 2] = erfinv(v * 0.5) + erfcinv(a) + normcdfinv(fmin(a * 0.3, 0.99)) + erfcx(v);
    out[6 * i + 3] = remquo(v, a, &q) + q + nextafter(v, a) + norm3d(v, a, 1.0);
    out[6 * i + 4] = asinh(v) + acosh(a + 1.0) + atanh(v * 0.1) + cbrt(v) + rcbrt(a);
    out[6 * i + 5] = sinpi(v) + cospi(v) + exp10(v * 0.1) + scalbln(v, 3) + nearbyint(v);
}
