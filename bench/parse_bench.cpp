// Front-end speed: lexing, parsing and checking the largest corpus modules, in MB/s.
// Goal from the front-end issue: a 1 MB module parses and checks in under 50 ms.
//   build/bench/parse_bench [--benchmark_filter=...] [FILE.ptx...]
// Without files it measures the three largest modules of tests/corpus/ptx.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check/check.h"
#include "front/lexer.h"
#include "front/parser.h"
#include "front/printer.h"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> largest_corpus_files(size_t n) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(PTXVM_CORPUS_DIR))
    if (e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end(),
            [](const fs::path& a, const fs::path& b) { return fs::file_size(a) > fs::file_size(b); });
  files.resize(std::min(n, files.size()));
  return files;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <typename Stage>
void run(benchmark::State& state, const std::string& text, Stage stage) {
  ptxvm::SourceFile file("bench.ptx", text);
  for (auto _ : state) {
    ptxvm::Diagnostics diags(file);
    stage(file, diags);
    if (diags.has_errors()) state.SkipWithError("module has errors");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void register_all(std::vector<fs::path> files) {
  if (files.empty()) files = largest_corpus_files(3);
  for (const fs::path& p : files) {
    std::string text = read(p);
    std::string name = p.filename().string() + " (" + std::to_string(text.size() / 1024) + " KiB)";
    benchmark::RegisterBenchmark(("lex/" + name).c_str(), [text](benchmark::State& s) {
      run(s, text, [](const auto& f, auto& d) { benchmark::DoNotOptimize(ptxvm::front::lex(f, d)); });
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("parse/" + name).c_str(), [text](benchmark::State& s) {
      run(s, text,
          [](const auto& f, auto& d) { benchmark::DoNotOptimize(ptxvm::front::parse_module(f, d)); });
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("parse+check/" + name).c_str(), [text](benchmark::State& s) {
      run(s, text,
          [](const auto& f, auto& d) { benchmark::DoNotOptimize(ptxvm::check::check_source(f, d)); });
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_all(std::vector<fs::path>(argv + 1, argv + argc));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
