// D = A * B on the Hopper warpgroup tensor cores: A is M x K f16 row-major, B is K x N f16 stored
// column-major (N rows of K), D is M x N f32 row-major. One warpgroup (block = 128) per 64 x 128
// tile of D (grid = N/128 x M/64); per 16-deep step of K the warpgroup stages A's 64 x 16 and B's
// 16 x 128 tiles in shared memory (16-byte copies), K-major without swizzle, and runs one
// wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 on them through matrix descriptors.
// Layouts: PTX §9.7.15.5.1 (001_23fdd5978b24a3ed.txt): core matrices of 8 rows x 16 bytes,
// element (row, k) at (row % 8) * 16 + (row / 8) * SBO + (k % 8) * 2 + (k / 8) * LBO, LBO = 128,
// SBO = 256; D's fragment: warp w, lane l holds rows 16w + l/4 (+8), columns 8j + 2(l%4) (+1).
//   nvcc -ptx -arch=sm_90a wgmma_gemm.cu -o wgmma_gemm.ptx
__device__ unsigned offset(unsigned row, unsigned k) { return (row % 8) * 16 + (row / 8) * 256 + (k % 8) * 2 + (k / 8) * 128; }

__device__ unsigned long long descriptor(const void* tile) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  return ((address & 0x3FFFF) >> 4) | (128ull >> 4) << 16 | (256ull >> 4) << 32;
}

extern "C" __global__ void wgmma_gemm(float* dd, const unsigned short* a, const unsigned short* b,
                                      unsigned m, unsigned n, unsigned k) {
  __shared__ alignas(128) unsigned char sa[64 * 16 * 2];
  __shared__ alignas(128) unsigned char sb[128 * 16 * 2];
  const unsigned tid = threadIdx.x, m0 = blockIdx.y * 64, n0 = blockIdx.x * 128;
  float d[64];
  for (int i = 0; i < 64; ++i) d[i] = 0;
  for (unsigned k0 = 0; k0 < k; k0 += 16) {
    // 16-byte chunks: 8 consecutive k of one row, contiguous in global memory and in a core matrix.
    for (unsigned e = tid; e < 64 * 2; e += 128)
      *reinterpret_cast<uint4*>(sa + offset(e / 2, e % 2 * 8)) = *reinterpret_cast<const uint4*>(a + (m0 + e / 2) * k + k0 + e % 2 * 8);
    for (unsigned e = tid; e < 128 * 2; e += 128)
      *reinterpret_cast<uint4*>(sb + offset(e / 2, e % 2 * 8)) = *reinterpret_cast<const uint4*>(b + (n0 + e / 2) * k + k0 + e % 2 * 8);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, 1, 1, 1, 0, 0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(descriptor(sa)), "l"(descriptor(sb)));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  const unsigned warp = tid / 32, group = (tid % 32) / 4, pair = tid % 4;
  for (unsigned j = 0; j < 16; ++j) {
    float* top = dd + (m0 + 16 * warp + group) * n + n0 + 8 * j + 2 * pair;
    top[0] = d[4 * j];
    top[1] = d[4 * j + 1];
    top[8 * n] = d[4 * j + 2];
    top[8 * n + 1] = d[4 * j + 3];
  }
}
