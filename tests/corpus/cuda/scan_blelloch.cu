// Work-efficient (Blelloch) exclusive scan in shared memory with
// bank-conflict-avoiding offsets, plus the add-block-sums pass.
// corpus-archs: auto:4
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

extern "C" __global__ void prescan(const float *in, float *out, float *block_sums, int n)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;
    int ai = thid, bi = thid + blockDim.x;
    int oa = CONFLICT_FREE_OFFSET(ai), ob = CONFLICT_FREE_OFFSET(bi);
    temp[ai + oa] = base + ai < n ? in[base + ai] : 0.f;
    temp[bi + ob] = base + bi < n ? in[base + bi] : 0.f;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) {
        int last = m - 1 + CONFLICT_FREE_OFFSET(m - 1);
        if (block_sums) block_sums[blockIdx.x] = temp[last];
        temp[last] = 0.f;
    }
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + oa];
    if (base + bi < n) out[base + bi] = temp[bi + ob];
}

extern "C" __global__ void add_block_sums(float *data, const float *sums, int n)
{
    int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
    float s = sums[blockIdx.x];
    if (i < n) data[i] += s;
    if (i + blockDim.x < n) data[i + blockDim.x] += s;
}

// Hillis-Steele inclusive scan with double buffering.
extern "C" __global__ void hillis_steele(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x, pout = 0, pin = 1;
    buf[t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        int v = buf[pin * blockDim.x + t];
        if (t >= off) v += buf[pin * blockDim.x + t - off];
        buf[pout * blockDim.x + t] = v;
        __syncthreads();
    }
    if (t < n) out[t] = buf[pout * blockDim.x + t];
}
