// Asynchronous global->shared copies (sm_80 cp.async): the __pipeline_*
// primitives, cuda::memcpy_async with cuda::pipeline (multi-stage), and
// cooperative_groups::memcpy_async.
// corpus-min: sm_80
// corpus-archs: auto:4
// corpus-G: none
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;

extern "C" __global__ void pipeline_primitives(const float4 *in, float4 *out, int tiles)
{
    __shared__ float4 buf[2][128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    for (int k = 0; k < tiles; ++k) {
        if (k + 1 < tiles) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * 128 + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[k & 1][127 - t];
        out[k * 128 + t] = make_float4(v.x * 2.f, v.y * 2.f, v.z * 2.f, v.w * 2.f);
        __syncthreads();
    }
}

extern "C" __global__ void pipeline_small_copies(const int *in, int *out)
{
    __shared__ int a[256];
    __shared__ long long b[128];
    __pipeline_memcpy_async(&a[threadIdx.x], &in[threadIdx.x], 4);
    if (threadIdx.x < 128) __pipeline_memcpy_async(&b[threadIdx.x], reinterpret_cast<const long long *>(in + 256) + threadIdx.x, 8);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = a[255 - threadIdx.x] + (int)b[threadIdx.x & 127];
}

template <int STAGES, int TILE>
__global__ void staged_sum(const float *in, float *out, int ntiles)
{
    __shared__ float smem[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    float acc = 0.f;
    int fetch = 0;
    for (int k = 0; k < ntiles; ++k) {
        for (; fetch < ntiles && fetch < k + STAGES; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, smem[fetch % STAGES], in + (size_t)fetch * TILE, sizeof(float) * TILE, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        for (int j = threadIdx.x; j < TILE; j += blockDim.x) acc += smem[k % STAGES][j];
        pipe.consumer_release();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
template __global__ void staged_sum<2, 256>(const float *, float *, int);
template __global__ void staged_sum<4, 512>(const float *, float *, int);

extern "C" __global__ void cg_async_tile(const double *in, double *out, int n)
{
    __shared__ double tile[512];
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    cg::memcpy_async(warp, tile + warp.meta_group_rank() * 64, in + blockIdx.x * 512 + warp.meta_group_rank() * 64, sizeof(double) * 64);
    cg::wait(warp);
    block.sync();
    for (int k = threadIdx.x; k < 512 && blockIdx.x * 512 + k < n; k += blockDim.x) out[blockIdx.x * 512 + k] = tile[k] * tile[511 - k];
}
