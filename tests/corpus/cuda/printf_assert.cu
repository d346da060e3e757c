// Device printf with many argument types and assert().
// corpus-archs: auto:4
#include <cstdio>
#include <cassert>

extern "C" __global__ void print_types(int i, unsigned u, long long ll, float f, double d, const char *s, const void *p)
{
    printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
    if (threadIdx.x == 0) {
        printf("int=%d unsigned=%u hex=%08x ll=%lld\n", i, u, u, ll);
        printf("float=%f %e %g double=%.17g\n", f, f, f, d);
        printf("str=%s ptr=%p char=%c pct=%%\n", s, p, 'A' + (i & 15));
        printf("%d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    }
}

__global__ void checked_divide(const int *a, const int *b, int *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(b[i] != 0);
    assert(i < n && "index within bounds");
    q[i] = a[i] / b[i];
    if (q[i] < 0) printf("negative quotient at %d: %d / %d = %d\n", i, a[i], b[i], q[i]);
}

template <typename T>
__device__ void dump(const char *name, T v);
template <> __device__ void dump<float>(const char *name, float v) { printf("%s = %f\n", name, v); }
template <> __device__ void dump<int>(const char *name, int v) { printf("%s = %d\n", name, v); }
template <> __device__ void dump<double>(const char *name, double v) { printf("%s = %.10f\n", name, v); }

__global__ void debug_stats(const float *x, int n)
{
    float mn = x[0], mx = x[0];
    double sum = 0;
    for (int k = 0; k < n; ++k) { mn = fminf(mn, x[k]); mx = fmaxf(mx, x[k]); sum += x[k]; }
    dump("min", mn);
    dump("max", mx);
    dump("count", n);
    dump("mean", sum / n);
}

__global__ void trap_on_error(const int *status)
{
    if (status[threadIdx.x] < 0) {
        printf("fatal status %d in thread %d\n", status[threadIdx.x], threadIdx.x);
        __trap();
    }
    if (status[threadIdx.x] == 12345) __brkpt();
}
