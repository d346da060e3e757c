// Engine speed (issue #7: performance). One run times every kernel emulated by ptxvm and the same
// algorithm compiled natively (bench/native.cpp, -O2, one host thread), then prints a summary of
// the ratios measured in that run. What the figures mean: bench/README.md.
//   build/bench/engine_bench [--benchmark_filter=REGEX]     (scripts/bench.sh builds and runs it)
// Kernels are read from bench/kernels/ (PTXVM_BENCH_KERNELS overrides the folder); the PTX there
// is nvcc 13.0 output (`nvcc -ptx -arch=sm_90 X.cu`) of the .cu file beside it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "native.h"
#include "ptxvm/ptxvm.h"

namespace {

// ---- Kernels -------------------------------------------------------------------------------

// Converged ALU work, written by hand so that the instruction count is exact: 64 iterations of a
// dependent 8-instruction integer chain per thread.
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
constexpr uint64_t kAluInstructionsPerThread = 3 + 64 * 8 + 6;  // prologue, loop, epilogue + ret
// 1024 CTAs: on 16 host threads each still runs 64, so a launch lasts long enough that waking the
// threads and the last CTAs' imbalance do not decide the scaling figures.
constexpr uint32_t kAluCtas = 1024, kAluBlock = 256;

std::string kernels_dir() {
  const char* dir = std::getenv("PTXVM_BENCH_KERNELS");
  return dir ? dir : PTXVM_BENCH_KERNELS_DIR;
}

// Loads dir/<file>; null with the reason in *why when the file is missing or does not load.
std::unique_ptr<ptxvm::Module> load(ptxvm::Device& dev, const std::string& dir, const std::string& file,
                                    std::string* why) {
  std::ifstream in(dir + "/" + file);
  if (!in) {
    *why = file + " not found in " + dir;
    return nullptr;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string diags;
  auto m = dev.load_module(text.str(), file, &diags);
  if (!m) *why = file + " does not load: " + diags.substr(0, diags.find('\n'));
  return m;
}

std::vector<uint32_t> random_words(size_t n, uint32_t seed) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) {  // xorshift32
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    x = seed;
  }
  return v;
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  auto w = random_words(n, seed);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(w[i] >> 8) / 16777216.0f - 0.5f;
  return v;
}

template <typename T>
uint64_t upload(ptxvm::Device& dev, const std::vector<T>& host) {
  uint64_t p = dev.malloc(host.size() * sizeof(T));
  dev.copy_to_device(p, host.data(), host.size() * sizeof(T));
  return p;
}

template <typename T>
std::vector<T> download(ptxvm::Device& dev, uint64_t p, size_t n) {
  std::vector<T> host(n);
  dev.copy_to_host(host.data(), p, n * sizeof(T));
  return host;
}

// Number of elements where `got` and `want` differ by more than rel_tol relative to `want`.
template <typename T>
size_t mismatches(const std::vector<T>& got, const std::vector<T>& want, double rel_tol = 0) {
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::fabs(double(got[i]) - double(want[i])) > rel_tol * std::fabs(double(want[i]))) ++bad;
  return bad;
}

// ---- An emulated workload: a device, a module, buffers, a launch, and a check -----------------

struct Workload {
  ptxvm::Device dev;
  std::unique_ptr<ptxvm::Module> module;
  std::string kernel, why_not;  // why_not: the module did not load, or the first result was wrong
  ptxvm::LaunchConfig config;
  std::vector<ptxvm::KernelArg> args;

  ptxvm::LaunchResult launch() { return module->launch(kernel, config, args); }
};

// Every check of the sanitizer (docs/Sanitizer.md).
ptxvm::Checks all_checks() { return *ptxvm::Checks::parse("all", nullptr); }

// Runs the Google Benchmark loop over launches of w (prepared once, then cached by the caller),
// with `checks` on (a clean kernel: a report is an error).
void time_launches(benchmark::State& state, Workload& w, ptxvm::Checks checks = {}) {
  if (!w.why_not.empty()) {
    state.SkipWithError(w.why_not.c_str());
    return;
  }
  w.config.checks = checks;
  for (auto _ : state) {
    auto r = w.launch();
    if (!r.ok || !r.reports.empty()) {
      state.SkipWithError(r.ok ? r.reports[0].render(w.kernel).c_str() : r.error.c_str());
      break;
    }
  }
  w.config.checks = {};
}

// The first launch's result checked against the native one; any difference keeps the timing out.
void check_first_launch(Workload& w, const std::function<size_t()>& count_mismatches) {
  if (!w.module) return;
  auto r = w.launch();
  if (!r.ok)
    w.why_not = w.kernel + ": " + r.error;
  else if (size_t bad = count_mismatches())
    w.why_not = w.kernel + ": " + std::to_string(bad) + " results differ from the native run";
}

