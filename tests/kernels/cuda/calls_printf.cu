// Calls: recursion, function pointers, per-thread local arrays, device printf.
#include <cstdio>

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

// Recursive quicksort of a local array segment (Lomuto partition).
__device__ __noinline__ void quicksort(int *a, int lo, int hi)
{
    if (lo >= hi) return;
    int p = a[hi], i = lo;
    for (int j = lo; j < hi; ++j)
        if (a[j] < p) { int t = a[i]; a[i] = a[j]; a[j] = t; ++i; }
    int t = a[i]; a[i] = a[hi]; a[hi] = t;
    quicksort(a, lo, i - 1);
    quicksort(a, i + 1, hi);
}

struct Pair { long long a; double b; };

__device__ __noinline__ Pair pair_rec(int depth, Pair p)
{
    if (depth == 0) return p;
    Pair q = {p.a * 3 + depth, p.b * 0.5 + depth};
    Pair r = pair_rec(depth - 1, q);
    r.a ^= depth;
    return r;
}

// out[4*i..]: fib, gcd, a checksum of a recursively sorted local array, struct recursion.
extern "C" __global__ void recursion(const unsigned *in, long long *out, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    int arr[16];
    for (int j = 0; j < 16; ++j) arr[j] = (int)((x * (2654435761u + 2 * j)) >> 20) - 2048;
    quicksort(arr, 0, 15);
    long long chk = 0;
    for (int j = 0; j < 16; ++j) chk = chk * 31 + arr[j];
    Pair p = pair_rec(x % 12, Pair{(long long)x, (double)x});
    out[4 * i + 0] = fib(x % 15);
    out[4 * i + 1] = gcd(x, x * 7 + 91);
    out[4 * i + 2] = chk;
    out[4 * i + 3] = p.a;
    dout[i] = p.b;
}

typedef int (*binop)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_xorshift(int a, int b) { return a ^ (b << 3) ^ (b >> 2); }
__device__ __noinline__ int op_div(int a, int b) { return b ? a / b : -1; }
__device__ binop op_table[5] = {op_add, op_sub, op_mul, op_xorshift, op_div};

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
    float s;
    __device__ Square(float s) : s(s) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r) : r(r) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
};

// Divergent indirect calls through a table and through virtual functions.
extern "C" __global__ void func_pointers(const int *a, const int *b, int *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    binop f = op_table[(unsigned)(x ^ y) % 5];
    int r = f(x, y);
    r = op_table[(unsigned)r % 5](r, x);
    out[i] = r;
    Square sq((float)(x & 255) * 0.5f);
    Circle ci((float)(y & 255) * 0.25f);
    const Shape *s = (x & 1) ? (const Shape *)&sq : (const Shape *)&ci;
    fout[i] = s->area() + (float)s->sides();
}

// Dynamically indexed local arrays: a per-thread sieve and a histogram of digits.
extern "C" __global__ void local_arrays(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    bool composite[128];
    for (int j = 0; j < 128; ++j) composite[j] = false;
    unsigned limit = 32 + x % 96, count = 0, sum = 0;
    for (unsigned p = 2; p < limit; ++p) {
        if (composite[p]) continue;
        ++count;
        sum += p * p;
        for (unsigned q = p * p; q < limit; q += p) composite[q] = true;
    }
    unsigned digits[10] = {0};
    for (unsigned v = x; v; v /= 10) digits[v % 10]++;
    unsigned h = 0;
    for (int d = 0; d < 10; ++d) h = h * 7 + digits[(d * 3 + x) % 10];
    out[3 * i + 0] = count;
    out[3 * i + 1] = sum;
    out[3 * i + 2] = h;
}

// Device printf in a fixed order: one thread prints at a time, separated by
// barriers, so the hardware's output order is deterministic.
extern "C" __global__ void printf_kernel(const int *iv, const float *fv, const double *dv)
{
    int t = threadIdx.x;
    if (t == 0) {
        printf("printf kernel: grid %u block %u\n", gridDim.x, blockDim.x);
        printf("ints: %d %i %u %x %X %o %5d|%-5d|%05d\n", iv[0], iv[1], (unsigned)iv[2], iv[3], iv[3], iv[4], iv[5], iv[5], iv[6]);
        printf("64-bit: %lld %llu %llx %ld\n", (long long)iv[0] * 1000000007LL, 0xfedcba9876543210ull, 0x123456789abcdefull, -5L);
        printf("floats: %f %.3f %e %.2E %g %G %10.4f|%-10.2f|\n", fv[0], fv[1], fv[2], fv[3], fv[4], fv[5], fv[0], fv[1]);
        printf("doubles: %.15g %.10e %a\n", dv[0], dv[1], dv[2]);
        printf("chars: %c%c%c %s %s|%10s|%-6s|\n", 'p', 't', 'x', "string arg", "", "right", "left");
        printf("percent %% done\n");
    }
    for (int w = 0; w < (int)blockDim.x; w += 32) {
        __syncthreads();
        if (t == w) printf("thread %d of block %d: iv=%d fv=%.4f\n", t, blockIdx.x, iv[t & 7], fv[t & 7]);
    }
}
