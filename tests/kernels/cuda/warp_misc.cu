// Warp and block primitives the other kernels do not reach, each writing what it saw:
// match.sync (§9.7.13.10), activemask (§9.7.13.11), barrier.red (§9.7.13.1), alloca (§9.7.17.3),
// a data-dependent 16-way switch, brx.idx (§9.7.12.4), ldu (§9.7.9.10), named barriers
// (barrier.arrive), exit (§9.7.12.7), fences with cp.async.wait_all and griddepcontrol.
#include <alloca.h>
#include <cstdint>

// Per thread: the masks of lanes holding the same 32-bit and 64-bit key (match.any) and whether
// every active lane holds the same key (match.all, its mask and predicate), once with the whole
// warp and once with the lanes whose key is odd.
extern "C" __global__ void match_keys(const uint32_t* keys, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t k = keys[i];
  const uint64_t k64 = (uint64_t(k & 3) << 40) | (k >> 2);
  uint32_t* o = out + 8 * i;
  o[0] = __match_any_sync(0xffffffffu, k);
  o[1] = __match_any_sync(0xffffffffu, k64);
  int pred = 0;
  o[2] = __match_all_sync(0xffffffffu, k & 0x100, &pred);
  o[3] = pred;
  if (k & 1) {
    const unsigned odd = __activemask();
    o[4] = odd;
    o[5] = __match_any_sync(odd, k >> 4);
    o[6] = __match_all_sync(odd, k64 >> 40, &pred);
    o[7] = pred;
  }
}

// Per thread: __activemask() at each level of a data-dependent nest of branches and in a
// loop whose trip count differs per lane.
extern "C" __global__ void active_masks(const uint32_t* in, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t v = in[i];
  uint32_t* o = out + 4 * i;
  o[0] = __activemask();
  if (v & 1) {
    o[1] = __activemask();
    if (v & 2) o[2] = __activemask();
  } else {
    o[1] = __activemask() | 0x80000000u;
  }
  uint32_t acc = 0;
  for (uint32_t n = 0; n < (v >> 2) % 5; ++n) acc = acc * 31 + __popc(__activemask());
  o[3] = acc;
}

// Per block: __syncthreads_count/and/or of data-dependent predicates (barrier.red.popc/and/or),
// each thread writing the three results it received.
extern "C" __global__ void block_votes(const uint32_t* in, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t v = in[i];
  const int count = __syncthreads_count(v % 3 == 0);
  const int all = __syncthreads_and(v != 7);
  const int any = __syncthreads_or(v == 7);
  out[3 * i] = count, out[3 * i + 1] = all, out[3 * i + 2] = any;
}

// Variable-length local arrays (alloca), filled, reversed and summed with weights.
extern "C" __global__ void stack_arrays(const uint32_t* in, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t total = 0;
  for (unsigned round = 0; round < 2 + in[i] % 3; ++round) {
    const unsigned n = 1 + (in[i] + round * 7) % 23;
    uint32_t* a = static_cast<uint32_t*>(alloca(n * sizeof(uint32_t)));
    for (unsigned k = 0; k < n; ++k) a[k] = in[(i + k) % (blockDim.x * gridDim.x)] ^ (k * 0x9e3779b9u);
    for (unsigned k = 0; k < n / 2; ++k) {
      const uint32_t t = a[k];
      a[k] = a[n - 1 - k], a[n - 1 - k] = t;
    }
    for (unsigned k = 0; k < n; ++k) total = total * 3 + a[k] * (k + 1);
  }
  out[i] = total;
}

// A 16-way switch on data, four times per thread (nvcc lowers it to a tree of branches).
__device__ __noinline__ uint32_t dispatch(uint32_t op, uint32_t a, uint32_t b) {
  switch (op & 15) {
  case 0: return a + b;
  case 1: return a - b;
  case 2: return a * b;
  case 3: return a ^ b;
  case 4: return a | b;
  case 5: return a & b;
  case 6: return a << (b & 31);
  case 7: return a >> (b & 31);
  case 8: return __byte_perm(a, b, 0x5140);
  case 9: return __funnelshift_l(a, b, a & 31);
  case 10: return __brev(a) + b;
  case 11: return __clz(a) * b;
  case 12: return __popc(a ^ b);
  case 13: return min(a, b);
  case 14: return max(a, b);
  default: return __sad(a, b, 7);
  }
}

extern "C" __global__ void switch_table(const uint32_t* in, uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t x = in[i];
  for (int k = 0; k < 4; ++k) x = dispatch(x >> (8 * k), x, in[(i + k + 1) % n]);
  out[i] = x;
}

