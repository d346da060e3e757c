// Records what an sm_90a GPU computes for the cluster GEMM of gemm.ptx, for every launch of
// problem.h: builds the inputs and the two tensor maps (cuTensorMapEncodeTiled), launches the
// kernel with a cluster of (2,1,1) (cuLaunchKernelEx), checks C against a CPU reference in double
// and appends to OUTDIR/gemm.bin a record: uint16 name length, name, uint8 4, uint32 word count,
// the M*N words of C (row-major f32).
//
//   nvcc -O2 -std=c++17 -o record_gemm record_gemm.cu -lcuda
//   ./record_gemm gemm.ptx OUTDIR
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../driver.h"
#include "problem.h"

namespace g = ptxvm_hw_cluster_gemm;

static_assert(CU_TENSOR_MAP_DATA_TYPE_FLOAT16 == 6 && CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 == 9, "data types");
static_assert(CU_TENSOR_MAP_SWIZZLE_128B == 3, "swizzle");
static_assert(sizeof(CUtensorMap) == 128, "tensor map");

static CUtensorMap encode(const g::TensorMapFields& f, CUdeviceptr data) {
  CUtensorMap map;
  cuuint64_t dims[2] = {f.dims[0], f.dims[1]}, strides[1] = {f.strides[0]};
  cuuint32_t box[2] = {f.box[0], f.box[1]}, es[2] = {f.element_strides[0], f.element_strides[1]};
  CHECK(cuTensorMapEncodeTiled(&map, CUtensorMapDataType(f.data_type), f.rank, reinterpret_cast<void*>(data), dims,
                               strides, box, es, CUtensorMapInterleave(f.interleave), CUtensorMapSwizzle(f.swizzle),
                               CUtensorMapL2promotion(f.l2_promotion), CUtensorMapFloatOOBfill(f.oob_fill)));
  return map;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: record_gemm gemm.ptx outdir\n");
    return 2;
  }
  CUmodule mod = load_ptx(argv[1]);
  std::string file;
  bool ok = true;
  for (const g::Launch& l : g::kLaunches) {
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, l.kernel));
    CHECK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(g::kDynamicSharedBytes)));
    const std::vector<uint16_t> a = g::input_a(l), b = g::input_b(l);
    const size_t cn = size_t(l.m) * l.n;
    CUdeviceptr da, db, dc;
    CHECK(cuMemAlloc(&da, a.size() * 2));
    CHECK(cuMemAlloc(&db, b.size() * 2));
    CHECK(cuMemAlloc(&dc, cn * 4));
    CHECK(cuMemcpyHtoD(da, a.data(), a.size() * 2));
    CHECK(cuMemcpyHtoD(db, b.data(), b.size() * 2));
    CHECK(cuMemsetD32(dc, 0x7fbadbad, cn));  // a NaN: any word the kernel leaves shows
    CUtensorMap map_a = encode(g::map_a(l), da), map_b = encode(g::map_b(l), db);
    uint32_t m = l.m, n = l.n, k = l.k;
    void* args[] = {&map_a, &map_b, &dc, &m, &n, &k};
    unsigned grid[3];
    g::grid_of(l, grid);
    CUlaunchAttribute attr[1];
    attr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr[0].value.clusterDim.x = g::kClusterX;
    attr[0].value.clusterDim.y = g::kClusterY;
    attr[0].value.clusterDim.z = g::kClusterZ;
    CUlaunchConfig cfg = {};
    cfg.gridDimX = grid[0], cfg.gridDimY = grid[1], cfg.gridDimZ = grid[2];
    cfg.blockDimX = g::kThreads, cfg.blockDimY = 1, cfg.blockDimZ = 1;
    cfg.sharedMemBytes = g::kDynamicSharedBytes;
    cfg.hStream = nullptr;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cuLaunchKernelEx(&cfg, fn, args, nullptr));
    CHECK(cuCtxSynchronize());
    std::vector<uint32_t> got(cn);
    CHECK(cuMemcpyDtoH(got.data(), dc, cn * 4));
    CHECK(cuMemFree(da));
    CHECK(cuMemFree(db));
    CHECK(cuMemFree(dc));

    const std::vector<double> ref = g::reference(l, a, b);
    double max_abs = 0, max_rel = 0, max_ref = 0;
    size_t bad = 0;
    for (size_t i = 0; i < cn; ++i) {
      float v;
      std::memcpy(&v, &got[i], 4);
      const double e = std::fabs(double(v) - ref[i]);
      if (!(e <= 1e-2)) ++bad;  // NaN counts
      if (e > max_abs || e != e) max_abs = e;
      if (std::fabs(ref[i]) > 1e-3 && e / std::fabs(ref[i]) > max_rel) max_rel = e / std::fabs(ref[i]);
      if (std::fabs(ref[i]) > max_ref) max_ref = std::fabs(ref[i]);
    }
    std::printf("%s: grid (%u,%u,%u) cluster (%u,%u,%u) block %u smem %u: max |C - ref| %.3g, max rel %.3g, "
                "max |ref| %.3g, %zu of %zu words off by > 1e-2\n",
                l.name, grid[0], grid[1], grid[2], g::kClusterX, g::kClusterY, g::kClusterZ, g::kThreads,
                g::kDynamicSharedBytes, max_abs, max_rel, max_ref, bad, cn);
    if (bad) ok = false;
    const std::string name = l.name;
    const uint16_t len = uint16_t(name.size());
    const uint8_t eb = 4;
    const uint32_t words = uint32_t(cn);
    file.append(reinterpret_cast<const char*>(&len), 2).append(name);
    file.append(reinterpret_cast<const char*>(&eb), 1).append(reinterpret_cast<const char*>(&words), 4);
    file.append(reinterpret_cast<const char*>(got.data()), cn * 4);
  }
  std::ofstream(std::string(argv[2]) + "/gemm.bin", std::ios::binary).write(file.data(), std::streamsize(file.size()));
  return ok ? 0 : 1;
}
