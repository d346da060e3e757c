// Name resolution: PTX §4.4, §5.4.6, §11 (001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include "test_util.h"

namespace ptxvm::test {
namespace {

std::string check(const std::string& text) {
  Parsed p = parse(text, true);
  return p.ok() ? "ok" : p.diagnostics;
}

TEST(Names, ParameterizedRegistersDeclareAFamily) {  // §5.4.6
  EXPECT_EQ(check(kernel(".reg .b32 %r<3>;\nmov.u32 %r0, 1;\nmov.u32 %r2, %r0;")), "ok");
  EXPECT_NE(check(kernel(".reg .b32 %r<3>;\nmov.u32 %r3, 1;")).find("undeclared identifier '%r3'"),
            std::string::npos);
  EXPECT_NE(check(kernel(".reg .b32 %r<3>;\nmov.u32 %r01, 1;")).find("undeclared identifier '%r01'"),
            std::string::npos);
  EXPECT_NE(check(kernel(".reg .b32 %r<3>;\n.reg .b32 %r<5>;")).find("redefinition of '%r'"),
            std::string::npos);
}

TEST(Names, SpecialRegistersAndWarpSize) {  // §10, §4.5.1
  EXPECT_EQ(check(kernel(".reg .b32 %r<2>;\n.reg .b64 %rd1;\nmov.u32 %r0, %tid.x;\n"
                         "mov.u32 %r1, %envreg31;\nmov.u64 %rd1, %pm7_64;\nmov.u32 %r1, WARP_SZ;\n"
                         "mov.u32 %r1, %cluster_ctarank;\nmov.u64 %rd1, %globaltimer;")),
            "ok");
  EXPECT_NE(check(kernel(".reg .b32 %r1;\nmov.u32 %r1, %envreg32;")).find("'%envreg32'"),
            std::string::npos);
  EXPECT_NE(check(kernel(".reg .b64 %rd1;\nmov.u64 %rd1, %pm8_64;")).find("'%pm8_64'"),
            std::string::npos);
}

// Labels are scoped to their block like registers (as ptxas resolves them): visible before
// their definition and from nested blocks, not from outer or sibling blocks.
TEST(Names, LabelsHaveBlockScope) {
  EXPECT_EQ(check(kernel("{\nbra L;\n}\nL:\nret;")), "ok");
  EXPECT_EQ(check(kernel("L:\n{\nL:\nbra L;\n}")), "ok");
  EXPECT_EQ(check(kernel("{\nW:\nbra W;\n}\n{\nW:\nbra W;\n}")), "ok");
  EXPECT_NE(check(kernel("{\nbra L;\n}\n{\nL:\nret;\n}")).find("undeclared identifier 'L'"),
            std::string::npos);
  EXPECT_NE(check(kernel("bra L;\n{\nL:\nret;\n}")).find("undeclared identifier 'L'"),
            std::string::npos);
  EXPECT_NE(check(kernel("L:\nL:\nret;")).find("redefinition of 'L'"), std::string::npos);
}

TEST(Names, BlocksScopeRegisters) {
  EXPECT_EQ(check(kernel("{\n.reg .b32 t;\nmov.u32 t, 1;\n}\n{\n.reg .b32 t;\nmov.u32 t, 2;\n}")),
            "ok");
  EXPECT_NE(check(kernel("{\n.reg .b32 t;\n}\nmov.u32 t, 1;")).find("undeclared identifier 't'"),
            std::string::npos);
}

TEST(Names, FunctionsMayBeDeclaredThenDefined) {
  std::string head = ".version 8.7\n.target sm_90\n";
  EXPECT_EQ(check(head + ".func f();\n.entry k() { call f, (); ret; }\n.func f() { ret; }\n"), "ok");
  EXPECT_EQ(check(head + ".extern .func g();\n.entry k() { call g, (); ret; }\n"), "ok");
  EXPECT_NE(check(head + ".func f() { ret; }\n.func f() { ret; }\n").find("redefinition of 'f'"),
            std::string::npos);
  EXPECT_NE(check(head + ".entry k() { call nope, (); ret; }\n").find("undeclared identifier 'nope'"),
            std::string::npos);
}

TEST(Names, AliasNamesAnExistingPrototype) {  // §11.2.3
  std::string text = ".version 8.7\n.target sm_90\n.address_size 64\n"
                     ".visible .func foo(.param .u32 p)\n{\nret;\n}\n"
                     ".visible .func bar(.param .u32 p);\n.alias bar, foo;\n"
                     ".visible .entry k()\n{\n.param .u32 a;\nst.param.u32 [a], 1;\ncall bar, (a);\nret;\n}\n";
  EXPECT_EQ(check(text), "ok");
}

TEST(Names, ExternVariablesMayBeRedeclared) {
  std::string head = ".version 8.7\n.target sm_90\n";
  EXPECT_EQ(check(head + ".extern .global .u32 g;\n.extern .global .u32 g;\n.global .u32 g;\n"), "ok");
}

TEST(Names, ParametersAndGlobalsResolve) {
  std::string text = ".version 8.7\n.target sm_90\n.global .u32 g[4];\n"
                     ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r1;\n"
                     "ld.param.b32 %r1, [a];\nst.param.b32 [r], %r1;\nld.global.u32 %r1, [g+4];\nret;\n}\n";
  EXPECT_EQ(check(text), "ok");
}

TEST(Names, InitializersNameVariablesAndFunctions) {  // §5.4.4
  std::string head = ".version 8.7\n.target sm_90\n";
  EXPECT_EQ(check(head + ".global .u32 a;\n.func f() { ret; }\n"
                         ".global .u64 t[2] = {generic(a), f};\n"),
            "ok");
  EXPECT_NE(check(head + ".global .u64 t = generic(missing);\n").find("'missing'"),
            std::string::npos);
}

TEST(Names, CallTargetsAndPrototypes) {
  std::string head = ".version 8.7\n.target sm_90\n.func f() { ret; }\n";
  EXPECT_EQ(check(head + ".entry k()\n{\n.reg .b64 %rd1;\nc: .calltargets f;\n"
                         "p: .callprototype _ ();\nmov.u64 %rd1, f;\ncall %rd1, (), p;\nret;\n}\n"),
            "ok");
  EXPECT_NE(check(head + ".entry k()\n{\nc: .calltargets g;\nret;\n}\n")
                .find("'.calltargets' names undeclared function 'g'"),
            std::string::npos);
}

TEST(Names, DebugSectionsNameLabelsVariablesAndSections) {  // §11.5.2
  std::string text = ".version 8.7\n.target sm_90, debug\n.file 1 \"a.cu\"\n"
                     ".entry k(.param .u64 p)\n{\n.local .b8 depot[8];\nb:\n.loc 1 1 1\nret;\ne:\n}\n"
                     ".section .debug_info\n{\n.b32 e - b\n.b64 p\n.b64 depot\n.b32 .debug_line\n}\n";
  EXPECT_EQ(check(text), "ok");
  std::string bad = ".version 8.7\n.target sm_90, debug\n.section .debug_info\n{\n.b32 nothere\n}\n";
  EXPECT_NE(check(bad).find("undeclared label 'nothere'"), std::string::npos);
}

}  // namespace
}  // namespace ptxvm::test
