// D = A * B on the Hopper warpgroup tensor cores, laid out as CUTLASS lays out a Hopper GEMM
// mainloop: A is M x K f16 row-major, B is K x N f16 stored column-major (N rows of K), D is M x N
// f32 row-major. One warpgroup (block = 128) per 64 x 256 tile of D (grid = N/256 x M/64); per
// 64-deep step of K the warpgroup stages A's 64 x 64 and B's 256 x 64 tiles in shared memory,
// K-major with the 128-byte swizzle, and runs four wgmma.mma_async.m64n256k16 on them, the
// descriptors' start address 32 bytes further along the swizzled rows for each 16-deep slice.
// Layouts: PTX §9.7.15.5.1 (001_23fdd5978b24a3ed.txt): 8-row atoms of 128-byte rows, 16-byte chunk
// c of row r at chunk c ^ (r % 8), SBO = 1024; D's fragment: warp w, lane l holds rows
// 16w + l/4 (+8), columns 8j + 2(l%4) (+1).
//   nvcc -ptx -arch=sm_90a wgmma_gemm.cu -o wgmma_gemm.ptx
__device__ unsigned chunk(unsigned row, unsigned c) { return row * 128 + ((c ^ (row % 8)) * 16); }

__device__ unsigned long long descriptor(const void* tile, unsigned k_bytes) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + k_bytes;
  return ((address & 0x3FFFF) >> 4) | (16ull >> 4) << 16 | (1024ull >> 4) << 32 | 1ull << 62;
}

extern "C" __global__ void wgmma_gemm(float* dd, const unsigned short* a, const unsigned short* b,
                                      unsigned m, unsigned n, unsigned k) {
  __shared__ alignas(1024) unsigned char sa[64 * 128];
  __shared__ alignas(1024) unsigned char sb[256 * 128];
  const unsigned tid = threadIdx.x, m0 = blockIdx.y * 64, n0 = blockIdx.x * 256;
  float d[128];
  for (int i = 0; i < 128; ++i) d[i] = 0;
  for (unsigned k0 = 0; k0 < k; k0 += 64) {
    // 16-byte chunks: 8 consecutive k of one row, contiguous in global memory
    for (unsigned e = tid; e < 64 * 8; e += 128)
      *reinterpret_cast<uint4*>(sa + chunk(e / 8, e % 8)) = *reinterpret_cast<const uint4*>(a + (m0 + e / 8) * k + k0 + e % 8 * 8);
    for (unsigned e = tid; e < 256 * 8; e += 128)
      *reinterpret_cast<uint4*>(sb + chunk(e / 8, e % 8)) = *reinterpret_cast<const uint4*>(b + (n0 + e / 8) * k + k0 + e % 8 * 8);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    for (unsigned kk = 0; kk < 4; ++kk)
      asm volatile(
          "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
          "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, 1, 1, 1, 0, 0;\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
          : "l"(descriptor(sa, 32 * kk)), "l"(descriptor(sb, 32 * kk)));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  const unsigned warp = tid / 32, group = (tid % 32) / 4, pair = tid % 4;
  for (unsigned j = 0; j < 32; ++j) {
    float* top = dd + (m0 + 16 * warp + group) * n + n0 + 8 * j + 2 * pair;
    top[0] = d[4 * j];
    top[1] = d[4 * j + 1];
    top[8 * n] = d[4 * j + 2];
    top[8 * n + 1] = d[4 * j + 3];
  }
}
