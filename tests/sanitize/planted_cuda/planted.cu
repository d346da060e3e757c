// Planted bugs in CUDA C++ (docs/Sanitizer.md). Each case is a kernel <case>_bug and the same
// kernel fixed, <case>_ok, with the signature (unsigned* out, const unsigned* in) over two
// 1024-word buffers (in[i] = i). `// launch:` before a kernel says how to launch it; `// expect:`
// on a line says what the checks report there (several separated by ';'). generate.sh compiles
// this file to planted.sm_90.ptx with -lineinfo, so that reports name these lines.
#include <cuda_pipeline.h>

// launch: grid 17 block 64
extern "C" __global__ void off_by_one_bug(unsigned* out, const unsigned* in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= 1024) out[i] = in[i % 1024] * 2;  // expect: memcheck out-of-bounds access
}
// launch: grid 17 block 64
extern "C" __global__ void off_by_one_ok(unsigned* out, const unsigned* in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1024) out[i] = in[i % 1024] * 2;
}

// launch: grid 1 block 64
extern "C" __global__ void misaligned_vector_bug(unsigned* out, const unsigned* in) {
  const uint2* pairs = reinterpret_cast<const uint2*>(in + 1);  // 4-byte aligned, read as 8
  uint2 v = pairs[threadIdx.x];  // expect: memcheck misaligned access
  out[threadIdx.x] = v.x + v.y;
}
// launch: grid 1 block 64
extern "C" __global__ void misaligned_vector_ok(unsigned* out, const unsigned* in) {
  const uint2* pairs = reinterpret_cast<const uint2*>(in + 2);
  uint2 v = pairs[threadIdx.x];
  out[threadIdx.x] = v.x + v.y;
}

// launch: grid 1 block 64 shared 256
extern "C" __global__ void dynamic_shared_bug(unsigned* out, const unsigned* in) {
  extern __shared__ unsigned cells[];
  cells[threadIdx.x + 1] = in[threadIdx.x];  // expect: memcheck out-of-bounds access
  __syncthreads();
  out[threadIdx.x] = cells[threadIdx.x];
}
// launch: grid 1 block 64 shared 256
extern "C" __global__ void dynamic_shared_ok(unsigned* out, const unsigned* in) {
  extern __shared__ unsigned cells[];
  cells[(threadIdx.x + 1) % 64] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = cells[threadIdx.x];
}

