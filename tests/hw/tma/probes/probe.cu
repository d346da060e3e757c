// Records what an sm_90 GPU's TMA does with interleaved tensor maps (PTX §5.5.6, cuda.h's
// cuTensorMapEncodeTiled) and with .im2col_no_offs stores, one field varied at a time (probes.py writes probes.inc). For each
// probe and coordinate set a process of its own (a fault leaves the context unusable) builds the
// map over a tensor whose word i holds i, and
//  - a load (tile or im2col) runs 256 CTAs: CTA k fills a 4 KiB shared buffer with 0xa5, expects 16·(k+1) bytes on
//    its mbarrier, issues the copy and waits up to 2 ms. The record holds every CTA's "phase
//    completed" flag and CTA 255's buffer (its phase never completes: the copy has landed whole).
//    The largest completing count is the bytes the copy moves; smaller counts complete by chance,
//    when the copy's partial transactions sum to them.
//  - a store (or an .add reduction), .tile or .im2col_no_offs, runs one CTA that fills its buffer with bytes i·7+3 and stores
//    the box; the record holds the tensor's global image (filled with 0x5a before a store).
//
//   nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/probe probe.cu -lcuda && /tmp/probe > probes.txt
//   nvcc -std=c++17 -arch=sm_90a -ptx -o probe.ptx probe.cu   (the kernels tests/units replays)
// Each output line: name set status [flags-hex image-hex]; status is ok, refused (the encoder) or the
// launch's error name; a store's flags are "-".
#include <cuda.h>
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "probes.h"

constexpr unsigned kRegion = 4096, kCtas = 256;

template <int R>
__device__ void issue_load(uint32_t dst, const CUtensorMap* map, const int* c, uint32_t bar) {
  if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
  else if constexpr (R == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
}

template <int R>
__device__ void issue_im2col(uint32_t dst, const CUtensorMap* map, const int* c, const uint16_t* o, uint32_t bar) {
  if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar), "h"(o[0]) : "memory");
  else if constexpr (R == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar), "h"(o[0]), "h"(o[1]) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar), "h"(o[0]), "h"(o[1]), "h"(o[2]) : "memory");
}

// expect_step: CTA k expects expect_step·(k+1) bytes; image_cta: the CTA whose buffer goes to image.
// Im2col: a .im2col copy with offsets o0..o2 instead of a .tile copy.
template <int R, bool Im2col>
__global__ void load_probe(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, int c3, int c4, uint16_t o0,
                           uint16_t o1, uint16_t o2, uint32_t expect_step, uint32_t image_cta, uint32_t* flags,
                           uint32_t* image) {
  extern __shared__ __align__(1024) uint8_t buf[];
  __shared__ __align__(8) uint64_t bar;
  const int c[5] = {c0, c1, c2, c3, c4};
  const uint16_t o[3] = {o0, o1, o2};
  for (unsigned i = threadIdx.x; i < kRegion / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(buf)[i] = 0xa5a5a5a5u;
  const uint32_t b = uint32_t(__cvta_generic_to_shared(&bar)), dst = uint32_t(__cvta_generic_to_shared(buf));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(b));
  asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t done = 0;
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(b), "r"(expect_step * (blockIdx.x + 1)) : "memory");
    if constexpr (Im2col) issue_im2col<R>(dst, &map, c, o, b);
    else issue_load<R>(dst, &map, c, b);
    uint64_t start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
      asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(done) : "r"(b) : "memory");
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (!done && now - start < 2000000);
    flags[blockIdx.x] = done;
  }
  __syncthreads();
  if (blockIdx.x == image_cta)
    for (unsigned i = threadIdx.x; i < kRegion / 4; i += blockDim.x) image[i] = reinterpret_cast<uint32_t*>(buf)[i];
}

template <int R, bool Reduce>
__global__ void store_probe(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, int c3) {
  extern __shared__ __align__(1024) uint8_t buf[];
  for (unsigned i = threadIdx.x; i < kRegion; i += blockDim.x) buf[i] = uint8_t(i * 7 + 3);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x != 0) return;
  const uint32_t src = uint32_t(__cvta_generic_to_shared(buf));
  if constexpr (Reduce)
    asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(src) : "memory");
  else if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(src) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(src) : "memory");
  asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
}

// .im2col_no_offs: a store (or .add reduction) of an im2col map's pixels, no offsets.
template <int R, bool Reduce>
__global__ void im2col_store_probe(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, int c3) {
  extern __shared__ __align__(1024) uint8_t buf[];
  for (unsigned i = threadIdx.x; i < kRegion; i += blockDim.x) buf[i] = uint8_t(i * 7 + 3);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x != 0) return;
  const uint32_t src = uint32_t(__cvta_generic_to_shared(buf));
  if constexpr (Reduce && R == 3)
    asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(src) : "memory");
  else if constexpr (Reduce)
    asm volatile("cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(src) : "memory");
  else if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(src) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                 :: "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(src) : "memory");
  asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
}

static std::string hex(const std::vector<uint32_t>& w) {
  std::string s;
  char b[9];
  for (uint32_t x : w) std::snprintf(b, sizeof b, "%08x", x), s += b;
  return s;
}

#define CHECK_RT(x)                                                     \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      std::printf("%s %u %s\n", p.name, set, cudaGetErrorName(e_));     \
      return;                                                           \
    }                                                                   \
  } while (0)

template <class K>
static cudaError_t allow_shared(K kernel, size_t bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
}

