// Black-Scholes option pricing (float and double), with the cumulative
// normal via a polynomial approximation and via normcdff/erfc.
// corpus-archs: auto:4

__device__ inline float cnd_poly(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = __frcp_rn(1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes_f32(float *call, float *put, const float *S, const float *X, const float *T, float R, float V, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float s = S[i], x = X[i], t = T[i];
        float sqrtT = sqrtf(t);
        float d1 = (__logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrtT);
        float d2 = d1 - V * sqrtT;
        float c1 = cnd_poly(d1), c2 = cnd_poly(d2);
        float e = __expf(-R * t);
        call[i] = s * c1 - x * e * c2;
        put[i] = x * e * (1.0f - c2) - s * (1.0f - c1);
    }
}

extern "C" __global__ void black_scholes_f64(double *call, double *put, const double *S, const double *X, const double *T, double R, double V, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double s = S[i], x = X[i], t = T[i];
    double sqrtT = sqrt(t);
    double d1 = (log(s / x) + (R + 0.5 * V * V) * t) / (V * sqrtT);
    double d2 = d1 - V * sqrtT;
    double c1 = normcdf(d1), c2 = 0.5 * erfc(-d2 * M_SQRT1_2);
    double e = exp(-R * t);
    call[i] = s * c1 - x * e * c2;
    put[i] = x * e * normcdf(-d2) - s * normcdf(-d1);
}

extern "C" __global__ void implied_vol_newton(const float *price, const float *S, const float *X, const float *T, float R, float *vol, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = 0.3f;
    for (int it = 0; it < 20; ++it) {
        float sq = sqrtf(T[i]);
        float d1 = (logf(S[i] / X[i]) + (R + 0.5f * v * v) * T[i]) / (v * sq);
        float d2 = d1 - v * sq;
        float c = S[i] * normcdff(d1) - X[i] * expf(-R * T[i]) * normcdff(d2);
        float vega = S[i] * sq * 0.3989422804f * expf(-0.5f * d1 * d1);
        float step = (c - price[i]) / fmaxf(vega, 1e-6f);
        v -= step;
        if (fabsf(step) < 1e-6f) break;
    }
    vol[i] = v;
}
