// The planted-bug suite (docs/Sanitizer.md). Hand-written PTX: each tests/sanitize/planted/*.ptx
// holds a kernel `bug` and the same kernel fixed, `ok`. CUDA C++: planted_cuda/planted.cu holds
// kernels <case>_bug and <case>_ok, compiled to planted.sm_90.ptx with -lineinfo. Comments say
// how to launch a kernel (`// launch: grid G block B [shared S] [uninitialised-out]`) and what the checks must report
// (`// expect: <check> <kind>[; ...]` on the line: the PTX line, or for CUDA the source line that
// .loc gives). A bug must be reported exactly so, at those lines; its fixed kernel reports nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

#include "ptxvm/ptxvm.h"

namespace {

namespace fs = std::filesystem;

using Expected = std::set<std::tuple<std::string, std::string, uint32_t>>;  // check, kind, line

struct Launch {
  uint32_t grid = 1, block = 32, shared = 0;
  bool uninitialised_out = false;  // `out` as allocated, never written (else zeroed, as launch_ptx.cu does)
};

// `// launch: grid G block B [shared S] [uninitialised-out]` in `line`, into `l`.
void parse_launch(const std::string& line, Launch& l) {
  if (auto at = line.find("// launch: grid "); at != std::string::npos) {
    std::sscanf(line.c_str() + at, "// launch: grid %u block %u shared %u", &l.grid, &l.block, &l.shared);
    l.uninitialised_out = line.find("uninitialised-out") != std::string::npos;
  }
}

// `// expect: <check> <kind>[; <check> <kind>...]` in `line` (number n), into `e`.
void parse_expect(const std::string& line, uint32_t n, Expected& e) {
  auto at = line.find("// expect: ");
  if (at == std::string::npos) return;
  std::istringstream all(line.substr(at + 11));
  for (std::string one; std::getline(all, one, ';');) {
    std::istringstream words(one);
    std::string check, kind;
    words >> check;
    std::getline(words >> std::ws, kind);
    e.emplace(check, kind, n);
  }
}

struct Planted {
  std::string name, text;
  Launch launch;
  Expected expected;
};

Planted read_planted(const fs::path& path) {
  Planted p;
  p.name = path.stem().string();
  std::ifstream in(path);
  std::ostringstream all;
  all << in.rdbuf();
  p.text = all.str();
  std::istringstream lines(p.text);
  std::string line;
  for (uint32_t n = 1; std::getline(lines, line); ++n) {
    parse_launch(line, p.launch);
    parse_expect(line, n, p.expected);
  }
  return p;
}

std::vector<fs::path> planted_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(PLANTED_DIR))
    if (e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Runs `kernel` of a planted module with the checks named (every one by default), on two
// 1024-word buffers.
ptxvm::LaunchResult run(const std::string& ptx, const std::string& name, const std::string& kernel, Launch l,
                        const std::string& checks = "all") {
  ptxvm::Device dev;
  std::string diags;
  auto module = dev.load_module(ptx, name, &diags);
  EXPECT_TRUE(module) << diags;
  if (!module) return {};
  std::vector<uint32_t> input(1024);
  std::iota(input.begin(), input.end(), 0u);
  const uint64_t out = dev.malloc(4096), in = dev.malloc(4096);
  dev.copy_to_device(in, input.data(), 4096);
  if (!l.uninitialised_out) dev.copy_to_device(out, std::vector<uint8_t>(4096, 0).data(), 4096);
  ptxvm::LaunchConfig config;
  config.grid = {l.grid};
  config.block = {l.block};
  config.shared_bytes = l.shared;
  config.checks = *ptxvm::Checks::parse(checks, nullptr);
  config.step_limit = 1'000'000;
  return module->launch(kernel, config, {ptxvm::arg(out), ptxvm::arg(in)});
}
ptxvm::LaunchResult run(const Planted& p, const char* kernel, const std::string& checks = "all") {
  return run(p.text, p.name + ".ptx", kernel, p.launch, checks);
}

class PlantedBug : public testing::TestWithParam<fs::path> {};

TEST_P(PlantedBug, ReportedAtItsLine) {
  const Planted p = read_planted(GetParam());
  ASSERT_FALSE(p.expected.empty()) << "no '// expect:' line in " << p.name;
  const ptxvm::LaunchResult r = run(p, "bug");
  std::set<std::tuple<std::string, std::string, uint32_t>> got;
  std::string text;
  for (const ptxvm::CheckReport& c : r.reports) {
    got.emplace(c.check, c.kind, c.site.line);
    text += c.render(p.name + ".ptx");
    EXPECT_EQ(c.kernel, "bug");
    EXPECT_FALSE(c.site.instruction.empty());
  }
  EXPECT_EQ(got, p.expected) << text << r.error;
}

// Each check follows what it needs by itself (the tcgen05 check's order runs on racecheck's
// clocks, with racecheck off too).
TEST_P(PlantedBug, ReportedByItsOwnCheck) {
  const Planted p = read_planted(GetParam());
  std::set<std::string> checks;
  for (const auto& e : p.expected) checks.insert(std::get<0>(e));
  for (const std::string& check : checks) {
    std::set<std::tuple<std::string, std::string, uint32_t>> want, got;
    for (const auto& e : p.expected)
      if (std::get<0>(e) == check) want.insert(e);
    for (const ptxvm::CheckReport& c : run(p, "bug", check).reports) got.emplace(c.check, c.kind, c.site.line);
    EXPECT_EQ(got, want) << check;
  }
}

TEST_P(PlantedBug, FixedKernelReportsNothing) {
  const Planted p = read_planted(GetParam());
  const ptxvm::LaunchResult r = run(p, "ok");
  EXPECT_TRUE(r.ok) << r.error;
  std::string text;
  for (const ptxvm::CheckReport& c : r.reports) text += c.render(p.name + ".ptx");
  EXPECT_TRUE(r.reports.empty()) << text;
}

INSTANTIATE_TEST_SUITE_P(Planted, PlantedBug, testing::ValuesIn(planted_files()),
                         [](const testing::TestParamInfo<fs::path>& i) { return i.param.stem().string(); });

// The CUDA C++ cases: per kernel of planted.cu, its launch and the source lines it expects.
struct CudaCase {
  std::string name;  // the case: kernels <name>_bug and <name>_ok
  Launch launch;
  Expected expected;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

std::vector<CudaCase> cuda_cases() {
  std::istringstream lines(read_text(fs::path(PLANTED_DIR) / ".." / "planted_cuda" / "planted.cu"));
  std::vector<CudaCase> cases;
  Launch next;
  bool in_bug = false;
  std::string line;
  for (uint32_t n = 1; std::getline(lines, line); ++n) {
    parse_launch(line, next);
    if (auto at = line.find("__global__ void "); at != std::string::npos) {
      const std::string kernel = line.substr(at + 16, line.find('(') - at - 16);
      in_bug = kernel.ends_with("_bug");
      if (in_bug) cases.push_back({kernel.substr(0, kernel.size() - 4), next, {}});
    }
    if (in_bug) parse_expect(line, n, cases.back().expected);
  }
  return cases;
}

const std::string& cuda_ptx() {
  static const std::string text = read_text(fs::path(PLANTED_DIR) / ".." / "planted_cuda" / "planted.sm_90.ptx");
  return text;
}

class PlantedCudaBug : public testing::TestWithParam<CudaCase> {};

TEST_P(PlantedCudaBug, ReportedAtItsSourceLine) {
  const CudaCase& c = GetParam();
  ASSERT_FALSE(c.expected.empty());
  const ptxvm::LaunchResult r = run(cuda_ptx(), "planted.sm_90.ptx", c.name + "_bug", c.launch);
  Expected got;
  std::string text;
  for (const ptxvm::CheckReport& report : r.reports) {
    got.emplace(report.check, report.kind, report.site.source_line);
    EXPECT_TRUE(report.site.source_file.ends_with("planted.cu")) << report.site.source_file;
    text += report.render("planted.sm_90.ptx");
  }
  EXPECT_EQ(got, c.expected) << text << r.error;
}

TEST_P(PlantedCudaBug, FixedKernelReportsNothing) {
  const CudaCase& c = GetParam();
  const ptxvm::LaunchResult r = run(cuda_ptx(), "planted.sm_90.ptx", c.name + "_ok", c.launch);
  EXPECT_TRUE(r.ok) << r.error;
  std::string text;
  for (const ptxvm::CheckReport& report : r.reports) text += report.render("planted.sm_90.ptx");
  EXPECT_TRUE(r.reports.empty()) << text;
}

INSTANTIATE_TEST_SUITE_P(PlantedCuda, PlantedCudaBug, testing::ValuesIn(cuda_cases()),
                         [](const testing::TestParamInfo<CudaCase>& i) { return i.param.name; });

// memcheck names the allocation an access misses, and reports the access once with its site.
TEST(Memcheck, NamesTheAllocation) {
  const Planted p = read_planted(fs::path(PLANTED_DIR) / "global_past_end.ptx");
  const ptxvm::LaunchResult r = run(p, "bug");
  ASSERT_EQ(r.reports.size(), 1u);
  const ptxvm::CheckReport& c = r.reports[0];
  EXPECT_TRUE(r.guest_fault);
  EXPECT_EQ(c.space, "global");
  EXPECT_EQ(c.size, 4u);
  EXPECT_EQ(c.site.thread[0], 63u);
  EXPECT_NE(c.detail.find("0 bytes past the end of the 4096-byte allocation"), std::string::npos) << c.detail;
}

TEST(Memcheck, UseAfterFree) {
  ptxvm::Device dev;
  std::string diags;
  const char* ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .u64 %rd<2>;
  .reg .u32 %r<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1+8];
  ret;
}
)";
  auto module = dev.load_module(ptx, "uaf.ptx", &diags);
  ASSERT_TRUE(module) << diags;
  const uint64_t freed = dev.malloc(64);
  dev.free(freed);
  ptxvm::LaunchConfig config;
  config.checks.memcheck = true;
  const ptxvm::LaunchResult r = module->launch("k", config, {ptxvm::arg(freed)});
  ASSERT_EQ(r.reports.size(), 1u) << r.error;
  EXPECT_NE(r.reports[0].detail.find("inside the 64-byte allocation"), std::string::npos) << r.reports[0].detail;
  EXPECT_NE(r.reports[0].detail.find("use after free"), std::string::npos);
}

TEST(Checks, ParseNamesAndRejectsUnknown) {
  std::string error;
  auto c = ptxvm::Checks::parse("memcheck,synccheck", &error);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->memcheck && c->synccheck && !c->racecheck);
  EXPECT_FALSE(ptxvm::Checks::parse("memcheck,racechek", &error));
  EXPECT_NE(error.find("unknown check 'racechek'"), std::string::npos);
  auto all = ptxvm::Checks::parse("all", nullptr);
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->memcheck && all->racecheck && all->synccheck);
}

}  // namespace