// One probe and coordinate set, in a child process.
static void run(const Probe& p, unsigned set) {
  const size_t tensor_bytes = p.dims[p.rank - 1] * p.strides[p.rank - 2] + 4096;  // room for reads past it
  std::vector<uint32_t> image(tensor_bytes / 4);
  for (size_t i = 0; i < image.size(); ++i) image[i] = uint32_t(i);
  uint32_t *tensor, *flags, *out;
  CHECK_RT(cudaMalloc(&tensor, tensor_bytes));
  CHECK_RT(cudaMemcpy(tensor, image.data(), tensor_bytes, cudaMemcpyHostToDevice));
  if (p.dir == 'S' || p.dir == 'J') CHECK_RT(cudaMemset(tensor, 0x5a, tensor_bytes));
  CHECK_RT(cudaMalloc(&flags, kCtas * 4));
  CHECK_RT(cudaMemset(flags, 0xee, kCtas * 4));
  CHECK_RT(cudaMalloc(&out, kRegion));
  CUtensorMap map;
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], es[5];
  for (unsigned i = 0; i < 5; ++i) dims[i] = p.dims[i], box[i] = p.box[i], es[i] = p.estr[i];
  for (unsigned i = 0; i < 4; ++i) strides[i] = p.strides[i];
  const CUresult encoded =
      p.dir == 'I' || p.dir == 'J' || p.dir == 'K' ? cuTensorMapEncodeIm2col(&map, CUtensorMapDataType(p.type), p.rank, tensor, dims, strides, p.lower, p.upper,
                                             p.channels, p.pixels, es, CUtensorMapInterleave(p.interleave),
                                             CUtensorMapSwizzle(p.swizzle), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                             CUtensorMapFloatOOBfill(p.oob))
                   : cuTensorMapEncodeTiled(&map, CUtensorMapDataType(p.type), p.rank, tensor, dims, strides, box, es,
                                            CUtensorMapInterleave(p.interleave), CUtensorMapSwizzle(p.swizzle),
                                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CUtensorMapFloatOOBfill(p.oob));
  if (encoded != CUDA_SUCCESS) {
    std::printf("%s %u refused\n", p.name, set);
    return;
  }
  const int* c = p.coords[set];
  const size_t shared = kRegion + 1024;
  const uint32_t step = 16, last = kCtas - 1;
  uint16_t o[3];
  for (int i = 0; i < 3; ++i) o[i] = uint16_t(p.offsets[set][i]);
  auto launch = [&](auto kernel) {
    const cudaError_t e = allow_shared(kernel, shared);
    if (e == cudaSuccess)
      kernel<<<kCtas, 128, shared>>>(map, c[0], c[1], c[2], c[3], c[4], o[0], o[1], o[2], step, last, flags, out);
    return e;
  };
  if (p.dir == 'L' || p.dir == 'I') {
    const bool ic = p.dir == 'I';
    CHECK_RT(p.rank == 3   ? (ic ? launch(load_probe<3, true>) : launch(load_probe<3, false>))
             : p.rank == 4 ? (ic ? launch(load_probe<4, true>) : launch(load_probe<4, false>))
                           : (ic ? launch(load_probe<5, true>) : launch(load_probe<5, false>)));
  } else if (p.dir == 'J' || p.dir == 'K') {
    auto store = [&](auto kernel) {
      const cudaError_t e = allow_shared(kernel, shared);
      if (e == cudaSuccess) kernel<<<1, 128, shared>>>(map, c[0], c[1], c[2], c[3]);
      return e;
    };
    const bool red = p.dir == 'K';
    CHECK_RT(p.rank == 3 ? (red ? store(im2col_store_probe<3, true>) : store(im2col_store_probe<3, false>))
                         : (red ? store(im2col_store_probe<4, true>) : store(im2col_store_probe<4, false>)));
  } else if (p.dir == 'R') {
    CHECK_RT(allow_shared(store_probe<3, true>, shared));
    store_probe<3, true><<<1, 128, shared>>>(map, c[0], c[1], c[2], c[3]);
  } else if (p.rank == 3) {
    CHECK_RT(allow_shared(store_probe<3, false>, shared));
    store_probe<3, false><<<1, 128, shared>>>(map, c[0], c[1], c[2], c[3]);
  } else {
    CHECK_RT(allow_shared(store_probe<4, false>, shared));
    store_probe<4, false><<<1, 128, shared>>>(map, c[0], c[1], c[2], c[3]);
  }
  CHECK_RT(cudaGetLastError());
  CHECK_RT(cudaDeviceSynchronize());
  if (p.dir == 'L' || p.dir == 'I') {
    std::vector<uint32_t> f(kCtas), img(kRegion / 4);
    CHECK_RT(cudaMemcpy(f.data(), flags, kCtas * 4, cudaMemcpyDeviceToHost));
    CHECK_RT(cudaMemcpy(img.data(), out, kRegion, cudaMemcpyDeviceToHost));
    std::printf("%s %u ok %s %s\n", p.name, set, hex(f).c_str(), hex(img).c_str());
  } else {
    CHECK_RT(cudaMemcpy(image.data(), tensor, tensor_bytes, cudaMemcpyDeviceToHost));
    std::printf("%s %u ok - %s\n", p.name, set, hex(image).c_str());
  }
}

int main() {
  for (const Probe& p : kProbes)
    for (unsigned s = 0; s < p.sets; ++s) {
      std::fflush(stdout);
      if (const pid_t child = fork(); child == 0) {
        run(p, s);
        std::fflush(stdout);
        _exit(0);
      } else {
        int status;
        waitpid(child, &status, 0);
      }
    }
}
