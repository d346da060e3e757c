// Bulk reductions (PTX §9.7.9.25.4.2) into global memory, one of each operation and type on its
// own 256-byte region: cp.reduce.async.bulk.global.shared::cta.bulk_group from a shared copy of
// `in` into `out`, then cp.async.bulk.commit_group and wait_group 0 (regions in the order of the
// RED lines; launches.py draws their values).
#define RED(OPTYPE, I)                                                                             \
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group" OPTYPE " [%0], [%1], 256;"     \
               ::"l"(out + (I) * 64), "r"(smem + (I) * 256) : "memory")

constexpr int kRegions = 23;

extern "C" __global__ void bulk_reduce(const unsigned* in, unsigned* out) {
  __shared__ alignas(16) unsigned s[kRegions * 64];
  for (int k = threadIdx.x; k < kRegions * 64; k += blockDim.x) s[k] = in[k];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(s));
    RED(".add.u32", 0);
    RED(".add.s32", 1);
    RED(".add.u64", 2);
    RED(".add.f32", 3);
    RED(".add.f64", 4);
    RED(".add.noftz.f16", 5);
    RED(".add.noftz.bf16", 6);
    RED(".min.u32", 7);
    RED(".min.s32", 8);
    RED(".min.u64", 9);
    RED(".min.s64", 10);
    RED(".max.u32", 11);
    RED(".max.s32", 12);
    RED(".max.u64", 13);
    RED(".max.s64", 14);
    RED(".inc.u32", 15);
    RED(".dec.u32", 16);
    RED(".and.b32", 17);
    RED(".or.b32", 18);
    RED(".xor.b32", 19);
    RED(".and.b64", 20);
    RED(".or.b64", 21);
    RED(".xor.b64", 22);
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}
