// Sparse matrix-vector product: CSR scalar (thread per row), CSR vector
// (warp per row), ELL, and COO with atomics; read-only loads via __ldg.
// corpus-archs: auto:4

template <typename T>
__global__ void csr_scalar(int rows, const int *__restrict__ rowptr, const int *__restrict__ cols, const T *__restrict__ vals, const T *__restrict__ x, T *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    T acc = 0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) acc += vals[j] * __ldg(&x[cols[j]]);
    y[r] = acc;
}

template <typename T, int VEC>
__global__ void csr_vector(int rows, const int *__restrict__ rowptr, const int *__restrict__ cols, const T *__restrict__ vals, const T *__restrict__ x, T *y)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int r = t / VEC, lane = t % VEC;
    if (r >= rows) return;
    T acc = 0;
    for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += VEC) acc += __ldg(&vals[j]) * __ldg(&x[__ldg(&cols[j])]);
    for (int o = VEC / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o, VEC);
    if (lane == 0) y[r] = acc;
}

template __global__ void csr_scalar<float>(int, const int *, const int *, const float *, const float *, float *);
template __global__ void csr_scalar<double>(int, const int *, const int *, const double *, const double *, double *);
template __global__ void csr_vector<float, 32>(int, const int *, const int *, const float *, const float *, float *);
template __global__ void csr_vector<float, 8>(int, const int *, const int *, const float *, const float *, float *);
template __global__ void csr_vector<double, 16>(int, const int *, const int *, const double *, const double *, double *);

__global__ void ell_spmv(int rows, int width, const int *cols, const float *vals, const float *x, float *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.f;
    for (int k = 0; k < width; ++k) {
        int c = cols[k * rows + r];
        if (c >= 0) acc += vals[k * rows + r] * x[c];
    }
    y[r] = acc;
}

__global__ void coo_spmv(int nnz, const int *ri, const int *ci, const float *v, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nnz) atomicAdd(&y[ri[i]], v[i] * x[ci[i]]);
}
