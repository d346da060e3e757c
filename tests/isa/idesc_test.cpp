// Run-time shape checks of tcgen05.mma against the instruction descriptor (src/isa/idesc.h).
#include "isa/idesc.h"

#include <gtest/gtest.h>

namespace ptxvm::isa {
namespace {

Bound bound(std::vector<std::string> quals) {
  ast::Instruction in;
  in.opcode = "tcgen05";
  in.qualifiers = std::move(quals);
  std::vector<Problem> p;
  auto all = bind_all(in, p);
  EXPECT_FALSE(all.empty());
  return all.front();
}

// Table 42 layout: N >> 3 in bits 17-22, M >> 4 in bits 24-28.
uint32_t idesc(unsigned m, unsigned n) {
  return ((n >> 3) << 17) | ((m >> 4) << 24);
}

TEST(Idesc, DecodesMAndN) {
  auto b = bound({".mma", ".cta_group::1", ".kind::f16"});
  MmaShape s = idesc_shape(b, idesc(128, 256));
  EXPECT_EQ(s.m, 128u);
  EXPECT_EQ(s.n, 256u);
  auto mx = bound({".mma", ".cta_group::1", ".kind::mxf8f6f4", ".block_scale"});
  EXPECT_EQ(idesc_shape(mx, (1u << 27) | (8u << 17)).m, 128u); // Table 43: M >> 7 in bits 27-28
}

TEST(Idesc, AcceptsTable39Shapes) {
  EXPECT_FALSE(check_idesc_shape(bound({".mma", ".cta_group::1", ".kind::f16"}), idesc(64, 8)));
  EXPECT_FALSE(check_idesc_shape(bound({".mma", ".cta_group::2", ".kind::tf32"}), idesc(256, 256)));
  EXPECT_FALSE(
      check_idesc_shape(bound({".mma", ".ws", ".cta_group::1", ".kind::i8"}), idesc(32, 64)));
}

TEST(Idesc, RejectsWithTheValidChoices) {
  auto m = check_idesc_shape(bound({".mma", ".cta_group::2", ".kind::f16"}), idesc(64, 64));
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, "idesc-shape: the instruction descriptor gives M = 64, not valid for .kind::f16 "
                "with .cta_group::2 "
                "(M is 128 or 256) — §9.7.16.2.1 Table 39, §9.7.16.4.2 (000_70a4b524dfe259fa.txt)");
  auto n = check_idesc_shape(bound({".mma", ".cta_group::1", ".kind::i8"}), idesc(128, 40));
  ASSERT_TRUE(n);
  EXPECT_NE(n->find("N = 40"), std::string::npos);
  auto ws = check_idesc_shape(bound({".mma", ".ws", ".sp", ".cta_group::1", ".kind::f16"}),
                              idesc(64, 256));
  ASSERT_TRUE(ws);
  EXPECT_NE(ws->find("(N is 64 or 128)"), std::string::npos) << *ws;
}

} // namespace
} // namespace ptxvm::isa
