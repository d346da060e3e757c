// libcu++ atomics: cuda::atomic_ref and cuda::atomic with thread scopes and
// memory orders; fences; a ticket lock and a message-passing flag.
// corpus-archs: auto:4
// corpus-G: none
#include <cuda/atomic>

using block_ref = cuda::atomic_ref<int, cuda::thread_scope_block>;
using dev_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;
using sys_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>;

__global__ void scoped_counters(int *dev_counter, unsigned long long *sys_counter, int *maxv, float *fsum, const int *in, int n)
{
    __shared__ int blk;
    if (threadIdx.x == 0) blk = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    block_ref(blk).fetch_add(v, cuda::std::memory_order_relaxed);
    dev_ref(*maxv).fetch_max(v, cuda::std::memory_order_acq_rel);
    dev_ref(maxv[1]).fetch_min(v);
    dev_ref(maxv[2]).fetch_or(v, cuda::std::memory_order_release);
    cuda::atomic_ref<float, cuda::thread_scope_device>(*fsum).fetch_add((float)v, cuda::std::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x == 0) {
        dev_ref(*dev_counter).fetch_add(block_ref(blk).load(cuda::std::memory_order_acquire));
        sys_ref(*sys_counter).fetch_add(1ull, cuda::std::memory_order_seq_cst);
    }
}

struct TicketLock {
    int next, serving;
};

__device__ void lock(TicketLock &l)
{
    int my = dev_ref(l.next).fetch_add(1, cuda::std::memory_order_relaxed);
    while (dev_ref(l.serving).load(cuda::std::memory_order_acquire) != my) {
    }
}
__device__ void unlock(TicketLock &l)
{
    dev_ref(l.serving).fetch_add(1, cuda::std::memory_order_release);
}

__global__ void locked_update(TicketLock *lk, double *shared_sum, const double *x, int n)
{
    if (threadIdx.x == 0 && blockIdx.x * blockDim.x < n) {
        double s = 0;
        for (int k = 0; k < blockDim.x && blockIdx.x * blockDim.x + k < n; ++k) s += x[blockIdx.x * blockDim.x + k];
        lock(*lk);
        *shared_sum += s;
        unlock(*lk);
    }
}

__global__ void message_pass(int *data, int *flag, int *result)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        data[0] = 42;
        dev_ref(*flag).store(1, cuda::std::memory_order_release);
    } else if (blockIdx.x == 1 && threadIdx.x == 0) {
        while (dev_ref(*flag).load(cuda::std::memory_order_acquire) == 0) {
        }
        *result = data[0];
    }
    cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);
}

__global__ void cas_strong_weak(int *slots, const int *keys, int *placed, int n, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    int h = (k * 2654435761u) % cap;
    for (int probe = 0; probe < cap; ++probe) {
        int expected = -1;
        dev_ref s(slots[(h + probe) % cap]);
        if (s.compare_exchange_strong(expected, k, cuda::std::memory_order_acq_rel) || expected == k) {
            placed[i] = (h + probe) % cap;
            return;
        }
    }
    int e = 0;
    dev_ref(placed[i]).compare_exchange_weak(e, -1);
}

__device__ cuda::atomic<unsigned, cuda::thread_scope_device> g_visits;

__global__ void atomic_object(unsigned *out)
{
    unsigned v = g_visits.fetch_add(1u);
    g_visits.fetch_sub(0u);
    if (threadIdx.x == 0) out[blockIdx.x] = v + g_visits.exchange(v);
}