Workload& prepare(std::unique_ptr<Workload>& slot, const std::string& file, const std::string& kernel,
                  const std::string& dir = kernels_dir()) {
  slot = std::make_unique<Workload>();
  slot->kernel = kernel;
  slot->module = load(slot->dev, dir, file, &slot->why_not);
  return *slot;
}

// ---- ALU: converged, 1..N host threads ------------------------------------------------------

// The ALU kernel over `ctas` CTAs; returns its output, the kAluBlock words every CTA writes.
uint64_t prepare_alu(Workload& w, uint32_t ctas) {
  w.kernel = "alu";
  std::string diags;
  w.module = w.dev.load_module(kAlu, "alu.ptx", &diags);
  if (!w.module) w.why_not = "alu does not load: " + diags;
  w.config.grid = {ctas};
  w.config.block = {kAluBlock};
  const uint64_t out = w.dev.malloc(kAluBlock * 4);
  w.args = {ptxvm::arg(out)};
  return out;
}

void BM_Alu(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = *(slot = std::make_unique<Workload>());
    const uint64_t out = prepare_alu(w, kAluCtas);
    check_first_launch(w, [&] {
      std::vector<uint32_t> want(kAluBlock);
      for (uint32_t tid = 0; tid < kAluBlock; ++tid) {
        uint32_t r1 = tid, r2 = 0;
        for (int i = 0; i < 64; ++i) {
          r1 = r1 * 1664525u + 1013904223u;
          r2 += (r1 ^ r2) << 3;
        }
        want[tid] = r2 & 255;
      }
      return mismatches(download<uint32_t>(w.dev, out, kAluBlock), want);
    });
  }
  slot->config.threads = static_cast<unsigned>(state.range(0));
  time_launches(state, *slot);
  double thread_insts = double(state.iterations()) * kAluCtas * kAluBlock * kAluInstructionsPerThread;
  state.counters["thread_inst/s"] = benchmark::Counter(thread_insts, benchmark::Counter::kIsRate);
  state.counters["warp_inst/s"] = benchmark::Counter(thread_insts / 32, benchmark::Counter::kIsRate);
}

// The host's own ceiling for the scaling figures: t host threads each run the ALU kernel on a
// device of their own (one host thread per launch, kAluCtas CTAs in all), sharing nothing of
// ptxvm's. time(1) / (t · time(t)) is what the host gives t copies of the engine's own work:
// below 1 where cores are hyperthreads of one another, the clock drops with load, or a
// virtualised host shares its cores; the gap between it and BM_Alu's figure is the engine's.
void BM_AluIndependent(benchmark::State& state) {
  const unsigned t = static_cast<unsigned>(state.range(0));
  static std::map<unsigned, std::vector<std::unique_ptr<Workload>>> prepared;
  std::vector<std::unique_ptr<Workload>>& copies = prepared[t];
  if (copies.empty()) {
    for (unsigned i = 0; i < t; ++i) {
      Workload& w = *copies.emplace_back(std::make_unique<Workload>());
      prepare_alu(w, kAluCtas / t + (i < kAluCtas % t ? 1 : 0));
      w.config.threads = 1;
    }
  }
  if (!copies[0]->why_not.empty()) {
    state.SkipWithError(copies[0]->why_not.c_str());
    return;
  }
  std::vector<std::string> errors(t);
  auto work = [&](unsigned i) {
    if (auto r = copies[i]->launch(); !r.ok) errors[i] = r.error;
  };
  for (auto _ : state) {
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < t; ++i) threads.emplace_back(work, i);
    work(0);
    for (auto& th : threads) th.join();
  }
  for (const std::string& e : errors)
    if (!e.empty()) state.SkipWithError(e.c_str());
}

// ---- float loop, with and without .ftz (what -use_fast_math emits) ---------------------------

// 64 rounds of x = fma(x, a, 0.25); x = x * a + 0.5 (a mul and an add that ptxas fuses) per
// thread, a in [0.1, 0.9): the result converges and no value is subnormal, so both forms agree.
std::string float_loop_ptx(bool ftz) {
  const std::string f = ftz ? ".ftz" : "";
  return ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
         ".reg .f32 %f<5>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %p;\n"
         "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nmad.lo.u32 %r1, %r1, 256, %r2;\n"
         "mul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd1, %rd1, %rd2;\nld.global.f32 %f1, [%rd1];\nmov.f32 %f2, 0f00000000;\n"
         "mov.u32 %r3, 0;\nL:\nfma.rn" + f + ".f32 %f2, %f2, %f1, 0f3E800000;\nmul" + f + ".f32 %f3, %f2, %f1;\nadd" + f +
         ".f32 %f2, %f3, 0f3F000000;\nadd.u32 %r3, %r3, 1;\nsetp.lt.u32 %p, %r3, 64;\n@%p bra L;\n"
         "st.global.f32 [%rd1], %f2;\nret;\n}\n";
}

