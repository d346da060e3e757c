// libcuda.so.1 (src/cuda/) through the CUDA Driver API: PTX modules, memory, launches, faults,
// and cuGetProcAddress answering as the real driver does (tests/hw/driver/proc_address.json).
#include <cuda.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "primary_context.h"

namespace {

// c[i] = a[i] + b[i] for i < n; reads a[n] when n is negative (out of bounds).
const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 counter;
.visible .const .align 4 .f32 scale;
.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .s32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [c];
  ld.param.s32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r2, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra DONE;
  mul.wide.s32 %rd4, %r2, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  add.s64 %rd7, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd6];
  ld.const.f32 %f4, [scale];
  add.f32 %f3, %f1, %f2;
  mul.f32 %f3, %f3, %f4;
  st.global.f32 [%rd7], %f3;
  red.global.add.u32 [counter], 1;
DONE:
  ret;
}
)";

class Driver : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ptxvm::test::use_primary_context(&ctx));
    ASSERT_EQ(cuModuleLoadData(&mod, kPtx), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&fn, mod, "vadd"), CUDA_SUCCESS);
  }
  void TearDown() override { cuModuleUnload(mod); }
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
};

TEST_F(Driver, DeviceQueries) {
  int count = 0, major = 0, sms = 0;
  ASSERT_EQ(cuDeviceGetCount(&count), CUDA_SUCCESS);
  EXPECT_EQ(count, 1);
  ASSERT_EQ(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0), CUDA_SUCCESS);
  EXPECT_EQ(major, 9);
  ASSERT_EQ(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0), CUDA_SUCCESS);
  EXPECT_EQ(sms, 132);
  int version = 0;
  ASSERT_EQ(cuDriverGetVersion(&version), CUDA_SUCCESS);
  EXPECT_EQ(version, 13000);
  const char* name = nullptr;
  ASSERT_EQ(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &name), CUDA_SUCCESS);
  EXPECT_STREQ(name, "CUDA_ERROR_ILLEGAL_ADDRESS");
}

TEST_F(Driver, LaunchWithGlobalsAndConstants) {
  const int n = 1000;
  std::vector<float> host(n), out(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  CUdeviceptr a, b, c, counter, scale;
  size_t bytes = 0;
  ASSERT_EQ(cuMemAlloc(&a, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&b, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&c, n * 4), CUDA_SUCCESS);
  EXPECT_EQ(a % 256, 0u);
  ASSERT_EQ(cuMemcpyHtoD(a, host.data(), n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(b, host.data(), n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuModuleGetGlobal(&scale, &bytes, mod, "scale"), CUDA_SUCCESS);
  EXPECT_EQ(bytes, 4u);
  const float half = 0.5f;
  ASSERT_EQ(cuMemcpyHtoD(scale, &half, 4), CUDA_SUCCESS);  // cudaMemcpyToSymbol of a __constant__
  ASSERT_EQ(cuModuleGetGlobal(&counter, &bytes, mod, "counter"), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(counter, 0, 1), CUDA_SUCCESS);
  int count = n;
  void* args[] = {&a, &b, &c, &count};
  ASSERT_EQ(cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoH(out.data(), c, n * 4), CUDA_SUCCESS);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<float>(i)) << i;  // (i + i) * 0.5
  uint32_t launched = 0;
  ASSERT_EQ(cuMemcpyDtoH(&launched, counter, 4), CUDA_SUCCESS);
  EXPECT_EQ(launched, 1000u);
  // device memory is host memory at the same address (unified addressing)
  EXPECT_EQ(reinterpret_cast<float*>(c)[10], 10.0f);
  // the arguments as one buffer (CU_LAUNCH_PARAM_BUFFER_POINTER), laid out as the parameters
  struct {
    CUdeviceptr a, b, c;
    int n;
  } packed{a, b, c, 10};
  size_t size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  ASSERT_EQ(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra), CUDA_SUCCESS);
  for (CUdeviceptr p : {a, b, c}) EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(a), CUDA_ERROR_INVALID_VALUE);  // twice
}

TEST_F(Driver, ProcAddressAnswersAsTheRealDriver) {
  void* fn_ptr = nullptr;
  CUdriverProcAddressQueryResult status;
  ASSERT_EQ(cuGetProcAddress("cuMemAlloc", &fn_ptr, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status), CUDA_SUCCESS);
  EXPECT_EQ(fn_ptr, reinterpret_cast<void*>(&cuMemAlloc_v2));
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS);
  ASSERT_EQ(cuGetProcAddress("cuMemcpy", &fn_ptr, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status),
            CUDA_SUCCESS);
  EXPECT_NE(fn_ptr, nullptr);  // cuMemcpy_ptds
  ASSERT_EQ(cuGetProcAddress("cuNoSuchFunction", &fn_ptr, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status), CUDA_SUCCESS);
  EXPECT_EQ(fn_ptr, nullptr);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  ASSERT_EQ(cuGetProcAddress("cuLaunchKernelEx", &fn_ptr, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &status), CUDA_SUCCESS);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  EXPECT_EQ(cuGetProcAddress("cuMemAlloc", &fn_ptr, 13010, CU_GET_PROC_ADDRESS_DEFAULT, &status),
            CUDA_ERROR_INVALID_VALUE);
}

// The JIT's optimization level decides what ptxas fuses and folds (lower/contraction.h): at level 0,
// or with debug information, nothing; by default a mul/add pair is one FFMA, a division by 255 uses
// the nearest float to 1/255, ex2 of a constant is computed correctly rounded. The H200 gives the
// same words in all three cases (a ctypes run of this kernel over NVIDIA's driver).
TEST_F(Driver, JitOptimizationLevelDecidesFusionAndFolding) {
  const char* ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>; .reg .f32 %f<10>;
  ld.param.u64 %rd1, [p];
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
  mul.f32 %f5, %f1, %f2;
  add.f32 %f6, %f5, %f3;
  div.full.f32 %f7, %f1, 0f437F0000;
  ex2.approx.f32 %f8, 0f3FB33333;
  st.global.v4.f32 [%rd1], {%f6, %f7, %f8, %f8};
  ret;
}
)";
  const float in[4] = {1 + 0x1p-12f, 1 + 0x1p-12f, -(1 + 0x1p-11f), 0};
  struct Case {
    std::vector<CUjit_option> options;
    std::vector<void*> values;
    uint32_t want[3];
  };
  const Case cases[] = {
      {{}, {}, {0x33800000u, 0x3b808889u, 0x4028e5a2u}},
      {{CU_JIT_OPTIMIZATION_LEVEL}, {reinterpret_cast<void*>(uintptr_t{3})}, {0x33800000u, 0x3b808889u, 0x4028e5a2u}},
      {{CU_JIT_OPTIMIZATION_LEVEL}, {reinterpret_cast<void*>(uintptr_t{0})}, {0u, 0x3b808888u, 0x4028e5a3u}},
      {{CU_JIT_GENERATE_DEBUG_INFO}, {reinterpret_cast<void*>(uintptr_t{1})}, {0u, 0x3b808888u, 0x4028e5a3u}},
  };
  for (const Case& c : cases) {
    CUmodule m;
    std::vector<CUjit_option> options = c.options;
    std::vector<void*> values = c.values;
    ASSERT_EQ(cuModuleLoadDataEx(&m, ptx, static_cast<unsigned>(options.size()), options.data(), values.data()),
              CUDA_SUCCESS);
    CUfunction k;
    ASSERT_EQ(cuModuleGetFunction(&k, m, "k"), CUDA_SUCCESS);
    CUdeviceptr d;
    ASSERT_EQ(cuMemAlloc(&d, sizeof in), CUDA_SUCCESS);
    ASSERT_EQ(cuMemcpyHtoD(d, in, sizeof in), CUDA_SUCCESS);
    void* params[] = {&d};
    ASSERT_EQ(cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), CUDA_SUCCESS);
    uint32_t out[4];
    ASSERT_EQ(cuMemcpyDtoH(out, d, sizeof out), CUDA_SUCCESS);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i], c.want[i]) << "word " << i << " with " << c.options.size() << " options";
    cuMemFree(d);
    cuModuleUnload(m);
  }
}

