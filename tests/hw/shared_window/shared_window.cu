// The shared window as an H100 shows it to a kernel (tests/hw/shared_window/README.md): the
// reserved shared-memory registers (PTX 10.29), the sizes, a variable's and the dynamic array's
// shared addresses, and loads from the reserved first KiB.
// nvcc -arch=sm_90a -ptx shared_window.cu -o shared_window.ptx (the recorder loads that PTX)
extern "C" __global__ void window(unsigned* out) {
  __shared__ unsigned var[4];
  extern __shared__ unsigned dyn[];
  unsigned r[12];
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(r[0]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(r[1]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(r[2]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(r[3]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(r[4]));
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(r[5]));
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r[6]));
  asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(r[7]));
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r[8]));
  r[9] = static_cast<unsigned>(__cvta_generic_to_shared(var));
  r[10] = static_cast<unsigned>(__cvta_generic_to_shared(dyn));
  var[threadIdx.x & 3] = threadIdx.x;
  r[11] = var[0];
  if (threadIdx.x == 0) {
    const unsigned cta = blockIdx.x;
    for (int i = 0; i < 12; ++i) out[cta * 12 + i] = r[i];
  }
}

// A load from shared address `address` (the reserved KiB below 0x400).
extern "C" __global__ void reserved_load(unsigned* out, unsigned address) {
  unsigned v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(address) : "memory");
  out[threadIdx.x] = v;
}
