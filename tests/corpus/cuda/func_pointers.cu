// Indirect calls: device function-pointer tables, a pointer passed in as a
// kernel argument, virtual functions on objects constructed in the kernel.
// corpus-archs: auto:4

typedef float (*unary_fn)(float);
typedef int (*binop_fn)(int, int);

__device__ float f_square(float x) { return x * x; }
__device__ float f_neg(float x) { return -x; }
__device__ float f_recip(float x) { return 1.f / x; }
__device__ float f_exp(float x) { return expf(x); }

__device__ unary_fn d_unary_table[4] = {f_square, f_neg, f_recip, f_exp};

__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_max(int a, int b) { return a > b ? a : b; }

__device__ binop_fn d_binop_ptr = op_add;

extern "C" __global__ void apply_table(const float *x, const int *which, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unary_fn f = d_unary_table[which[i] & 3];
    y[i] = f(x[i]);
}

extern "C" __global__ void fold_with(const int *x, int *out, int n, binop_fn op)
{
    binop_fn f = op ? op : d_binop_ptr;
    int acc = x[0];
    for (int k = 1; k < n; ++k) acc = f(acc, x[k]);
    *out = acc;
}

extern "C" __global__ void switch_ops(const int *a, const int *b, const int *sel, int *out, int n)
{
    binop_fn ops[3] = {op_add, op_mul, op_max};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ops[sel[i] % 3](a[i], b[i]);
}

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual float perimeter() const = 0;
    __device__ virtual ~Shape() {}
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
    __device__ float perimeter() const override { return 6.2831853f * r; }
};
struct Rect : Shape {
    float w, h;
    __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
    __device__ float area() const override { return w * h; }
    __device__ float perimeter() const override { return 2.f * (w + h); }
};

__device__ __noinline__ float describe(const Shape &s) { return s.area() + 0.001f * s.perimeter(); }

__global__ void virtual_shapes(const float *p, const int *kind, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Circle c(p[i]);
    Rect r(p[i], p[i] + 1.f);
    const Shape *s = kind[i] ? static_cast<const Shape *>(&c) : static_cast<const Shape *>(&r);
    out[i] = describe(*s);
}