TEST_F(Driver, InvalidPtxAndMachineCodeAreRefused) {
  CUmodule m = nullptr;
  EXPECT_EQ(cuModuleLoadData(&m, ".version 8.0\n.target sm_90\n.address_size 64\n.entry k() { bogus; }\n"),
            CUDA_ERROR_INVALID_PTX);
  const unsigned char elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  testing::internal::CaptureStderr();
  EXPECT_EQ(cuModuleLoadData(&m, elf), CUDA_ERROR_NO_BINARY_FOR_GPU);
  // NVIDIA's NVRTC samples ask NVRTC for a cubin (nvrtc_helper.h): the message says how to get PTX.
  EXPECT_NE(testing::internal::GetCapturedStderr().find("nvrtcGetPTX"), std::string::npos);
}

// What PyTorch and Triton ask before launching (tests/hw/driver/trace): no stream is capturing, modules
// load eagerly; the occupancy questions answered as an H200 answers them.
TEST_F(Driver, CaptureLoadingModeAndOccupancyQueries) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  EXPECT_EQ(cuStreamIsCapturing(nullptr, &status), CUDA_SUCCESS);
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
  status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  cuuint64_t id = 7;
  EXPECT_EQ(cuStreamGetCaptureInfo(nullptr, &status, &id, nullptr, nullptr, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
  CUmoduleLoadingMode mode;
  EXPECT_EQ(cuModuleGetLoadingMode(&mode), CUDA_SUCCESS);
  EXPECT_EQ(mode, CU_MODULE_EAGER_LOADING);
  CUmodule m;
  ASSERT_EQ(cuModuleLoadData(&m, kPtx), CUDA_SUCCESS);
  CUfunction f;
  ASSERT_EQ(cuModuleGetFunction(&f, m, "vadd"), CUDA_SUCCESS);
  // the H200's answers (tests/hw/driver/occupancy/answers.txt, kernel "none": no static shared memory)
  size_t bytes = 0;
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f, 1, 128), CUDA_SUCCESS);
  EXPECT_EQ(bytes, 49152u);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f, 8, 128), CUDA_SUCCESS);
  EXPECT_EQ(bytes, 29184u);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f, 32, 32), CUDA_SUCCESS);
  EXPECT_EQ(bytes, 7296u);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f, 3, 1024), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 * 1024), CUDA_SUCCESS);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f, 1, 128), CUDA_SUCCESS);
  EXPECT_EQ(bytes, 200u * 1024);
  CUlaunchAttribute cluster{};
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = 2, cluster.value.clusterDim.y = 1, cluster.value.clusterDim.z = 1;
  CUlaunchConfig config{};
  config.gridDimX = 2, config.gridDimY = 1, config.gridDimZ = 1, config.blockDimX = 128, config.blockDimY = 1,
  config.blockDimZ = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  int clusters = 0;
  EXPECT_EQ(cuOccupancyMaxActiveClusters(&clusters, f, &config), CUDA_SUCCESS);
  EXPECT_EQ(clusters, 528);  // the H200's answer for clusters of 2 of 128 threads
  config.blockDimX = 1024;
  EXPECT_EQ(cuOccupancyMaxActiveClusters(&clusters, f, &config), CUDA_SUCCESS);
  EXPECT_EQ(clusters, 132);
  EXPECT_EQ(cuModuleUnload(m), CUDA_SUCCESS);
}

// Blocks per SM and each kernel's local and constant memory, against an H200's answers for the same kernels
// (tests/hw/driver/occupancy: answers.txt, recorded from occupancy.cu, whose PTX this loads).
TEST_F(Driver, OccupancyAndLocalSizeAnswerAsAnH200) {
  const std::string dir = std::string(PTXVM_SOURCE_DIR) + "/tests/hw/driver/occupancy/";
  std::ifstream ptx_file(dir + "occupancy.sm_90.ptx");
  std::stringstream ptx;
  ptx << ptx_file.rdbuf();
  CUmodule m;
  ASSERT_EQ(cuModuleLoadData(&m, ptx.str().c_str()), CUDA_SUCCESS);
  auto function = [&](const std::string& kernel) {
    const std::string mangled = "_Z" + std::to_string(kernel.size()) + kernel + "Pi";
    CUfunction f = nullptr;
    EXPECT_EQ(cuModuleGetFunction(&f, m, mangled.c_str()), CUDA_SUCCESS) << mangled;
    return f;
  };
  std::ifstream answers(dir + "answers.txt");
  int blocks_rows = 0, local_rows = 0;
  for (std::string line; std::getline(answers, line);) {
    std::istringstream in(line);
    std::string what, kernel, word;
    in >> what >> kernel;
    if (what == "blocks") {
      int threads, dynamic, result, blocks;
      in >> word >> threads >> word >> dynamic >> word >> result >> blocks;
      int got = -1;
      EXPECT_EQ(cuOccupancyMaxActiveBlocksPerMultiprocessor(&got, function(kernel), threads, size_t(dynamic)),
                CUresult(result));
      EXPECT_EQ(got, blocks) << line;
      ++blocks_rows;
    } else if (what == "local") {
      int local, constant;
      in >> word >> local >> word >> constant;
      int got = -1;
      EXPECT_EQ(cuFuncGetAttribute(&got, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function(kernel)), CUDA_SUCCESS);
      EXPECT_EQ(got, local) << line;
      EXPECT_EQ(cuFuncGetAttribute(&got, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, function(kernel)), CUDA_SUCCESS);
      EXPECT_EQ(got, constant) << line;
      ++local_rows;
    }
  }
  EXPECT_EQ(blocks_rows, 56);
  EXPECT_EQ(local_rows, 6);
  EXPECT_EQ(cuModuleUnload(m), CUDA_SUCCESS);
}