// ldu: a uniform load of one of 16 table words (every lane of a warp the same index).
extern "C" __global__ void uniform_loads(const uint32_t* table, const uint32_t* in, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t* p = table + (blockIdx.x * 5 + threadIdx.x / 32) % 16;
  uint32_t v;
  asm volatile("ldu.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  out[i] = v + in[i];
}

// brx.idx (§9.7.12.4) through a four-entry .branchtargets list, chosen per lane by data (each
// lane on its own path, then reconverging).
__device__ __noinline__ uint32_t jump(uint32_t index, uint32_t a) {
  uint32_t r;
  asm volatile(
      "{\n"
      "  .reg .u32 sel;\n"
      "  and.b32 sel, %1, 3;\n"
      "  ts: .branchtargets J0, J1, J2, J3;\n"
      "  brx.idx sel, ts;\n"
      "J0: mul.lo.u32 %0, %2, 3; bra.uni JEND;\n"
      "J1: xor.b32 %0, %2, 0x5a5a5a5a; bra.uni JEND;\n"
      "J2: shr.u32 %0, %2, 3; bra.uni JEND;\n"
      "J3: add.u32 %0, %2, 1000;\n"
      "JEND:\n"
      "}\n"
      : "=r"(r)
      : "r"(index), "r"(a));
  return r;
}

extern "C" __global__ void indexed_branches(const uint32_t* in, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t x = in[i];
  for (int k = 0; k < 5; ++k) x = jump(x >> (2 * k + 1), x) + k;
  out[i] = x;
}

// Named barriers between warps (barrier.arrive / barrier.sync without .aligned, §9.7.13.1: the
// .aligned forms, bar.arrive and bar.sync, ask every thread of the CTA to run the same
// instruction): warps 0-1 produce a stage of shared memory and arrive, warps 2-3 wait on the same
// barrier (128 threads) and read it; each of three rounds on a barrier of its own.
extern "C" __global__ void named_barriers(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t stage[3][64];
  const unsigned t = threadIdx.x, base = blockIdx.x * 64;
  for (unsigned round = 0; round < 3; ++round) {
    if (t < 64) {
      stage[round][t] = in[base + t] * (round + 3) + round;
      if (round == 0) asm volatile("barrier.arrive 1, 128;" ::: "memory");
      if (round == 1) asm volatile("barrier.arrive 2, 128;" ::: "memory");
      if (round == 2) asm volatile("barrier.arrive 3, 128;" ::: "memory");
    } else {
      if (round == 0) asm volatile("barrier.sync 1, 128;" ::: "memory");
      if (round == 1) asm volatile("barrier.sync 2, 128;" ::: "memory");
      if (round == 2) asm volatile("barrier.sync 3, 128;" ::: "memory");
      out[(base + t - 64) * 3 + round] = stage[round][(t - 64 + 17 * round) % 64] ^ t;
    }
  }
}

// exit (§9.7.12.7) in divergent code: lanes holding an odd value leave after their first store;
// the others see the warp without them (activemask) and reduce over it (redux.sync).
extern "C" __global__ void early_exit(const uint32_t* in, uint32_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t v = in[i];
  out[3 * i] = v;
  if (v & 1) asm volatile("exit;");
  const unsigned live = __activemask();
  out[3 * i + 1] = live;
  out[3 * i + 2] = __reduce_add_sync(live, v >> 1);
}

// The CUDA samples' threadFenceReduction pattern: each block stages its inputs into shared memory
// with cp.async (waited for with cp.async.wait_all, §9.7.9.25.3.3), writes a partial sum, fences
// (__threadfence: membar.gl, then fence.acq_rel.gpu; membar.cta after the staging, §9.7.13.4) and
// counts itself in;
// the last block to arrive adds the partials. griddepcontrol (§9.7.13.13) brackets the kernel as
// a programmatic dependent launch would.
extern "C" __global__ void last_block_sum(const uint32_t* in, uint32_t* partial, uint32_t* count, uint32_t* total) {
  __shared__ uint32_t staged[128];
  __shared__ bool last;
  asm volatile("griddepcontrol.wait;" ::: "memory");
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&staged[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + i) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  asm volatile("membar.cta;" ::: "memory");
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) staged[t] += staged[t + s] * (s & 1 ? 3 : 1);
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = staged[0];
    __threadfence();
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    uint32_t sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum = sum * 7 + static_cast<volatile uint32_t*>(partial)[b];
    *total = sum;
  }
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