void BM_FloatLoop(benchmark::State& state) {
  static std::unique_ptr<Workload> slots[2];
  const bool ftz = state.range(0) != 0;
  std::unique_ptr<Workload>& slot = slots[ftz];
  constexpr uint32_t kCtas = 256, kThreads = kCtas * 256;
  static std::vector<float> a(kThreads);
  if (!slot) {
    for (uint32_t i = 0; i < kThreads; ++i) a[i] = 0.1f + 0.8f * float(i % 1009) / 1009.0f;
    Workload& w = *(slot = std::make_unique<Workload>());
    w.kernel = "k";
    std::string diags;
    w.module = w.dev.load_module(float_loop_ptx(ftz), "float_loop.ptx", &diags);
    if (!w.module) w.why_not = "float_loop does not load: " + diags;
    const uint64_t buf = w.dev.malloc(kThreads * 4);
    w.dev.copy_to_device(buf, a.data(), kThreads * 4);
    w.config.grid = {kCtas};
    w.config.block = {256};
    w.args = {ptxvm::arg(buf)};
    if (w.why_not.empty())
      check_first_launch(w, [&] {
        std::vector<float> want(kThreads);
        for (uint32_t i = 0; i < kThreads; ++i) {
          float x = 0;
          for (int r = 0; r < 64; ++r) x = std::fma(std::fma(x, a[i], 0.25f), a[i], 0.5f);
          want[i] = x;
        }
        return mismatches(download<float>(w.dev, buf, kThreads), want);
      });
  }
  time_launches(state, *slot);  // each launch works on the previous results: same work, other values
  state.counters["flop/s"] = benchmark::Counter(double(state.iterations()) * kThreads * 64 * 4,
                                                benchmark::Counter::kIsRate);
}

// ---- saxpy, 1M floats -----------------------------------------------------------------------

constexpr uint32_t kSaxpyN = 1 << 20;
constexpr float kSaxpyA = 2.0f;

Workload& saxpy_workload() {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "saxpy.ptx", "saxpy");
    auto x = random_floats(kSaxpyN, 1), y = random_floats(kSaxpyN, 2);
    uint64_t dx = upload(w.dev, x), dy = upload(w.dev, y);
    w.config.grid = {kSaxpyN / 256};
    w.config.block = {256};
    w.config.threads = 1;
    w.args = {ptxvm::arg(dy), ptxvm::arg(dx), ptxvm::arg(kSaxpyA), ptxvm::arg(kSaxpyN)};
    // The kernel rounds once (fma.rn); the native loop may round twice: compare within 1e-6.
    check_first_launch(w, [&] {
      bench::native::saxpy(y.data(), x.data(), kSaxpyA, kSaxpyN);
      return mismatches(download<float>(w.dev, dy, kSaxpyN), y, 1e-6);
    });
  }
  return *slot;
}

void BM_SaxpyEmulated(benchmark::State& state) {
  time_launches(state, saxpy_workload());
  state.SetBytesProcessed(int64_t(state.iterations()) * kSaxpyN * 12);
}

void BM_SaxpyChecked(benchmark::State& state) { time_launches(state, saxpy_workload(), all_checks()); }

void BM_SaxpyNative(benchmark::State& state) {
  auto x = random_floats(kSaxpyN, 1), y = random_floats(kSaxpyN, 2);
  for (auto _ : state) {
    bench::native::saxpy(y.data(), x.data(), kSaxpyA, kSaxpyN);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kSaxpyN * 12);
}

// ---- transpose, 1024 x 1024 f32 -------------------------------------------------------------

constexpr uint32_t kDim = 1024;

Workload& transpose_workload() {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "transpose.ptx", "transpose");
    auto in = random_floats(kDim * kDim, 3);
    uint64_t din = upload(w.dev, in), dout = w.dev.malloc(kDim * kDim * 4);
    w.config.grid = {kDim / 32, kDim / 32};
    w.config.block = {32, 8};
    w.config.threads = 1;
    w.args = {ptxvm::arg(dout), ptxvm::arg(din), ptxvm::arg(kDim), ptxvm::arg(kDim)};
    check_first_launch(w, [&] {
      std::vector<float> want(kDim * kDim);
      bench::native::transpose(want.data(), in.data(), kDim, kDim);
      return mismatches(download<float>(w.dev, dout, kDim * kDim), want);
    });
  }
  return *slot;
}

void BM_TransposeEmulated(benchmark::State& state) {
  time_launches(state, transpose_workload());
  state.SetBytesProcessed(int64_t(state.iterations()) * kDim * kDim * 8);
}

void BM_TransposeChecked(benchmark::State& state) { time_launches(state, transpose_workload(), all_checks()); }

void BM_TransposeNative(benchmark::State& state) {
  auto in = random_floats(kDim * kDim, 3);
  std::vector<float> out(kDim * kDim);
  for (auto _ : state) {
    bench::native::transpose(out.data(), in.data(), kDim, kDim);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kDim * kDim * 8);
}

// ---- divergent: if/else on lane parity, then a data-dependent loop (0..31 trips) ------------

constexpr uint32_t kDivergentN = 1 << 18;

