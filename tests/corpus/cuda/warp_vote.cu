// Warp votes and matches: __ballot_sync, __all_sync, __any_sync, __activemask,
// __match_any_sync/__match_all_sync, and the sm_80 redux intrinsics
// __reduce_add_sync / min / max / and / or / xor.
// corpus-min: sm_80
// corpus-archs: auto:4

__global__ void votes(const int *x, unsigned *ballots, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v >= 0);
    int any = __any_sync(0xffffffffu, v == 7);
    unsigned act = __activemask();
    int uni = __uni_sync(0xffffffffu, v & 1);
    if ((threadIdx.x & 31) == 0) {
        ballots[2 * (i / 32)] = b;
        ballots[2 * (i / 32) + 1] = act;
        flags[i / 32] = all | (any << 1) | (uni << 2);
    }
}

__global__ void matches(const int *keys, const long long *lkeys, unsigned *any_mask, unsigned *all_mask, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned m = __activemask();
    unsigned a = __match_any_sync(m, keys[i]);
    int pred;
    unsigned b = __match_all_sync(m, lkeys[i], &pred);
    any_mask[i] = a ^ __match_any_sync(m, lkeys[i]);
    all_mask[i] = pred ? b : 0u;
}

__global__ void redux(const int *x, const unsigned *u, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    unsigned w = i < n ? u[i] : 0u;
    unsigned sum = __reduce_add_sync(0xffffffffu, w);
    int mn = __reduce_min_sync(0xffffffffu, v);
    int mx = __reduce_max_sync(0xffffffffu, v);
    unsigned umn = __reduce_min_sync(0xffffffffu, w);
    unsigned umx = __reduce_max_sync(0xffffffffu, w);
    unsigned an = __reduce_and_sync(0xffffffffu, w);
    unsigned o = __reduce_or_sync(0xffffffffu, w);
    unsigned xo = __reduce_xor_sync(0xffffffffu, w);
    if ((threadIdx.x & 31) == 0) {
        out[2 * (i / 32)] = mn;
        out[2 * (i / 32) + 1] = mx;
        uout[6 * (i / 32) + 0] = sum;
        uout[6 * (i / 32) + 1] = umn;
        uout[6 * (i / 32) + 2] = umx;
        uout[6 * (i / 32) + 3] = an;
        uout[6 * (i / 32) + 4] = o;
        uout[6 * (i / 32) + 5] = xo;
    }
}

// Stream compaction using ballot + popc for per-warp offsets.
__global__ void compact(const float *in, float *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    bool keep = i < n && v > 0.f;
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == 0) base = atomicAdd(count, __popc(b));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(b & ((1u << lane) - 1))] = v;
}
