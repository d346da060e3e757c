// Malformed input gets precise diagnostics and never a crash (issue: front end, "Malformed input").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "test_util.h"

namespace ptxvm::test {
namespace {

namespace fs = std::filesystem;

// Each file in malformed/ states the diagnostics it must produce in `// expect: ...` lines.
TEST(Diagnostics, MalformedFilesGiveTheExpectedMessages) {
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(PTXVM_MALFORMED_DIR)) {
    std::string text = read_file(entry.path().string());
    SourceFile file(entry.path().filename().string(), text);
    Diagnostics diags(file);
    EXPECT_FALSE(check::check_source(file, diags)) << file.name();
    std::string rendered = diags.render();
    std::istringstream lines(text);
    std::string line;
    size_t expectations = 0;
    while (std::getline(lines, line)) {
      if (line.rfind("// expect: ", 0) != 0) continue;
      ++expectations;
      std::string want = file.name() + ":" + line.substr(11);
      EXPECT_NE(rendered.find(want), std::string::npos)
          << "want: " << want << "\ngot:\n" << rendered;
    }
    EXPECT_GT(expectations, 0u) << file.name();
    ++files;
  }
  EXPECT_GE(files, 30u);
}

TEST(Diagnostics, RenderShowsLineAndCaret) {
  Parsed p = parse(".version 8.7\n.target sm_90\n.entry k()\n{\n\tadd.s32 %r1, %r2 %r3;\n}\n");
  EXPECT_EQ(p.diagnostics,
            "t.ptx:5:19: error: expected ';' at the end of the instruction, found '%r3'\n"
            "\tadd.s32 %r1, %r2 %r3;\n"
            "\t                 ^\n");
}

TEST(Diagnostics, ErrorsAreCapped) {
  std::string body;
  for (int i = 0; i < 500; ++i) body += "add.s32 , ;\n";
  Parsed p = parse(kernel(body));
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(std::count(p.diagnostics.begin(), p.diagnostics.end(), '^'),
            static_cast<long>(Diagnostics::kMaxErrors));
  EXPECT_NE(p.diagnostics.find("too many errors"), std::string::npos);
}

TEST(Diagnostics, DeepNestingIsAnErrorNotAStackOverflow) {
  std::string deep_expr(100000, '(');
  EXPECT_NE(parse(kernel("mov.u32 %r1, " + deep_expr + "1;")).diagnostics.find("nesting deeper"),
            std::string::npos);
  std::string deep_blocks(100000, '{');
  EXPECT_NE(parse(kernel(deep_blocks)).diagnostics.find("nesting deeper"), std::string::npos);
  std::string deep_unary(100000, '-');
  EXPECT_NE(parse(kernel("mov.u32 %r1, " + deep_unary + "1;")).diagnostics.find("nesting deeper"),
            std::string::npos);
  std::string long_chain = "1";
  for (int i = 0; i < 100000; ++i) long_chain += "+1";
  EXPECT_NE(parse(kernel("mov.u32 %r1, " + long_chain + ";")).diagnostics.find("nesting deeper"),
            std::string::npos);
  std::string deep_init = ".version 8.7\n.target sm_90\n.global .u32 x[1] = " +
                          std::string(100000, '{');
  EXPECT_NE(parse(deep_init).diagnostics.find("nesting deeper"), std::string::npos);
}

// Truncations and byte corruptions of a real module: always a clean result, never a crash;
// a module cut inside its last function body is always an error.
TEST(Diagnostics, TruncatedAndCorruptedModules) {
  std::string text = read_file(std::string(PTXVM_FRONT_DATA_DIR) + "/all_constructs.ptx");
  size_t body_end = text.rfind(".section .debug_str");
  size_t body_begin = text.rfind(".visible .entry kernel");
  ASSERT_NE(body_end, std::string::npos);
  std::mt19937_64 rng(20261122);
  for (int i = 0; i < 300; ++i) {
    size_t cut = body_begin + rng() % (body_end - body_begin - 3);
    Parsed p = parse(text.substr(0, cut), true);
    EXPECT_FALSE(p.ok()) << "cut at " << cut;
    EXPECT_NE(p.diagnostics.find("error:"), std::string::npos);
  }
  const char kNoise[] = "{}[]();,.%@!|_:=<>\"/*0x\n\t abz9";
  for (int i = 0; i < 2000; ++i) {
    std::string corrupt = text;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % corrupt.size();
      switch (rng() % 3) {
      case 0: corrupt[at] = kNoise[rng() % (sizeof kNoise - 1)]; break;
      case 1: corrupt.erase(at, 1 + rng() % 16); break;
      default: corrupt.insert(at, 1, kNoise[rng() % (sizeof kNoise - 1)]); break;
      }
    }
    Parsed p = parse(corrupt, true);
    if (!p.ok()) {
      EXPECT_NE(p.diagnostics.find("error:"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace ptxvm::test
