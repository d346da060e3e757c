// Thread-block clusters (sm_90+): __cluster_dims__, cluster.sync(),
// distributed shared memory through cluster_group::map_shared_rank, and
// cluster special registers.
// corpus-min: sm_90
// corpus-archs: auto:4
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) cluster_histogram(const int *in, int *bins, int n, int nbins)
{
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int per_block = (nbins + cluster.num_blocks() - 1) / cluster.num_blocks();
    for (int b = threadIdx.x; b < per_block; b += blockDim.x) smem[b] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i] % nbins;
        unsigned owner = v / per_block;
        int *dst = cluster.map_shared_rank(smem, owner);
        atomicAdd(dst + v % per_block, 1);
    }
    cluster.sync();
    for (int b = threadIdx.x; b < per_block; b += blockDim.x) {
        int g = rank * per_block + b;
        if (g < nbins) atomicAdd(&bins[g], smem[b]);
    }
}

__global__ void __cluster_dims__(2, 2, 1) cluster_neighbors(float *out)
{
    __shared__ float val[128];
    cg::cluster_group cluster = cg::this_cluster();
    val[threadIdx.x] = (float)(cluster.block_rank() * 1000 + threadIdx.x);
    cluster.sync();
    unsigned nb = (cluster.block_rank() + 1) % cluster.num_blocks();
    float *remote = cluster.map_shared_rank(val, nb);
    float r = remote[(threadIdx.x + 1) % 128];
    dim3 bi = cluster.block_index();
    dim3 dims = cluster.dim_blocks();
    cluster.sync();
    out[(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x] = r + bi.x + bi.y * dims.x + cluster.thread_rank() * 1e-3f;
}

// Launched with a runtime cluster size; reads cluster registers directly.
__global__ void cluster_regs(unsigned *out)
{
    unsigned ctarank, nctarank, cid, ncid;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid));
    unsigned is_expl;
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(is_expl));
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x == 0) {
        out[5 * blockIdx.x] = ctarank;
        out[5 * blockIdx.x + 1] = nctarank;
        out[5 * blockIdx.x + 2] = cid;
        out[5 * blockIdx.x + 3] = ncid;
        out[5 * blockIdx.x + 4] = is_expl;
    }
}

// Reduction across the cluster: every block reads all peers' partial sums.
__global__ void __cluster_dims__(8, 1, 1) cluster_reduce(const float *in, float *out, int n)
{
    __shared__ float partial;
    cg::cluster_group cluster = cg::this_cluster();
    cg::thread_block block = cg::this_thread_block();
    if (threadIdx.x == 0) partial = 0.f;
    block.sync();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&partial, in[i]);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x < cluster.num_blocks()) {
        float v = *cluster.map_shared_rank(&partial, threadIdx.x);
        atomicAdd(out, v);
    }
    cluster.sync();
}
