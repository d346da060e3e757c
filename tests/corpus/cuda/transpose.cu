// Matrix transpose: naive, shared-memory tiled, and tiled with +1 padding
// to avoid bank conflicts; templated on element type.
// corpus-archs: auto:4
#define TILE 32
#define ROWS 8

template <typename T>
__global__ void transpose_naive(const T *in, T *out, int w, int h)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h) out[(size_t)x * h + y + j] = in[(size_t)(y + j) * w + x];
}

template <typename T, int PAD>
__global__ void transpose_tiled(const T *__restrict__ in, T *__restrict__ out, int w, int h)
{
    __shared__ T tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w) out[(size_t)(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

template __global__ void transpose_naive<float>(const float *, float *, int, int);
template __global__ void transpose_tiled<float, 0>(const float *, float *, int, int);
template __global__ void transpose_tiled<float, 1>(const float *, float *, int, int);
template __global__ void transpose_tiled<double, 1>(const double *, double *, int, int);
template __global__ void transpose_tiled<short, 2>(const short *, short *, int, int);
template __global__ void transpose_tiled<char4, 1>(const char4 *, char4 *, int, int);

// In-place square transpose of diagonal/off-diagonal tile pairs.
__global__ void transpose_inplace(float *m, int n)
{
    __shared__ float a[TILE][TILE + 1], b[TILE][TILE + 1];
    int bx = blockIdx.x, by = blockIdx.y;
    if (bx > by) return;
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int j = ty; j < TILE; j += ROWS) {
        int r = by * TILE + j, c = bx * TILE + tx;
        if (r < n && c < n) a[j][tx] = m[(size_t)r * n + c];
        r = bx * TILE + j; c = by * TILE + tx;
        if (r < n && c < n) b[j][tx] = m[(size_t)r * n + c];
    }
    __syncthreads();
    for (int j = ty; j < TILE; j += ROWS) {
        int r = bx * TILE + j, c = by * TILE + tx;
        if (r < n && c < n) m[(size_t)r * n + c] = a[tx][j];
        r = by * TILE + j; c = bx * TILE + tx;
        if (r < n && c < n) m[(size_t)r * n + c] = b[tx][j];
    }
}
