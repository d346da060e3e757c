// Parsing of PTX §4, §5, §6 and §11 constructs (001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include "front/printer.h"
#include "test_util.h"

namespace ptxvm::test {
namespace {

using namespace ast;

const Function& first_function(const Module& m) {
  for (const TopLevel& t : m.items)
    if (t.kind == TopLevel::Kind::Function) return *t.func;
  throw std::runtime_error("no function");
}

// The instructions of the kernel body, printed canonically.
std::vector<std::string> instructions(const std::string& body) {
  Parsed p = parse(kernel(body));
  EXPECT_TRUE(p.ok()) << p.diagnostics;
  std::vector<std::string> out;
  if (!p.ok()) return out;
  for (const Statement& s : first_function(*p.module).body->body)
    if (s.kind == Statement::Kind::Instruction) out.push_back(front::print_instruction(s.inst));
  return out;
}

std::string expr_of(const std::string& e) {
  auto in = instructions("mov.u64 %rd1, " + e + ";");
  if (in.empty()) return "<error>";
  return in[0].substr(std::string("mov.u64 %rd1, ").size(), in[0].size() - 15);
}

TEST(Parser, ModuleHeader) {  // §11.1
  Parsed p = parse(".version 9.0\n.target sm_100a, texmode_independent, debug, map_f64_to_f32\n"
                   ".address_size 32\n");
  ASSERT_TRUE(p.ok()) << p.diagnostics;
  EXPECT_EQ(p.module->version_major, 9u);
  EXPECT_EQ(p.module->version_minor, 0u);
  EXPECT_EQ(p.module->targets,
            (std::vector<std::string>{"sm_100a", "texmode_independent", "debug", "map_f64_to_f32"}));
  EXPECT_EQ(p.module->address_size, 32u);
}

TEST(Parser, MissingVersionOrTarget) {
  EXPECT_NE(parse(".target sm_90\n").diagnostics.find("expected .version"), std::string::npos);
  EXPECT_NE(parse(".version 8.0\n").diagnostics.find("expected .target"), std::string::npos);
  EXPECT_NE(parse(".version 8\n.target sm_90").diagnostics.find("version number major.minor"),
            std::string::npos);
}

TEST(Parser, InstructionShape) {  // §4.3.2
  Parsed p = parse(kernel(".reg .pred %p1;\n@!%p1 mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col "
                          "{%r1, %r2}, [%rd1+-8], _, %p1|%p2;"));
  ASSERT_TRUE(p.ok()) << p.diagnostics;
  const Instruction& in = first_function(*p.module).body->body[1].inst;
  ASSERT_TRUE(in.guard);
  EXPECT_TRUE(in.guard->negated);
  EXPECT_EQ(in.guard->pred, "%p1");
  EXPECT_EQ(in.opcode, "mma");
  EXPECT_EQ(in.qualifiers, (std::vector<std::string>{".sync", ".aligned", ".kind::f8f6f4",
                                                     ".m16n8k32", ".row", ".col"}));
  ASSERT_EQ(in.operands.size(), 4u);
  EXPECT_EQ(in.operands[0].kind, Operand::Kind::Vector);
  EXPECT_EQ(in.operands[1].kind, Operand::Kind::Address);
  EXPECT_EQ(in.operands[2].kind, Operand::Kind::Sink);
  EXPECT_EQ(in.operands[3].kind, Operand::Kind::Pair);
  EXPECT_EQ(in.loc.line, 7u);
  EXPECT_EQ(in.loc.col, 1u);
}

TEST(Parser, EveryOperandForm) {  // §6.2–§6.4
  auto in = instructions(
      "mov.u32 %r1, %tid.x;\n"
      "ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1+16];\n"
      "ld.const.f32 %f1, [coeffs+8];\n"
      "ld.global.u32 %r1, [0x100];\n"
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
      "[%r1], [tmap, {%r2, %r3}], [%r4];\n"
      "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [tex, sampler, {%f5, %f6}];\n"
      "call.uni (retval0), vprintf, (param0, param1);\n"
      "call (r0), %rd3, (a0), proto;\n"
      "call.uni foo, ();\n"
      "setp.lt.s32 %p2|%p3, %r8, %r9;\n"
      "and.pred %p2, %p2, !%p3;\n"
      "vadd.s32.s32.s32.sat %r17, %r12.b0, %r13.h1, %r14;\n"
      "bra.uni $L__BB0_3;\n"
      "ret;");
  std::vector<std::string> want = {
      "mov.u32 %r1, %tid.x;",
      "ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1 + 16];",
      "ld.const.f32 %f1, [coeffs + 8];",
      "ld.global.u32 %r1, [256];",
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], "
      "[tmap, {%r2, %r3}], [%r4];",
      "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [tex, sampler, {%f5, %f6}];",
      "call.uni (retval0), vprintf, (param0, param1);",
      "call (r0), %rd3, (a0), proto;",
      "call.uni foo, ();",
      "setp.lt.s32 %p2|%p3, %r8, %r9;",
      "and.pred %p2, %p2, !%p3;",
      "vadd.s32.s32.s32.sat %r17, %r12.b0, %r13.h1, %r14;",
      "bra.uni $L__BB0_3;",
      "ret;"};
  EXPECT_EQ(in, want);
}

TEST(Parser, ConstantExpressionPrecedence) {  // §4.5.4 Table 4
  EXPECT_EQ(expr_of("1 + 2 * 3"), "1 + 2 * 3");
  EXPECT_EQ(expr_of("(1 + 2) * 3"), "(1 + 2) * 3");
  EXPECT_EQ(expr_of("1 - (2 - 3)"), "1 - (2 - 3)");
  EXPECT_EQ(expr_of("1 - 2 - 3"), "1 - 2 - 3");
  EXPECT_EQ(expr_of("1 << 2 + 3"), "1 << 2 + 3");
  EXPECT_EQ(expr_of("(1 << 2) + 3"), "(1 << 2) + 3");
  EXPECT_EQ(expr_of("(1 | 2 ^ 3 & 4)"), "(1 | 2 ^ 3 & 4)");  // bare `|` would be a pair
  EXPECT_EQ(expr_of("(1 | 2 && 3)"), "(1 | 2 && 3)");
  EXPECT_EQ(expr_of("(1 | 2) & 3"), "(1 | 2) & 3");
  EXPECT_EQ(expr_of("1 < 2 == 3 > 4"), "1 < 2 == 3 > 4");
  EXPECT_EQ(expr_of("1 && 2 || 3"), "(1 && 2 || 3)");
  EXPECT_EQ(expr_of("1 ? 2 : 3 ? 4 : 5"), "(1 ? 2 : 3 ? 4 : 5)");
  EXPECT_EQ(expr_of("(1 ? 2 : 3) ? 4 : 5"), "((1 ? 2 : 3) ? 4 : 5)");
  EXPECT_EQ(expr_of("-(-1)"), "-(-1)");
  EXPECT_EQ(expr_of("~0U"), "~0U");
  EXPECT_EQ(expr_of("!0"), "!0");
  EXPECT_EQ(expr_of("(.s64)(.u64)-1"), "(.s64)((.u64)(-1))");
  EXPECT_EQ(expr_of("0x10 % 3"), "16 % 3");
  EXPECT_EQ(expr_of("1.5"), "0d3FF8000000000000");
  EXPECT_EQ(expr_of("0f3F800000"), "0f3F800000");
}

TEST(Parser, Declarations) {  // §5.4
  Parsed p = parse(
      ".version 8.7\n.target sm_90\n.address_size 64\n"
      ".global .align 16 .b8 buf[4][2] = {{1, 2}, {3}};\n"
      ".const .f32 vals[] = {0.5, 0f3F800000};\n"
      ".global .u64 p[2] = {generic(buf) + 4, buf};\n"
      ".global .u8 m[2] = {0xFF00(buf), 0xFF(generic(buf) + 4)};\n"
      ".global .attribute(.unified(19, 95)) .f32 f;\n"
      ".global .samplerref s = {addr_mode_0 = wrap, filter_mode = linear};\n"
      ".extern .shared .align 16 .b8 dyn[];\n"
      ".visible .global .v4 .f32 v;\n"
      ".visible .entry k(.param .u64 .ptr .global .align 16 a, .param .align 8 .b8 s[16])\n"
      "{\n .reg .b32 %r<100>, x, y;\n}\n");
  ASSERT_TRUE(p.ok()) << p.diagnostics;
  const auto& items = p.module->items;
  ASSERT_EQ(items.size(), 9u);
  const VarDecl& buf = items[0].decl;
  EXPECT_EQ(buf.space, Space::Global);
  EXPECT_EQ(buf.align, 16u);
  EXPECT_EQ(buf.type, ".b8");
  EXPECT_EQ(buf.names[0].dims.size(), 2u);
  EXPECT_TRUE(buf.names[0].init->is_list);
  EXPECT_FALSE(items[1].decl.names[0].dims[0].has_value());
  EXPECT_EQ(items[4].decl.attributes, std::vector<std::string>{".unified(19, 95)"});
  EXPECT_EQ(items[5].decl.names[0].init->list[1].key, "filter_mode");
  EXPECT_EQ(items[6].decl.linkage, Linkage::Extern);
  EXPECT_EQ(items[7].decl.vector, 4u);
  const Function& k = *items[8].func;
  EXPECT_TRUE(k.is_entry);
  EXPECT_EQ(k.linkage, Linkage::Visible);
  ASSERT_EQ(k.params.size(), 2u);
  EXPECT_TRUE(k.params[0].ptr);
  EXPECT_EQ(k.params[0].ptr_space, Space::Global);
  EXPECT_EQ(k.params[0].ptr_align, 16u);
  const VarDecl& regs = k.body->body[0].decl;
  ASSERT_EQ(regs.names.size(), 3u);
  EXPECT_EQ(regs.names[0].range, 100u);
  std::string printed = front::print_module(*p.module);
  EXPECT_NE(printed.find(".global .u64 p[2] = {generic(buf) + 4, buf};"), std::string::npos);
  EXPECT_NE(printed.find(".global .u8 m[2] = {0xFF00(buf), 0xFF(generic(buf) + 4)};"),
            std::string::npos);
  EXPECT_NE(printed.find("{addr_mode_0 = wrap, filter_mode = linear}"), std::string::npos);
}

TEST(Parser, FunctionsAndDirectives) {  // §11.3, §11.4
  Parsed p = parse(
      ".version 8.7\n.target sm_90a\n"
      ".weak .func (.param .b32 r) f(.param .b32 a) .noreturn;\n"
      ".func g\n{\n ret;\n}\n"
      ".alias h, g;\n"
      ".pragma \"nounroll\";\n"
      ".entry k() .maxntid 128, 2 .reqntid 64 .minnctapersm 4 .maxnreg 32 .maxclusterrank 8 "
      ".reqnctapercluster 2, 1, 1 .explicitcluster .blocksareclusters\n"
      "{\n"
      " .pragma \"used_bytes_mask 0xfff\";\n"
      "p: .callprototype (.param .b32 _) _ (.param .b64 _, .param .b32 _);\n"
      "q: .callprototype _ (.param .b32 _) .noreturn;\n"
      "s: .callprototype ()_ (.param .b64 _, .param .align 4 .b8 _[16]);\n"
      "t: .branchtargets L1, L2;\n"
      "c: .calltargets g;\n"
      "L1:\nL2:\n ret;\n}\n");
  ASSERT_TRUE(p.ok()) << p.diagnostics;
  const auto& items = p.module->items;
  EXPECT_EQ(items[0].func->linkage, Linkage::Weak);
  EXPECT_TRUE(items[0].func->noreturn);
  EXPECT_TRUE(items[0].func->has_returns);
  EXPECT_EQ(items[0].func->body, nullptr);
  EXPECT_FALSE(items[1].func->has_params);
  EXPECT_EQ(items[2].alias.alias, "h");
  EXPECT_EQ(items[3].pragmas, std::vector<std::string>{"nounroll"});
  const Function& k = *items[4].func;
  ASSERT_EQ(k.directives.size(), 8u);
  EXPECT_EQ(k.directives[0].name, ".maxntid");
  EXPECT_EQ(k.directives[0].values, (std::vector<uint64_t>{128, 2}));
  EXPECT_EQ(k.directives[7].name, ".blocksareclusters");
  const auto& body = k.body->body;
  EXPECT_EQ(body[0].kind, Statement::Kind::Pragma);
  EXPECT_EQ(body[1].kind, Statement::Kind::CallPrototype);
  EXPECT_EQ(body[1].proto.params.size(), 2u);
  EXPECT_TRUE(body[2].proto.noreturn);
  EXPECT_FALSE(body[2].proto.has_returns);
  // an unnamed array parameter: a struct passed by value (nvcc's indirect calls)
  ASSERT_EQ(body[3].proto.params.size(), 2u);
  EXPECT_EQ(body[3].proto.params[1].align, std::optional<uint64_t>(4));
  ASSERT_EQ(body[3].proto.params[1].names[0].dims.size(), 1u);
  EXPECT_NE(front::print_module(*p.module).find(".param .align 4 .b8 _[16]"), std::string::npos);
  EXPECT_EQ(body[4].kind, Statement::Kind::BranchTargets);
  EXPECT_EQ(body[4].words, (std::vector<std::string>{"L1", "L2"}));
  EXPECT_EQ(body[5].kind, Statement::Kind::CallTargets);
}

TEST(Parser, DebugDirectives) {  // §11.5
  Parsed p = parse(
      ".version 8.7\n.target sm_90, debug\n"
      ".file 1 \"a.cu\"\n.file 2 \"b.h\", 1700000000, 4096\n"
      ".entry k()\n{\nb:\n .loc 1 5 3\n .loc 2 7 1, function_name s0, inlined_at 1 5 3\n ret;\ne:\n}\n"
      ".section .debug_info\n{\n.b32 e - b\n.b8 1, 2, 0\n.b32 .debug_abbrev\n.b64 b + 8\ns0:\n"
      ".b8 65, 0\n}\n"
      "@@DWARF .byte 1\n");
  ASSERT_TRUE(p.ok()) << p.diagnostics;
  const auto& items = p.module->items;
  EXPECT_EQ(items[1].file.extra, (std::vector<uint64_t>{1700000000, 4096}));
  const auto& body = items[2].func->body->body;
  EXPECT_EQ(body[1].kind, Statement::Kind::Loc);
  EXPECT_EQ(body[2].inlined_at, (std::vector<uint64_t>{1, 5, 3}));
  EXPECT_EQ(front::print_expr(*body[2].loc_function), "s0");
  const Section& sec = items[3].section;
  EXPECT_EQ(sec.name, ".debug_info");
  ASSERT_EQ(sec.items.size(), 6u);
  EXPECT_EQ(front::print_expr(*sec.items[0].values[0]), "e - b");
  EXPECT_EQ(sec.items[1].values.size(), 3u);
  EXPECT_EQ(front::print_expr(*sec.items[2].values[0]), ".debug_abbrev");
  EXPECT_EQ(sec.items[4].label, "s0");
  EXPECT_EQ(items[4].dwarf, ".byte 1");
}

TEST(Parser, NestedBlocks) {
  Parsed p = parse(kernel("{\n .reg .b32 a;\n {\n  mov.u32 a, 1;\n }\n}"));
  ASSERT_TRUE(p.ok()) << p.diagnostics;
  const Statement& outer = first_function(*p.module).body->body[0];
  ASSERT_EQ(outer.kind, Statement::Kind::Block);
  EXPECT_EQ(outer.block->body[1].kind, Statement::Kind::Block);
}

}  // namespace
}  // namespace ptxvm::test
