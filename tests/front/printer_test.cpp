// The canonical printer: a fixed point, and faithful to the AST.
#include <gtest/gtest.h>

#include <filesystem>

#include "front/printer.h"
#include "test_util.h"

namespace ptxvm::test {
namespace {

std::string print(const std::string& text) {
  Parsed p = parse(text, true);
  EXPECT_TRUE(p.ok()) << p.diagnostics;
  return p.ok() ? front::print_module(*p.module) : "";
}

TEST(Printer, AllConstructsIsAFixedPoint) {
  std::string once = print(read_file(std::string(PTXVM_FRONT_DATA_DIR) + "/all_constructs.ptx"));
  ASSERT_FALSE(once.empty());
  EXPECT_EQ(print(once), once);
}

TEST(Printer, CanonicalForms) {
  std::string out = print(kernel(".reg .b32 %r<2>;\n.reg .f32 %f1;\nL:\nadd.s32 %r1,%r0,-1;\n"
                                 "@!%r1 bra L;\nmov.f32 %f1, 1.0;\n{ .reg .b32 x; }"));
  EXPECT_NE(out.find("\t.reg .b32 %r<2>;\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nL:\n\tadd.s32 %r1, %r0, -1;\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\t@!%r1 bra L;\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\tmov.f32 %f1, 0d3FF0000000000000;\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\t{\n\t\t.reg .b32 x;\n\t}\n"), std::string::npos) << out;
}

TEST(Printer, FunctionHeaders) {
  std::string out = print(".version 8.7\n.target sm_90\n"
                          ".visible .func (.param .b32 r) f(.param .b32 a, .param .b64 b) .noreturn;\n"
                          ".entry k(.param .u64 .ptr .global .align 16 p) .maxntid 64, 1, 1 { ret; }\n");
  EXPECT_NE(out.find(".visible .func (\n\t.param .b32 r\n) f(\n\t.param .b32 a,\n\t.param .b64 b\n) "
                     ".noreturn;\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(".entry k(\n\t.param .u64 .ptr .global .align 16 p\n)\n.maxntid 64, 1, 1\n{\n"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace ptxvm::test
