// The integer and logic hardware vectors (PTX §9.7.1, §9.7.2 less the carry chains, §9.7.6,
// §9.7.8): the instruction texts, the operands (regenerated from a seed with splitmix64) and the
// PTX kernel around one text. Shared, unchanged, by record_integer.cu (which ran on the GPU) and
// tests/sem/integer_hw_test.cpp (which replays every recorded text through ptxvm over the same
// operands). Integer arithmetic only.
//
// A text names its registers: the sources a, b, c as %a16/%a32/%a64 (their low 16, 32 bits or
// all 64), %e32 the high word of c (a fourth operand: bfi's length), %q a predicate (c < 0); the
// destination %d16, %d32, %d64 or the predicate %dp. One text may hold several instructions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_integer {

using ptxvm_hw_seed::splitmix64;

constexpr size_t kCount = 2048;  // operand triples per text
constexpr uint64_t kSeed = 21;

struct Operands {
  std::vector<uint64_t> a, b, c;
};

// Every pair of 27 edge words (c a third one), then generated triples, an eighth each of: raw
// bits; small signed values (-40..40: shift amounts, bit positions, fns offsets); a raw with b and
// c in 0..70 (bfe/bfi/shf positions and lengths, c's high word a length too); 32-bit edges sign-
// or zero-extended; half-word edges in each half-word; a and b with random leading zeros (bfind,
// clz); bytes from byte edges (dp4a, dp2a, prmt selectors); 24-bit products near 2^31 and 2^32.
inline Operands operands() {
  static const uint64_t kEdges[] = {0,
                                    1,
                                    2,
                                    31,
                                    32,
                                    33,
                                    63,
                                    64,
                                    0x7f,
                                    0x80,
                                    0xff,
                                    0x7fff,
                                    0x8000,
                                    0xffff,
                                    0x7fffff,
                                    0x800000,
                                    0xffffff,
                                    0x7fffffff,
                                    0x80000000,
                                    0xffffffff,
                                    0x100000000,
                                    0x7fffffffffffffff,
                                    0x8000000000000000,
                                    0xffffffffffffffff,
                                    0xfffffffffffffffe,
                                    0xffffffff80000000,
                                    0xffffffffffff8000};
  static const uint32_t kWords[] = {0,          1,          0x7f,       0x80,       0xffff,     0x8000,
                                    0x7fffff,   0x800000,   0xffffff,   0x7fffffff, 0x80000000, 0xffffffff,
                                    0xfffffffe, 0xff800000, 0x807f01ff, 0x00ff00ff};
  static const uint32_t kHalves[] = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff};
  static const uint32_t kBytes[] = {0, 1, 2, 3, 4, 7, 8, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  constexpr size_t ke = sizeof kEdges / sizeof *kEdges;
  Operands o;
  for (size_t i = 0; i < ke; ++i)
    for (size_t j = 0; j < ke; ++j) {
      o.a.push_back(kEdges[i]);
      o.b.push_back(kEdges[j]);
      o.c.push_back(kEdges[(i * 7 + j * 3 + 1) % ke]);
    }
  uint64_t s = kSeed;
  auto small = [](uint64_t r) { return static_cast<uint64_t>(static_cast<int64_t>(r % 81) - 40); };
  auto word = [](uint64_t r) {  // a 32-bit edge, zero- or sign-extended
    const uint32_t w = kWords[r % 16];
    return (r >> 4) & 1 ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(w))) : uint64_t{w};
  };
  auto halves = [](uint64_t r) {
    uint64_t w = 0;
    for (int k = 0; k < 4; ++k) w |= uint64_t{kHalves[(r >> (4 * k)) % 10]} << (16 * k);
    return w;
  };
  auto bytes = [](uint64_t r) {
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) {
      const uint64_t pick = (r >> (4 * k)) & 15;
      w |= (pick < 12 ? uint64_t{kBytes[pick]} : (r >> (32 + 4 * k)) & 0xff) << (8 * k);
    }
    return w;
  };
  while (o.a.size() < kCount) {
    const uint64_t r = splitmix64(s), ra = splitmix64(s), rb = splitmix64(s), rc = splitmix64(s);
    uint64_t a = ra, b = rb, c = rc;
    switch (r & 7) {
    case 0:
      break;
    case 1:
      a = (r >> 3) & 1 ? small(ra) : ra, b = small(rb), c = small(rc);
      break;
    case 2:
      b = rb % 71, c = (rc % 71) | (((rc >> 32) % 71) << 32);
      break;
    case 3:
      a = word(ra), b = word(rb), c = word(rc);
      break;
    case 4:
      a = halves(ra), b = halves(rb), c = halves(rc);
      break;
    case 5:
      a = ra >> (ra % 64), b = rb >> (rb % 64), c = (r >> 8) & 1 ? ~(rc >> (rc % 64)) : rc;
      break;
    case 6:
      a = bytes(ra), b = bytes(rb), c = bytes(rc);
      break;
    case 7:  // 24-bit factors whose product is near 2^31 or 2^32, and c near its negation
      a = 0x800000 + (ra & 0x7fffff) * ((r >> 3) & 1), b = (uint64_t{1} << (7 + (r >> 4) % 3)) + (rb & 0xff);
      c = (r >> 6) & 1 ? static_cast<uint64_t>(-static_cast<int64_t>(a * b)) + (rc & 0xff) : rc;
      if ((r >> 7) & 1) a = static_cast<uint64_t>(-static_cast<int64_t>(a));
      break;
    }
    o.a.push_back(a), o.b.push_back(b), o.c.push_back(c);
  }
  return o;
}

