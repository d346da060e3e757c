// SIMD-within-a-register video intrinsics (__vadd2, __vabsdiff4, ...) and the
// sm_90 DPX intrinsics (__vimax3_s32, __viaddmax_s32, ...), which are emulated
// on older targets.
// corpus-archs: auto:4

__global__ void simd_bytes(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    out[8 * i + 0] = __vadd2(x, y) ^ __vadd4(x, y);
    out[8 * i + 1] = __vsub2(x, y) ^ __vsubss4(x, y);
    out[8 * i + 2] = __vabsdiffu4(x, y) + __vabsdiffs2(x, y);
    out[8 * i + 3] = __vavgu4(x, y) ^ __vhaddu2(x, y);
    out[8 * i + 4] = __vcmpgeu4(x, y) | __vcmpeq2(x, y);
    out[8 * i + 5] = __vmaxs4(x, y) + __vminu2(x, y);
    out[8 * i + 6] = __vsads4(x, y) + __vsadu2(x, y);
    out[8 * i + 7] = __vaddus4(x, y) ^ __vabsss2(x) ^ __vnegss4(y);
}

__global__ void dpx_ops(const int *a, const int *b, const int *c, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i];
    bool pred;
    out[4 * i + 0] = __vimax3_s32(x, y, z) + __vimin3_s32(x, y, z);
    out[4 * i + 1] = __viaddmax_s32(x, y, z) - __viaddmin_s32(x, y, z);
    int bm = __vibmax_s32(x, y, &pred);
    out[4 * i + 2] = bm + (pred ? 1 : 0);
    out[4 * i + 3] = __vimax_s32_relu(x, y) + (int)__vimax3_s16x2_relu((unsigned)x, (unsigned)y, (unsigned)z);
    uout[i] = __vimax3_u32((unsigned)x, (unsigned)y, (unsigned)z) ^ __viaddmax_u16x2((unsigned)x, (unsigned)y, (unsigned)z);
}

// Smith-Waterman style cell update, the DPX use case.
__global__ void sw_row(const int *prev, const int *diag_score, int *cur, int gap, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j >= n) return;
    int h = __vimax3_s32_relu(prev[j - 1] + diag_score[j], prev[j] - gap, cur[j - 1] - gap);
    cur[j] = h;
}
