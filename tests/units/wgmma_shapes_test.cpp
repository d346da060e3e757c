// Every wgmma.mma_async shape of every type (§9.7.15.5.2: N = 8..256 for the float types, the
// integer and single-bit N list), A from shared memory and from registers, every transpose and
// swizzle of the 16-bit types, and .sp at every N: small integers whose products and sums are exact
// in every format, so D is known exactly whatever the accumulation order. The host lays A and B
// out in shared memory (the canonical layouts of mma/descriptor.h, checked on an H100 by
// tests/hw/wgmma) and reads D back by the accumulator layout the spec draws for the warpgroup:
// thread 32w + l holds rows 16w + l/4 (+8) and columns 8j + 2(l%4) (+1).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "mma/descriptor.h"

namespace ptxvm::test {
namespace {

struct Case {
  std::string a, d;  // element types of A/B and of D
  unsigned n;
  bool a_regs = false, trans_a = false, trans_b = false, sparse = false;
  mma::Swizzle swizzle = mma::Swizzle::B128;
};

unsigned bits_of(const std::string& t) {
  return t == "f16" || t == "bf16" ? 16 : t == "tf32" ? 32 : t == "b1" ? 1 : 8;
}

// The bits of small integer v in type t (|v| <= 2; u8 0..4; b1: v is 0 or 1).
uint32_t encode(const std::string& t, int v) {
  if (t == "b1" || t == "s8" || t == "u8") return static_cast<uint32_t>(v) & 0xff;
  float f = static_cast<float>(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if (v == 0) return 0;
  const uint32_t sign = b >> 31, e = (b >> 23) & 0xff, m = b & 0x7fffff;  // |v| is 1 or 2: m == 0
  if (t == "tf32") return b;
  if (t == "bf16") return b >> 16;
  if (t == "f16") return sign << 15 | (e - 127 + 15) << 10 | (m >> 13);
  if (t == "e4m3") return sign << 7 | (e - 127 + 7) << 3;
  return sign << 7 | (e - 127 + 15) << 2;  // e5m2
}

uint32_t f32_bits(int v) {
  const float f = static_cast<float>(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// An integer |v| < 2048 as f16 bits (exact).
uint32_t encode_f16(int v) {
  if (v == 0) return 0;
  const uint32_t sign = v < 0, mag = static_cast<uint32_t>(v < 0 ? -v : v);
  const unsigned e = 31 - static_cast<unsigned>(__builtin_clz(mag));
  return sign << 15 | (e + 15) << 10 | ((mag << (10 - e)) & 0x3ff);
}

// The layout's LBO and SBO for an operand of mn rows of 32 bytes of K (16 when sparse A).
std::pair<uint32_t, uint32_t> strides(const Case& c, bool k_major, unsigned mn, unsigned kbytes) {
  const unsigned row = c.swizzle == mma::Swizzle::None ? 16 : 16u << (c.swizzle == mma::Swizzle::B32 ? 1 : c.swizzle == mma::Swizzle::B64 ? 2 : 3);
  if (k_major) return c.swizzle == mma::Swizzle::None ? std::pair{128u, std::max(1u, kbytes / 16) * 128} : std::pair{16u, 8 * row};
  const unsigned t = 128 / bits_of(c.a);
  if (c.swizzle == mma::Swizzle::None) return {(mn + t - 1) / t * 128, 128};
  const unsigned w = row / 16, atoms = (mn + w * t - 1) / (w * t);
  return {8 * row, atoms * 8 * row};
}

uint64_t encode_descriptor(const mma::MatrixDescriptor& d) {
  return ((d.start & 0x3FFFF) >> 4) | uint64_t{(d.leading & 0x3FFFF) >> 4} << 16 | uint64_t{(d.stride & 0x3FFFF) >> 4} << 32 |
         uint64_t(d.swizzle) << 62;
}

void run(const Case& c) {
  const unsigned bits = bits_of(c.a), k = (bits == 1 ? 256 : 256 / bits) * (c.sparse ? 2 : 1), ka = c.sparse ? k / 2 : k;
  const unsigned m = 64, n = c.n;
  const bool integer = c.d == "s32";
  const std::string shape = "m64n" + std::to_string(n) + "k" + std::to_string(k);
  // A (m x k dense; sparse: the first two of every four elements, metadata 0x4 = indices 0, 1), B, C
  const int low = c.a == "u8" ? 0 : -2;  // u8: 0..4
  auto av = [&](unsigned i, unsigned kk) { return c.a == "b1" ? int((i * 7 + kk * 3) % 5 == 0) : int((i + 2 * kk) % 5) + low; };
  auto bv = [&](unsigned kk, unsigned j) { return c.a == "b1" ? int((kk * 5 + j) % 3 == 0) : int((3 * kk + j) % 5) + low; };
  auto cv = [&](unsigned i, unsigned j) { return int((i + j) % 7) - 3; };
  auto used = [&](unsigned kk) { return !c.sparse || kk % 4 < 2; };
  std::vector<uint8_t> smem(65536, 0);
  mma::MatrixDescriptor da, db;
  da.swizzle = db.swizzle = c.swizzle;
  const auto [la, sa] = strides(c, !c.trans_a, m, 32 / (c.sparse ? 2 : 1));
  da.leading = la, da.stride = sa, da.start = 0;
  const auto [lb, sb] = strides(c, !c.trans_b, n, 32);
  db.leading = lb, db.stride = sb, db.start = 32768;
  auto put = [&](const mma::MatrixDescriptor& d, bool k_major, unsigned mn, unsigned kk, uint32_t v) {
    const uint64_t at = mma::element_bit_address(d, k_major, bits, mn, kk);
    if (bits == 1) smem[at / 8] |= uint8_t((v & 1) << (at % 8));
    else std::memcpy(&smem[at / 8], &v, bits / 8);
  };
  for (unsigned i = 0; i < m; ++i)
    for (unsigned kk = 0, kc = 0; kk < k; ++kk)
      if (used(kk)) put(da, !c.trans_a, i, kc++, encode(c.a, av(i, kk)));
  for (unsigned j = 0; j < n; ++j)
    for (unsigned kk = 0; kk < k; ++kk) put(db, !c.trans_b, j, kk, encode(c.a, bv(kk, j)));
  // per thread: A registers (the mma.sync m16n8 A fragment of its warp's 16 rows), C registers
  const unsigned per_word = 32 / bits, c_regs = c.d == "f16" ? n / 4 : n / 2;
  std::vector<uint32_t> threads(128 * (4 + c_regs));
  for (unsigned t = 0; t < 128; ++t) {
    const unsigned w = t / 32, g = (t % 32) / 4, q = t % 4;
    for (unsigned r = 0; r < 4; ++r) {
      uint32_t word = 0;
      for (unsigned e = 0; e < per_word; ++e) {
        const unsigned row = 16 * w + g + 8 * (r % 2), col = (r / 2) * (ka / 2) + q * per_word + e;  // compressed column
        const unsigned dense = c.sparse ? col / 2 * 4 + col % 2 : col;
        word |= encode(c.a, av(row, dense)) << (e * bits);
      }
      threads[t * (4 + c_regs) + r] = word;
    }
    for (unsigned r = 0; r < c_regs; ++r) {
      auto value = [&](unsigned e) {  // element e of the thread's accumulators
        const unsigned row = 16 * w + g + 8 * ((e % 4) / 2), col = 8 * (e / 4) + 2 * q + e % 2;
        return cv(row, col);
      };
      uint32_t word;
      if (c.d == "f16") word = encode("f16", value(2 * r)) | encode("f16", value(2 * r + 1)) << 16;
      else if (integer) word = static_cast<uint32_t>(value(r));
      else word = encode("tf32", value(r));
      threads[t * (4 + c_regs) + 4 + r] = word;
    }
  }
  // the kernel: copy 64 KiB to shared memory, load registers, one wgmma, store the accumulators
  std::string dreg = c.d == "f32" ? "%f" : "%r", regs;
  for (unsigned r = 0; r < c_regs; ++r) regs += (r ? ", " : "") + dreg + std::to_string(200 + r);
  std::string text = "wgmma.mma_async" + std::string(c.sparse ? ".sp" : "") + ".sync.aligned." + shape;
  if (c.a == "b1") text += ".s32.b1.b1.and.popc";
  else if (integer) text += ".s32." + c.a + "." + c.a;
  else text += "." + c.d + "." + c.a + "." + c.a;
  std::string ops = "{" + regs + "}, " + (c.a_regs ? std::string("{%r1, %r2, %r3, %r4}") : "%rd20") + ", %rd21, ";
  if (c.sparse) ops += "%r5, 0, ";
  ops += "1";
  if (!integer) {
    ops += ", 1, 1";
    if (c.a == "f16" || c.a == "bf16") ops += std::string(c.a_regs ? "" : c.trans_a ? ", 1" : ", 0") + (c.trans_b ? ", 1" : ", 0");
  }
  std::string ptx = ".version 8.4\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(.param .u64 out, .param .u64 sm, .param .u64 th, .param .u64 da, .param .u64 db)\n{\n"
                    ".reg .b32 %r<400>;\n.reg .f32 %f<400>;\n.reg .b64 %rd<32>;\n.reg .pred %p<4>;\n"
                    ".shared .align 1024 .b8 tile[65536];\n"
                    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [sm];\nld.param.u64 %rd3, [th];\n"
                    "ld.param.u64 %rd20, [da];\nld.param.u64 %rd21, [db];\n"
                    "mov.u32 %r100, %tid.x;\nmov.u32 %r101, 0;\nmov.u32 %r102, tile;\n"
                    // the descriptors' start addresses count from the tile: its address added
                    "shr.u32 %r107, %r102, 4;\ncvt.u64.u32 %rd22, %r107;\nadd.u64 %rd20, %rd20, %rd22;\n"
                    "add.u64 %rd21, %rd21, %rd22;\n"
                    "COPY:\nshl.b32 %r103, %r101, 9;\nshl.b32 %r104, %r100, 2;\nadd.u32 %r103, %r103, %r104;\n"
                    "cvt.u64.u32 %rd4, %r103;\nadd.u64 %rd4, %rd2, %rd4;\nld.global.u32 %r105, [%rd4];\n"
                    "add.u32 %r106, %r102, %r103;\nst.shared.u32 [%r106], %r105;\nadd.u32 %r101, %r101, 1;\n"
                    "setp.lt.u32 %p1, %r101, 128;\n@%p1 bra COPY;\nbar.sync 0;\nfence.proxy.async.shared::cta;\n"
                    "mul.wide.u32 %rd5, %r100, " + std::to_string(4 * (4 + c_regs)) + ";\nadd.u64 %rd5, %rd3, %rd5;\n"
                    "ld.global.u32 %r1, [%rd5];\nld.global.u32 %r2, [%rd5+4];\nld.global.u32 %r3, [%rd5+8];\n"
                    "ld.global.u32 %r4, [%rd5+12];\nmov.u32 %r5, 0x44444444;\n";
  for (unsigned r = 0; r < c_regs; ++r)
    ptx += "ld.global." + std::string(c.d == "f32" ? "f32 " : "u32 ") + dreg + std::to_string(200 + r) + ", [%rd5+" + std::to_string(16 + 4 * r) + "];\n";
  ptx += "wgmma.fence.sync.aligned;\n" + text + " " + ops + ";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n"
         "mul.wide.u32 %rd6, %r100, " + std::to_string(4 * c_regs) + ";\nadd.u64 %rd6, %rd1, %rd6;\n";
  for (unsigned r = 0; r < c_regs; ++r)
    ptx += "st.global." + std::string(c.d == "f32" ? "f32 [%rd6+" : "u32 [%rd6+") + std::to_string(4 * r) + "], " + dreg + std::to_string(200 + r) + ";\n";
  ptx += "ret;\n}\n";
  Harness h;
  h.load(ptx);
  const uint64_t out = h.buffer(std::vector<uint32_t>(128 * c_regs, 0xdeadbeef));
  const uint64_t dsm = h.buffer(std::vector<uint32_t>(reinterpret_cast<uint32_t*>(smem.data()), reinterpret_cast<uint32_t*>(smem.data()) + 16384));
  const uint64_t dth = h.buffer(threads);
  auto r = h.launch("k", {1}, {128}, {arg(out), arg(dsm), arg(dth), arg(encode_descriptor(da)), arg(encode_descriptor(db))});
  ASSERT_TRUE(r.ok) << text << ": " << r.error;
  const std::vector<uint32_t> got = h.read<uint32_t>(out, 128 * c_regs);
  unsigned bad = 0;
  for (unsigned t = 0; t < 128 && bad < 3; ++t)
    for (unsigned e = 0; e < n / 2; ++e) {
      const unsigned w = t / 32, g = (t % 32) / 4, q = t % 4;
      const unsigned row = 16 * w + g + 8 * ((e % 4) / 2), col = 8 * (e / 4) + 2 * q + e % 2;
      int want = cv(row, col);
      for (unsigned kk = 0; kk < k; ++kk)
        if (used(kk)) want += c.a == "b1" ? (av(row, kk) & bv(kk, col)) : av(row, kk) * bv(kk, col);
      const uint32_t word = got[t * c_regs + (c.d == "f16" ? e / 2 : e)];
      const uint32_t bits_got = c.d == "f16" ? (word >> (16 * (e % 2))) & 0xffff : word;
      const uint32_t bits_want = c.d == "f16" ? encode_f16(want) : integer ? uint32_t(want) : f32_bits(want);
      if (bits_got != bits_want && bad++ < 3)
        ADD_FAILURE() << text << (c.a_regs ? " A=regs" : "") << " trans " << c.trans_a << c.trans_b << " swizzle "
                      << int(c.swizzle) << ": D(" << row << ", " << col << ") = " << std::hex << bits_got << ", want "
                      << bits_want;
    }
}

// Every N of a float type, A from shared memory (even N / 8) and from registers (odd).
void every_n(const std::string& a, const std::string& d, bool sparse = false) {
  for (unsigned n = 8; n <= 256; n += 8) {
    Case c{a, d, n};
    c.a_regs = (n / 8) % 2 == 1;
    c.sparse = sparse;
    run(c);
  }
}

// The N list of the integer and single-bit shapes (§9.7.15.5.2).
void every_integer_n(const std::string& a, bool sparse = false) {
  for (unsigned n : {8u, 16u, 24u, 32u, 48u, 64u, 80u, 96u, 112u, 128u, 144u, 160u, 176u, 192u, 208u, 224u, 240u, 256u}) {
    Case c{a, "s32", n};
    c.a_regs = (n / 8) % 2 == 1;
    c.sparse = sparse;
    run(c);
  }
}

TEST(WgmmaShapes, F16EveryN) { every_n("f16", "f32"), every_n("f16", "f16"); }
TEST(WgmmaShapes, Bf16EveryN) { every_n("bf16", "f32"); }
TEST(WgmmaShapes, Tf32EveryN) { every_n("tf32", "f32"); }
TEST(WgmmaShapes, Fp8EveryN) { every_n("e4m3", "f32"), every_n("e5m2", "f16"); }
TEST(WgmmaShapes, IntegerEveryN) { every_integer_n("s8"), every_integer_n("u8"); }
TEST(WgmmaShapes, SingleBitEveryN) { every_integer_n("b1"); }
TEST(WgmmaShapes, SparseEveryN) {
  every_n("f16", "f32", true), every_n("bf16", "f32", true), every_n("e4m3", "f16", true);
  every_integer_n("s8", true);
}

// Every transpose and swizzle of A and B for the types that transpose (§9.7.15.5.2: .f16/.bf16
// with A from shared memory), at an N that spans several swizzle atoms.
TEST(WgmmaShapes, EveryTransposeAndSwizzle) {
  for (const char* t : {"f16", "bf16"})
    for (mma::Swizzle s : {mma::Swizzle::None, mma::Swizzle::B32, mma::Swizzle::B64, mma::Swizzle::B128})
      for (int trans = 0; trans < 4; ++trans)
        for (unsigned n : {72u, 256u}) {
          Case c{t, "f32", n};
          c.swizzle = s;
          c.trans_a = trans & 1;
          c.trans_b = trans & 2;
          run(c);
        }
  for (const char* t : {"tf32", "e4m3", "s8", "b1"})  // K-major only
    for (mma::Swizzle s : {mma::Swizzle::None, mma::Swizzle::B32, mma::Swizzle::B64, mma::Swizzle::B128}) {
      Case c{t, std::string(t) == "s8" || std::string(t) == "b1" ? "s32" : "f32", 48};
      c.swizzle = s;
      run(c);
    }
}

}  // namespace
}  // namespace ptxvm::test