// Stream capture records instead of running; the graph runs its nodes at each launch, in order.
TEST_F(Driver, CapturedWorkRunsAtEachGraphLaunch) {
  const int n = 300;
  std::vector<float> a(n, 1.0f), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) b[i] = float(i);
  const float one = 1.0f;
  CUdeviceptr scale, da, db, dc;
  size_t bytes;
  ASSERT_EQ(cuModuleGetGlobal(&scale, &bytes, mod, "scale"), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(scale, &one, 4), CUDA_SUCCESS);
  for (CUdeviceptr* p : {&da, &db, &dc}) ASSERT_EQ(cuMemAlloc(p, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(db, b.data(), n * 4), CUDA_SUCCESS);
  CUstream s;
  ASSERT_EQ(cuStreamCreate(&s, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamBeginCapture(nullptr, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  ASSERT_EQ(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoDAsync(da, a.data(), n * 4, s), CUDA_SUCCESS);
  int count = n;
  void* args[] = {&da, &db, &dc, &count};
  ASSERT_EQ(cuLaunchKernel(fn, 2, 1, 1, 256, 1, 1, 0, s, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32Async(da, 0, n, s), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoHAsync(c.data(), dc, n * 4, s), CUDA_SUCCESS);
  EXPECT_EQ(c[3], -1.0f) << "captured work does not run";
  CUgraph g;
  ASSERT_EQ(cuStreamEndCapture(s, &g), CUDA_SUCCESS);
  size_t nodes = 0;
  ASSERT_EQ(cuGraphGetNodes(g, nullptr, &nodes), CUDA_SUCCESS);
  EXPECT_EQ(nodes, 4u);
  CUgraphExec exec;
  ASSERT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
  for (int round = 1; round <= 2; ++round) {
    std::fill(a.begin(), a.end(), float(round));
    ASSERT_EQ(cuGraphLaunch(exec, s), CUDA_SUCCESS);
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], float(round + i));
  }
  std::vector<float> zeroed(n, 1.0f);
  ASSERT_EQ(cuMemcpyDtoH(zeroed.data(), da, n * 4), CUDA_SUCCESS);
  EXPECT_EQ(zeroed[7], 0.0f);
  // Synchronising a capturing stream, or launching a graph on it, is refused and invalidates the
  // capture (tests/hw/driver/capture: an H100's answers).
  for (int refused = 0; refused < 2; ++refused) {
    ASSERT_EQ(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    EXPECT_EQ(refused ? cuGraphLaunch(exec, s) : cuStreamSynchronize(s), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUgraph broken = g;
    EXPECT_EQ(cuStreamEndCapture(s, &broken), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(broken, nullptr);
  }
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
  for (CUdeviceptr p : {da, db, dc}) EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
}

// Graph memory nodes (cuGraphAddMemAllocNode): the address is fixed when the node is added, the
// memory valid from the allocation node's run to the free node's; an allocation the graph does not
// free stays valid until cuMemFree, and relaunching before then is CUDA_ERROR_INVALID_VALUE unless
// instantiated with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH (cuGraphLaunch).
TEST_F(Driver, GraphMemoryNodes) {
  const int n = 64;
  const float one = 1.0f;
  CUdeviceptr scale, db, dc;
  size_t bytes;
  ASSERT_EQ(cuModuleGetGlobal(&scale, &bytes, mod, "scale"), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(scale, &one, 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&db, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&dc, n * 4), CUDA_SUCCESS);
  std::vector<float> b(n);
  for (int i = 0; i < n; ++i) b[i] = float(i);
  ASSERT_EQ(cuMemcpyHtoD(db, b.data(), n * 4), CUDA_SUCCESS);
  cuuint64_t reserved_before = 0;
  ASSERT_EQ(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &reserved_before), CUDA_SUCCESS);

  // alloc -> memset(2.0f) -> vadd(alloc, b, c) -> free
  CUgraph g;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUDA_MEM_ALLOC_NODE_PARAMS ap{};
  ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  ap.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  ap.bytesize = n * 4;
  CUgraphNode alloc, set, kernel, freed, extra;
  ASSERT_EQ(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap), CUDA_SUCCESS);
  const CUdeviceptr da = ap.dptr;
  ASSERT_NE(da, 0u);
  float two = 2.0f;
  unsigned two_bits;
  std::memcpy(&two_bits, &two, 4);
  CUDA_MEMSET_NODE_PARAMS mp{da, 0, two_bits, 4, size_t(n), 1};
  ASSERT_EQ(cuGraphAddMemsetNode(&set, g, &alloc, 1, &mp, ctx), CUDA_SUCCESS);
  int count = n;
  CUdeviceptr a_arg = da;
  void* args[] = {&a_arg, &db, &dc, &count};
  CUDA_KERNEL_NODE_PARAMS kp{};
  kp.func = fn, kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1, kp.blockDimX = n, kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = args;
  ASSERT_EQ(cuGraphAddKernelNode(&kernel, g, &set, 1, &kp), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddMemFreeNode(&freed, g, &kernel, 1, da), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphAddMemFreeNode(&extra, g, &freed, 1, da), CUDA_ERROR_INVALID_VALUE);  // freed twice
  EXPECT_EQ(cuGraphAddMemFreeNode(&extra, g, &freed, 1, db), CUDA_ERROR_INVALID_VALUE);  // no alloc node's
  CUgraphNodeType type;
  ASSERT_EQ(cuGraphNodeGetType(alloc, &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
  ASSERT_EQ(cuGraphNodeGetType(freed, &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEM_FREE);
  CUDA_MEM_ALLOC_NODE_PARAMS got{};
  ASSERT_EQ(cuGraphMemAllocNodeGetParams(alloc, &got), CUDA_SUCCESS);
  EXPECT_EQ(got.dptr, da);
  EXPECT_EQ(got.bytesize, size_t(n * 4));
  CUdeviceptr freed_at = 0;
  ASSERT_EQ(cuGraphMemFreeNodeGetParams(freed, &freed_at), CUDA_SUCCESS);
  EXPECT_EQ(freed_at, da);
  CUgraph copy;
  EXPECT_EQ(cuGraphClone(&copy, g), CUDA_ERROR_NOT_SUPPORTED);  // "the graph cannot be cloned"
  cuuint64_t reserved = 0, used = 1;
  ASSERT_EQ(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &reserved), CUDA_SUCCESS);
  EXPECT_GE(reserved, reserved_before + n * 4);
  CUgraphExec exec;
  ASSERT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
  for (int round = 0; round < 2; ++round) {
    std::vector<float> c(n, -1.0f);
    ASSERT_EQ(cuGraphLaunch(exec, nullptr), CUDA_SUCCESS);
    ASSERT_EQ(cuMemcpyDtoH(c.data(), dc, n * 4), CUDA_SUCCESS);
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 2.0f + i);
    EXPECT_NE(cuMemcpyDtoH(c.data(), da, 4), CUDA_SUCCESS) << "freed graph memory is not valid";
    ASSERT_EQ(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &used), CUDA_SUCCESS);
    EXPECT_EQ(used, 0u);
  }
  ASSERT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
  ASSERT_EQ(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &reserved), CUDA_SUCCESS);
  EXPECT_EQ(reserved, reserved_before);

  // An allocation the graph does not free outlives the launch, until cuMemFree.
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap), CUDA_SUCCESS);
  mp.dst = ap.dptr;
  ASSERT_EQ(cuGraphAddMemsetNode(&set, g, &alloc, 1, &mp, ctx), CUDA_SUCCESS);
  CUgraphExec once, auto_free;
  ASSERT_EQ(cuGraphInstantiate(&once, g, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(once, nullptr), CUDA_SUCCESS);
  float v = 0;
  ASSERT_EQ(cuMemcpyDtoH(&v, ap.dptr, 4), CUDA_SUCCESS);
  EXPECT_EQ(v, 2.0f);
  ASSERT_EQ(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &used), CUDA_SUCCESS);
  EXPECT_EQ(used, cuuint64_t(n * 4));
  EXPECT_EQ(cuGraphLaunch(once, nullptr), CUDA_ERROR_INVALID_VALUE);  // still unfreed
  ASSERT_EQ(cuMemFree(ap.dptr), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(once, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphExecDestroy(once), CUDA_SUCCESS);
  ASSERT_EQ(cuMemFree(ap.dptr), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphInstantiate(&auto_free, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(auto_free, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(auto_free, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphExecDestroy(auto_free), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoH(&v, ap.dptr, 4), CUDA_SUCCESS);  // live still, though its graph is gone
  ASSERT_EQ(cuMemFree(ap.dptr), CUDA_SUCCESS);
  ASSERT_EQ(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &reserved), CUDA_SUCCESS);
  EXPECT_EQ(reserved, reserved_before);

  // A kernel that reads graph memory after its free node faults, as on a GPU (in a child process:
  // the fault is sticky). The launch is asynchronous: it succeeds, and the fault is what the
  // calls after it return.
  auto use_after_free = [&] {
    CUgraph bad;
    CUgraphNode x, y, z;
    cuGraphCreate(&bad, 0);
    cuGraphAddMemAllocNode(&x, bad, nullptr, 0, &ap);
    cuGraphAddMemFreeNode(&y, bad, &x, 1, ap.dptr);
    a_arg = ap.dptr;
    cuGraphAddKernelNode(&z, bad, &y, 1, &kp);
    CUgraphExec e;
    cuGraphInstantiate(&e, bad, 0);
    if (cuGraphLaunch(e, nullptr) != CUDA_SUCCESS) std::_Exit(1);
    if (cuStreamSynchronize(nullptr) != CUDA_ERROR_ILLEGAL_ADDRESS) std::_Exit(2);
    std::_Exit(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS ? 0 : 3);
  };
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child runs the test again, from its start
  EXPECT_EXIT(use_after_free(), ::testing::ExitedWithCode(0), "");
  cuMemFree(db);
  cuMemFree(dc);
}

// Stream capture of cuMemAllocAsync and cuMemFreeAsync records allocation and free nodes, and a
// stream that waits on an event recorded in the capture joins it (fork and join).
TEST_F(Driver, CaptureRecordsMemoryNodesAcrossStreams) {
  const int n = 32;
  const float one = 1.0f;
  CUdeviceptr scale, dc;
  size_t bytes;
  ASSERT_EQ(cuModuleGetGlobal(&scale, &bytes, mod, "scale"), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(scale, &one, 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&dc, n * 4), CUDA_SUCCESS);
  CUstream s1, s2;
  ASSERT_EQ(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUevent fork, join;
  ASSERT_EQ(cuEventCreate(&fork, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&join, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
  CUdeviceptr a, b;
  ASSERT_EQ(cuMemAllocAsync(&a, n * 4, s1), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32Async(a, 0x40000000, n, s1), CUDA_SUCCESS);  // 2.0f
  ASSERT_EQ(cuEventRecord(fork, s1), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamWaitEvent(s2, fork, 0), CUDA_SUCCESS);
  CUstreamCaptureStatus status;
  ASSERT_EQ(cuStreamIsCapturing(s2, &status), CUDA_SUCCESS);
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  ASSERT_EQ(cuMemAllocAsync(&b, n * 4, s2), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32Async(b, 0x3f800000, n, s2), CUDA_SUCCESS);  // 1.0f
  ASSERT_EQ(cuEventRecord(join, s2), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamWaitEvent(s1, join, 0), CUDA_SUCCESS);
  int count = n;
  void* args[] = {&a, &b, &dc, &count};
  ASSERT_EQ(cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, s1, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuMemFreeAsync(a, s1), CUDA_SUCCESS);
  ASSERT_EQ(cuMemFreeAsync(b, s1), CUDA_SUCCESS);
  CUgraph g;
  ASSERT_EQ(cuStreamEndCapture(s1, &g), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamIsCapturing(s2, &status), CUDA_SUCCESS);
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
  size_t count_nodes = 0;
  ASSERT_EQ(cuGraphGetNodes(g, nullptr, &count_nodes), CUDA_SUCCESS);
  ASSERT_EQ(count_nodes, 7u);
  std::vector<CUgraphNode> nodes(count_nodes);
  ASSERT_EQ(cuGraphGetNodes(g, nodes.data(), &count_nodes), CUDA_SUCCESS);
  int allocs = 0, frees = 0;
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type;
    ASSERT_EQ(cuGraphNodeGetType(node, &type), CUDA_SUCCESS);
    allocs += type == CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    frees += type == CU_GRAPH_NODE_TYPE_MEM_FREE;
  }
  EXPECT_EQ(allocs, 2);
  EXPECT_EQ(frees, 2);
  CUgraphExec exec;
  ASSERT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
  for (int round = 0; round < 2; ++round) {
    std::vector<float> c(n, 0.0f);
    ASSERT_EQ(cuGraphLaunch(exec, s1), CUDA_SUCCESS);
    ASSERT_EQ(cuStreamSynchronize(s1), CUDA_SUCCESS);
    ASSERT_EQ(cuMemcpyDtoH(c.data(), dc, n * 4), CUDA_SUCCESS);
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 3.0f);
  }
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(s1), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(s2), CUDA_SUCCESS);
  cuEventDestroy(fork);
  cuEventDestroy(join);
  cuMemFree(dc);
}

// cuGraphClone copies nodes and edges; cuGraphNodeFindInClone maps a node to its copy, and
// changing the copy's memcpy node leaves the original alone.
TEST_F(Driver, GraphCloneAndMemcpyNodeParams) {
  const int n = 16;
  std::vector<int> src(n), dst(n, 0), other(n, 0);
  for (int i = 0; i < n; ++i) src[i] = i * 3;
  CUdeviceptr d;
  ASSERT_EQ(cuMemAlloc(&d, n * 4), CUDA_SUCCESS);
  CUgraph g;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUDA_MEMCPY3D up{}, down{};
  up.srcMemoryType = CU_MEMORYTYPE_HOST, up.srcHost = src.data();
  up.dstMemoryType = CU_MEMORYTYPE_DEVICE, up.dstDevice = d;
  up.WidthInBytes = n * 4, up.Height = 1, up.Depth = 1;
  down.srcMemoryType = CU_MEMORYTYPE_DEVICE, down.srcDevice = d;
  down.dstMemoryType = CU_MEMORYTYPE_HOST, down.dstHost = dst.data();
  down.WidthInBytes = n * 4, down.Height = 1, down.Depth = 1;
  CUgraphNode first, second, found;
  ASSERT_EQ(cuGraphAddMemcpyNode(&first, g, nullptr, 0, &up, ctx), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddMemcpyNode(&second, g, &first, 1, &down, ctx), CUDA_SUCCESS);
  CUgraph clone;
  ASSERT_EQ(cuGraphClone(&clone, g), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphNodeFindInClone(&found, second, clone), CUDA_SUCCESS);
  EXPECT_NE(found, second);
  EXPECT_EQ(cuGraphNodeFindInClone(&found, second, g), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphNodeFindInClone(&found, second, clone), CUDA_SUCCESS);
  CUDA_MEMCPY3D read{};
  ASSERT_EQ(cuGraphMemcpyNodeGetParams(found, &read), CUDA_SUCCESS);
  EXPECT_EQ(read.dstHost, dst.data());
  read.dstHost = other.data();
  ASSERT_EQ(cuGraphMemcpyNodeSetParams(found, &read), CUDA_SUCCESS);
  CUgraphExec e1, e2;
  ASSERT_EQ(cuGraphInstantiate(&e1, g, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphInstantiate(&e2, clone, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(e1, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(e2, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(dst, src);
  EXPECT_EQ(other, src);
  // The executable graph's copy changes alone.
  std::fill(dst.begin(), dst.end(), 0);
  std::vector<int> third(n, 0);
  down.dstHost = third.data();
  ASSERT_EQ(cuGraphExecMemcpyNodeSetParams(e1, second, &down, ctx), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(e1, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(third, src);
  EXPECT_EQ(dst, std::vector<int>(n, 0));
  cuGraphExecDestroy(e1);
  cuGraphExecDestroy(e2);
  cuGraphDestroy(clone);
  cuGraphDestroy(g);
  cuMemFree(d);
}

// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: each kernel's own static shared memory, as ptxas lays it
// out (tests/hw/shared_layout), its module's dynamic arrays' alignment included.
TEST_F(Driver, StaticSharedSizeIsPerKernel) {
  std::ifstream f(std::string(PTXVM_SOURCE_DIR) + "/tests/hw/shared_layout/shared_layout.ptx");
  std::stringstream ptx;
  ptx << f.rdbuf();
  CUmodule m = nullptr;
  ASSERT_EQ(cuModuleLoadData(&m, ptx.str().c_str()), CUDA_SUCCESS);
  // ptxas -arch=sm_90a -v: 1024 bytes smem each (the module's .align 1024 dynamic array moves
  // every kernel's end to 0x800, tests/hw/shared_layout/README.md), none for k4
  for (auto [name, bytes] : {std::pair{"k1", 1024}, {"k2", 1024}, {"k3", 1024}, {"k4", 0}, {"k5", 1024}, {"k7", 1024}}) {
    CUfunction k;
    ASSERT_EQ(cuModuleGetFunction(&k, m, name), CUDA_SUCCESS);
    int value = -1;
    ASSERT_EQ(cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k), CUDA_SUCCESS);
    EXPECT_EQ(value, bytes) << name;
  }
  EXPECT_EQ(cuModuleUnload(m), CUDA_SUCCESS);
}

// The JIT linker joins PTX inputs into one module: a kernel calling a .extern function that
// another input defines (with a newer .version) links, loads and runs.
TEST_F(Driver, LinkerJoinsPtxInputs) {
  const std::string kernel = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) twice(.param .b32 x);
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  {
    .param .b32 x;
    .param .b32 r;
    st.param.b32 [x], %r1;
    call (r), twice, (x);
    ld.param.b32 %r2, [r];
  }
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";
  const std::string library = R"(.version 8.7
.target sm_90
.address_size 64
.visible .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.u32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
)";
  CUlinkState link;
  ASSERT_EQ(cuLinkCreate(0, nullptr, nullptr, &link), CUDA_SUCCESS);
  ASSERT_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kernel.c_str()), kernel.size() + 1, "k.ptx", 0,
                          nullptr, nullptr),
            CUDA_SUCCESS);
  ASSERT_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(library.c_str()), library.size() + 1, "lib.ptx", 0,
                          nullptr, nullptr),
            CUDA_SUCCESS);
  const unsigned char elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  EXPECT_EQ(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, const_cast<unsigned char*>(elf), sizeof elf, "a.cubin", 0, nullptr,
                          nullptr),
            CUDA_ERROR_NO_BINARY_FOR_GPU);
  void* image = nullptr;
  size_t size = 0;
  ASSERT_EQ(cuLinkComplete(link, &image, &size), CUDA_SUCCESS);
  EXPECT_NE(std::string(static_cast<const char*>(image)).find(".version 8.7"), std::string::npos);
  CUmodule m = nullptr;
  ASSERT_EQ(cuModuleLoadData(&m, image), CUDA_SUCCESS);
  ASSERT_EQ(cuLinkDestroy(link), CUDA_SUCCESS);  // the module keeps what it loaded
  CUfunction k;
  ASSERT_EQ(cuModuleGetFunction(&k, m, "k"), CUDA_SUCCESS);
  CUdeviceptr out;
  ASSERT_EQ(cuMemAlloc(&out, 32 * 4), CUDA_SUCCESS);
  void* args[] = {&out};
  ASSERT_EQ(cuLaunchKernel(k, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  std::vector<uint32_t> got(32);
  ASSERT_EQ(cuMemcpyDtoH(got.data(), out, 32 * 4), CUDA_SUCCESS);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(got[i], 2 * i);
  EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(m), CUDA_SUCCESS);
}

// A 2D CUDA array filled by cuMemcpy2D, read through a texture object (linear filtering, clamp)
// and written through a surface object, read back by cuMemcpy2D: PTX §9.7.10.3, §9.7.11.2.
TEST_F(Driver, ArraysTexturesAndSurfaces) {
  const char* ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry sample(.param .u64 tex, .param .u64 surf)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [surf];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mov.f32 %f2, 0f3F000000;
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  shl.b32 %r2, %r1, 2;
  mov.b32 %r3, %f3;
  sust.b.2d.b32.trap [%rd2, {%r2, %r1}], %r3;
  ret;
}
)";
  CUmodule m;
  ASSERT_EQ(cuModuleLoadData(&m, ptx), CUDA_SUCCESS);
  CUfunction k;
  ASSERT_EQ(cuModuleGetFunction(&k, m, "sample"), CUDA_SUCCESS);
  CUDA_ARRAY3D_DESCRIPTOR d{4, 2, 0, CU_AD_FORMAT_FLOAT, 1, 0};
  CUarray image, out;
  ASSERT_EQ(cuArray3DCreate(&image, &d), CUDA_SUCCESS);
  d.Height = 4;
  d.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  ASSERT_EQ(cuArray3DCreate(&out, &d), CUDA_SUCCESS);
  const float texels[2][4] = {{0, 2, 4, 6}, {8, 10, 12, 14}};
  CUDA_MEMCPY2D up{};
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = texels;
  up.srcPitch = sizeof texels[0];
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = image;
  up.WidthInBytes = sizeof texels[0];
  up.Height = 2;
  ASSERT_EQ(cuMemcpy2D(&up), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC res{};
  res.resType = CU_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = image;
  CUDA_TEXTURE_DESC td{};
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_LINEAR;
  CUtexObject tex;
  ASSERT_EQ(cuTexObjectCreate(&tex, &res, &td, nullptr), CUDA_SUCCESS);
  res.res.array.hArray = image;
  CUsurfObject bad;
  EXPECT_EQ(cuSurfObjectCreate(&bad, &res), CUDA_ERROR_INVALID_VALUE);  // no SURFACE_LDST
  res.res.array.hArray = out;
  CUsurfObject surf;
  ASSERT_EQ(cuSurfObjectCreate(&surf, &res), CUDA_SUCCESS);
  void* args[] = {&tex, &surf};
  ASSERT_EQ(cuLaunchKernel(k, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  float back[4][4];
  CUDA_MEMCPY2D down{};
  down.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  down.srcArray = out;
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = back;
  down.dstPitch = sizeof back[0];
  down.WidthInBytes = sizeof back[0];
  down.Height = 4;
  ASSERT_EQ(cuMemcpy2D(&down), CUDA_SUCCESS);
  // x = i samples halfway between texels i - 1 and i of row 0 (clamped at 0): 0, 1, 3, 5.
  const float want[4] = {0, 1, 3, 5};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(back[y][x], x == y ? want[x] : 0.0f) << x << ", " << y;
  CUDA_TEXTURE_DESC back_td;
  ASSERT_EQ(cuTexObjectGetTextureDesc(&back_td, tex), CUDA_SUCCESS);
  EXPECT_EQ(back_td.filterMode, CU_TR_FILTER_MODE_LINEAR);
  CUDA_RESOURCE_DESC back_res;
  ASSERT_EQ(cuSurfObjectGetResourceDesc(&back_res, surf), CUDA_SUCCESS);
  EXPECT_EQ(back_res.res.array.hArray, out);
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_SUCCESS);
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuTexObjectGetResourceDesc(&back_res, tex), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuSurfObjectDestroy(surf), CUDA_SUCCESS);
  EXPECT_EQ(cuArrayDestroy(image), CUDA_SUCCESS);
  EXPECT_EQ(cuArrayDestroy(out), CUDA_SUCCESS);
  cuModuleUnload(m);
}

// cuTensorMapEncodeTiled builds the map a TMA copy reads (PTX §9.7.9.25.5.2): a 32 x 8 box of a
// 64 x 40 f32 tensor at (32, 36), rows 40..43 outside the tensor and zero-filled; a map CUDA refuses
// (a 24-byte inner box) is CUDA_ERROR_INVALID_VALUE, and cuTensorMapReplaceAddress moves a map.
TEST_F(Driver, TensorMapsForTmaCopies) {
  const char* ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry box(.param .align 64 .b8 tmap[128], .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .shared .align 1024 .b8 buf[1024];
  .shared .align 8 .b64 bar;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  mov.b64 %rd1, tmap;
  cvta.param.u64 %rd2, %rd1;
  @%p1 mbarrier.init.shared.b64 [bar], 1;
  bar.sync 0;
  mov.u32 %r2, 32;
  mov.u32 %r3, 36;
  @%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 1024;
  @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {%r2, %r3}], [bar];
WAIT:
  mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  mov.u32 %r4, buf;
  shl.b32 %r5, %r1, 2;
  add.u32 %r6, %r4, %r5;
  ld.shared.u32 %r7, [%r6];
  ld.param.u64 %rd3, [out];
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r7;
  ret;
}
)";
  CUmodule m;
  ASSERT_EQ(cuModuleLoadData(&m, ptx), CUDA_SUCCESS);
  CUfunction k;
  ASSERT_EQ(cuModuleGetFunction(&k, m, "box"), CUDA_SUCCESS);
  std::vector<float> t(64 * 40);
  for (size_t i = 0; i < t.size(); ++i) t[i] = float(i);
  CUdeviceptr tensor, other, out;
  ASSERT_EQ(cuMemAlloc(&tensor, t.size() * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&other, t.size() * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&out, 256 * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(tensor, t.data(), t.size() * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(other, 0, t.size()), CUDA_SUCCESS);
  CUtensorMap map;
  const cuuint64_t dims[2] = {64, 40}, strides[1] = {256};
  cuuint32_t box[2] = {6, 8};
  const cuuint32_t es[2] = {1, 1};
  EXPECT_EQ(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, reinterpret_cast<void*>(tensor), dims,
                                   strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_ERROR_INVALID_VALUE);
  box[0] = 32;
  ASSERT_EQ(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, reinterpret_cast<void*>(other), dims,
                                   strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS);
  ASSERT_EQ(cuTensorMapReplaceAddress(&map, reinterpret_cast<void*>(tensor)), CUDA_SUCCESS);
  void* args[] = {&map, &out};
  ASSERT_EQ(cuLaunchKernel(k, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  std::vector<float> got(256);
  ASSERT_EQ(cuMemcpyDtoH(got.data(), out, 256 * 4), CUDA_SUCCESS);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 32; ++c) EXPECT_EQ(got[r * 32 + c], r < 4 ? t[(36 + r) * 64 + 32 + c] : 0.0f) << r << ", " << c;
  cuMemFree(tensor);
  cuMemFree(other);
  cuMemFree(out);
  cuModuleUnload(m);
}

// Last: a fault is sticky, as on a GPU (every later call reports it).
// memcheck's leak check (PTXVM_CHECK=memcheck): allocations never freed are named at
// cuDevicePrimaryCtxReset (cudaDeviceReset), each once, with a summary.
TEST_F(Driver, MemcheckReportsLeaksAtReset) {
  CUdeviceptr kept = 0, freed = 0;
  ASSERT_EQ(cuMemAlloc(&kept, 4096), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&freed, 256), CUDA_SUCCESS);
  ASSERT_EQ(cuMemFree(freed), CUDA_SUCCESS);
  setenv("PTXVM_CHECK", "memcheck", 1);
  testing::internal::CaptureStderr();
  ASSERT_EQ(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS);  // named once
  const std::string text = testing::internal::GetCapturedStderr();
  unsetenv("PTXVM_CHECK");
  char line[96];
  std::snprintf(line, sizeof line, "leaked 4096 bytes at 0x%llx", static_cast<unsigned long long>(kept));
  EXPECT_NE(text.find(line), std::string::npos) << text;
  EXPECT_NE(text.find("LEAK SUMMARY: 4096 bytes leaked in 1 allocation\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("LEAK SUMMARY", text.find("LEAK SUMMARY") + 1), std::string::npos) << text;
  EXPECT_EQ(cuMemFree(kept), CUDA_SUCCESS);
}

// Every function NVIDIA's libcuda.so.1 exports (tests/hw/driver/libcuda_symbols.txt, without the
// debugger's cudbg* symbols) resolves in ptxvm's, so a program linked against any loads; one ptxvm
// does not implement returns CUDA_ERROR_NOT_SUPPORTED, and cuGetProcAddress finds it.
TEST_F(Driver, ExportsEveryFunctionOfNvidiasDriver) {
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&cuInit), &info), 0);
  void* self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(self, nullptr);
  std::ifstream list(std::string(PTXVM_SOURCE_DIR) + "/tests/hw/driver/libcuda_symbols.txt");
  int names = 0;
  for (std::string name; std::getline(list, name);) {
    if (name.empty() || name.rfind("cudbg", 0) == 0) continue;
    ++names;
    EXPECT_NE(dlsym(self, name.c_str()), nullptr) << name;
  }
  EXPECT_EQ(names, 674);
  auto close_ipc = reinterpret_cast<CUresult (*)(CUdeviceptr)>(dlsym(self, "cuIpcCloseMemHandle"));
  ASSERT_NE(close_ipc, nullptr);
  EXPECT_EQ(close_ipc(0), CUDA_ERROR_NOT_SUPPORTED);
  void* fn_ptr = nullptr;
  ASSERT_EQ(cuGetProcAddress("cuIpcCloseMemHandle", &fn_ptr, 13000, CU_GET_PROC_ADDRESS_DEFAULT, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(fn_ptr, reinterpret_cast<void*>(close_ipc));
  dlclose(self);
}

// The H200's answers (tests/hw/driver/attributes/h200.txt: "attr <n> <CUresult> <value>").
std::map<int, std::pair<int, int>> recorded_attributes() {
  std::ifstream file(std::string(PTXVM_SOURCE_DIR) + "/tests/hw/driver/attributes/h200.txt");
  std::map<int, std::pair<int, int>> answers;
  for (std::string line; std::getline(file, line);) {
    int n, r, v;
    if (std::sscanf(line.c_str(), "attr %d %d %d", &n, &r, &v) == 3) answers[n] = {r, v};
  }
  return answers;
}

TEST_F(Driver, DeviceAttributesAnswerAsHopper) {
  const auto h200 = recorded_attributes();
  ASSERT_EQ(h200.size(), 199u);
  auto get = [](int a) {
    int v = -12345;
    const CUresult r = cuDeviceGetAttribute(&v, CUdevice_attribute(a), 0);
    return std::make_pair(int(r), v);
  };
  // the architecture's, as the H200 answers
  for (int a : {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_DEVICE_ATTRIBUTE_GPU_OVERLAP,
                CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT,
                CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
                CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH,
                CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH,
                CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH,
                CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, CU_DEVICE_ATTRIBUTE_ECC_ENABLED,
                CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE,
                CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED,
                CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS,
                CU_DEVICE_ATTRIBUTE_NUMA_ID, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH})
    EXPECT_EQ(get(a), h200.at(a)) << "attribute " << a;
  // the H100 SXM's own
  EXPECT_EQ(get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).second, 132);
  EXPECT_EQ(get(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).second, 2619000);
  EXPECT_EQ(get(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).second, 5120);
  EXPECT_EQ(get(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE).second, 50 * 1024 * 1024);
  // capabilities the H200 has and ptxvm does not claim
  for (int a : {CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
                CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED,
                CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES,
                CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS})
    EXPECT_EQ(get(a), std::make_pair(0, 0)) << "attribute " << a;
  // past cuda.h's last attribute: what the H200 answers (CUDA_ERROR_INVALID_VALUE)
  for (int a = CU_DEVICE_ATTRIBUTE_MAX; a < 200; ++a) EXPECT_EQ(get(a).first, h200.at(a).first) << "attribute " << a;
  EXPECT_EQ(get(CU_DEVICE_ATTRIBUTE_MAX).first, CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(get(0).first, CUDA_ERROR_INVALID_VALUE);
}

// cuGetErrorName and cuGetErrorString answer every code 0..999 as NVIDIA's driver does
// (h200.txt: "cuerr <code>|<name's CUresult>|<name>|<string's CUresult>|<string>").
TEST_F(Driver, ErrorNamesAndStringsAreNvidias) {
  std::ifstream file(std::string(PTXVM_SOURCE_DIR) + "/tests/hw/driver/attributes/h200.txt");
  int lines = 0;
  for (std::string line; std::getline(file, line);) {
    if (line.rfind("cuerr ", 0) != 0) continue;
    std::vector<std::string> f;
    std::stringstream in(line.substr(6));
    for (std::string part; f.size() < 4 && std::getline(in, part, '|');) f.push_back(part);
    std::string text;
    std::getline(in, text);
    const CUresult code = CUresult(std::stoi(f[0]));
    const char* name = "x";
    const char* string = "x";
    EXPECT_EQ(int(cuGetErrorName(code, &name)), std::stoi(f[1])) << line;
    EXPECT_EQ(int(cuGetErrorString(code, &string)), std::stoi(f[3])) << line;
    EXPECT_EQ(std::string(name ? name : "(null)"), f[2]) << line;
    EXPECT_EQ(std::string(string ? string : "(null)"), text) << line;
    ++lines;
  }
  EXPECT_EQ(lines, 1000);
}

// cuOccupancyMaxPotentialBlockSize: the block of the highest occupancy, and the grid filling the device.
TEST_F(Driver, PotentialBlockSize) {
  int grid = 0, block = 0;
  ASSERT_EQ(cuOccupancyMaxPotentialBlockSize(&grid, &block, fn, nullptr, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(block, 1024);  // 2 blocks of 1024 threads fill an SM
  EXPECT_EQ(grid, 2 * 132);
  ASSERT_EQ(cuOccupancyMaxPotentialBlockSize(&grid, &block, fn, nullptr, 0, 200), CUDA_SUCCESS);
  EXPECT_EQ(block, 128);  // 16 x 128 = 2048 threads beat 10 x 200 and 10 x 192
  EXPECT_EQ(grid, 16 * 132);
  // 100 KiB per block: two fit in 228 KiB, so the largest block wins
  ASSERT_EQ(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 * 1024), CUDA_SUCCESS);
  ASSERT_EQ(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, fn, nullptr, 100 * 1024, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(block, 1024);
  EXPECT_EQ(grid, 2 * 132);
  // the callback's shared memory: 120 KiB for blocks over 256 threads keeps them to 1 an SM
  ASSERT_EQ(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 120 * 1024), CUDA_SUCCESS);
  CUoccupancyB2DSize by_block = [](int threads) -> size_t { return threads > 256 ? 120 * 1024 : 0; };
  ASSERT_EQ(cuOccupancyMaxPotentialBlockSize(&grid, &block, fn, by_block, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(block, 256);  // 8 x 256 = 2048 threads, against 1 x 1024
  EXPECT_EQ(grid, 8 * 132);
  EXPECT_EQ(cuOccupancyMaxPotentialBlockSize(nullptr, &block, fn, nullptr, 0, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(Driver, PointerAttributesAtOnce) {
  CUdeviceptr a;
  ASSERT_EQ(cuMemAlloc(&a, 1000), CUDA_SUCCESS);
  CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                 CU_POINTER_ATTRIBUTE_RANGE_SIZE, CU_POINTER_ATTRIBUTE_MAPPED,
                                 CU_POINTER_ATTRIBUTE_BUFFER_ID, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  unsigned type = 9;
  CUdeviceptr device = 0;
  size_t size = 0;
  bool mapped = false;
  unsigned long long id = 0;
  int ordinal = 9;
  void* data[] = {&type, &device, &size, &mapped, &id, &ordinal};
  ASSERT_EQ(cuPointerGetAttributes(6, which, data, a + 10), CUDA_SUCCESS);
  EXPECT_EQ(type, unsigned(CU_MEMORYTYPE_DEVICE));
  EXPECT_EQ(device, a + 10);
  EXPECT_EQ(size, 1000u);
  EXPECT_TRUE(mapped);
  EXPECT_EQ(id, a);
  EXPECT_EQ(ordinal, 0);
  // ordinary host memory is no error: every answer is null
  std::vector<char> host(64);
  ASSERT_EQ(cuPointerGetAttributes(6, which, data, reinterpret_cast<CUdeviceptr>(host.data())), CUDA_SUCCESS);
  EXPECT_EQ(type, 0u);
  EXPECT_EQ(device, 0u);
  EXPECT_EQ(size, 0u);
  EXPECT_FALSE(mapped);
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(cuMemFree(a), CUDA_SUCCESS);
}

TEST_F(Driver, TwoDimensionalMemsetsAndPeerCopies) {
  CUdeviceptr a, b;
  const size_t pitch = 64;
  ASSERT_EQ(cuMemAlloc(&a, pitch * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&b, pitch * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD8(a, 0xee, pitch * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD2D8(a, pitch, 0x11, 5, 3), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD2D16Async(a + 8, pitch, 0x2233, 2, 3, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD2D32(a + 16, pitch, 0x44556677u, 1, 2), CUDA_SUCCESS);
  std::vector<uint8_t> got(pitch * 4);
  ASSERT_EQ(cuMemcpyPeer(b, ctx, a, ctx, pitch * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoH(got.data(), b, got.size()), CUDA_SUCCESS);
  for (size_t row = 0; row < 4; ++row) {
    const uint8_t* r = got.data() + row * pitch;
    const bool set = row < 3;
    EXPECT_EQ(r[0], set ? 0x11 : 0xee) << row;
    EXPECT_EQ(r[4], set ? 0x11 : 0xee) << row;
    EXPECT_EQ(r[5], 0xee) << row;
    EXPECT_EQ(r[8], set ? 0x33 : 0xee) << row;
    EXPECT_EQ(r[11], set ? 0x22 : 0xee) << row;
    EXPECT_EQ(r[12], 0xee) << row;
    EXPECT_EQ(r[16], row < 2 ? 0x77 : 0xee) << row;
    EXPECT_EQ(r[19], row < 2 ? 0x44 : 0xee) << row;
  }
  EXPECT_EQ(cuMemsetD2D32(a, 2, 0, 4, 2), CUDA_ERROR_INVALID_VALUE);  // a pitch under a row
  ASSERT_EQ(cuMemsetD8(b, 0, 16), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyPeerAsync(b, ctx, a + 8, ctx, 4, nullptr), CUDA_SUCCESS);
  uint32_t word = 0;
  ASSERT_EQ(cuMemcpyDtoH(&word, b, 4), CUDA_SUCCESS);
  EXPECT_EQ(word, 0x22332233u);
  EXPECT_EQ(cuMemcpyPeer(b, nullptr, a, ctx, 4), CUDA_ERROR_INVALID_CONTEXT);
  int can = 7;
  ASSERT_EQ(cuDeviceCanAccessPeer(&can, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(can, 0);  // a device is not its own peer
  EXPECT_EQ(cuMemPrefetchAsync(a, 16, CUmemLocation{CU_MEM_LOCATION_TYPE_DEVICE, 0}, 0, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuMemAdvise(a, 16, CU_MEM_ADVISE_SET_READ_MOSTLY, CUmemLocation{CU_MEM_LOCATION_TYPE_DEVICE, 0}), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamAttachMemAsync(nullptr, a, 0, CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS);
  for (CUdeviceptr p : {a, b}) EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
}

TEST_F(Driver, PciBusIds) {
  char id[13] = {};
  ASSERT_EQ(cuDeviceGetPCIBusId(id, sizeof id, 0), CUDA_SUCCESS);
  EXPECT_STREQ(id, "0000:00:00.0");
  int bus = -1;
  ASSERT_EQ(cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0), CUDA_SUCCESS);
  EXPECT_EQ(bus, 0);
  CUdevice dev = -1;
  for (const char* form : {"0000:00:00.0", "0000:00:00", "00:00.0"}) {
    dev = -1;
    EXPECT_EQ(cuDeviceGetByPCIBusId(&dev, form), CUDA_SUCCESS) << form;
    EXPECT_EQ(dev, 0) << form;
  }
  EXPECT_EQ(cuDeviceGetByPCIBusId(&dev, "0000:07:00.0"), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGetByPCIBusId(&dev, "bus"), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetPCIBusId(id, sizeof id, 1), CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(Driver, StreamAttributes) {
  CUstream s;
  ASSERT_EQ(cuStreamCreateWithPriority(&s, 0, -2), CUDA_SUCCESS);
  CUstreamAttrValue v{};
  ASSERT_EQ(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v), CUDA_SUCCESS);
  EXPECT_EQ(v.priority, -2);
  ASSERT_EQ(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v), CUDA_SUCCESS);
  EXPECT_EQ(v.syncPolicy, CU_SYNC_POLICY_AUTO);
  v = {};
  v.accessPolicyWindow.base_ptr = reinterpret_cast<void*>(0x1000);
  v.accessPolicyWindow.num_bytes = 1 << 20;
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
  v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
  ASSERT_EQ(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v), CUDA_SUCCESS);
  CUstream t;
  ASSERT_EQ(cuStreamCreate(&t, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCopyAttributes(t, s), CUDA_SUCCESS);
  CUstreamAttrValue w{};
  ASSERT_EQ(cuStreamGetAttribute(t, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &w), CUDA_SUCCESS);
  EXPECT_EQ(w.accessPolicyWindow.base_ptr, reinterpret_cast<void*>(0x1000));
  EXPECT_EQ(w.accessPolicyWindow.num_bytes, size_t(1) << 20);
  EXPECT_EQ(w.accessPolicyWindow.hitRatio, 0.5f);
  EXPECT_EQ(w.accessPolicyWindow.hitProp, CU_ACCESS_PROPERTY_PERSISTING);
  ASSERT_EQ(cuStreamGetAttribute(t, CU_LAUNCH_ATTRIBUTE_PRIORITY, &w), CUDA_SUCCESS);
  EXPECT_EQ(w.priority, -2);
  v.accessPolicyWindow.hitRatio = 1.5f;
  EXPECT_EQ(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v), CUDA_ERROR_INVALID_VALUE);
  v = {};
  v.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  ASSERT_EQ(cuStreamSetAttribute(nullptr, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamGetAttribute(nullptr, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &w), CUDA_SUCCESS);
  EXPECT_EQ(w.memSyncDomain, CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE);
  CUcontext c = nullptr;
  CUdevice dev = -1;
  EXPECT_EQ(cuStreamGetCtx(s, &c), CUDA_SUCCESS);
  EXPECT_EQ(c, ctx);
  EXPECT_EQ(cuStreamGetDevice(s, &dev), CUDA_SUCCESS);
  EXPECT_EQ(dev, 0);
  unsigned long long id1 = 0, id2 = 0;
  EXPECT_EQ(cuStreamGetId(s, &id1), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamGetId(t, &id2), CUDA_SUCCESS);
  EXPECT_NE(id1, id2);
  for (CUstream x : {s, t}) EXPECT_EQ(cuStreamDestroy(x), CUDA_SUCCESS);
}

// Arrays and linear memory by byte offset (cuMemcpyDtoA, AtoD, AtoA, and HtoA/AtoH's async forms).
TEST_F(Driver, ArrayLinearCopies) {
  CUDA_ARRAY_DESCRIPTOR d{16, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1};
  CUarray x, y;
  ASSERT_EQ(cuArrayCreate(&x, &d), CUDA_SUCCESS);
  ASSERT_EQ(cuArrayCreate(&y, &d), CUDA_SUCCESS);
  std::vector<uint32_t> values(16);
  for (uint32_t i = 0; i < 16; ++i) values[i] = 100 + i;
  CUdeviceptr a;
  ASSERT_EQ(cuMemAlloc(&a, 64), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(a, values.data(), 64), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoA(x, 0, a, 64), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyAtoA(y, 8, x, 16, 32), CUDA_SUCCESS);  // elements 4..11 to 2..9
  ASSERT_EQ(cuMemcpyHtoAAsync(y, 0, values.data() + 12, 8, nullptr), CUDA_SUCCESS);  // 112, 113 to 0, 1
  ASSERT_EQ(cuMemsetD32(a, 0, 16), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyAtoD(a, y, 0, 40), CUDA_SUCCESS);
  std::vector<uint32_t> got(16);
  ASSERT_EQ(cuMemcpyDtoH(got.data(), a, 64), CUDA_SUCCESS);
  const std::vector<uint32_t> want = {112, 113, 104, 105, 106, 107, 108, 109, 110, 111, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(got, want);
  uint32_t last = 0;
  ASSERT_EQ(cuMemcpyAtoHAsync(&last, x, 60, 4, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(last, 115u);
  EXPECT_EQ(cuMemcpyDtoA(x, 32, a, 64), CUDA_ERROR_INVALID_VALUE);  // past the array's end
  EXPECT_EQ(cuMemFree(a), CUDA_SUCCESS);
  for (CUarray r : {x, y}) EXPECT_EQ(cuArrayDestroy(r), CUDA_SUCCESS);
}

TEST_F(Driver, KernelParametersAndEnumeration) {
  size_t offset = 9, size = 9;
  ASSERT_EQ(cuFuncGetParamInfo(fn, 3, &offset, &size), CUDA_SUCCESS);  // vadd(u64 a, u64 b, u64 c, s32 n)
  EXPECT_EQ(offset, 24u);
  EXPECT_EQ(size, 4u);
  ASSERT_EQ(cuFuncGetParamInfo(fn, 1, &offset, &size), CUDA_SUCCESS);
  EXPECT_EQ(offset, 8u);
  EXPECT_EQ(size, 8u);
  EXPECT_EQ(cuFuncGetParamInfo(fn, 4, &offset, &size), CUDA_ERROR_INVALID_VALUE);
  unsigned count = 0;
  ASSERT_EQ(cuModuleGetFunctionCount(&count, mod), CUDA_SUCCESS);
  EXPECT_EQ(count, 1u);
  CUfunction f = nullptr;
  ASSERT_EQ(cuModuleEnumerateFunctions(&f, 1, mod), CUDA_SUCCESS);
  EXPECT_EQ(f, fn);
  CUfunctionLoadingState state{};
  ASSERT_EQ(cuFuncIsLoaded(&state, fn), CUDA_SUCCESS);
  EXPECT_EQ(state, CU_FUNCTION_LOADING_STATE_LOADED);
  const char* name = nullptr;
  ASSERT_EQ(cuKernelGetName(&name, reinterpret_cast<CUkernel>(fn)), CUDA_SUCCESS);
  EXPECT_STREQ(name, "vadd");
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(cuThreadExchangeStreamCaptureMode(&mode), CUDA_SUCCESS);
  EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
  ASSERT_EQ(cuThreadExchangeStreamCaptureMode(&mode), CUDA_SUCCESS);
  EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_RELAXED);
}

TEST_F(Driver, ZFaultIsStickyIllegalAddress) {
  CUdeviceptr a;
  ASSERT_EQ(cuMemAlloc(&a, 16), CUDA_SUCCESS);
  int count = 64;  // 64 threads read 16 bytes
  void* args[] = {&a, &a, &a, &count};
  // The launch is asynchronous: it succeeds, and the calls after it report the fault (NVIDIA's
  // simpleAssert_nvrtc checks the launch, then expects CUDA_ERROR_ASSERT from cuCtxSynchronize).
  EXPECT_EQ(cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr), CUDA_ERROR_ILLEGAL_ADDRESS);
}

}  // namespace
