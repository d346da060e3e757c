// SGEMM/DGEMM with shared-memory tiling and per-thread register blocking
// (fully unrolled inner loops), plus a naive reference kernel.
// corpus-archs: auto:4
// corpus-G: none

__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= M || c >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
    C[r * N + c] = alpha * acc + beta * C[r * N + c];
}

template <typename T, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
gemm_regblock(int M, int N, int K, T alpha, const T *__restrict__ A, const T *__restrict__ B, T beta, T *__restrict__ C)
{
    __shared__ T As[BK][BM];
    __shared__ T Bs[BK][BN];
    const int nthreads = (BM / TM) * (BN / TN);
    int tid = threadIdx.x;
    int tr = tid / (BN / TN), tc = tid % (BN / TN);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    T acc[TM][TN] = {};
    T ra[TM], rb[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = tid; e < BM * BK; e += nthreads) {
            int r = e / BK, k = e % BK;
            As[k][r] = (row0 + r < M && k0 + k < K) ? A[(size_t)(row0 + r) * K + k0 + k] : T(0);
        }
        for (int e = tid; e < BK * BN; e += nthreads) {
            int k = e / BN, c = e % BN;
            Bs[k][c] = (k0 + k < K && col0 + c < N) ? B[(size_t)(k0 + k) * N + col0 + c] : T(0);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int m = 0; m < TM; ++m) ra[m] = As[k][tr * TM + m];
#pragma unroll
            for (int n = 0; n < TN; ++n) rb[n] = Bs[k][tc * TN + n];
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) {
            int r = row0 + tr * TM + m, c = col0 + tc * TN + n;
            if (r < M && c < N) C[(size_t)r * N + c] = alpha * acc[m][n] + beta * C[(size_t)r * N + c];
        }
}
template __global__ void gemm_regblock<float, 64, 64, 8, 8, 8>(int, int, int, float, const float *, const float *, float, float *);
template __global__ void gemm_regblock<float, 128, 128, 8, 8, 8>(int, int, int, float, const float *, const float *, float, float *);
template __global__ void gemm_regblock<float, 32, 32, 16, 4, 4>(int, int, int, float, const float *, const float *, float, float *);
template __global__ void gemm_regblock<double, 64, 64, 8, 4, 4>(int, int, int, double, const double *, const double *, double, double *);
