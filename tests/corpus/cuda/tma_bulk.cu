// Tensor Memory Accelerator (sm_90+): cp.async.bulk.tensor through
// cuda::device::experimental helpers with a __grid_constant__ CUtensorMap,
// plain cp.async.bulk (1D bulk copy) with mbarrier expect_tx, and the
// shared->global bulk store path.
// corpus-min: sm_90
// corpus-archs: auto:4
// corpus-G: none
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#pragma nv_diag_suppress static_var_with_dynamic_init
using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__global__ void tma_tile_2d(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map, int tiles_x)
{
    __shared__ alignas(128) float tile[64][64];
    __shared__ barrier bar;
    int tx = blockIdx.x % tiles_x, ty = blockIdx.x / tiles_x;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    barrier::arrival_token tok;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &in_map, tx * 64, ty * 64, bar);
        tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
    } else {
        tok = bar.arrive();
    }
    bar.wait(std::move(tok));
    for (int k = threadIdx.x; k < 64 * 64; k += blockDim.x) tile[k / 64][k % 64] *= 2.f;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_shared_to_global(&out_map, tx * 64, ty * 64, &tile);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

__global__ void bulk_copy_1d(const int4 *in, int4 *out, int chunk)
{
    extern __shared__ __align__(128) int4 buf[];
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    barrier::arrival_token tok;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_global_to_shared(buf, in + (size_t)blockIdx.x * chunk, chunk * sizeof(int4), bar);
        tok = cuda::device::barrier_arrive_tx(bar, 1, chunk * sizeof(int4));
    } else {
        tok = bar.arrive();
    }
    bar.wait(std::move(tok));
    for (int k = threadIdx.x; k < chunk; k += blockDim.x) buf[k].x += 1;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_shared_to_global(out + (size_t)blockIdx.x * chunk, buf, chunk * sizeof(int4));
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

__global__ void tma_3d_prefetch(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(128) float box[8][16][16];
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
        asm volatile("prefetch.tensormap [%0];" ::"l"(&map) : "memory");
    }
    __syncthreads();
    barrier::arrival_token tok;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_3d_global_to_shared(&box, &map, 0, 0, blockIdx.x * 8, bar);
        tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(box));
    } else {
        tok = bar.arrive();
    }
    bar.wait(std::move(tok));
    float s = 0.f;
    for (int k = threadIdx.x; k < 8 * 16 * 16; k += blockDim.x) s += (&box[0][0][0])[k];
    atomicAdd(out, s);
}
