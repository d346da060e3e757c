// Matrix transpose through a padded shared-memory tile, and a tiled matmul.

#define TILE 32
#define ROWS 8

// out (w x h) = transpose of in (h x w); block (32, 8), each thread moves 4 elements.
extern "C" __global__ void transpose_tiled(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Transpose of 64-bit elements with a dynamically sized shared tile (extern).
extern "C" __global__ void transpose_dyn_u64(const unsigned long long *in, unsigned long long *out, int n)
{
    extern __shared__ unsigned long long t64[];
    int b = blockDim.x;
    int x = blockIdx.x * b + threadIdx.x, y = blockIdx.y * b + threadIdx.y;
    t64[threadIdx.y * (b + 1) + threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * b + threadIdx.x;
    y = blockIdx.x * b + threadIdx.y;
    out[y * n + x] = t64[threadIdx.x * (b + 1) + threadIdx.y];
}

// C = A (m x k) * B (k x n), 16x16 tiles, fmaf accumulation.
extern "C" __global__ void matmul_tiled_f32(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[16][16], Bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < k; t += 16) {
        As[threadIdx.y][threadIdx.x] = (row < m && t + threadIdx.x < k) ? A[row * k + t + threadIdx.x] : 0.f;
        Bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < k) ? B[(t + threadIdx.y) * n + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < 16; ++i) acc = fmaf(As[threadIdx.y][i], Bs[i][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < m && col < n) C[row * n + col] = acc;
}
