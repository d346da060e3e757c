// Atomics built from compare-and-swap loops, and the newer typed atomics:
// half2/bf16 atomicAdd (sm_80+), float2/float4 atomicAdd (sm_90+).
// corpus-min: sm_80
// corpus-archs: auto:4
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ float atomic_max_float(float *addr, float val)
{
    int *ia = reinterpret_cast<int *>(addr);
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(ia, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ double atomic_mul_double(double *addr, double val)
{
    unsigned long long *ua = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *ua, assumed;
    do {
        assumed = old;
        old = atomicCAS(ua, assumed, __double_as_longlong(__longlong_as_double((long long)assumed) * val));
    } while (assumed != old);
    return __longlong_as_double((long long)old);
}

__device__ unsigned short atomic_add_u16(unsigned short *addr, unsigned short v)
{
    return atomicCAS(addr, *addr, (unsigned short)(*addr + v));
}

__global__ void cas_loops(const float *x, float *fmax_out, double *prod, unsigned short *u16, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomic_max_float(fmax_out, x[i]);
    atomic_mul_double(prod, 1.0 + x[i] * 1e-6);
    atomic_add_u16(u16 + (i & 3), 1);
}

__global__ void typed_atomics(const __half2 *h, const __nv_bfloat162 *b, const float *f, __half2 *hacc, __half *hs, __nv_bfloat162 *bacc, __nv_bfloat16 *bs, float2 *f2acc, float4 *f4acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(hacc, h[i]);
    atomicAdd(hs, __low2half(h[i]));
    atomicAdd(bacc, b[i]);
    atomicAdd(bs, __high2bfloat16(b[i]));
#if __CUDA_ARCH__ >= 900
    atomicAdd(f2acc, make_float2(f[i], -f[i]));
    atomicAdd(f4acc, make_float4(f[i], 1.f, 2.f, 3.f));
#else
    atomicAdd(&f2acc->x, f[i]);
    atomicAdd(&f4acc->x, f[i]);
#endif
}

// Lock-free singly-linked stack push with 64-bit CAS.
struct Node { int value; int next; };

__global__ void stack_push(Node *pool, int *head, const int *values, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    pool[i].value = values[i];
    int old = *(volatile int *)head;
    while (true) {
        pool[i].next = old;
        __threadfence();
        int prev = atomicCAS(head, old, i);
        if (prev == old) break;
        old = prev;
    }
}
