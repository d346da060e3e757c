// Bulk asynchronous copies (PTX §9.7.9.25.4) as CUDA programs emit them for sm_90:
// cuda::memcpy_async into shared memory completing on a cuda::barrier (libcu++ lowers it to
// mbarrier.arrive.expect_tx + cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes),
// and a shared -> global bulk store on a bulk async-group written as inline PTX, with an L2
// prefetch of the next block's input.
#include <cuda/barrier>
#include <cooperative_groups.h>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// Each block copies its n (<= 512) int4 of `in` into shared memory in one bulk copy, then writes
// them back reversed, each lane's components rotated and offset by the block index.
extern "C" __global__ void bulk_load_barrier(const int4* in, int4* out, int n) {
  __shared__ alignas(16) int4 tile[512];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + (size_t)blockIdx.x * n, cuda::aligned_size_t<16>(sizeof(int4) * n), bar);
  bar.arrive_and_wait();
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    const int4 v = tile[n - 1 - k];
    out[(size_t)blockIdx.x * n + k] = make_int4(v.y + blockIdx.x, v.z, v.w, v.x ^ k);
  }
}

// Each block squares its 1024 floats into shared memory and stores them with one bulk copy.
extern "C" __global__ void bulk_store_group(const float* in, float* out) {
  __shared__ alignas(16) float s[1024];
  const float* src = in + (size_t)blockIdx.x * 1024;
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] = src[k] * src[k] + 1.0f;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(s));
    if (blockIdx.x + 1 < gridDim.x)
      asm volatile("cp.async.bulk.prefetch.L2.global [%0], 4096;" ::"l"(src + 1024) : "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 4096;" ::"l"(out + (size_t)blockIdx.x * 1024),
                 "r"(smem) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
  __syncthreads();
}