// The destination's width in bytes (1 for the predicate %dp), from the register the text writes.
inline unsigned result_bytes(const std::string& text) {
  if (text.find("%d64") != std::string::npos) return 8;
  if (text.find("%d32") != std::string::npos) return 4;
  if (text.find("%d16") != std::string::npos) return 2;
  return 1;
}

inline void arithmetic_texts(std::vector<std::string>& out) {
  static const char* const kInts[] = {"s16", "u16", "s32", "u32", "s64", "u64"};
  auto reg = [](const char* type, char name) { return std::string("%") + name + (type + 1); };
  auto ternary = [&](const std::string& m, const char* dt, const char* st) {  // d, a, b, c
    return m + " " + reg(dt, 'd') + ", " + reg(st, 'a') + ", " + reg(st, 'b') + ", " + reg(st, 'c');
  };
  auto binary = [&](const std::string& m, const char* dt, const char* st) {
    return m + " " + reg(dt, 'd') + ", " + reg(st, 'a') + ", " + reg(st, 'b');
  };
  auto unary = [&](const std::string& m, const char* t) { return m + " " + reg(t, 'd') + ", " + reg(t, 'a'); };
  static const char* const kWide[] = {"s32", "u32", "s64", "u64"};  // the .wide result of s16 ... u32
  for (int t = 0; t < 6; ++t) {
    const char* ty = kInts[t];
    out.push_back(binary(std::string("add.") + ty, ty, ty));
    out.push_back(binary(std::string("sub.") + ty, ty, ty));
    for (const char* half : {"hi", "lo"}) {
      out.push_back(binary(std::string("mul.") + half + "." + ty, ty, ty));
      out.push_back(ternary(std::string("mad.") + half + "." + ty, ty, ty));
    }
    if (t < 4) {
      out.push_back(binary(std::string("mul.wide.") + ty, kWide[t], ty));
      out.push_back(ternary(std::string("mad.wide.") + ty, kWide[t], ty));
    }
    out.push_back(ternary(std::string("sad.") + ty, ty, ty));
    out.push_back(binary(std::string("min.") + ty, ty, ty));
    out.push_back(binary(std::string("max.") + ty, ty, ty));
    out.push_back(binary(std::string("div.") + ty, ty, ty));
    out.push_back(binary(std::string("rem.") + ty, ty, ty));
    if (ty[0] == 's') {
      out.push_back(unary(std::string("abs.") + ty, ty));
      out.push_back(unary(std::string("neg.") + ty, ty));
    }
  }
  // mad.wide's c has the destination's width.
  for (std::string& t : out)
    if (t.rfind("mad.wide.", 0) == 0) {
      const size_t comma = t.rfind(", %c");
      t = t.substr(0, comma) + ", %c" + (t.find("%d64") != std::string::npos ? "64" : "32");
    }
  out.push_back("add.sat.s32 %d32, %a32, %b32");
  out.push_back("sub.sat.s32 %d32, %a32, %b32");
  out.push_back("mad.hi.sat.s32 %d32, %a32, %b32, %c32");
  for (const char* m : {"min", "max"}) {
    out.push_back(std::string(m) + ".relu.s32 %d32, %a32, %b32");
    for (const char* ty : {"s16x2", "u16x2"}) out.push_back(std::string(m) + "." + ty + " %d32, %a32, %b32");
    out.push_back(std::string(m) + ".relu.s16x2 %d32, %a32, %b32");
  }
  for (const char* ty : {"s16x2", "u16x2"}) out.push_back(std::string("add.") + ty + " %d32, %a32, %b32");
  for (const char* half : {"hi", "lo"})
    for (const char* ty : {"s32", "u32"}) {
      out.push_back(std::string("mul24.") + half + "." + ty + " %d32, %a32, %b32");
      out.push_back(std::string("mad24.") + half + "." + ty + " %d32, %a32, %b32, %c32");
    }
  out.push_back("mad24.hi.sat.s32 %d32, %a32, %b32, %c32");
}