Workload& divergent_workload() {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "divergent.ptx", "divergent");
    auto in = random_words(kDivergentN, 4);
    uint64_t din = upload(w.dev, in), dout = w.dev.malloc(kDivergentN * 4);
    w.config.grid = {kDivergentN / 256};
    w.config.block = {256};
    w.config.threads = 1;
    w.args = {ptxvm::arg(dout), ptxvm::arg(din), ptxvm::arg(kDivergentN)};
    check_first_launch(w, [&] {
      std::vector<uint32_t> want(kDivergentN);
      bench::native::divergent(want.data(), in.data(), kDivergentN);
      return mismatches(download<uint32_t>(w.dev, dout, kDivergentN), want);
    });
  }
  return *slot;
}

void BM_DivergentEmulated(benchmark::State& state) {
  time_launches(state, divergent_workload());
}

void BM_DivergentChecked(benchmark::State& state) { time_launches(state, divergent_workload(), all_checks()); }

void BM_DivergentNative(benchmark::State& state) {
  auto in = random_words(kDivergentN, 4);
  std::vector<uint32_t> out(kDivergentN);
  for (auto _ : state) {
    bench::native::divergent(out.data(), in.data(), kDivergentN);
    benchmark::ClobberMemory();
  }
}

// ---- histogram: 256 bins by global atomicAdd ------------------------------------------------

constexpr uint32_t kHistogramN = 1 << 20;

Workload& histogram_workload() {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "histogram.ptx", "histogram");
    auto in = random_words(kHistogramN, 5);
    uint64_t din = upload(w.dev, in), dbins = upload(w.dev, std::vector<uint32_t>(256));
    w.config.grid = {kHistogramN / 256};
    w.config.block = {256};
    w.config.threads = 1;
    w.args = {ptxvm::arg(dbins), ptxvm::arg(din), ptxvm::arg(kHistogramN)};
    check_first_launch(w, [&] {
      std::vector<uint32_t> want(256);
      bench::native::histogram(want.data(), in.data(), kHistogramN);
      return mismatches(download<uint32_t>(w.dev, dbins, 256), want);
    });
  }
  return *slot;
}

void BM_HistogramEmulated(benchmark::State& state) {
  time_launches(state, histogram_workload());  // the bins keep counting across launches, as the native ones do
}

void BM_HistogramChecked(benchmark::State& state) { time_launches(state, histogram_workload(), all_checks()); }

void BM_HistogramNative(benchmark::State& state) {
  auto in = random_words(kHistogramN, 5);
  std::vector<uint32_t> bins(256);
  for (auto _ : state) {
    bench::native::histogram(bins.data(), in.data(), kHistogramN);
    benchmark::ClobberMemory();
  }
}

// ---- warp shuffle reduction: sums of 32 floats by shfl.sync.down ----------------------------

constexpr uint32_t kReduceN = 1 << 20;

Workload& warp_reduce_workload() {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "warp_reduce.ptx", "warp_reduce");
    auto in = random_floats(kReduceN, 6);
    uint64_t din = upload(w.dev, in), dout = w.dev.malloc(kReduceN / 32 * 4);
    w.config.grid = {kReduceN / 256};
    w.config.block = {256};
    w.config.threads = 1;
    w.args = {ptxvm::arg(dout), ptxvm::arg(din), ptxvm::arg(kReduceN)};
    check_first_launch(w, [&] {  // same additions in the same order: bit for bit
      std::vector<float> want(kReduceN / 32);
      bench::native::warp_reduce(want.data(), in.data(), kReduceN);
      return mismatches(download<float>(w.dev, dout, kReduceN / 32), want);
    });
  }
  return *slot;
}

void BM_WarpReduceEmulated(benchmark::State& state) {
  time_launches(state, warp_reduce_workload());
}

void BM_WarpReduceChecked(benchmark::State& state) { time_launches(state, warp_reduce_workload(), all_checks()); }

void BM_WarpReduceNative(benchmark::State& state) {
  auto in = random_floats(kReduceN, 6);
  std::vector<float> out(kReduceN / 32);
  for (auto _ : state) {
    bench::native::warp_reduce(out.data(), in.data(), kReduceN);
    benchmark::ClobberMemory();
  }
}

// ---- GEMM by mma.sync (kernels/mma_gemm.ptx; contract in bench/kernels/mma_gemm.cu) ---------

constexpr uint32_t kGemm = 256;  // M = N = K
constexpr double kGemmMacs = double(kGemm) * kGemm * kGemm;

// Matrix entries i/256 with |i| <= 128: exact in f16, products exact in f32 and every partial sum
// (|sum| <= 64, multiples of 2^-16) exact too, so any summation order gives the same D.
std::vector<float> gemm_operand(uint32_t seed) {
  auto w = random_words(kGemm * kGemm, seed);
  std::vector<float> v(w.size());
  for (size_t i = 0; i < w.size(); ++i) v[i] = (int(w[i] % 257) - 128) / 256.0f;
  return v;
}

