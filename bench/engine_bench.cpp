// Engine speed (issue: performance): thread-instructions per second on converged ALU code, and
// saxpy against the same loop compiled natively, each measured in one run.
//   build/bench/engine_bench
#include <benchmark/benchmark.h>

#include <vector>

#include "ptxvm/ptxvm.h"

namespace {

// 64 iterations of a dependent 8-instruction integer chain per thread.
const char* kAlu = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry alu(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r7, 0;
LOOP:
  mad.lo.s32 %r1, %r1, 1664525, 1013904223;
  xor.b32 %r3, %r1, %r2;
  shl.b32 %r4, %r3, 3;
  add.s32 %r2, %r2, %r4;
  and.b32 %r5, %r2, 255;
  add.s32 %r7, %r7, 1;
  setp.lt.u32 %p1, %r7, 64;
  @%p1 bra LOOP;
  ld.param.u64 %rd1, [out];
  mov.u32 %r6, %tid.x;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";
constexpr uint64_t kAluInstructionsPerThread = 3 + 64 * 8 + 6 + 1;

const char* kSaxpy = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry saxpy(.param .u64 y, .param .u64 x, .param .f32 a, .param .u32 n)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<7>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [y];
  ld.param.u64 %rd2, [x];
  ld.param.f32 %f1, [a];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  add.s64 %rd5, %rd1, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  fma.rn.f32 %f3, %f1, %f2, %f3;
  st.global.f32 [%rd5], %f3;
DONE:
  ret;
}
)";

void BM_ConvergedAlu(benchmark::State& state) {
  ptxvm::Device dev;
  std::string diags;
  auto m = dev.load_module(kAlu, "alu.ptx", &diags);
  const uint32_t ctas = 64, threads = 256;
  uint64_t out = dev.malloc(ctas * threads * 4);
  ptxvm::LaunchConfig c;
  c.grid = {ctas};
  c.block = {threads};
  c.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    auto r = m->launch("alu", c, {ptxvm::arg(out)});
    if (!r.ok) state.SkipWithError(r.error.c_str());
  }
  double thread_insts = static_cast<double>(state.iterations()) * ctas * threads * kAluInstructionsPerThread;
  state.counters["thread_inst/s"] = benchmark::Counter(thread_insts, benchmark::Counter::kIsRate);
  state.counters["warp_inst/s"] = benchmark::Counter(thread_insts / 32, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ConvergedAlu)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

constexpr uint32_t kN = 1 << 20;

void BM_SaxpyEmulated(benchmark::State& state) {
  ptxvm::Device dev;
  std::string diags;
  auto m = dev.load_module(kSaxpy, "saxpy.ptx", &diags);
  std::vector<float> host(kN, 1.0f);
  uint64_t x = dev.malloc(kN * 4), y = dev.malloc(kN * 4);
  dev.copy_to_device(x, host.data(), kN * 4);
  dev.copy_to_device(y, host.data(), kN * 4);
  ptxvm::LaunchConfig c;
  c.grid = {kN / 256};
  c.block = {256};
  c.threads = 1;
  for (auto _ : state) {
    auto r = m->launch("saxpy", c, {ptxvm::arg(y), ptxvm::arg(x), ptxvm::arg(2.0f), ptxvm::arg(kN)});
    if (!r.ok) state.SkipWithError(r.error.c_str());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kN * 12);
}
BENCHMARK(BM_SaxpyEmulated)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SaxpyNative(benchmark::State& state) {
  std::vector<float> x(kN, 1.0f), y(kN, 1.0f);
  for (auto _ : state) {
    for (uint32_t i = 0; i < kN; ++i) y[i] = 2.0f * x[i] + y[i];
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kN * 12);
}
BENCHMARK(BM_SaxpyNative)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
