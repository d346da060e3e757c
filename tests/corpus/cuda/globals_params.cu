// Module-scope data and parameter passing: __constant__ structs and arrays,
// __device__ globals with initializers, large by-value struct parameters,
// __grid_constant__, arrays inside parameter structs, vector types.
// corpus-archs: auto:4

struct Camera {
    float pos[3];
    float forward[3], up[3], right[3];
    float fov;
    int width, height;
};

struct Params {
    int n;
    float scale[8];
    double bias;
    char tag[5];
    short2 dims;
    unsigned long long seed;
};

__constant__ Camera c_cam;
__constant__ int c_lut[32] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225,
                              256, 289, 324, 361, 400, 441, 484, 529, 576, 625, 676, 729, 784, 841, 900, 961};
__device__ float g_weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
__device__ unsigned long long g_counter = 0;
__device__ double g_table[3][2] = {{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}};
__device__ const char *g_name = "corpus";

extern "C" __global__ void primary_rays(float3 *dirs)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= c_cam.width || y >= c_cam.height) return;
    float u = (2.f * (x + 0.5f) / c_cam.width - 1.f) * tanf(c_cam.fov * 0.5f);
    float v = (1.f - 2.f * (y + 0.5f) / c_cam.height) * tanf(c_cam.fov * 0.5f);
    float3 d = make_float3(c_cam.forward[0] + u * c_cam.right[0] + v * c_cam.up[0],
                           c_cam.forward[1] + u * c_cam.right[1] + v * c_cam.up[1],
                           c_cam.forward[2] + u * c_cam.right[2] + v * c_cam.up[2]);
    float inv = rnorm3df(d.x, d.y, d.z);
    dirs[y * c_cam.width + x] = make_float3(d.x * inv, d.y * inv, d.z * inv);
}

extern "C" __global__ void by_value(Params p, const float *in, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n) return;
    double v = in[i] * p.scale[i & 7] + p.bias + c_lut[i & 31] + g_weights[i & 3] + g_table[i % 3][i & 1];
    v += p.tag[i % 5] + p.dims.x * p.dims.y + (double)(p.seed & 0xff) + g_name[i % 6];
    out[i] = v;
    atomicAdd(&g_counter, 1ull);
}

struct BigTable { float v[256]; };

extern "C" __global__ void grid_constant_table(const __grid_constant__ BigTable t, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float *p = &t.v[idx[i] & 255]; // address of a kernel parameter
        out[i] = *p + t.v[(idx[i] + 1) & 255];
    }
}

extern "C" __global__ void vector_types(const int2 *a, const uint4 *b, const double2 *c, const short4 *d, const char2 *e, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int2 x = a[i];
    uint4 y = b[i];
    double2 z = c[i];
    short4 w = d[i];
    char2 q = e[i];
    out[i] = make_float4(x.x + y.z, x.y + y.w + q.x, (float)(z.x * z.y) + w.z, (float)(w.x + w.w + q.y));
}

extern "C" __global__ void many_params(int a0, int a1, int a2, int a3, float f0, float f1, float f2, float f3, double d0, double d1, char c0, short s0, long long l0, unsigned char b0, float *out)
{
    out[threadIdx.x] = a0 + a1 * a2 - a3 + f0 * f1 + f2 / f3 + (float)(d0 * d1) + c0 + s0 + (float)l0 + b0;
}
