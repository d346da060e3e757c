// D = A * B on the Blackwell tensor cores (tcgen05, sm_100a), the wgmma_gemm.cu contract: A is
// M x K f16 row-major, B is K x N f16 stored column-major (N rows of K), D is M x N f32
// row-major. One CTA of 128 threads per 128 x 256 tile of D (grid = N/256 x M/128), the
// accumulator in 256 columns of Tensor Memory; per 64-deep step of K the CTA stages A's 128 x 64
// and B's 256 x 64 tiles in shared memory, K-major with the 128-byte swizzle, and thread 0 issues
// four tcgen05.mma.cta_group::1.kind::f16 (M = 128, N = 256, K = 16) and commits them to an
// mbarrier that the CTA waits on before the next step. Each warp then reads its 32 lanes of D
// with tcgen05.ld.32x32b.x32. Layouts: PTX §9.7.16.3.3 and Table 40 (000_70a4b524dfe259fa.txt).
//   nvcc -ptx -arch=sm_100a tcgen05_gemm.cu -o tcgen05_gemm.ptx
__device__ unsigned chunk(unsigned row, unsigned c) { return row * 128 + ((c ^ (row % 8)) * 16); }

// K-major, 128B swizzle: SBO 1024, the fixed 0b001 at bits 46-48, swizzle mode 2 at bits 61-63.
__device__ unsigned long long descriptor(const void* tile, unsigned k_bytes) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + k_bytes;
  return ((address & 0x3FFFF) >> 4) | (16ull >> 4) << 16 | (1024ull >> 4) << 32 | 1ull << 46 | 2ull << 61;
}

// idesc (Table 42): D f32, A and B f16 K-major, N = 256, M = 128.
constexpr unsigned kIdesc = 1u << 4 | (256u >> 3) << 17 | (128u >> 4) << 24;

extern "C" __global__ void tcgen05_gemm(float* dd, const unsigned short* a, const unsigned short* b,
                                        unsigned m, unsigned n, unsigned k) {
  __shared__ alignas(1024) unsigned char sa[128 * 128];
  __shared__ alignas(1024) unsigned char sb[256 * 128];
  __shared__ alignas(8) unsigned long long bar;
  __shared__ unsigned slot;
  const unsigned tid = threadIdx.x, warp = tid / 32, m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  const unsigned bar_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (warp == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(&slot)))
                 : "memory");
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr) : "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const unsigned tmem = slot;
  unsigned phase = 0;
  for (unsigned k0 = 0; k0 < k; k0 += 64, phase ^= 1) {
    // 16-byte chunks: 8 consecutive k of one row, contiguous in global memory
    for (unsigned e = tid; e < 128 * 8; e += 128)
      *reinterpret_cast<uint4*>(sa + chunk(e / 8, e % 8)) = *reinterpret_cast<const uint4*>(a + (m0 + e / 8) * k + k0 + e % 8 * 8);
    for (unsigned e = tid; e < 256 * 8; e += 128)
      *reinterpret_cast<uint4*>(sb + chunk(e / 8, e % 8)) = *reinterpret_cast<const uint4*>(b + (n0 + e / 8) * k + k0 + e % 8 * 8);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      for (unsigned kk = 0; kk < 4; ++kk)
        asm volatile(
            "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
            "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(tmem),
            "l"(descriptor(sa, 32 * kk)), "l"(descriptor(sb, 32 * kk)), "r"(kIdesc), "r"(k0 | kk)
            : "memory");
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar_addr)
                   : "memory");
    }
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
          : "=r"(done)
          : "r"(bar_addr), "r"(phase)
          : "memory");
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  }
  const unsigned row = m0 + tid;  // warp w reads lanes 32w..32w+31: rows 32w + lane
  for (unsigned c0 = 0; c0 < 256; c0 += 32) {
    unsigned v[32];
    asm volatile(
        "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];\n\t"
        "tcgen05.wait::ld.sync.aligned;"
        : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]),
          "=r"(v[9]), "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]), "=r"(v[15]), "=r"(v[16]),
          "=r"(v[17]), "=r"(v[18]), "=r"(v[19]), "=r"(v[20]), "=r"(v[21]), "=r"(v[22]), "=r"(v[23]), "=r"(v[24]),
          "=r"(v[25]), "=r"(v[26]), "=r"(v[27]), "=r"(v[28]), "=r"(v[29]), "=r"(v[30]), "=r"(v[31])
        : "r"(tmem + ((32 * warp) << 16) + c0)
        : "memory");
    for (unsigned j = 0; j < 32; ++j) dd[row * n + n0 + c0 + j] = __uint_as_float(v[j]);
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  if (warp == 0) {
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;" ::"r"(tmem) : "memory");
  }
}
