// The matcher and the checker's messages (src/isa/match.h, src/isa/check.h).
#include "isa/match.h"

#include <gtest/gtest.h>

#include "check_test_util.h"

namespace ptxvm::isa {
namespace {

using testing::check_ptx;

ast::Instruction inst(std::string opcode, std::vector<std::string> quals) {
  ast::Instruction in;
  in.opcode = std::move(opcode);
  in.qualifiers = std::move(quals);
  return in;
}

std::optional<Bound> bind_only(const ast::Instruction& in,
                               std::vector<Problem>* problems = nullptr) {
  std::vector<Problem> p;
  auto all = bind_all(in, p);
  if (problems) *problems = p;
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::string one(const std::vector<std::string>& msgs) {
  EXPECT_EQ(msgs.size(), 1u);
  std::string s;
  for (const auto& m : msgs) s += m + "\n";
  return s;
}

TEST(Match, BindsQualifiersToAxes) {
  auto b = bind_only(inst("add", {".sat", ".s32"}));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->family->mnemonic, "add");
  EXPECT_EQ(b->family->section, "9.7.1.1");
  EXPECT_TRUE(b->is("sat", ".sat"));
  EXPECT_TRUE(b->is("type", ".s32"));
  EXPECT_EQ(b->str(), "add.sat.s32");
}

TEST(Match, DefaultsFillAbsentAxes) {
  auto b = bind_only(inst("add", {".f32"})); // §9.7.3.3: the default rounding is .rn
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->is("rnd", ".rn"));
  EXPECT_EQ(b->written & (uint64_t{1} << b->family->axis("rnd")), 0u);
  EXPECT_EQ(spelling(*b), "add.f32");
  EXPECT_EQ(b->str(), "add.rn.f32");
}

TEST(Match, RepeatedTypesBindInOrder) {
  auto b = bind_only(inst(
      "mma", {".sync", ".aligned", ".m16n8k16", ".row", ".col", ".f32", ".f16", ".f16", ".f32"}));
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->is("dtype", ".f32"));
  EXPECT_TRUE(b->is("atype", ".f16"));
  EXPECT_TRUE(b->is("btype", ".f16"));
  EXPECT_TRUE(b->is("ctype", ".f32"));
}

TEST(Match, ChoosesTheFamilyByTypeAndFixedQualifiers) {
  EXPECT_EQ(bind_only(inst("add", {".f32"}))->family->section, "9.7.3.3");
  EXPECT_EQ(bind_only(inst("add", {".f16x2"}))->family->section, "9.7.4.1");
  EXPECT_EQ(bind_only(inst("add", {".f32", ".bf16"}))->family->section, "9.7.5.1");
  EXPECT_EQ(bind_only(inst("add", {".cc", ".u32"}))->family->mnemonic, "add.cc");
  EXPECT_EQ(bind_only(inst("cp", {".async", ".bulk", ".tensor", ".2d", ".shared::cluster",
                                  ".global", ".mbarrier::complete_tx::bytes"}))
                ->family->mnemonic,
            "cp.async.bulk.tensor");
  EXPECT_EQ(bind_only(inst("cp", {".async", ".ca", ".shared", ".global"}))->family->mnemonic,
            "cp.async");
  EXPECT_EQ(
      bind_only(inst("tcgen05", {".mma", ".ws", ".cta_group::1", ".kind::f16"}))->family->mnemonic,
      "tcgen05.mma.ws");
}

TEST(Match, UnknownInstructionSuggestsTheNearest) {
  EXPECT_EQ(one(check_ptx("  bfnd.u32 %r1, %r2;")),
            "unknown instruction 'bfnd'; did you mean 'bfind'?\n");
}

TEST(Match, UnknownQualifierSuggestsTheNearest) {
  std::vector<Problem> p;
  EXPECT_FALSE(bind_only(inst("shf", {".l", ".wrop", ".b32"}), &p));
  ASSERT_EQ(p.size(), 2u); // the stray qualifier and the missing .mode
  EXPECT_EQ(p[0].message, "unknown qualifier '.wrop' for shf (§9.7.8.7); did you mean '.wrap'?");
  EXPECT_EQ(p[1].message, "shf needs a .mode qualifier (one of .clamp, .wrap) — §9.7.8.7");
}

