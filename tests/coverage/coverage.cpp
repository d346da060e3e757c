// Writes docs/Coverage.md to stdout: per family row of the ISA table (PTX §9.7), its targets, its
// validity rules (checked), its selector or the reason it has none (executed), and which
// hardware-compared tests run an instruction that binds to it (verified).
//
//   coverage REPO_ROOT > docs/Coverage.md      (scripts/coverage.sh; ctest coverage.fresh diffs)
//
// "Verified" sources, each PTX that tests compare with results recorded on an H100/H200:
//   kernels      tests/kernels/ptx/*.ptx, run by `ptxvm run` against recorded.npz
//   hw/mma       tests/hw/mma/mma_kernels.ptx (tests/sem/mma_hw_test.cpp)
//   hw/wgmma     tests/hw/wgmma/wgmma_kernels.ptx (tests/units/wgmma_hw_test.cpp)
//   hw/tma       tests/hw/tma/tma_kernels.ptx (tests/units/tma_hw_test.cpp)
//   hw/cluster   tests/hw/cluster/cluster_kernels.ptx (tests/units/cluster_hw_test.cpp) and
//                tests/hw/cluster_gemm/gemm.ptx (tests/units/cluster_gemm_hw_test.cpp)
//   hw/float     the texts of tests/hw/float/variants.inc (tests/sem/float_hw_test.cpp)
//   hw/video     the texts of tests/hw/video/inputs.h (tests/sem/video_hw_test.cpp)
//   hw/integer   the texts of tests/hw/integer/inputs.h (tests/sem/integer_hw_test.cpp)
//   hw/texture   tests/hw/texture/texture_kernels.ptx (tests/sem/texture_hw_test.cpp)
//   hw/mbarrier  the kernels of tests/units/mbarrier_test.cpp that tests/hw/mbarrier ran on an H100
//   hw/cvt       the texts of tests/hw/cvt/variants.inc, replayed against src/numeric (the
//                functions cvt's handlers call) by tests/numeric/hw_cvt_test.cpp
// An instruction counts for the row `ptxvm check` binds it to (isa::check_instruction). One that
// binds to no row is an error: the table would lie.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../hw/integer/inputs.h"
#include "../hw/video/inputs.h"
#include "front/parser.h"
#include "isa/check.h"
#include "isa/match.h"
#include "isa/table.h"
#include "program/registry.h"
#include "program/unsupported.h"

namespace fs = std::filesystem;
using namespace ptxvm;

namespace {

// The recorded instruction texts with their operand shapes: d, then `sources` operands; a
// predicate destination when `pred`.
struct Text {
  const char* text;
  int sources;
  bool pred = false;
};

const Text kFloat[] = {
#define U(t, ...) {t, 1},
#define B(t, ...) {t, 2},
#define T(t, ...) {t, 3},
#define C(t, ...) {t, 2, true},
#include "../hw/float/variants.inc"
#undef U
#undef B
#undef T
#undef C
};

const Text kCvt[] = {
#define U(k, t, ...) {t, 1},
#define B(k, t, ...) {t, 2},
#define T(k, t, ...) {t, 3},
#define P(k, t, ...) {t, 1, true},
#include "../hw/cvt/variants.inc"
#undef U
#undef B
#undef T
#undef P
};

// §9.7 groups (001_23fdd5978b24a3ed.txt; §9.7.16 from 000_70a4b524dfe259fa.txt).
const std::map<int, const char*> kGroups = {
    {1, "Integer arithmetic"}, {2, "Extended-precision integer arithmetic"}, {3, "Floating point"},
    {4, "Half-precision floating point"}, {5, "Mixed-precision floating point"},
    {6, "Comparison and selection"}, {7, "Half-precision comparison"}, {8, "Logic and shift"},
    {9, "Data movement and conversion"}, {10, "Texture"}, {11, "Surface"}, {12, "Control flow"},
    {13, "Parallel synchronization and communication"}, {14, "Warp-level matrix multiply-accumulate"},
    {15, "Warpgroup matrix multiply-accumulate (wgmma)"}, {16, "TensorCore 5th generation (tcgen05)"},
    {17, "Stack manipulation"}, {18, "Video"}, {19, "Miscellaneous"}};

std::vector<int> section_numbers(const std::string& s) {
  std::vector<int> v;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, '.');) v.push_back(std::stoi(part));
  return v;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "coverage: cannot read %s\n", p.string().c_str());
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), {}};
}

class Collector {
public:
  std::map<uint16_t, std::set<std::string>> verified;  // family id -> sources

