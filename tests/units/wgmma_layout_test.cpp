// Where wgmma.mma_async finds its operands: the matrix descriptor's fields, the canonical
// shared-memory layouts (checked against the exact layouts of the spec's examples, Figures
// 165-169 of §9.7.15.5.1.2.1.3, 001_23fdd5978b24a3ed.txt) and the warpgroup register fragments.
#include <gtest/gtest.h>

#include "mma/descriptor.h"
#include "mma/layout.h"

namespace ptxvm::mma {
namespace {

uint64_t encode(uint32_t start, uint32_t leading, uint32_t stride, unsigned base, Swizzle s) {
  return ((start & 0x3FFFF) >> 4) | uint64_t{(leading & 0x3FFFF) >> 4} << 16 |
         uint64_t{(stride & 0x3FFFF) >> 4} << 32 | uint64_t{base} << 49 | uint64_t(s) << 62;
}

TEST(WgmmaDescriptor, DecodesEveryField) {  // §9.7.15.5.1.2.2
  const MatrixDescriptor d = decode_descriptor(encode(0x3FFF0, 256, 0x3FFF0, 5, Swizzle::B64));
  EXPECT_EQ(d.start, 0x3FFF0u);
  EXPECT_EQ(d.leading, 256u);
  EXPECT_EQ(d.stride, 0x3FFF0u);
  EXPECT_EQ(d.base_offset, 5);
  EXPECT_EQ(d.swizzle, Swizzle::B64);
  EXPECT_EQ(decode_descriptor(uint64_t{3} << 62).swizzle, Swizzle::B32);
  EXPECT_EQ(decode_descriptor(uint64_t{1} << 62).swizzle, Swizzle::B128);
}

// The byte offset of element (mn, k) under a CuTe layout ((s0,s1,s2),(k0,k1)):((d0,d1,d2),(e0,e1))
// in elements of `bytes` bytes, as the spec's "exact layout" lines give it.
struct Cute {
  unsigned s0, s1, s2, d0, d1, d2, k0, e0, e1;
  uint64_t at(unsigned mn, unsigned k, unsigned bytes) const {
    const unsigned a = mn % s0, b = (mn / s0) % s1, c = mn / (s0 * s1);
    return (uint64_t{a} * d0 + uint64_t{b} * d1 + uint64_t{c} * d2 + (k % k0) * e0 + (k / k0) * e1) * bytes;
  }
};

uint64_t swizzled(uint64_t address, unsigned b) { return address ^ (((address >> 7) & ((1u << b) - 1)) << 4); }

void expect_layout(const MatrixDescriptor& d, bool k_major, unsigned elem_bits, unsigned mns, unsigned ks,
                   const Cute& exact, unsigned swizzle_b) {
  for (unsigned mn = 0; mn < mns; ++mn)
    for (unsigned k = 0; k < ks; ++k)
      ASSERT_EQ(element_bit_address(d, k_major, elem_bits, mn, k),
                8 * swizzled(d.start + exact.at(k_major ? mn : mn, k, elem_bits / 8), swizzle_b))
          << "mn " << mn << " k " << k;
}

TEST(WgmmaDescriptor, KMajorNoSwizzleTf32) {  // Figure 165: ((8,2),(4,4)):((4,32),(1,64))
  const MatrixDescriptor d = decode_descriptor(encode(1024, 256, 128, 0, Swizzle::None));
  expect_layout(d, true, 32, 16, 16, {8, 1, 2, 4, 0, 32, 4, 1, 64}, 0);
}

TEST(WgmmaDescriptor, KMajor32BSwizzleTf32) {  // Figure 166: ((8,2),(4,2)):((8,64),(1,4)), one 32-byte row of K
  const MatrixDescriptor d = decode_descriptor(encode(2048, 16, 256, 0, Swizzle::B32));
  expect_layout(d, true, 32, 16, 8, {8, 1, 2, 8, 0, 64, 4, 1, 4}, 1);
}

TEST(WgmmaDescriptor, MNMajorNoSwizzleBf16) {  // Figure 167: ((8,1,2),(8,2)):((1,8,64),(8,128))
  const MatrixDescriptor d = decode_descriptor(encode(4096, 256, 128, 0, Swizzle::None));
  expect_layout(d, false, 16, 16, 16, {8, 1, 2, 1, 8, 64, 8, 8, 128}, 0);
}

TEST(WgmmaDescriptor, MNMajor32BSwizzleBf16) {  // Figure 168: ((8,2,2),(8,2)):((1,8,128),(16,256))
  const MatrixDescriptor d = decode_descriptor(encode(4096, 256, 512, 0, Swizzle::B32));
  expect_layout(d, false, 16, 32, 16, {8, 2, 2, 1, 8, 128, 8, 16, 256}, 1);
}

TEST(WgmmaDescriptor, MNMajor64BSwizzleBf16) {  // Figure 169: ((8,4,2),(8,2)):((1,8,256),(32,512))
  const MatrixDescriptor d = decode_descriptor(encode(8192, 512, 1024, 0, Swizzle::B64));
  expect_layout(d, false, 16, 64, 16, {8, 4, 2, 1, 8, 256, 8, 32, 512}, 2);
}

TEST(WgmmaDescriptor, KMajor128BSwizzleF16RowsAreOneSwizzleAtom) {  // ((8,m),(T,2k)):((8T,SBO),(1,T))
  const MatrixDescriptor d = decode_descriptor(encode(0, 16, 1024, 0, Swizzle::B128));
  // Row r of an 8-row atom is 128 bytes; its 16-byte chunk c lands at chunk c ^ r.
  for (unsigned r = 0; r < 8; ++r)
    for (unsigned c = 0; c < 2; ++c)
      EXPECT_EQ(element_bit_address(d, true, 16, r, 8 * c) / 8, r * 128 + ((c ^ r) * 16)) << r << " " << c;
  EXPECT_EQ(element_bit_address(d, true, 16, 8, 0) / 8, 1024u);  // the next 8 rows, SBO on
}

TEST(WgmmaLayout, AccumulatorsOfTheWarpgroup) {  // §9.7.15.5.1.1: warp w holds rows 16w..16w+15
  const Layout d = wgmma_layout({64, 24, 16}, Frag::C, 32);
  EXPECT_EQ(d.regs(), 12u);  // N / 2 f32 registers
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < d.elems; ++i) {
      const unsigned row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((i % 4) / 2);
      const unsigned col = 8 * (i / 4) + 2 * (t % 4) + i % 2;
      ASSERT_EQ(d.where(t, i).row, row) << t << " " << i;
      ASSERT_EQ(d.where(t, i).col, col) << t << " " << i;
    }
  EXPECT_EQ(wgmma_layout({64, 24, 16}, Frag::C, 16).regs(), 6u);  // N / 4 f16x2 registers
}

TEST(WgmmaLayout, AFromRegisters) {  // A as mma.sync's m16n8 A fragment per warp
  const Layout a = wgmma_layout({64, 8, 16}, Frag::A, 16);
  EXPECT_EQ(a.regs(), 4u);
  EXPECT_EQ(a.where(32 + 5, 0).row, 16u + 1);  // warp 1, lane 5: group 1, thread 1
  EXPECT_EQ(a.where(32 + 5, 0).col, 2u);
  EXPECT_EQ(a.where(32 + 5, 7).row, 16u + 9);
  EXPECT_EQ(a.where(32 + 5, 7).col, 11u);
  const Layout a8 = wgmma_layout({64, 8, 32}, Frag::A, 8);
  EXPECT_EQ(a8.regs(), 4u);
  EXPECT_EQ(a8.where(127, 15).row, 48u + 15);
  EXPECT_EQ(a8.where(127, 15).col, 31u);
}

}  // namespace
}  // namespace ptxvm::mma
