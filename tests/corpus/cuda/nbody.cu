// All-pairs N-body force computation with shared-memory tiles of float4
// positions, rsqrtf, and a leapfrog integration step.
// corpus-archs: auto:4

__device__ __forceinline__ float3 body_interaction(float4 bi, float4 bj, float3 ai, float eps2)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
    float inv = rsqrtf(d2);
    float s = bj.w * inv * inv * inv;
    ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
    return ai;
}

template <int TILE>
__global__ void nbody_forces(const float4 *__restrict__ pos, float3 *__restrict__ acc, int n, float eps2)
{
    __shared__ float4 sh[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 a = make_float3(0, 0, 0);
    for (int t = 0; t < n; t += TILE) {
        int j = t + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TILE; ++k) a = body_interaction(me, sh[k], a, eps2);
        __syncthreads();
    }
    if (i < n) acc[i] = a;
}
template __global__ void nbody_forces<128>(const float4 *, float3 *, int, float);
template __global__ void nbody_forces<256>(const float4 *, float3 *, int, float);

extern "C" __global__ void leapfrog(float4 *pos, float4 *vel, const float3 *acc, float dt, float damping, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i], v = vel[i];
    float3 a = acc[i];
    v.x = (v.x + a.x * dt) * damping;
    v.y = (v.y + a.y * dt) * damping;
    v.z = (v.z + a.z * dt) * damping;
    p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
    pos[i] = p;
    vel[i] = v;
}

extern "C" __global__ void nbody_double(const double4_32a *pos, double3 *acc, int n, double eps2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double4_32a me = pos[i];
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
        double4_32a o = pos[j];
        double dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
        double inv = rsqrt(dx * dx + dy * dy + dz * dz + eps2);
        double s = o.w * inv * inv * inv;
        ax += dx * s; ay += dy * s; az += dz * s;
    }
    acc[i] = make_double3(ax, ay, az);
}