  // Parses a module and records every instruction's row under `source`.
  void module(const std::string& source, const std::string& name, const std::string& text) {
    SourceFile file(name, text);
    Diagnostics diags(file);
    auto m = front::parse_module(file, diags);
    if (!m || diags.has_errors()) fail(name + " does not parse:\n" + diags.render());
    for (const ast::TopLevel& item : m->items)
      if (item.func && item.func->body) block(source, name, *item.func->body);
  }

  // One instruction text, its operands made up from its shape.
  void text(const std::string& source, const Text& t) {
    std::string ops = t.pred ? "%p1" : "%r0";
    for (int i = 1; i <= t.sources; ++i) ops += ", %r" + std::to_string(i);
    module(source, std::string(t.text), wrap(std::string(t.text) + " " + ops + ";"));
  }

  static std::string wrap(const std::string& body) {
    return ".version 9.0\n.target sm_90a\n.address_size 64\n.entry k()\n{\n" + body + "\n}\n";
  }

private:
  [[noreturn]] static void fail(const std::string& why) {
    std::fprintf(stderr, "coverage: %s\n", why.c_str());
    std::exit(1);
  }

  void block(const std::string& source, const std::string& name, const ast::Block& b) {
    for (const ast::Statement& s : b.body) {
      if (s.kind == ast::Statement::Kind::Block) block(source, name, *s.block);
      if (s.kind != ast::Statement::Kind::Instruction) continue;
      // The row the checker picks: the first the qualifiers and operand shapes fit (no operand
      // types: the texts have no declarations).
      SourceFile one(name, "");
      Diagnostics diags(one);
      std::optional<isa::Bound> bound = isa::check_instruction(s.inst, isa::Context{}, diags);
      if (!bound) fail(name + ":" + std::to_string(s.inst.loc.line) + ": binds to no row");
      verified[bound->family->id].insert(source);
    }
  }
};

