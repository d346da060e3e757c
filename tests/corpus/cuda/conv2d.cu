// 2D convolution with the filter in __constant__ memory: direct global
// version, shared-memory tiled version, and a separable row/column pair.
// corpus-archs: auto:4
#define MAX_K 15
__constant__ float c_filter[MAX_K * MAX_K];
__constant__ float c_row[MAX_K];
__constant__ float c_col[MAX_K];

extern "C" __global__ void conv2d_direct(const float *img, float *out, int w, int h, int k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int r = k / 2;
    float acc = 0.f;
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) {
            int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
            acc += c_filter[(dy + r) * k + dx + r] * img[yy * w + xx];
        }
    out[y * w + x] = acc;
}

template <int R, int BX, int BY>
__global__ void conv2d_tiled(const float *__restrict__ img, float *__restrict__ out, int w, int h)
{
    __shared__ float tile[BY + 2 * R][BX + 2 * R];
    int x0 = blockIdx.x * BX - R, y0 = blockIdx.y * BY - R;
    for (int ty = threadIdx.y; ty < BY + 2 * R; ty += BY)
        for (int tx = threadIdx.x; tx < BX + 2 * R; tx += BX) {
            int xx = min(max(x0 + tx, 0), w - 1), yy = min(max(y0 + ty, 0), h - 1);
            tile[ty][tx] = img[yy * w + xx];
        }
    __syncthreads();
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.f;
#pragma unroll
    for (int dy = 0; dy <= 2 * R; ++dy)
#pragma unroll
        for (int dx = 0; dx <= 2 * R; ++dx) acc += c_filter[dy * (2 * R + 1) + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * w + x] = acc;
}
template __global__ void conv2d_tiled<1, 16, 16>(const float *, float *, int, int);
template __global__ void conv2d_tiled<2, 32, 8>(const float *, float *, int, int);
template __global__ void conv2d_tiled<3, 16, 16>(const float *, float *, int, int);

extern "C" __global__ void conv_rows(const float *in, float *out, int w, int h, int r)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    float acc = 0.f;
    for (int d = -r; d <= r; ++d) acc += c_row[d + r] * in[y * w + min(max(x + d, 0), w - 1)];
    out[y * w + x] = acc;
}
extern "C" __global__ void conv_cols(const float *in, float *out, int w, int h, int r)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    float acc = 0.f;
    for (int d = -r; d <= r; ++d) acc += c_col[d + r] * in[min(max(y + d, 0), h - 1) * w + x];
    out[y * w + x] = acc;
}
