// Block- and warp-level collectives from the CUB headers shipped with the
// CUDA toolkit: BlockLoad/BlockStore, BlockReduce, BlockScan,
// BlockRadixSort, WarpReduce, BlockHistogram. Deep template instantiation
// produces large, realistic PTX.
// corpus-archs: auto:4
// corpus-G: none
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/warp/warp_reduce.cuh>

template <int BLOCK, int ITEMS>
__global__ void block_sort_keys_values(const int *keys_in, const float *vals_in, int *keys_out, float *vals_out)
{
    using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using LoadV = cub::BlockLoad<float, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<int, BLOCK, ITEMS, float>;
    using Store = cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using StoreV = cub::BlockStore<float, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename LoadV::TempStorage loadv;
        typename Sort::TempStorage sort;
        typename Store::TempStorage store;
        typename StoreV::TempStorage storev;
    } temp;
    int off = blockIdx.x * BLOCK * ITEMS;
    int k[ITEMS];
    float v[ITEMS];
    Load(temp.load).Load(keys_in + off, k);
    __syncthreads();
    LoadV(temp.loadv).Load(vals_in + off, v);
    __syncthreads();
    Sort(temp.sort).Sort(k, v);
    __syncthreads();
    Store(temp.store).Store(keys_out + off, k);
    __syncthreads();
    StoreV(temp.storev).Store(vals_out + off, v);
}
template __global__ void block_sort_keys_values<128, 4>(const int *, const float *, int *, float *);

template <typename T, int BLOCK, cub::BlockReduceAlgorithm ALG>
__global__ void block_reduce(const T *in, T *out, int n)
{
    using R = cub::BlockReduce<T, BLOCK, ALG>;
    __shared__ typename R::TempStorage temp;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    T s = R(temp).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
template __global__ void block_reduce<float, 256, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(const float *, float *, int);
template __global__ void block_reduce<double, 128, cub::BLOCK_REDUCE_RAKING>(const double *, double *, int);
template __global__ void block_reduce<int, 512, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(const int *, int *, int);

template <typename T, int BLOCK, int ITEMS>
__global__ void block_scan(const T *in, T *out, T *totals)
{
    using S = cub::BlockScan<T, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename S::TempStorage temp;
    T items[ITEMS];
    int off = blockIdx.x * BLOCK * ITEMS + threadIdx.x * ITEMS;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) items[k] = in[off + k];
    T total;
    S(temp).ExclusiveSum(items, items, total);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) out[off + k] = items[k];
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}
template __global__ void block_scan<int, 128, 4>(const int *, int *, int *);
template __global__ void block_scan<float, 256, 2>(const float *, float *, float *);

__global__ void warp_reduce_max(const float *in, float *out)
{
    using W = cub::WarpReduce<float>;
    __shared__ typename W::TempStorage temp[4];
    int w = threadIdx.x / 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    float m = W(temp[w]).Reduce(v, cuda::maximum<float>{});
    if ((threadIdx.x & 31) == 0) out[blockIdx.x * 4 + w] = m;
}

__global__ void block_histogram(const unsigned char *in, unsigned *bins)
{
    using H = cub::BlockHistogram<unsigned char, 128, 4, 256>;
    __shared__ typename H::TempStorage temp;
    __shared__ unsigned smem_hist[256];
    unsigned char items[4];
    for (int k = 0; k < 4; ++k) items[k] = in[blockIdx.x * 512 + threadIdx.x * 4 + k];
    H(temp).Histogram(items, smem_hist);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128) atomicAdd(&bins[b], smem_hist[b]);
}
