// 64-bit integer math, double-precision libm, single-precision libm and fast
// intrinsics, and a row softmax with expf.

// 12 results per element pair (a, b) with b != 0.
extern "C" __global__ void int64_ops(const unsigned long long *a, const unsigned long long *b, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = a[i], y = b[i];
    long long sx = (long long)x, sy = (long long)y;
    unsigned long long *o = out + 12 * i;
    o[0] = x * y;
    o[1] = __umul64hi(x, y);
    o[2] = (unsigned long long)__mul64hi(sx, sy);
    o[3] = x / y;
    o[4] = x % y;
    o[5] = (unsigned long long)(sx / sy);
    o[6] = (unsigned long long)(sx % sy);
    o[7] = (x << (y & 63)) ^ (x >> (y & 63)) ^ (unsigned long long)(sx >> (y & 63));
    o[8] = ((unsigned long long)__popcll(x) << 48) | ((unsigned long long)__clzll(x) << 32) | ((unsigned long long)__ffsll(sy) << 16) | (unsigned long long)__popcll(y);
    o[9] = __brevll(x) + (x > y ? x - y : y - x);
    o[10] = (unsigned long long)(sx < sy ? sx : sy) + (unsigned long long)((double)sx / 3.0);
    o[11] = (unsigned long long)(unsigned)x * (unsigned)(y >> 32) + ((x + y) < x ? 1 : 0);
}

// 16 double results per input pair (x, y), x and y in (-8, 8), y != 0.
extern "C" __global__ void double_math(const double *xs, const double *ys, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = xs[i], y = ys[i], ax = fabs(x);
    double *o = out + 16 * i;
    o[0] = sqrt(ax);
    o[1] = exp(x);
    o[2] = log(ax + 1e-3);
    o[3] = sin(x);
    o[4] = cos(y);
    o[5] = tan(x * 0.1);
    o[6] = pow(ax, y);
    o[7] = atan2(x, y);
    o[8] = fma(x, y, -x * y);
    o[9] = x / y;
    o[10] = 1.0 / y;
    o[11] = tanh(x);
    o[12] = cbrt(x);
    o[13] = erf(y * 0.5);
    o[14] = rsqrt(ax + 0.5);
    o[15] = log1p(ax) + expm1(y * 0.25) + hypot(x, y);
}

// 16 float results: IEEE libm versions and the fast hardware approximations.
extern "C" __global__ void float_math(const float *xs, const float *ys, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = xs[i], y = ys[i], ax = fabsf(x);
    float *o = out + 16 * i;
    o[0] = sqrtf(ax);
    o[1] = expf(x);
    o[2] = logf(ax + 1e-3f);
    o[3] = sinf(x);
    o[4] = cosf(y);
    o[5] = powf(ax, y);
    o[6] = x / y;
    o[7] = rsqrtf(ax + 0.5f);
    o[8] = __expf(x);
    o[9] = __logf(ax + 1e-3f);
    o[10] = __sinf(x);
    o[11] = __cosf(y);
    o[12] = __fdividef(x, y);
    o[13] = __powf(ax, y);
    o[14] = tanhf(x) + erff(y);
    o[15] = __saturatef(x * 0.1f) + exp2f(y) + log2f(ax + 1.0f);
}

// Numerically stable softmax of one row per block (blockDim threads stride the row).
extern "C" __global__ void softmax_rows(const float *x, float *y, int cols)
{
    __shared__ float red[32];
    const float *row = x + blockIdx.x * cols;
    float *dst = y + blockIdx.x * cols;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = red[0];
    for (int w = 1; w < nw; ++w) m = fmaxf(m, red[w]);
    __syncthreads();
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(row[c] - m);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = 0.f;
    for (int w = 0; w < nw; ++w) s += red[w];
    float inv = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[c] = expf(row[c] - m) * inv;
}