// IEEE binary16 bits of f, for the normal numbers and zeros that gemm_operand yields (exact).
uint16_t half_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000);
  if ((b & 0x7fffffff) == 0) return sign;
  int exponent = int((b >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | (exponent << 10) | ((b >> 13) & 0x3ff));
}

// The f16 operands of gemm_operand(seed) as binary16 bits, row-major (or each column contiguous).
std::vector<uint16_t> gemm_halves(const std::vector<float>& m, bool columns) {
  std::vector<uint16_t> h(m.size());
  for (uint32_t p = 0; p < kGemm; ++p)
    for (uint32_t j = 0; j < kGemm; ++j) h[columns ? j * kGemm + p : p * kGemm + j] = half_bits(m[p * kGemm + j]);
  return h;
}

// A launch of a GEMM kernel on gemm_operand(7) x gemm_operand(8) into dd, checked once against the
// native matmul; the caller has set w's grid, block and shared memory.
void gemm_workload(Workload& w, uint64_t dd, std::vector<ptxvm::KernelArg> args) {
  w.config.threads = 1;
  w.args = std::move(args);
  check_first_launch(w, [&] {
    std::vector<float> want(kGemm * kGemm);
    bench::native::matmul(want.data(), gemm_operand(7).data(), gemm_operand(8).data(), kGemm, kGemm, kGemm);
    return mismatches(download<float>(w.dev, dd, kGemm * kGemm), want);
  });
}

void BM_GemmEmulated(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "mma_gemm.ptx", "mma_gemm");
    uint64_t dd = w.dev.malloc(kGemm * kGemm * 4), da = upload(w.dev, gemm_halves(gemm_operand(7), false)),
             db = upload(w.dev, gemm_halves(gemm_operand(8), true));
    w.config.grid = {kGemm / 8, kGemm / 16};
    w.config.block = {32};
    gemm_workload(w, dd, {ptxvm::arg(dd), ptxvm::arg(da), ptxvm::arg(db), ptxvm::arg(kGemm), ptxvm::arg(kGemm),
                          ptxvm::arg(kGemm)});
  }
  time_launches(state, *slot);
  state.counters["mac/s"] = benchmark::Counter(state.iterations() * kGemmMacs, benchmark::Counter::kIsRate);
}

// The same GEMM on the warpgroup tensor cores (kernels/wgmma_gemm.cu): per 64-deep step of a
// 64 x 256 tile, four wgmma.mma_async m64n256k16 on 128-byte-swizzled shared-memory operands.
void BM_WgmmaGemmEmulated(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "wgmma_gemm.ptx", "wgmma_gemm");
    uint64_t dd = w.dev.malloc(kGemm * kGemm * 4), da = upload(w.dev, gemm_halves(gemm_operand(7), false)),
             db = upload(w.dev, gemm_halves(gemm_operand(8), true));
    w.config.grid = {kGemm / 256, kGemm / 64};
    w.config.block = {128};
    gemm_workload(w, dd, {ptxvm::arg(dd), ptxvm::arg(da), ptxvm::arg(db), ptxvm::arg(kGemm), ptxvm::arg(kGemm),
                          ptxvm::arg(kGemm)});
  }
  time_launches(state, *slot);
  state.counters["mac/s"] = benchmark::Counter(state.iterations() * kGemmMacs, benchmark::Counter::kIsRate);
}

// The same GEMM on the Blackwell tensor cores (kernels/tcgen05_gemm.cu): per 64-deep step of a
// 128 x 256 tile, four tcgen05.mma.kind::f16 (M = 128, N = 256) into Tensor Memory, committed to
// an mbarrier; tcgen05.ld epilogue.
void BM_Tcgen05GemmEmulated(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  if (!slot) {
    Workload& w = prepare(slot, "tcgen05_gemm.ptx", "tcgen05_gemm");
    uint64_t dd = w.dev.malloc(kGemm * kGemm * 4), da = upload(w.dev, gemm_halves(gemm_operand(7), false)),
             db = upload(w.dev, gemm_halves(gemm_operand(8), true));
    w.config.grid = {kGemm / 256, kGemm / 128};
    w.config.block = {128};
    gemm_workload(w, dd, {ptxvm::arg(dd), ptxvm::arg(da), ptxvm::arg(db), ptxvm::arg(kGemm), ptxvm::arg(kGemm),
                          ptxvm::arg(kGemm)});
  }
  time_launches(state, *slot);
  state.counters["mac/s"] = benchmark::Counter(state.iterations() * kGemmMacs, benchmark::Counter::kIsRate);
}

