// Complex arithmetic with cuComplex.h: radix-2 FFT in shared memory,
// pointwise complex multiply, magnitude/phase, and a complex double DFT.
// corpus-archs: auto:4
#include <cuComplex.h>

__device__ __forceinline__ unsigned bit_reverse(unsigned x, int bits) { return __brev(x) >> (32 - bits); }

extern "C" __global__ void fft_radix2_shared(cuFloatComplex *data, int log2n, int inverse)
{
    extern __shared__ cuFloatComplex s[];
    int n = 1 << log2n;
    cuFloatComplex *d = data + (size_t)blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[bit_reverse(i, log2n)] = d[i];
    __syncthreads();
    float sign = inverse ? 1.f : -1.f;
    for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1;
        for (int t = threadIdx.x; t < n / 2; t += blockDim.x) {
            int grp = t / half, k = t % half;
            int i0 = grp * len + k, i1 = i0 + half;
            float sn, cs;
            sincospif(sign * 2.f * k / len, &sn, &cs);
            cuFloatComplex w = make_cuFloatComplex(cs, sn);
            cuFloatComplex u = s[i0], v = cuCmulf(w, s[i1]);
            s[i0] = cuCaddf(u, v);
            s[i1] = cuCsubf(u, v);
        }
        __syncthreads();
    }
    float scale = inverse ? 1.f / n : 1.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) d[i] = make_cuFloatComplex(cuCrealf(s[i]) * scale, cuCimagf(s[i]) * scale);
}

extern "C" __global__ void cmul_conj(const cuFloatComplex *a, const cuFloatComplex *b, cuFloatComplex *c, float *mag, float *phase, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cuFloatComplex p = cuCmulf(a[i], cuConjf(b[i]));
    c[i] = cuCdivf(p, make_cuFloatComplex(1.f + cuCabsf(b[i]), 0.f));
    mag[i] = cuCabsf(p);
    phase[i] = atan2f(cuCimagf(p), cuCrealf(p));
}

extern "C" __global__ void dft_double(const cuDoubleComplex *x, cuDoubleComplex *X, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    cuDoubleComplex acc = make_cuDoubleComplex(0.0, 0.0);
    for (int j = 0; j < n; ++j) {
        double s, c;
        sincospi(-2.0 * ((long long)j * k % n) / n, &s, &c);
        acc = cuCfma(x[j], make_cuDoubleComplex(c, s), acc);
    }
    X[k] = acc;
}
