// The classic atomic functions on global and shared memory, with block and
// system scope variants.
// corpus-archs: auto:4
#include <cstdint>

extern "C" __global__ void atomic_all(int *gi, unsigned *gu, unsigned long long *gl, float *gf, double *gd, const int *in, int n)
{
    __shared__ int si[8];
    __shared__ float sf;
    if (threadIdx.x < 8) si[threadIdx.x] = 0;
    if (threadIdx.x == 0) sf = 0.f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    atomicAdd(&gi[0], v);
    atomicSub(&gi[1], v);
    atomicExch(&gi[2], v);
    atomicMin(&gi[3], v);
    atomicMax(&gi[4], v);
    atomicAnd(&gi[5], v);
    atomicOr(&gi[6], v);
    atomicXor(&gi[7], v);
    atomicCAS(&gi[8], v, v + 1);
    atomicInc(&gu[0], 1000u);
    atomicDec(&gu[1], 1000u);
    atomicMin(&gu[2], (unsigned)v);
    atomicMax(&gu[3], (unsigned)v);
    atomicAdd(&gl[0], (unsigned long long)v);
    atomicMin(&gl[1], (unsigned long long)v);
    atomicMax((long long *)&gl[2], (long long)v);
    atomicCAS(&gl[3], 0ull, (unsigned long long)v);
    atomicExch(&gl[4], (unsigned long long)i);
    atomicAnd(&gl[5], (unsigned long long)v);
    atomicAdd(gf, (float)v * 0.5f);
    atomicExch(gf + 1, (float)v);
    atomicAdd(gd, (double)v);
    atomicAdd(&si[v & 7], 1);
    atomicMax(&si[(v >> 3) & 7], v);
    atomicAdd(&sf, 1.0f);
    __syncthreads();
    if (threadIdx.x < 8) atomicAdd(&gi[9 + threadIdx.x], si[threadIdx.x]);
    if (threadIdx.x == 0) atomicAdd(gf + 2, sf);
}

extern "C" __global__ void atomic_scoped(int *gi, float *gf, double *gd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd_block(&gi[0], 1);
    atomicAdd_system(&gi[1], 1);
    atomicMax_block(&gi[2], i);
    atomicCAS_system(&gi[3], i, i + 1);
    atomicExch_block(&gi[4], i);
    atomicAdd_block(gf, 1.0f);
    atomicAdd_system(gd, 2.0);
    atomicOr_system((unsigned *)&gi[5], 1u << (i & 31));
}

// Work queue: threads grab work items with atomicAdd on a global counter.
extern "C" __global__ void work_queue(unsigned *counter, const float *items, float *results, unsigned total)
{
    __shared__ unsigned base;
    while (true) {
        if (threadIdx.x == 0) base = atomicAdd(counter, blockDim.x);
        __syncthreads();
        unsigned idx = base + threadIdx.x;
        if (base >= total) break;
        if (idx < total) results[idx] = items[idx] * items[idx];
        __syncthreads();
    }
}