// Triton's tl.dot GEMM (tests/kernels/triton/dot.py: f16 A and B row-major, f32 C, 32 x 32 x 32
// tiles, 4 warps, compiled for cuda:80), as the kernel suite keeps it; its launch as
// tests/kernels/ptx/triton_meta.json gives it (block 128, `shared_bytes` of dynamic shared
// memory), plus Triton's two scratch pointers, null.
void triton_gemm(benchmark::State& state, std::unique_ptr<Workload>& slot, const char* ptx, uint32_t shared_bytes,
                 uint32_t tile = 32) {
  if (!slot) {
    Workload& w = prepare(slot, ptx, "dot_gemm", PTXVM_TRITON_KERNELS_DIR);
    uint64_t dd = w.dev.malloc(kGemm * kGemm * 4), da = upload(w.dev, gemm_halves(gemm_operand(7), false)),
             db = upload(w.dev, gemm_halves(gemm_operand(8), false));
    w.config.grid = {kGemm / tile, kGemm / tile};
    w.config.block = {128};
    w.config.shared_bytes = shared_bytes;
    gemm_workload(w, dd, {ptxvm::arg(da), ptxvm::arg(db), ptxvm::arg(dd), ptxvm::arg(kGemm), ptxvm::arg(kGemm),
                          ptxvm::arg(kGemm), ptxvm::arg(uint64_t{0}), ptxvm::arg(uint64_t{0})});
  }
  time_launches(state, *slot);
  state.counters["mac/s"] = benchmark::Counter(state.iterations() * kGemmMacs, benchmark::Counter::kIsRate);
}

// `dot_f16`: num_stages=1, operands through registers into shared memory.
void BM_TritonGemmEmulated(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  triton_gemm(state, slot, "triton_dot_f16.cuda80.ptx", 4096);
}

// `dot_f16_pipelined`: num_stages=3, operands staged by cp.async, commit_group and wait_group.
void BM_TritonPipelinedGemmEmulated(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  triton_gemm(state, slot, "triton_dot_f16_pipelined.cuda80.ptx", 8192);
}

// `dot90_f16` (tests/kernels/triton/dot90.py): the same tl.dot for cuda:90, 64 x 64 tiles on
// wgmma.mma_async m64n64k16.
void BM_TritonWgmmaGemmEmulated(benchmark::State& state) {
  static std::unique_ptr<Workload> slot;
  triton_gemm(state, slot, "triton_dot90_f16.cuda90.ptx", 16384, 64);
}

void BM_GemmNative(benchmark::State& state) {
  auto a = gemm_operand(7), b = gemm_operand(8);
  std::vector<float> c(kGemm * kGemm);
  for (auto _ : state) {
    bench::native::matmul(c.data(), a.data(), b.data(), kGemm, kGemm, kGemm);
    benchmark::ClobberMemory();
  }
  state.counters["mac/s"] = benchmark::Counter(state.iterations() * kGemmMacs, benchmark::Counter::kIsRate);
}

// NumPy's float32 matmul on one OpenBLAS thread at 1024 x 1024 x 1024 (the issue's yardstick), in
// multiply-adds per second: the best of 10 after a warm-up. Negative when python3 or numpy is
// missing.
constexpr unsigned kNumpyN = 1024;
double numpy_gemm_rate() {
  std::string cmd =
      "OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 python3 -c '"
      "import numpy as np, time\n"
      "n = " + std::to_string(kNumpyN) + "\n"
      "a = np.random.rand(n, n).astype(np.float32); b = np.random.rand(n, n).astype(np.float32)\n"
      "a @ b\n"
      "best = 1e9\n"
      "for _ in range(10):\n"
      "    t = time.perf_counter(); a @ b; best = min(best, time.perf_counter() - t)\n"
      "print(best)' 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  double seconds = -1;
  if (std::fscanf(p, "%lf", &seconds) != 1) seconds = -1;
  return pclose(p) == 0 && seconds > 0 ? double(kNumpyN) * kNumpyN * kNumpyN / seconds : -1;
}

// ---- Summary --------------------------------------------------------------------------------

constexpr int kRepetitions = 3;

struct Outcome {
  std::vector<double> seconds;  // per iteration, one entry per repetition
  std::string error;

  double median() const {
    std::vector<double> v = seconds;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }
};

// Keeps every repetition's time per iteration for the summary, and shows Google Benchmark's table
// with one line per benchmark: the median of its repetitions (or its error, once).
class Recorder : public benchmark::ConsoleReporter {
public:
  std::map<std::string, Outcome> outcomes;

  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> shown;
    for (const Run& r : runs) {
      std::string key = r.run_name.function_name;
      if (!r.run_name.args.empty()) key += "/" + r.run_name.args;
      Outcome& o = outcomes[key];
      if (r.run_type == Run::RT_Aggregate) {
        if (r.aggregate_name == "median") shown.push_back(r);
      } else if (r.error_occurred) {
        if (o.error.empty()) shown.push_back(r);
        o.error = r.error_message;
      } else {
        o.seconds.push_back(r.real_accumulated_time / double(r.iterations));
      }
    }
    if (!shown.empty()) ConsoleReporter::ReportRuns(shown);
  }
};

std::string alu_name(unsigned threads) { return "alu/threads:" + std::to_string(threads); }