inline void bit_texts(std::vector<std::string>& out) {
  for (const char* w : {"32", "64"}) {
    const std::string d = std::string("%d32, %a") + w;
    out.push_back(std::string("popc.b") + w + " " + d);
    out.push_back(std::string("clz.b") + w + " " + d);
    out.push_back(std::string("brev.b") + w + " %d" + w + ", %a" + w);
    for (const char* t : {"u", "s"}) {
      out.push_back(std::string("bfind.") + t + w + " " + d);
      out.push_back(std::string("bfind.shiftamt.") + t + w + " " + d);
      out.push_back(std::string("bfe.") + t + w + " %d" + w + ", %a" + w + ", %b32, %c32");
    }
    out.push_back(std::string("bfi.b") + w + " %d" + w + ", %a" + w + ", %b" + w + ", %c32, %e32");
  }
  out.push_back("fns.b32 %d32, %a32, %b32, %c32");
  for (const char* mode : {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"})
    out.push_back(std::string("prmt.b32") + mode + " %d32, %a32, %b32, %c32");
  for (const char* dir : {"l", "r"})
    for (const char* mode : {"wrap", "clamp"})
      out.push_back(std::string("shf.") + dir + "." + mode + ".b32 %d32, %a32, %b32, %c32");
  for (const char* w : {"16", "32", "64"}) {
    out.push_back(std::string("shl.b") + w + " %d" + w + ", %a" + w + ", %b32");
    out.push_back(std::string("shr.b") + w + " %d" + w + ", %a" + w + ", %b32");
    out.push_back(std::string("shr.s") + w + " %d" + w + ", %a" + w + ", %b32");
    out.push_back(std::string("cnot.b") + w + " %d" + w + ", %a" + w);
    out.push_back(std::string("not.b") + w + " %d" + w + ", %a" + w);
  }
  for (const char* mode : {"wrap", "clamp"}) {
    for (const char* t : {"s32", "u32"}) out.push_back(std::string("szext.") + mode + "." + t + " %d32, %a32, %b32");
    out.push_back(std::string("bmsk.") + mode + ".b32 %d32, %a32, %b32");
  }
  for (const char* at : {"u32", "s32"})
    for (const char* bt : {"u32", "s32"}) {
      out.push_back(std::string("dp4a.") + at + "." + bt + " %d32, %a32, %b32, %c32");
      for (const char* half : {"lo", "hi"})
        out.push_back(std::string("dp2a.") + half + "." + at + "." + bt + " %d32, %a32, %b32, %c32");
    }
  for (int lut = 0; lut < 256; ++lut) out.push_back("lop3.b32 %d32, %a32, %b32, %c32, " + std::to_string(lut));
  for (const char* op : {"and", "or"})  // the predicate forms (PTX 8.2): d = lop3(...) != 0, p = d != 0 OP q
    for (int lut : {0x00, 0x80, 0x96, 0xe8, 0xfe}) {
      out.push_back(std::string("lop3.") + op + ".b32 %d32|%dp, %a32, %b32, %c32, " + std::to_string(lut) + ", %q");
      out.push_back(std::string("lop3.") + op + ".b32 %d32|%dp, %a32, %b32, %c32, " + std::to_string(lut) + ", !%q");
    }
}

inline void compare_texts(std::vector<std::string>& out) {
  static const char* const kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  static const char* const kUnsigned[] = {"lo", "ls", "hi", "hs"};
  for (const char* w : {"16", "32", "64"}) {
    for (const char* c : kCmp) {
      out.push_back(std::string("setp.") + c + ".s" + w + " %dp, %a" + w + ", %b" + w);
      out.push_back(std::string("setp.") + c + ".u" + w + " %dp, %a" + w + ", %b" + w);
    }
    for (const char* c : kUnsigned) out.push_back(std::string("setp.") + c + ".u" + w + " %dp, %a" + w + ", %b" + w);
    out.push_back(std::string("setp.eq.and.b") + w + " %dp, %a" + w + ", %b" + w + ", %q");
    out.push_back(std::string("setp.ne.xor.b") + w + " %dp, %a" + w + ", %b" + w + ", !%q");
    out.push_back(std::string("set.gt.u32.s") + w + " %d32, %a" + w + ", %b" + w);
    out.push_back(std::string("set.lt.or.s32.u") + w + " %d32, %a" + w + ", %b" + w + ", %q");
    out.push_back(std::string("selp.b") + w + " %d" + w + ", %a" + w + ", %b" + w + ", %q");
  }
  out.push_back("slct.b32.s32 %d32, %a32, %b32, %c32");
  out.push_back("slct.u64.s32 %d64, %a64, %b64, %c32");
}

inline std::vector<std::string> texts() {
  std::vector<std::string> t;
  arithmetic_texts(t);
  bit_texts(t);
  compare_texts(t);
  return t;
}

// The kernel `k(out, in)` running `text` for thread i < kCount: a, b, c at in[i], in[kCount + i],
// in[2 kCount + i] (64-bit words), the destination to out[i] (result_bytes(text) each; the
// predicate as 0 or 1).
inline std::string kernel(const std::string& text) {
  const std::string n = std::to_string(kCount), bytes = std::to_string(result_bytes(text));
  std::string store;
  switch (result_bytes(text)) {
  case 8: store = "st.global.b64 [%o], %d64;\n"; break;
  case 4: store = "st.global.b32 [%o], %d32;\n"; break;
  case 2: store = "st.global.b16 [%o], %d16;\n"; break;
  default: store = "selp.b16 %d16, 1, 0, %dp;\nst.global.b8 [%o], %d16;\n"; break;
  }
  return ".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
         ".reg .b16 %a16, %b16, %c16, %d16;\n.reg .b32 %a32, %b32, %c32, %e32, %d32, %t, %i;\n"
         ".reg .b64 %a64, %b64, %c64, %d64, %o, %in, %at;\n.reg .pred %q, %dp, %done;\n"
         "ld.param.u64 %o, [out];\nld.param.u64 %in, [in];\n"
         "mov.u32 %t, %ctaid.x;\nmov.u32 %i, %ntid.x;\nmov.u32 %d32, %tid.x;\nmad.lo.u32 %i, %t, %i, %d32;\n"
         "setp.ge.u32 %done, %i, " + n + ";\n@%done bra DONE;\n"
         "mul.wide.u32 %at, %i, 8;\nadd.u64 %at, %in, %at;\n"
         "ld.global.b64 %a64, [%at];\nld.global.b64 %b64, [%at+" + std::to_string(8 * kCount) + "];\n"
         "ld.global.b64 %c64, [%at+" + std::to_string(16 * kCount) + "];\n"
         "cvt.u32.u64 %a32, %a64;\ncvt.u32.u64 %b32, %b64;\ncvt.u32.u64 %c32, %c64;\n"
         "cvt.u16.u64 %a16, %a64;\ncvt.u16.u64 %b16, %b64;\ncvt.u16.u64 %c16, %c64;\n"
         "mov.b64 {%t, %e32}, %c64;\nsetp.lt.s64 %q, %c64, 0;\n" +
         text + ";\n"
         "mul.wide.u32 %at, %i, " + bytes + ";\nadd.u64 %o, %o, %at;\n" + store +
         "DONE:\nret;\n}\n";
}

}  // namespace ptxvm_hw_integer
