// Explicitly rounded float operations and conversions: __fadd_rz, __fmul_ru,
// __fmaf_rd, __float2int_rn, __int2float_rz, bit casts, saturation.
// corpus-archs: auto:4

__global__ void rounded_arith(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    out[16 * i + 0] = __fadd_rn(x, y);
    out[16 * i + 1] = __fadd_rz(x, y);
    out[16 * i + 2] = __fadd_ru(x, y);
    out[16 * i + 3] = __fadd_rd(x, y);
    out[16 * i + 4] = __fmul_rz(x, y) + __fmul_ru(x, z);
    out[16 * i + 5] = __fmul_rd(x, y) - __fsub_rz(x, z) + __fsub_ru(y, z);
    out[16 * i + 6] = __fmaf_rn(x, y, z) + __fmaf_rz(x, y, z);
    out[16 * i + 7] = __fmaf_ru(x, y, z) + __fmaf_rd(x, y, z);
    out[16 * i + 8] = __fdiv_rz(x, y) + __fdiv_ru(x, y) + __fdiv_rd(x, z);
    out[16 * i + 9] = __frcp_rz(x) + __frcp_ru(y) + __frcp_rd(z);
    out[16 * i + 10] = __fsqrt_rz(fabsf(x)) + __fsqrt_ru(fabsf(y)) + __fsqrt_rd(fabsf(z));
    out[16 * i + 11] = __fmaf_ieee_rn(x, y, z) + __fadd_rn(x, -0.0f);
    out[16 * i + 12] = __int_as_float(__float_as_int(x) ^ 0x80000000) + __uint_as_float(__float_as_uint(y) & 0x7fffffffu);
    out[16 * i + 13] = __saturatef(x) + fminf(y, 0.0f);
    out[16 * i + 14] = __fmul_rn(x, y) + __fsub_rd(x, y);
    out[16 * i + 15] = __fsub_rn(z, x);
}

__global__ void conversions(const float *a, const int *ia, const unsigned long long *la, int *oi, unsigned *ou, float *of, long long *ol, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i];
    oi[4 * i + 0] = __float2int_rn(x);
    oi[4 * i + 1] = __float2int_rz(x);
    oi[4 * i + 2] = __float2int_ru(x);
    oi[4 * i + 3] = __float2int_rd(x);
    ou[2 * i + 0] = __float2uint_rn(x) + __float2uint_rz(x);
    ou[2 * i + 1] = __float2uint_ru(x) + __float2uint_rd(x);
    of[6 * i + 0] = __int2float_rn(ia[i]);
    of[6 * i + 1] = __int2float_rz(ia[i]);
    of[6 * i + 2] = __int2float_ru(ia[i]) + __int2float_rd(ia[i]);
    of[6 * i + 3] = __uint2float_rz((unsigned)ia[i]) + __uint2float_ru((unsigned)ia[i]);
    of[6 * i + 4] = __ull2float_rn(la[i]) + __ll2float_rz((long long)la[i]);
    of[6 * i + 5] = __ull2float_rd(la[i]) + __ll2float_ru((long long)la[i]);
    ol[2 * i + 0] = __float2ll_rn(x) + __float2ll_rz(x) + __float2ll_ru(x) + __float2ll_rd(x);
    ol[2 * i + 1] = (long long)(__float2ull_rn(x) + __float2ull_rz(x) + __float2ull_ru(x) + __float2ull_rd(x));
}

// Kahan-compensated sum with explicit round-to-nearest ops so that
// fast-math contraction cannot break the compensation.
__global__ void kahan_sum(const float *x, float *out, int n, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f, c = 0.f;
    for (int k = 0; k < per_thread; ++k) {
        int idx = t * per_thread + k;
        if (idx >= n) break;
        float y = __fsub_rn(x[idx], c);
        float u = __fadd_rn(s, y);
        c = __fsub_rn(__fsub_rn(u, s), y);
        s = u;
    }
    out[t] = s;
}