// "PTX 6.0, sm_70" from a variant.
std::string requirement(const isa::Variant& v) {
  std::string s = "PTX " + v.ptx.str();
  std::string t = v.target.text();  // "sm_100a sm_110a": alternatives
  std::replace(t.begin(), t.end(), ' ', '/');
  if (!t.empty()) s += ", " + t;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: coverage REPO_ROOT > docs/Coverage.md\n");
    return 2;
  }
  const fs::path root = argv[1];
  Collector c;

  std::vector<fs::path> kernels;
  for (const auto& e : fs::directory_iterator(root / "tests/kernels/ptx"))
    if (e.path().extension() == ".ptx") kernels.push_back(e.path());
  std::sort(kernels.begin(), kernels.end());
  for (const fs::path& p : kernels) c.module("kernels", "tests/kernels/ptx/" + p.filename().string(), read(p));
  c.module("hw/mma", "tests/hw/mma/mma_kernels.ptx", read(root / "tests/hw/mma/mma_kernels.ptx"));
  c.module("hw/wgmma", "tests/hw/wgmma/wgmma_kernels.ptx", read(root / "tests/hw/wgmma/wgmma_kernels.ptx"));
  c.module("hw/tma", "tests/hw/tma/tma_kernels.ptx", read(root / "tests/hw/tma/tma_kernels.ptx"));
  c.module("hw/cluster", "tests/hw/cluster/cluster_kernels.ptx", read(root / "tests/hw/cluster/cluster_kernels.ptx"));
  c.module("hw/cluster", "tests/hw/cluster_gemm/gemm.ptx", read(root / "tests/hw/cluster_gemm/gemm.ptx"));
  for (const Text& t : kFloat)  // float_hw_test.cpp skips this one: outside §9.7.7.1's syntax
    if (std::string_view(t.text) != "set.ltu.bf16.bf16") c.text("hw/float", t);
  for (const Text& t : kCvt) c.text("hw/cvt", t);
  for (const std::string& t : ptxvm_hw_video::texts())
    c.module("hw/video", t, Collector::wrap(t + ";"));
  for (const std::string& t : ptxvm_hw_integer::texts())
    c.module("hw/integer", t, Collector::wrap(t + ";"));
  c.module("hw/texture", "tests/hw/texture/texture_kernels.ptx", read(root / "tests/hw/texture/texture_kernels.ptx"));
  // The kernel bodies are the test file's raw strings, as check_on_gpu.py reads them.
  const std::string mb = read(root / "tests/units/mbarrier_test.cpp");
  int bodies = 0;
  for (size_t at = mb.find("R\"("); at != std::string::npos; at = mb.find("R\"(", at)) {
    size_t end = mb.find(")\"", at);
    c.module("hw/mbarrier", "tests/units/mbarrier_test.cpp#" + std::to_string(++bodies),
             Collector::wrap(mb.substr(at + 3, end - at - 3)));
    at = end;
  }

  // Rows in section order (table order among equal sections).
  std::vector<const isa::Family*> rows;
  for (const isa::Family& f : isa::families()) rows.push_back(&f);
  std::stable_sort(rows.begin(), rows.end(), [](const isa::Family* a, const isa::Family* b) {
    return section_numbers(a->section) < section_numbers(b->section);
  });

  struct Counts {
    int rows = 0, executed = 0, verified = 0;
  };
  std::map<int, Counts> per_group;
  Counts all;
  std::map<std::string, int> per_source;
  std::ostringstream body;
  int group = -1;
  for (const isa::Family* f : rows) {
    const int g = section_numbers(f->section)[2];
    if (g != group) {
      group = g;
      body << "\n## §9.7." << g << " " << kGroups.at(g) << "\n\n"
           << "| family | since | later forms | checked | executed | verified on hardware |\n"
           << "|---|---|---|---|---|---|\n";
    }
    // The other targets the variants name, each with the first PTX ISA version that has it.
    std::map<std::string, isa::Version> later;
    for (size_t i = 1; i < f->variants.size(); ++i) {
      const isa::Variant& v = f->variants[i];
      if (v.target.text() == f->variants[0].target.text()) continue;
      auto [at, fresh] = later.emplace(v.target.text(), v.ptx);
      if (!fresh) at->second = std::min(at->second, v.ptx);
    }
    std::vector<std::pair<isa::Version, std::string>> ordered;
    for (const auto& [t, v] : later) ordered.emplace_back(v, t);
    std::sort(ordered.begin(), ordered.end());
    std::string later_text;
    for (const auto& [v, t] : ordered)
      later_text += (later_text.empty() ? "" : "; ") + requirement(isa::Variant{{}, v, isa::TargetReq(t), ""});
    const bool executed = program::find_selector(*f) != nullptr;
    std::string sources;
    auto it = c.verified.find(f->id);
    if (it != c.verified.end())
      for (const std::string& s : it->second) {
        sources += (sources.empty() ? "" : ", ") + s;
        ++per_source[s];
      }
    Counts& n = per_group[g];
    ++n.rows, ++all.rows;
    if (executed) ++n.executed, ++all.executed;
    if (!sources.empty()) ++n.verified, ++all.verified;
    body << "| `" << f->mnemonic << "` §" << f->section << " | "
         << (f->variants.empty() ? "" : requirement(f->variants[0])) << " | " << later_text << " | "
         << f->rules.size() << (f->rules.size() == 1 ? " rule" : " rules") << " | "
         << (executed ? "yes" : "no: " + program::unsupported_reason(*f)) << " | "
         << (sources.empty() ? "—" : sources) << " |\n";
  }

  std::printf(
      "# Coverage of the PTX ISA (§9.7)\n\n"
      "Generated by `tests/coverage/coverage.cpp`: do not edit. Refresh it with "
      "`scripts/coverage.sh`; the test `coverage.fresh` (run by `scripts/test.sh`) fails while "
      "this file differs from what the tool writes.\n\n"
      "One line per family row of the ISA table (`src/isa`, key \"mnemonic §section\"):\n\n"
      "- **since**: the family's own minimum PTX ISA version and target (its first variant); "
      "**later forms**: the other targets its variants require, each from the first PTX ISA version that "
      "has it.\n"
      "- **checked**: `ptxvm check` validates every row against its operands, targets, versions "
      "and its validity rules (the count).\n"
      "- **executed**: a selector is registered for the row (`src/program/registry.h`), or the "
      "reason it is not (`src/program/unsupported.cpp`, also in lowering's `unsupported:` "
      "diagnostic).\n"
      "- **verified on hardware**: some instruction binding to the row is in PTX that the tests "
      "compare with results recorded on an H100/H200: `kernels` (tests/kernels), `hw/mma`, `hw/wgmma`, `hw/tma`, "
      "`hw/float`, `hw/video`, `hw/integer`, `hw/texture`, `hw/mbarrier` (tests/hw/*, run through ptxvm), `hw/cvt` (replayed "
      "against `src/numeric`, which cvt's handlers call).\n\n"
      "## Summary\n\n"
      "%d rows: %d executed, %d verified on hardware.\n\n"
      "| §9.7 group | rows | executed | verified |\n|---|---|---|---|\n",
      all.rows, all.executed, all.verified);
  for (const auto& [g, n] : per_group)
    std::printf("| %d %s | %d | %d | %d |\n", g, kGroups.at(g), n.rows, n.executed, n.verified);
  std::printf("\nRows verified per source:");
  const char* sep = " ";
  for (const auto& [s, n] : per_source) std::printf("%s%s %d", std::exchange(sep, ", "), s.c_str(), n);
  std::printf(".");
  std::printf("\n%s", body.str().c_str());
  return 0;
}