void print_summary(const Recorder& rec, unsigned max_threads) {
  auto find = [&](const std::string& name) -> const Outcome* {
    auto it = rec.outcomes.find(name);
    return it == rec.outcomes.end() ? nullptr : &it->second;
  };
  std::printf("\n==== ptxvm engine summary (every ratio from this run) ====\n");

  const double alu_insts = double(kAluCtas) * kAluBlock * kAluInstructionsPerThread;
  const Outcome* one = find(alu_name(1));
  if (one && one->error.empty()) {
    double rate = alu_insts / one->median();
    std::printf("Converged ALU (%u CTAs x %u threads, %llu instructions per thread), 1 host thread:\n"
                "  %.3e thread-instructions/s, %.3e warp-instructions/s per core\n",
                kAluCtas, kAluBlock, static_cast<unsigned long long>(kAluInstructionsPerThread), rate,
                rate / 32);
    double load[1] = {0};
    getloadavg(load, 1);  // other work on the host takes cores from the scaling runs
    std::printf("  scaling over host threads (hardware_concurrency = %u, host load average %.2f):\n",
                max_threads, load[0]);
    std::map<unsigned, const Outcome*> by_threads;
    for (const auto& [name, o] : rec.outcomes)
      if (name.starts_with("alu/threads:") && o.error.empty())
        by_threads[static_cast<unsigned>(std::stoul(name.substr(name.find(':') + 1)))] = &o;
    const Outcome* host_one = find("alu-independent/threads:1");
    for (const auto& [t, o] : by_threads) {
      double speedup = one->median() / o->median();
      std::printf("    threads=%-3u %.3e thread-inst/s  speedup %.2fx  parallel efficiency %3.0f%%", t,
                  alu_insts / o->median(), speedup, 100 * speedup / t);
      const Outcome* host = find("alu-independent/threads:" + std::to_string(t));
      if (host_one && host && host_one->error.empty() && host->error.empty())
        std::printf("   (the host's own: %3.0f%%; throughput %3.0f%% of t independent engines')",
                    100 * host_one->median() / host->median() / t, 100 * host->median() / o->median());
      std::printf("\n");
    }
  } else if (one) {
    std::printf("Converged ALU: failed: %s\n", one->error.c_str());
  }

  struct Pair {
    const char* label;
    const char* emulated;
    const char* native;
    double bytes;  // memory traffic per iteration, for GB/s; 0 when not memory-bound
  };
  const Pair pairs[] = {
      {"saxpy 1M f32", "BM_SaxpyEmulated", "BM_SaxpyNative", 12.0 * kSaxpyN},
      {"transpose 1024^2 f32", "BM_TransposeEmulated", "BM_TransposeNative", 8.0 * kDim * kDim},
      {"divergent 256K", "BM_DivergentEmulated", "BM_DivergentNative", 0},
      {"histogram atomics 1M", "BM_HistogramEmulated", "BM_HistogramNative", 0},
      {"warp shfl reduce 1M", "BM_WarpReduceEmulated", "BM_WarpReduceNative", 0},
  };
  bool header = false;
  for (const Pair& p : pairs) {
    const Outcome *e = find(p.emulated), *n = find(p.native);
    if (!e || !n) continue;  // filtered out
    if (!std::exchange(header, true))
      std::printf("\nKernel (1 host thread)       emulated     native C++ -O2   slowdown\n");
    if (!e->error.empty()) {
      std::printf("%-26s skipped: %s\n", p.label, e->error.c_str());
      continue;
    }
    std::printf("%-26s %9.3f ms   %9.3f ms   %8.1fx", p.label, e->median() * 1e3, n->median() * 1e3,
                e->median() / n->median());
    if (p.bytes > 0) std::printf("   (%.2f vs %.2f GB/s)", p.bytes / e->median() / 1e9, p.bytes / n->median() / 1e9);
    std::printf("\n");
  }

  bool checked_header = false;
  for (const Pair& p : pairs) {
    std::string checked = p.emulated;  // BM_<kernel>Checked beside BM_<kernel>Emulated
    checked.replace(checked.find("Emulated"), 8, "Checked");
    const Outcome *e = find(p.emulated), *c = find(checked);
    if (!e || !c || !e->error.empty()) continue;
    if (!std::exchange(checked_header, true))
      std::printf("\nSanitizer, --check=all (1 host thread)   unchecked      checked   overhead\n");
    if (!c->error.empty()) {
      std::printf("%-26s skipped: %s\n", p.label, c->error.c_str());
      continue;
    }
    std::printf("%-26s             %9.3f ms   %9.3f ms   %6.1fx\n", p.label, e->median() * 1e3, c->median() * 1e3,
                c->median() / e->median());
  }

  const Outcome* gn = find("BM_GemmNative");
  if (!gn) return;
  std::printf("\nGEMM, multiply-adds/s (1 thread each):\n");
  const double native = kGemmMacs / gn->median(), numpy = numpy_gemm_rate();
  auto label = [](const char* what, unsigned n) { return std::string(what) + " " + std::to_string(n) + "^3:"; };
  std::printf("  %-50s %.3g\n", label("blocked C++ -O2 fp32 matmul", kGemm).c_str(), native);
  if (numpy > 0)
    std::printf("  %-50s %.3g  (the issue's yardstick)\n", label("NumPy float32 @, OpenBLAS", kNumpyN).c_str(), numpy);
  else
    std::printf("  NumPy float32 @: skipped (python3 with numpy not available)\n");
  const std::pair<const char*, const char*> emulated[] = {{"BM_GemmEmulated", "ptxvm mma.sync (hand-written)"},
                                                          {"BM_WgmmaGemmEmulated", "ptxvm wgmma (hand-written)"},
                                                          {"BM_Tcgen05GemmEmulated", "ptxvm tcgen05 (hand-written)"},
                                                          {"BM_TritonGemmEmulated", "ptxvm Triton tl.dot (f16)"},
                                                          {"BM_TritonWgmmaGemmEmulated", "ptxvm Triton tl.dot (f16, cuda:90 wgmma)"},
                                                          {"BM_TritonPipelinedGemmEmulated", "ptxvm Triton tl.dot (f16, 3 stages)"}};
  for (const auto& [name, what] : emulated) {
    const Outcome* e = find(name);
    if (!e) continue;
    if (!e->error.empty()) {
      std::printf("  %s: skipped (%s)\n", what, e->error.c_str());
      continue;
    }
    const double rate = kGemmMacs / e->median();
    std::printf("  %-50s %.3g  (%.1fx slower than the C++", label(what, kGemm).c_str(), rate, native / rate);
    if (numpy > 0) std::printf(", %.1f%% of NumPy", 100 * rate / numpy);
    std::printf(")\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const unsigned max_threads = std::max(1u, std::thread::hardware_concurrency());
  using Body = void (*)(benchmark::State&);
  // 1, 2, 4, ... and every core; the engine's and the host's own figure for each t one after the
  // other, so that both meet the host in the same state (a virtualised host's clock and
  // neighbours change from one minute to the next).
  std::vector<unsigned> thread_counts;
  for (unsigned t = 1; t < max_threads; t *= 2) thread_counts.push_back(t);
  thread_counts.push_back(max_threads);
  for (unsigned t : thread_counts)
    for (auto [name, fn] : {std::pair<const char*, Body>{"alu", BM_Alu}, std::pair<const char*, Body>{"alu-independent", BM_AluIndependent}})
      benchmark::RegisterBenchmark(name, fn)->ArgName("threads")->Arg(t)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(0.5)->Repetitions(kRepetitions);

  const std::pair<const char*, void (*)(benchmark::State&)> pairs[] = {
      {"BM_SaxpyEmulated", BM_SaxpyEmulated},         {"BM_SaxpyNative", BM_SaxpyNative},
      {"BM_TransposeEmulated", BM_TransposeEmulated}, {"BM_TransposeNative", BM_TransposeNative},
      {"BM_DivergentEmulated", BM_DivergentEmulated}, {"BM_DivergentNative", BM_DivergentNative},
      {"BM_HistogramEmulated", BM_HistogramEmulated}, {"BM_HistogramNative", BM_HistogramNative},
      {"BM_WarpReduceEmulated", BM_WarpReduceEmulated}, {"BM_WarpReduceNative", BM_WarpReduceNative},
      {"BM_SaxpyChecked", BM_SaxpyChecked},           {"BM_TransposeChecked", BM_TransposeChecked},
      {"BM_DivergentChecked", BM_DivergentChecked},   {"BM_HistogramChecked", BM_HistogramChecked},
      {"BM_WarpReduceChecked", BM_WarpReduceChecked},
      {"BM_GemmEmulated", BM_GemmEmulated},           {"BM_GemmNative", BM_GemmNative},
      {"BM_WgmmaGemmEmulated", BM_WgmmaGemmEmulated},         {"BM_Tcgen05GemmEmulated", BM_Tcgen05GemmEmulated},
      {"BM_TritonGemmEmulated", BM_TritonGemmEmulated}, {"BM_TritonPipelinedGemmEmulated", BM_TritonPipelinedGemmEmulated},
      {"BM_TritonWgmmaGemmEmulated", BM_TritonWgmmaGemmEmulated},
  };
  for (const auto& [name, fn] : pairs)
    benchmark::RegisterBenchmark(name, fn)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(0.5)->Repetitions(kRepetitions);
  for (int ftz : {0, 1})
    benchmark::RegisterBenchmark(ftz ? "BM_FloatLoopFtz" : "BM_FloatLoop", BM_FloatLoop)->Arg(ftz)->UseRealTime()
        ->Unit(benchmark::kMillisecond)->MinTime(0.5)->Repetitions(kRepetitions);

  Recorder recorder;
  benchmark::RunSpecifiedBenchmarks(&recorder);
  print_summary(recorder, max_threads);
  benchmark::Shutdown();
  return 0;
}
