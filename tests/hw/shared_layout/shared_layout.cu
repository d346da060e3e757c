// Where ptxas puts each kernel's shared variables when one module holds several kernels and a
// device function with a variable of its own (tests/hw/shared_layout/README.md).
// nvcc -arch=sm_90a -ptx shared_layout.cu -o shared_layout.ptx (the recorder loads that PTX)
__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ unsigned reg(int which) {
  unsigned v = 0;
  if (which == 0) asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v));
  if (which == 1) asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(v));
  if (which == 2) asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v));
  return v;
}

__device__ __noinline__ unsigned helper(unsigned x) {
  __shared__ unsigned h[5];
  h[x % 5] = x;
  return smem(h);
}

extern "C" __global__ void k1(unsigned* out) {
  __shared__ unsigned char a[3];
  __shared__ double b[100];
  extern __shared__ unsigned dyn[];
  a[threadIdx.x % 3] = 1;
  b[threadIdx.x % 100] = 2;
  if (threadIdx.x == 0) {
    out[0] = smem(a), out[1] = smem(b), out[2] = smem(dyn), out[3] = reg(0), out[4] = reg(1), out[5] = reg(2);
    out[6] = 0;
  }
}

extern "C" __global__ void k2(unsigned* out) {
  __shared__ unsigned c[7];
  extern __shared__ unsigned dyn[];
  c[threadIdx.x % 7] = 3;
  const unsigned h = helper(threadIdx.x);
  if (threadIdx.x == 0) {
    out[0] = smem(c), out[1] = h, out[2] = smem(dyn), out[3] = reg(0), out[4] = reg(1), out[5] = reg(2);
    out[6] = 0;
  }
}

extern "C" __global__ void k3(unsigned* out) {
  __shared__ float big[64];
  __shared__ unsigned short small[3];
  extern __shared__ unsigned dyn[];
  big[threadIdx.x % 64] = 4;
  small[threadIdx.x % 3] = 5;
  const unsigned h = helper(threadIdx.x);
  if (threadIdx.x == 0) {
    out[0] = smem(big), out[1] = smem(small), out[2] = h, out[3] = smem(dyn), out[4] = reg(0), out[5] = reg(1);
    out[6] = reg(2);
  }
}

extern "C" __global__ void k4(unsigned* out) {  // no shared memory of its own
  extern __shared__ unsigned dyn[];
  dyn[threadIdx.x] = 6;
  if (threadIdx.x == 0) {
    out[0] = smem(dyn), out[1] = reg(0), out[2] = reg(1), out[3] = reg(2), out[4] = out[5] = out[6] = 0;
  }
}

// A dynamic array declared with an alignment beyond 16 (as TMA and wgmma kernels declare theirs)
// after a small static variable: k5 aligns it to 1024, k6 to 128, k7 keeps 16.
extern "C" __global__ void k5(unsigned* out) {
  __shared__ unsigned char a[3];
  extern __shared__ __align__(1024) unsigned char dyn1024[];
  a[threadIdx.x % 3] = 7;
  if (threadIdx.x == 0) {
    out[0] = smem(a), out[1] = smem(dyn1024), out[2] = reg(0), out[3] = reg(1), out[4] = reg(2), out[5] = out[6] = 0;
  }
}

extern "C" __global__ void k6(unsigned* out) {
  __shared__ unsigned char a[3];
  extern __shared__ __align__(128) unsigned char dyn128[];
  a[threadIdx.x % 3] = 8;
  if (threadIdx.x == 0) {
    out[0] = smem(a), out[1] = smem(dyn128), out[2] = reg(0), out[3] = reg(1), out[4] = reg(2), out[5] = out[6] = 0;
  }
}

extern "C" __global__ void k7(unsigned* out) {
  __shared__ double d[3];
  extern __shared__ float4 dyn16[];
  d[threadIdx.x % 3] = 9;
  if (threadIdx.x == 0) {
    out[0] = smem(d), out[1] = smem(dyn16), out[2] = reg(0), out[3] = reg(1), out[4] = reg(2), out[5] = out[6] = 0;
  }
}
