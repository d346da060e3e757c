// Control-flow shapes: dense switch (jump tables / brx.idx), goto, nested
// loops with break/continue, divergent while loops, early return, and
// __builtin_expect / __builtin_assume / __builtin_unreachable.
// corpus-archs: auto:4

extern "C" __global__ void dense_switch(const int *op, const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], r;
    switch (op[i]) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = fminf(x, y); break;
    case 5: r = fmaxf(x, y); break;
    case 6: r = sqrtf(fabsf(x)); break;
    case 7: r = expf(y); break;
    case 8: r = x * x + y; break;
    case 9: r = -x; break;
    case 10: r = floorf(x); break;
    case 11: r = ceilf(y); break;
    default: __builtin_unreachable();
    }
    out[i] = r;
}

extern "C" __global__ void collatz(const unsigned *start, unsigned *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = start[i];
    unsigned s = 0;
    while (x != 1 && s < 10000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++s;
    }
    steps[i] = s;
}

extern "C" __global__ void find_first_goto(const int *m, int rows, int cols, int target, int *pos)
{
    int r0 = blockIdx.x * blockDim.x + threadIdx.x;
    int r, c;
    for (r = r0; r < rows; r += gridDim.x * blockDim.x)
        for (c = 0; c < cols; ++c) {
            if (m[r * cols + c] == target) goto found;
            if (m[r * cols + c] < 0) break;
            if (m[r * cols + c] == 0) continue;
        }
    return;
found:
    atomicMin(pos, r * cols + c);
}

extern "C" __global__ void mandelbrot(unsigned char *img, int w, int h, float x0, float y0, float dx, int maxit)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (__builtin_expect(px >= w || py >= h, 0)) return;
    __builtin_assume(maxit > 0);
    float cr = x0 + px * dx, ci = y0 + py * dx, zr = 0.f, zi = 0.f;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.f * zr * zi + ci;
        zr = t;
        ++it;
    }
    img[py * w + px] = (unsigned char)(it * 255 / maxit);
}

// Binary search with a data-dependent trip count per thread.
extern "C" __global__ void lower_bound(const float *sorted, int n, const float *queries, int *res, int q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= q) return;
    float v = queries[i];
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (sorted[mid] < v) lo = mid + 1; else hi = mid;
    }
    res[i] = lo;
}

// Indirect branch through a .branchtargets table (brx.idx); nvcc lowers
// switches to compare chains, so the jump table is written in inline PTX.
extern "C" __global__ void jump_table(const unsigned *sel, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned s = sel[i] & 3;
    int r;
    asm volatile("{\n\t"
                 "ts_%=: .branchtargets L0_%=, L1_%=, L2_%=, L3_%=;\n\t"
                 "brx.idx %1, ts_%=;\n"
                 "L0_%=:\n\tmov.u32 %0, 11;\n\tbra.uni END_%=;\n"
                 "L1_%=:\n\tmov.u32 %0, 22;\n\tbra.uni END_%=;\n"
                 "L2_%=:\n\tmov.u32 %0, 33;\n\tbra.uni END_%=;\n"
                 "L3_%=:\n\tmov.u32 %0, 44;\n"
                 "END_%=:\n\t}"
                 : "=r"(r) : "r"(s));
    out[i] = r * i;
}
