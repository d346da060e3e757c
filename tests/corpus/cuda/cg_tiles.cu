// Cooperative groups: thread_block, static thread_block_tile<N>, dynamic
// tiled_partition, cg::reduce / cg::inclusive_scan / cg::exclusive_scan.
// corpus-archs: auto:4
// corpus-G: none
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

template <int TILE>
__global__ void tile_reduce(const float *in, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    float v = i < n ? in[i] : 0.f;
    float s = cg::reduce(tile, v, cg::plus<float>());
    float m = cg::reduce(tile, v, cg::greater<float>());
    if (tile.thread_rank() == 0) {
        int t = i / TILE;
        out[2 * t] = s;
        out[2 * t + 1] = m;
    }
}
template __global__ void tile_reduce<4>(const float *, float *, int);
template __global__ void tile_reduce<8>(const float *, float *, int);
template __global__ void tile_reduce<16>(const float *, float *, int);
template __global__ void tile_reduce<32>(const float *, float *, int);

__global__ void tile_scans(const int *in, int *inc, int *exc, int n)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int a = cg::inclusive_scan(warp, v);
    int b = cg::exclusive_scan(warp, v, cg::bit_xor<int>());
    if (i < n) {
        inc[i] = a;
        exc[i] = b;
    }
}

__global__ void tile_ops(const unsigned *in, unsigned *out, int n)
{
    auto block = cg::this_thread_block();
    auto t16 = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
    unsigned sh = t16.shfl(v, 0) + t16.shfl_down(v, 1) + t16.shfl_up(v, 1) + t16.shfl_xor(v, 5);
    unsigned bal = t16.ballot(v & 1);
    int any = t16.any(v > 100);
    int all = t16.all(v != 0);
    unsigned mm = t16.match_any(v & 0xf);
    t16.sync();
    if (i < n) out[i] = sh + bal + any + all + mm + t16.meta_group_rank() * 1000 + t16.meta_group_size();
}

__global__ void dynamic_partition(const float *in, float *out, int n, unsigned tile_size)
{
    auto block = cg::this_thread_block();
    cg::thread_group g = cg::tiled_partition(block, tile_size);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    extern __shared__ float buf[];
    buf[threadIdx.x] = i < n ? in[i] : 0.f;
    g.sync();
    float s = 0.f;
    unsigned base = threadIdx.x - g.thread_rank();
    for (unsigned k = 0; k < g.size(); ++k) s += buf[base + k];
    block.sync();
    if (i < n) out[i] = s;
}
