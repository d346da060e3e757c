// Cooperative groups: coalesced_threads() in divergent code, labeled and
// binary partitions, invoke_one, and group-wide memcpy_async.
// corpus-archs: auto:4
// corpus-G: none
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void coalesced_append(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int base = 0;
        if (active.thread_rank() == 0) base = atomicAdd(count, (int)active.size());
        base = active.shfl(base, 0);
        out[base + active.thread_rank()] = in[i];
    }
}

__global__ void labeled(const int *keys, const float *vals, float *sums, int n)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : 0;
    float v = i < n ? vals[i] : 0.f;
    cg::coalesced_group g = cg::labeled_partition(warp, k);
    float s = cg::reduce(g, v, cg::plus<float>());
    if (g.thread_rank() == 0 && i < n) atomicAdd(&sums[k], s);
    auto bp = cg::binary_partition(warp, v > 0.f);
    float m = cg::reduce(bp, v, cg::less<float>());
    if (bp.thread_rank() == 0 && i < n) sums[n + (v > 0.f)] = m;
}

__global__ void invoke_once(int *counter, int *out)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int r = cg::invoke_one_broadcast(warp, [&]() { return atomicAdd(counter, 1); });
    cg::invoke_one(block, [&]() { out[blockIdx.x] = r; });
}

__global__ void group_memcpy(const float4 *in, float4 *out, int n_per_block)
{
    extern __shared__ float4 tile[];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + (size_t)blockIdx.x * n_per_block, sizeof(float4) * n_per_block);
    cg::wait(block);
    for (int k = threadIdx.x; k < n_per_block; k += blockDim.x) {
        float4 v = tile[n_per_block - 1 - k];
        out[(size_t)blockIdx.x * n_per_block + k] = make_float4(v.w, v.z, v.y, v.x);
    }
}
