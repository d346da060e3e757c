// Programmatic dependent launch (sm_90+): cudaGridDependencySynchronize /
// cudaTriggerProgrammaticLaunchCompletion (griddepcontrol.wait/launch_dependents)
// in a producer/consumer kernel pair, plus the raw PTX forms.
// corpus-min: sm_90
// corpus-archs: auto:4

extern "C" __global__ void producer(const float *in, float *mid, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mid[i] = in[i] * 2.f + 1.f;
    __syncthreads();
    cudaTriggerProgrammaticLaunchCompletion();
}

extern "C" __global__ void consumer(const float *mid, const float *bias, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float b = i < n ? bias[i] : 0.f; // independent prologue before the wait
    cudaGridDependencySynchronize();
    if (i < n) out[i] = mid[i] + b;
}

extern "C" __global__ void raw_griddep(const int *in, int *out, int n)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
    asm volatile("griddepcontrol.launch_dependents;");
}