TEST(Check, AcceptsValidForms) {
  EXPECT_TRUE(
      check_ptx(
          "  add.s32 %r1, %r2, 1;\n  add.sat.s32 %r1, %r2, %r3;\n  mul.wide.s32 %rd1, %r1, %r2;\n"
          "  mad.lo.u32 %u1, %u2, %u3, %u4;\n  setp.lt.s32 %p1, %r1, %r2;\n"
          "  selp.b32 %r1, %r2, %r3, %p1;\n  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"
          "  st.shared.u32 [%rd1+4], %r1;\n  cvt.rn.f32.s32 %f1, %r1;\n  cvt.u64.u32 %rd1, %r1;\n"
          "  mov.b64 %rd1, {%r1, %r2};\n  fma.rn.f32 %f1, %f2, %f3, %f4;\n"
          "  atom.global.add.u32 %r1, [%rd1], 1;\n  bar.sync 0;\n  shfl.sync.bfly.b32 %r1, %r2, 1, "
          "31, -1;\n")
          .empty());
}

TEST(Check, RuleViolationNamesTheRuleQuotesAndSuggests) {
  EXPECT_EQ(
      one(check_ptx("  add.sat.u32 %r1, %r2, %r3;")),
      "sat-s32: .sat applies only to .s32 (`.sat.u32`) — §9.7.1.1 (001_23fdd5978b24a3ed.txt); "
      "nearest valid form: add.u32\n");
}

TEST(Check, TargetMinimum) {
  EXPECT_EQ(one(check_ptx("  add.u16x2 %r1, %r2, %r3;", "sm_80")),
            "`.u16x2` needs sm_90 or later (not sm_80) — §9.7.1.1 (001_23fdd5978b24a3ed.txt); use "
            ".target sm_90\n");
}

TEST(Check, VersionMinimum) {
  EXPECT_EQ(one(check_ptx("  add.u16x2 %r1, %r2, %r3;", "sm_90", "7.8")),
            "`.u16x2` needs PTX ISA 8.0 (module has .version 7.8) — §9.7.1.1 "
            "(001_23fdd5978b24a3ed.txt); use .version 8.0\n");
}

TEST(Check, KindI8NeedsAnArchSpecificTarget) {
  std::string body = "  tcgen05.mma.cta_group::1.kind::i8 [%r1], %rd1, %rd2, %r3, %p1;";
  EXPECT_TRUE(check_ptx(body, "sm_100a").empty());
  EXPECT_EQ(one(check_ptx(body, "sm_100f")), "`.kind::i8` needs sm_100a or sm_110a (not sm_100f) — "
                                             "§9.7.16.10.9.1 (000_70a4b524dfe259fa.txt); "
                                             "use .target sm_100a\n");
}

TEST(Check, WsOnlyWithCtaGroup1) {
  auto msgs =
      check_ptx("  tcgen05.mma.ws.cta_group::2.kind::f16 [%r1], %rd1, %rd2, %r3, %p1;", "sm_100a");
  EXPECT_EQ(
      one(msgs),
      "ws-cta-group-1: .ws takes only .cta_group::1 (`.cta_group::2`) — §9.7.16.10.9.3 "
      "(000_70a4b524dfe259fa.txt); nearest valid form: tcgen05.mma.ws.cta_group::1.kind::f16\n");
}

TEST(Check, OneCtaGroupPerFunction) {
  auto msgs = check_ptx("  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n"
                        "  tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r1], 32;",
                        "sm_100a");
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_NE(msgs[0].find("one-cta-group"), std::string::npos);
}

TEST(Check, WgmmaOnlyOnSm90a) {
  std::string body = "  wgmma.fence.sync.aligned;";
  EXPECT_TRUE(check_ptx(body, "sm_90a").empty());
  EXPECT_EQ(one(check_ptx(body, "sm_100a")),
            "`wgmma.fence` needs sm_90a (not sm_100a) — §9.7.15.7.1 (001_23fdd5978b24a3ed.txt); "
            "use .target sm_90a\n");
}

