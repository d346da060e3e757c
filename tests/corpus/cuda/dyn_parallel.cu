// Dynamic parallelism: kernels launching child kernels from the device
// (needs relocatable device code), with streams and tail launches.
// corpus-archs: auto:3
// corpus-flags: -rdc=true
// corpus-G: none

__global__ void child_scale(float *data, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= s;
}

__global__ void parent_launch(float *data, const int *seg_start, const int *seg_len, int nseg)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg) return;
    int len = seg_len[s];
    if (len > 0) child_scale<<<(len + 127) / 128, 128>>>(data + seg_start[s], len, 1.0f + s);
}

__global__ void quadtree_like(int *counts, int depth, int max_depth)
{
    if (threadIdx.x == 0) atomicAdd(&counts[depth], 1);
    if (depth + 1 < max_depth && threadIdx.x < 4) {
        cudaStream_t st;
        cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
        quadtree_like<<<1, 4, 0, st>>>(counts, depth + 1, max_depth);
        cudaStreamDestroy(st);
    }
}

__global__ void tail_chain(int *step, int remaining)
{
    atomicAdd(step, 1);
    if (remaining > 0 && threadIdx.x == 0) tail_chain<<<1, 1, 0, cudaStreamTailLaunch>>>(step, remaining - 1);
}
