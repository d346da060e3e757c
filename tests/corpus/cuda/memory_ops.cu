// Memory access flavours: __ldg / cache-hinted loads and stores (__ldcg,
// __ldca, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt), volatile,
// vector loads, fences, __nanosleep, clock64 and special registers.
// corpus-archs: auto:4

extern "C" __global__ void cache_hints(const float4 *__restrict__ in, float4 *out, const int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = __ldg(&in[i]);
    float4 b = __ldcg(&in[(i + 1) % n]);
    float4 c = __ldca(&in[(i + 2) % n]);
    float4 d = __ldcs(&in[(i + 3) % n]);
    int j = __ldlu(&idx[i]);
    int k = __ldcv(&idx[(i + 1) % n]);
    float4 r = make_float4(a.x + b.x, a.y + c.y, a.z + d.z, a.w + (float)(j + k));
    __stwb(&out[i], r);
    __stcg(&out[(i + n / 2) % n], b);
    __stcs(&out[(i + n / 3) % n], c);
    __stwt(&out[(i + n / 4) % n], d);
}

extern "C" __global__ void ldg_scalar_types(const char *c, const short *s, const long long *l, const double2 *d2, const uchar4 *u4, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double2 dv = __ldg(&d2[i]);
    uchar4 uv = __ldg(&u4[i]);
    out[i] = (double)__ldg(&c[i]) + __ldg(&s[i]) + (double)__ldg(&l[i]) + dv.x + dv.y + uv.x + uv.w;
}

extern "C" __global__ void volatile_spin(volatile int *flag, volatile float *data, float *out)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            data[0] = 3.5f;
            __threadfence();
            *flag = 1;
        }
    } else if (threadIdx.x == 0) {
        unsigned ns = 8;
        while (*flag == 0) {
            __nanosleep(ns);
            if (ns < 1024) ns *= 2;
        }
        __threadfence_block();
        out[blockIdx.x] = data[0];
    }
}

extern "C" __global__ void fences(int *a, int *b, int *c)
{
    a[threadIdx.x] = 1;
    __threadfence_block();
    b[threadIdx.x] = 2;
    __threadfence();
    c[threadIdx.x] = 3;
    __threadfence_system();
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("fence.sc.cta;" ::: "memory");
    asm volatile("membar.sys;" ::: "memory");
}

extern "C" __global__ void timing_regs(unsigned long long *t, unsigned *ids)
{
    long long t0 = clock64();
    unsigned c0 = clock();
    unsigned long long gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    unsigned smid, warpid, nsmid, lane;
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    asm("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned dyn_smem;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn_smem));
    __nanosleep(100);
    long long t1 = clock64();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    t[3 * g] = t1 - t0;
    t[3 * g + 1] = gt;
    t[3 * g + 2] = clock() - c0;
    ids[5 * g] = smid; ids[5 * g + 1] = warpid; ids[5 * g + 2] = nsmid; ids[5 * g + 3] = lane; ids[5 * g + 4] = dyn_smem;
}

extern "C" __global__ void prefetch_and_copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1024 < n) asm volatile("prefetch.global.L2 [%0];" ::"l"(in + i + 1024));
    if (i + 256 < n) asm volatile("prefetch.global.L1 [%0];" ::"l"(in + i + 256));
    if (i < n) out[i] = in[i];
}
