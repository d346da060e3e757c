// mbarrier through libcu++: cuda::barrier<thread_scope_block> arrive/wait,
// split arrive + wait with tokens, arrive_and_drop, memcpy_async completing
// on a barrier (cp.async.bulk + expect_tx on sm_90), and the raw mbarrier
// PTX for try_wait/parity.
// corpus-min: sm_80
// corpus-archs: auto:4
// corpus-G: none
#include <cuda/barrier>
#include <cooperative_groups.h>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void producer_consumer(const float *in, float *out, int iters)
{
    __shared__ float buf[256];
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    float acc = 0.f;
    for (int k = 0; k < iters; ++k) {
        buf[threadIdx.x] = in[k * blockDim.x + threadIdx.x];
        bar.arrive_and_wait();
        acc += buf[(threadIdx.x + 1) % blockDim.x];
        auto tok = bar.arrive();
        bar.wait(std::move(tok));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void barrier_async_copy(const int4 *in, int4 *out, int n_per_block)
{
    __shared__ alignas(16) int4 tile[1024];
    __shared__ block_barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + (size_t)blockIdx.x * n_per_block, cuda::aligned_size_t<16>(sizeof(int4) * n_per_block), bar);
    bar.arrive_and_wait();
    for (int k = threadIdx.x; k < n_per_block; k += blockDim.x) {
        int4 v = tile[k];
        out[(size_t)blockIdx.x * n_per_block + k] = make_int4(v.w, v.z, v.y, v.x);
    }
}

__global__ void early_exit_drop(const int *work, int *out)
{
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int w = work[blockIdx.x * blockDim.x + threadIdx.x];
    for (int step = 0; step < 8; ++step) {
        if (step == w) {
            bar.arrive_and_drop();
            return;
        }
        out[blockIdx.x * blockDim.x + threadIdx.x] += step;
        bar.arrive_and_wait();
    }
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(count) : "memory");
}
__device__ __forceinline__ unsigned long long mbar_arrive(unsigned long long *bar)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a) : "memory");
    return st;
}
__device__ __forceinline__ bool mbar_test(unsigned long long *bar, unsigned long long st)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    unsigned ok;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(a), "l"(st) : "memory");
    return ok;
}
__device__ __forceinline__ bool mbar_try_parity(unsigned long long *bar, unsigned parity)
{
    unsigned ok = 1;
#if __CUDA_ARCH__ >= 900
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(a), "r"(parity) : "memory");
#endif
    return ok;
}

__global__ void raw_mbarrier(int *out, int phases)
{
    __shared__ unsigned long long bar;
    __shared__ int data[128];
    if (threadIdx.x == 0) mbar_init(&bar, blockDim.x);
    __syncthreads();
    for (int p = 0; p < phases; ++p) {
        data[threadIdx.x] = p * threadIdx.x;
        unsigned long long st = mbar_arrive(&bar);
        while (!mbar_test(&bar, st)) {
        }
        while (!mbar_try_parity(&bar, p & 1)) {
        }
        out[threadIdx.x] += data[(threadIdx.x + 1) % blockDim.x];
        __syncthreads();
    }
    if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"((unsigned)__cvta_generic_to_shared(&bar)) : "memory");
}
