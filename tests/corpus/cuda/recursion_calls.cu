// Device function calls that stay calls: __noinline__ functions with scalar,
// pointer and struct arguments, struct returns, recursion (fib, ackermann,
// quicksort on a small local array, tree traversal).
// corpus-archs: auto:4

struct Vec3 { float x, y, z; };
struct Ray { Vec3 o, d; float tmax; };

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
__device__ __noinline__ float dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ __noinline__ Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

// Moller-Trumbore ray/triangle test built from non-inlined helpers.
__device__ __noinline__ bool intersect(const Ray &r, Vec3 v0, Vec3 v1, Vec3 v2, float *t_out)
{
    Vec3 e1 = sub(v1, v0), e2 = sub(v2, v0);
    Vec3 p = cross(r.d, e2);
    float det = dot(e1, p);
    if (fabsf(det) < 1e-8f) return false;
    float inv = 1.f / det;
    Vec3 s = sub(r.o, v0);
    float u = dot(s, p) * inv;
    if (u < 0.f || u > 1.f) return false;
    Vec3 q = cross(s, e1);
    float v = dot(r.d, q) * inv;
    if (v < 0.f || u + v > 1.f) return false;
    float t = dot(e2, q) * inv;
    if (t <= 0.f || t >= r.tmax) return false;
    *t_out = t;
    return true;
}

extern "C" __global__ void raycast(const Ray *rays, const Vec3 *tris, int ntris, float *hit_t, int *hit_id, int nrays)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nrays) return;
    Ray r = rays[i];
    int best = -1;
    for (int k = 0; k < ntris; ++k) {
        float t;
        if (intersect(r, tris[3 * k], tris[3 * k + 1], tris[3 * k + 2], &t)) { r.tmax = t; best = k; }
    }
    hit_t[i] = r.tmax;
    hit_id[i] = best;
}

__device__ __noinline__ unsigned long long fib(int n) { return n < 2 ? (unsigned long long)n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned ackermann(unsigned m, unsigned n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

extern "C" __global__ void recursive_math(const int *in, unsigned long long *fibs, unsigned *acks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fibs[i] = fib(in[i] & 15);
    acks[i] = ackermann(in[i] & 1, (unsigned)in[i] & 3);
}

__device__ __noinline__ void quicksort(float *a, int lo, int hi)
{
    if (lo >= hi) return;
    float p = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) ++i;
        while (a[j] > p) --j;
        if (i <= j) { float t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

extern "C" __global__ void sort_small_rows(float *rows, int len)
{
    float local[32];
    float *r = rows + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * len;
    for (int k = 0; k < len && k < 32; ++k) local[k] = r[k];
    quicksort(local, 0, min(len, 32) - 1);
    for (int k = 0; k < len && k < 32; ++k) r[k] = local[k];
}

struct TreeNode { int left, right; float value; };

__device__ __noinline__ float tree_sum(const TreeNode *nodes, int idx, int depth)
{
    if (idx < 0 || depth > 20) return 0.f;
    const TreeNode &n = nodes[idx];
    return n.value + tree_sum(nodes, n.left, depth + 1) + tree_sum(nodes, n.right, depth + 1);
}

extern "C" __global__ void forest_sums(const TreeNode *nodes, const int *roots, float *out, int ntrees)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ntrees) out[i] = tree_sum(nodes, roots[i], 0);
}
