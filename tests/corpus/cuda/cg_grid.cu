// Cooperative groups grid-wide synchronization (this_grid().sync()) for a
// persistent two-phase reduction, plus grid/block introspection.
// corpus-archs: auto:4
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_two_phase(const float *in, float *partial, float *total, int n)
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
    if (grid.thread_rank() < (unsigned long long)n) partial[0] = *total;
}

// Jacobi iterations with a grid barrier between sweeps.
__global__ void jacobi_persistent(float *a, float *b, int n, int iters)
{
    cg::grid_group grid = cg::this_grid();
    for (int it = 0; it < iters; ++it) {
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            float l = i > 0 ? a[i - 1] : 0.f;
            float r = i < n - 1 ? a[i + 1] : 0.f;
            b[i] = 0.5f * (l + r);
        }
        grid.sync();
        float *t = a; a = b; b = t;
    }
    if (grid.is_valid() && grid.thread_rank() == 0) a[0] += (float)grid.num_blocks();
}