TEST(Check, MmaShapeTypePairs) {
  auto msgs = check_ptx(
      "  mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
      "{%r5,%r6}, {%f5,%f6,%f7,%f8};");
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0].rfind("shape-type: no such mma shape for this type", 0), 0u) << msgs[0];
  EXPECT_NE(msgs[0].find("nearest valid form: mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32"),
            std::string::npos)
      << msgs[0];
}

TEST(Check, OperandCountAndKind) {
  EXPECT_EQ(one(check_ptx("  add.s32 %r1, %r2;")),
            "add takes 3 operands, not 2 — §9.7.1.1 (001_23fdd5978b24a3ed.txt)\n");
  EXPECT_EQ(one(check_ptx("  ld.global.v4.f32 {%f1, %f2}, [%rd1];")),
            "operand 1 of ld must be a vector of 4 elements, not 2 — §9.7.9.8 "
            "(001_23fdd5978b24a3ed.txt)\n");
  EXPECT_EQ(one(check_ptx("  ld.global.f32 %f1, %rd1;")),
            "operand 2 of ld must be an address [..] — §9.7.9.8 (001_23fdd5978b24a3ed.txt)\n");
}

TEST(Check, FragmentSizesFollowShapeAndTypes) {
  std::string ok = "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
                   "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};";
  EXPECT_TRUE(check_ptx(ok).empty());
  EXPECT_EQ(one(check_ptx("  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
                          "{%r1,%r2}, {%r5,%r6}, {%f5,%f6,%f7,%f8};")),
            "operand 2 of mma must be a vector of 4 elements, not 2 — §9.7.14.5.14 "
            "(001_23fdd5978b24a3ed.txt)\n");
  EXPECT_EQ(
      one(check_ptx("  tcgen05.ld.sync.aligned.16x128b.x2.b32 {%r1, %r2}, [%r3];", "sm_100a")),
      "operand 1 of tcgen05.ld must be a vector of 4 elements, not 2 — §9.7.16.8.3 "
      "(000_70a4b524dfe259fa.txt)\n");
}

TEST(Check, OperandTypesFollowTheRelaxedRules) {
  EXPECT_EQ(one(check_ptx("  add.f32 %f1, %u1, %f2;")),
            "operand 2 of add is '%u1' of type .u32, which does not agree with .f32 — §9.4 "
            "(001_23fdd5978b24a3ed.txt)\n");
  EXPECT_TRUE(
      check_ptx("  add.s32 %r1, %u1, %s1;\n  ld.global.u8 %r1, [%rd1];\n  cvt.u16.u32 %h1, %r1;")
          .empty());
  EXPECT_EQ(one(check_ptx("  add.s32 %r1, %rd1, %r2;")),
            "operand 2 of add is '%rd1' of type .b64, which does not agree with .s32 — §9.4 "
            "(001_23fdd5978b24a3ed.txt)\n");
}

TEST(Check, RemovedInstructions) {
  EXPECT_EQ(one(check_ptx("  shfl.bfly.b32 %r1, %r2, 1, 31;", "sm_80")),
            "`shfl` was removed for sm_70 and later in PTX ISA 6.4 — §9.7.9.5 "
            "(001_23fdd5978b24a3ed.txt); use shfl.sync\n");
}

TEST(Module, UnknownTargetAndVersion) {
  EXPECT_EQ(one(check_ptx("", "sm_91")),
            "unknown target 'sm_91' — §11.1.2 (001_23fdd5978b24a3ed.txt); did you mean sm_90?\n");
  EXPECT_EQ(one(check_ptx("", "sm_100a", "8.5")),
            "`.target sm_100a` needs PTX ISA 8.6 (module has .version 8.5) — §11.1.2 "
            "(001_23fdd5978b24a3ed.txt); "
            "use .version 8.6\n");
}

} // namespace
} // namespace ptxvm::isa
