// Cooperative groups: thread-block tiles (reduce, scan, shuffles, votes) and a
// grid-wide barrier (this_grid().sync(), needs a cooperative launch).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// Per element: out[5*i..] = tile-16 sum, tile-16 max, tile-4 inclusive scan,
// tile-32 ballot, tile-8 shfl/any/all combination.
extern "C" __global__ void cg_tiles(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    auto t16 = cg::tiled_partition<16>(block);
    auto t4 = cg::tiled_partition<4>(block);
    auto t32 = cg::tiled_partition<32>(block);
    auto t8 = cg::tiled_partition<8>(block);
    int sum16 = cg::reduce(t16, v, cg::plus<int>());
    int max16 = cg::reduce(t16, v, cg::greater<int>());
    int scan4 = cg::inclusive_scan(t4, v, cg::plus<int>());
    unsigned bal = t32.ballot(v & 1);
    int nb = t8.shfl(v, (t8.thread_rank() + 3) % 8) + t8.shfl_down(v, 1) + t8.shfl_xor(v, 5);
    int votes = (t8.any(v < 0) ? 1 : 0) | (t8.all(v > -1000000) ? 2 : 0) | (int)(t8.meta_group_rank() << 2);
    if (i < n) {
        out[5 * i + 0] = sum16;
        out[5 * i + 1] = max16;
        out[5 * i + 2] = scan4 + (int)t16.thread_rank() * 1000;
        out[5 * i + 3] = (int)bal;
        out[5 * i + 4] = nb * 16 + votes;
    }
}

// Two-phase sum with grid barriers: block partials, then block 0's thread 0
// adds them in block order, then everyone reads the total back.
extern "C" __global__ void cg_grid_sum(const float *in, float *partial, float *total, float *scaled, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float sh[256];
    float s = 0.f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) s += in[i];
    sh[block.thread_rank()] = s;
    block.sync();
    for (unsigned o = block.size() / 2; o > 0; o >>= 1) {
        if (block.thread_rank() < o) sh[block.thread_rank()] += sh[block.thread_rank() + o];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = sh[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.f;
        for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
        *total = t;
    }
    grid.sync();
    float t = *total;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) scaled[i] = in[i] / t;
}

// Jacobi sweeps with a grid barrier between them (ping-pong buffers).
extern "C" __global__ void cg_grid_jacobi(float *a, float *b, int n, int iters)
{
    cg::grid_group grid = cg::this_grid();
    for (int it = 0; it < iters; ++it) {
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            float l = i > 0 ? a[i - 1] : 1.f;
            float r = i < n - 1 ? a[i + 1] : -1.f;
            b[i] = 0.25f * (l + r) + 0.5f * a[i];
        }
        grid.sync();
        float *t = a; a = b; b = t;
    }
}