// launch: grid 2 block 128
extern "C" __global__ void reduction_bug(unsigned* out, const unsigned* in) {
  __shared__ unsigned partial[128];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned s = 64; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];  // expect: racecheck read-after-write hazard; racecheck write-after-read hazard
    // missing __syncthreads()
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
// launch: grid 2 block 128
extern "C" __global__ void reduction_ok(unsigned* out, const unsigned* in) {
  __shared__ unsigned partial[128];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned s = 64; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// launch: grid 1 block 256
extern "C" __global__ void transpose_bug(unsigned* out, const unsigned* in) {
  __shared__ unsigned tile[16][17];
  unsigned x = threadIdx.x % 16, y = threadIdx.x / 16;
  tile[y][x] = in[y * 16 + x];  // expect: racecheck write-after-read hazard
  // missing __syncthreads()
  out[y * 16 + x] = tile[x][y];  // expect: racecheck read-after-write hazard; initcheck uninitialised value stored to global memory
}
// launch: grid 1 block 256
extern "C" __global__ void transpose_ok(unsigned* out, const unsigned* in) {
  __shared__ unsigned tile[16][17];
  unsigned x = threadIdx.x % 16, y = threadIdx.x / 16;
  tile[y][x] = in[y * 16 + x];
  __syncthreads();
  out[y * 16 + x] = tile[x][y];
}

// launch: grid 1 block 128
extern "C" __global__ void histogram_bug(unsigned* out, const unsigned* in) {
  __shared__ unsigned bins[16];
  if (threadIdx.x < 16) bins[threadIdx.x] = 0;
  __syncthreads();
  bins[in[threadIdx.x] % 16] += 1;  // expect: racecheck read-after-write hazard; racecheck write-after-write hazard
  __syncthreads();
  if (threadIdx.x < 16) out[threadIdx.x] = bins[threadIdx.x];
}
// launch: grid 1 block 128
extern "C" __global__ void histogram_ok(unsigned* out, const unsigned* in) {
  __shared__ unsigned bins[16];
  if (threadIdx.x < 16) bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[in[threadIdx.x] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16) out[threadIdx.x] = bins[threadIdx.x];
}

// launch: grid 1 block 64
extern "C" __global__ void shfl_mask_bug(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  v += __shfl_sync(0x0000ffffu, v, 0);  // expect: synccheck invalid synchronisation
  out[threadIdx.x] = v;
}
// launch: grid 1 block 64
extern "C" __global__ void shfl_mask_ok(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  v += __shfl_sync(0xffffffffu, v, 0);
  out[threadIdx.x] = v;
}

// launch: grid 1 block 64
extern "C" __global__ void divergent_syncthreads_bug(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  if (threadIdx.x % 2) {
    v *= 3;
    __syncthreads();  // expect: synccheck divergent .aligned instruction
    v += 1;
  } else {
    v *= 5;
    __syncthreads();  // expect: synccheck divergent .aligned instruction; synccheck divergent .aligned barrier
    v += 2;
  }
  out[threadIdx.x] = v;
}
// launch: grid 1 block 64
extern "C" __global__ void divergent_syncthreads_ok(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  if (threadIdx.x % 2) v *= 3;
  else v *= 5;
  __syncthreads();
  v += threadIdx.x % 2 ? 1 : 2;
  out[threadIdx.x] = v;
}

// launch: grid 1 block 64
extern "C" __global__ void named_barrier_count_bug(unsigned* out, const unsigned* in) {
  if (threadIdx.x < 32) asm volatile("barrier.sync 1, 64;");
  else asm volatile("barrier.sync 1, 32;");  // expect: synccheck barrier thread-count mismatch
  out[threadIdx.x] = in[threadIdx.x];
}
// launch: grid 1 block 64
extern "C" __global__ void named_barrier_count_ok(unsigned* out, const unsigned* in) {
  if (threadIdx.x < 32) asm volatile("barrier.sync 1, 64;");
  else asm volatile("barrier.sync 1, 64;");
  out[threadIdx.x] = in[threadIdx.x];
}

// launch: grid 1 block 64
extern "C" __global__ void stack_array_bug(unsigned* out, const unsigned* in) {
  unsigned scratch[4];
  for (unsigned k = 0; k < 4; ++k) scratch[k] = in[k];
  scratch[threadIdx.x] += 1;  // expect: memcheck out-of-bounds access
  out[threadIdx.x] = scratch[threadIdx.x % 4];
}
// launch: grid 1 block 64
extern "C" __global__ void stack_array_ok(unsigned* out, const unsigned* in) {
  unsigned scratch[4];
  for (unsigned k = 0; k < 4; ++k) scratch[k] = in[k];
  scratch[threadIdx.x % 4] += 1;
  out[threadIdx.x] = scratch[threadIdx.x % 4];
}

// launch: grid 1 block 64
extern "C" __global__ void barrier_in_uneven_loop_bug(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  for (unsigned k = 0; k < threadIdx.x % 3; ++k) {  // a trip count that differs within a warp
    v += k;
    __syncthreads();  // expect: synccheck divergent .aligned instruction
  }
  out[threadIdx.x] = v;
}
// launch: grid 1 block 64
extern "C" __global__ void barrier_in_uneven_loop_ok(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  for (unsigned k = 0; k < 2; ++k) {
    if (k < threadIdx.x % 3) v += k;
    __syncthreads();
  }
  out[threadIdx.x] = v;
}

// launch: grid 1 block 64
extern "C" __global__ void warp_exchange_bug(unsigned* out, const unsigned* in) {
  __shared__ unsigned slots[64];
  slots[threadIdx.x] = in[threadIdx.x] * 3;
  // missing __syncwarp(): the lanes of a warp are independent threads (sm_70+)
  out[threadIdx.x] = slots[threadIdx.x ^ 1];  // expect: racecheck read-after-write hazard
}
// launch: grid 1 block 64
extern "C" __global__ void warp_exchange_ok(unsigned* out, const unsigned* in) {
  __shared__ unsigned slots[64];
  slots[threadIdx.x] = in[threadIdx.x] * 3;
  __syncwarp();
  out[threadIdx.x] = slots[threadIdx.x ^ 1];
}

// launch: grid 2 block 64
extern "C" __global__ void block_sum_reuse_bug(unsigned* out, const unsigned* in) {
  __shared__ unsigned scratch[64];
  unsigned total = 0;
  for (unsigned round = 0; round < 2; ++round) {
    scratch[threadIdx.x] = in[round * 128 + blockIdx.x * 64 + threadIdx.x];  // expect: racecheck write-after-read hazard
    __syncthreads();
    if (threadIdx.x == 0)
      for (unsigned k = 0; k < 64; ++k) total += scratch[k];  // expect: racecheck read-after-write hazard
    // missing __syncthreads() before scratch is refilled
  }
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}
// launch: grid 2 block 64
extern "C" __global__ void block_sum_reuse_ok(unsigned* out, const unsigned* in) {
  __shared__ unsigned scratch[64];
  unsigned total = 0;
  for (unsigned round = 0; round < 2; ++round) {
    scratch[threadIdx.x] = in[round * 128 + blockIdx.x * 64 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
      for (unsigned k = 0; k < 64; ++k) total += scratch[k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// launch: grid 1 block 64
extern "C" __global__ void pipeline_no_wait_bug(unsigned* out, const unsigned* in) {
  __shared__ unsigned stage[64];
  __pipeline_memcpy_async(&stage[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  // missing __pipeline_wait_prior(0): __syncthreads() does not wait for the copies
  __syncthreads();
  out[threadIdx.x] = stage[(threadIdx.x + 1) % 64];  // expect: async read before an asynchronous operation's completion
}
// launch: grid 1 block 64
extern "C" __global__ void pipeline_no_wait_ok(unsigned* out, const unsigned* in) {
  __shared__ unsigned stage[64];
  __pipeline_memcpy_async(&stage[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = stage[(threadIdx.x + 1) % 64];
}
