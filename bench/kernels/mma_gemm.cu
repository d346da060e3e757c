// D = A * B on tensor cores: A is M x K f16 row-major, B is K x N f16 stored column-major (that is,
// N rows of K), D is M x N f32 row-major. One warp per 16 x 8 tile of D (grid = N/8 x M/16, block =
// 32), one mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 per 16-deep step of K.
// Fragment layouts: PTX §9.7.14.5.8 (001_23fdd5978b24a3ed.txt).
extern "C" __global__ void mma_gemm(float* d, const unsigned short* a, const unsigned short* b,
                                    unsigned m, unsigned n, unsigned k) {
  unsigned group = threadIdx.x >> 2, tig = threadIdx.x & 3;
  unsigned row = blockIdx.y * 16 + group, col = blockIdx.x * 8 + group;
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (unsigned k0 = 0; k0 < k; k0 += 16) {
    // A: a0,a1 at (row, k0 + 2*tig + 0..1), a2,a3 eight rows down, a4..a7 the same eight columns on.
    const unsigned* a_top = reinterpret_cast<const unsigned*>(a + row * k + k0 + tig * 2);
    const unsigned* a_bottom = reinterpret_cast<const unsigned*>(a + (row + 8) * k + k0 + tig * 2);
    // B: b0,b1 at (k0 + 2*tig + 0..1, col), b2,b3 eight rows of K on; contiguous in column-major B.
    const unsigned* b_col = reinterpret_cast<const unsigned*>(b + col * k + k0 + tig * 2);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
        : "r"(a_top[0]), "r"(a_bottom[0]), "r"(a_top[4]), "r"(a_bottom[4]), "r"(b_col[0]),
          "r"(b_col[4]));
  }
  // C/D: c0,c1 at (row, 2*tig + 0..1) of the tile, c2,c3 eight rows down.
  float* d_top = d + row * n + blockIdx.x * 8 + tig * 2;
  float* d_bottom = d_top + 8 * n;
  d_top[0] = c0;
  d_top[1] = c1;
  d_bottom[0] = c2;
  d_bottom[1] = c3;
}
