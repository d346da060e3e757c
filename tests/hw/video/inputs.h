// The video-instruction hardware vectors (PTX §9.7.18): the instruction texts, the operands
// (regenerated from a seed with splitmix64) and the PTX kernel around one text. Shared, unchanged,
// by record_video.cu (which ran on the GPU) and tests/sem/video_hw_test.cpp (which replays every
// recorded text through ptxvm over the same operands). Integer arithmetic only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_video {

using ptxvm_hw_seed::splitmix64;

constexpr size_t kCount = 4096; // operand triples per text
constexpr uint64_t kSeed = 1;

struct Operands {
  std::vector<uint32_t> a, b, c;
};

// Every pair of edge words (c a third one), then generated triples, an eighth each of: raw bits;
// bytes from byte edges; half-words from half-word edges; b a shift amount 0..40 in every byte;
// b a shift amount in each half-word; a a shifted-down (possibly negated) value with small
// shift amounts; a*b near 2^31 or 2^32 (saturation of vmad); c close to -(a*b).
inline Operands operands() {
  static const uint32_t kWords[] = {0,          1,          2,          0x1f,       0x20,
                                    0x21,       0x7f,       0x80,       0xff,       0x7fff,
                                    0x8000,     0xffff,     0x7fffffff, 0x80000000, 0xffffffff,
                                    0xfffffffe, 0x807f01ff, 0xff80017f, 0x7fff8000, 0x80007fff,
                                    0x01020304, 0x1f200021, 0x00ff00ff, 0x40000000};
  static const uint32_t kBytes[] = {0,    1,    2,    0x1f, 0x20, 0x21, 0x3f,
                                    0x40, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  static const uint32_t kHalves[] = {0,      1,      0x7f,   0x80,   0xff,   0x100,  0x3fff,
                                     0x4000, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff};
  constexpr size_t kw = sizeof kWords / sizeof *kWords;
  Operands o;
  for (size_t i = 0; i < kw; ++i)
    for (size_t j = 0; j < kw; ++j) {
      o.a.push_back(kWords[i]);
      o.b.push_back(kWords[j]);
      o.c.push_back(kWords[(i * 7 + j * 3 + 1) % kw]);
    }
  uint64_t s = kSeed;
  auto bytes = [&](uint64_t r) { // 4 bytes, each an edge (14 of 16) or random
    uint32_t w = 0;
    for (int k = 0; k < 4; ++k) {
      uint32_t pick = (r >> (4 * k)) & 15;
      w |= (pick < 14 ? kBytes[pick] : static_cast<uint32_t>(r >> (16 + 8 * k)) & 0xff) << (8 * k);
    }
    return w;
  };
  auto halves = [&](uint64_t r) {
    uint32_t w = 0;
    for (int k = 0; k < 2; ++k) {
      uint32_t pick = (r >> (4 * k)) & 15;
      w |= (pick < 14 ? kHalves[pick] : static_cast<uint32_t>(r >> (16 + 16 * k)) & 0xffff)
           << (16 * k);
    }
    return w;
  };
  while (o.a.size() < kCount) {
    const uint64_t r = splitmix64(s), ra = splitmix64(s), rb = splitmix64(s), rc = splitmix64(s);
    uint32_t a = static_cast<uint32_t>(ra), b = static_cast<uint32_t>(rb),
             c = static_cast<uint32_t>(rc);
    switch (r & 7) {
    case 0:
      break;
    case 1:
      a = bytes(ra), b = bytes(rb), c = bytes(rc);
      break;
    case 2:
      a = halves(ra), b = halves(rb), c = halves(rc);
      break;
    case 3: // a shift amount in every byte
      a = ((r >> 3) & 1) ? bytes(ra) : a;
      b = 0;
      for (int k = 0; k < 4; ++k) b |= static_cast<uint32_t>((rb >> (8 * k)) % 41) << (8 * k);
      c = halves(rc);
      break;
    case 4: // a shift amount in each half-word (h1 zero half the time, so the word is small)
      a = ((r >> 3) & 1) ? halves(ra) : a;
      b = static_cast<uint32_t>(rb % 41) |
          (((r >> 4) & 1) ? static_cast<uint32_t>((rb >> 8) % 41) << 16 : 0);
      c = bytes(rc);
      break;
    case 5: { // a shifted down so that small shifts meet the saturation limits
      a = static_cast<uint32_t>(ra) >> ((r >> 8) % 32);
      if ((r >> 13) & 1) a = ~a + 1;
      b = 0;
      for (int k = 0; k < 4; ++k) b |= static_cast<uint32_t>((rb >> (8 * k)) % 34) << (8 * k);
      break;
    }
    case 6: { // a*b near 2^31 or 2^32 (as words), c small or an edge
      uint32_t x = static_cast<uint32_t>(ra % 0xffff) + 1;
      uint64_t target = (uint64_t{1} << (31 + ((r >> 8) & 1))) + (rb % 64) - 32;
      a = ((r >> 9) & 1) ? ~x + 1 : x;
      b = static_cast<uint32_t>(target / x);
      c = ((r >> 10) & 1) ? static_cast<uint32_t>(rc % 512) - 256 : kWords[rc % kw];
      break;
    }
    case 7: // c close to -(a*b) of the words
      c = static_cast<uint32_t>(-(uint64_t{a} * b)) + static_cast<uint32_t>(r >> 8) % 9 - 4;
      break;
    }
    o.a.push_back(a);
    o.b.push_back(b);
    o.c.push_back(c);
  }
  return o;
}

// ---- the instruction texts: d in %r10, a in %r1, b in %r2, c in %r3 ----

inline const char* const kTypes[] = {".u32", ".s32"};
inline const char* const kParts[] = {"", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"};
inline const char* const kCmps[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge"};
// The secondary step of a scalar text: none, .add, .min, .max, or a merge into a part (4..9).
inline const char* const kSecs[] = {"", ".add", ".min", ".max"};

inline std::string scalar_text(const std::string& mnemonic, int sec, const std::string& asel,
                               const std::string& bsel) {
  std::string m = mnemonic + (sec >= 1 && sec <= 3 ? kSecs[sec] : "");
  std::string d = sec >= 4 ? std::string("%r10") + kParts[sec - 3] : "%r10";
  std::string t = m + " " + d + ", %r1" + asel + ", %r2" + bsel;
  return sec == 0 ? t : t + ", %r3";
}

// vshl/vshr: every type, mode, .sat and secondary step (merges: all six with .sat, one
// rotating without); asel and bsel rotate through the parts and the word.
inline void shift_texts(std::vector<std::string>& out) {
  int n = 0;
  for (const char* op : {"vshl", "vshr"})
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (const char* mode : {".clamp", ".wrap"})
          for (bool sat : {false, true})
            for (int sec = 0; sec < 10; ++sec) {
              if (!sat && sec > 4) continue;
              int merge = sat ? sec : sec == 4 ? 4 + n % 6 : sec;
              std::string m =
                  std::string(op) + kTypes[dt] + kTypes[at] + ".u32" + (sat ? ".sat" : "") + mode;
              out.push_back(scalar_text(m, merge, kParts[n % 7], kParts[(n * 3 + 1) % 7]));
              ++n;
            }
}

// vmad: every type triple with .po, .sat and each scale; whole-word a and b; then each negation
// (-a, -b, -a and -b, -c) for every atype/btype with dtype alternating and the .sat/scale forms
// rotating.
inline void vmad_texts(std::vector<std::string>& out) {
  int n = 0;
  auto scale = [](int s) { return s == 0 ? "" : s == 1 ? ".shr7" : ".shr15"; };
  for (int dt = 0; dt < 2; ++dt)
    for (int at = 0; at < 2; ++at)
      for (int bt = 0; bt < 2; ++bt)
        for (bool po : {false, true})
          for (bool sat : {false, true})
            for (int s = 0; s < 3; ++s, ++n) {
              std::string m = std::string("vmad") + kTypes[dt] + kTypes[at] + kTypes[bt] +
                              (po ? ".po" : "") + (sat ? ".sat" : "") + scale(s);
              out.push_back(m + " %r10, %r1" + kParts[n % 7] + ", %r2" + kParts[(n * 5 + 3) % 7] +
                            ", %r3");
            }
  for (int at = 0; at < 2; ++at) // whole words: the product beyond 32 bits
    for (int bt = 0; bt < 2; ++bt)
      for (const char* form : {"", ".shr7", ".shr15", ".sat", ".sat.shr15"})
        out.push_back(std::string("vmad") + kTypes[at | bt] + kTypes[at] + kTypes[bt] + form +
                      " %r10, %r1, %r2, %r3");
  for (const char* form : {".shr15", ".sat"})
    out.push_back(std::string("vmad.s32.u32.u32") + form + " %r10, -%r1, %r2, %r3");
  for (int at = 0; at < 2; ++at)
    for (int bt = 0; bt < 2; ++bt)
      for (int neg = 0; neg < 4; ++neg)
        for (int f = 0; f < 4; ++f, ++n) {
          bool na = neg == 0 || neg == 2, nb = neg == 1 || neg == 2, nc = neg == 3;
          int form = (f + neg + 2 * at + bt) % 6; // (sat, scale) pairs rotate
          int dt = (n / 2) % 2;
          std::string m = std::string("vmad") + kTypes[dt] + kTypes[at] + kTypes[bt] +
                          (form >= 3 ? ".sat" : "") + scale(form % 3);
          out.push_back(m + " %r10, " + (na ? "-" : "") + "%r1" + kParts[n % 7] + ", " +
                        (nb ? "-" : "") + "%r2" + kParts[(n * 5 + 3) % 7] + ", " + (nc ? "-" : "") +
                        "%r3");
        }
}

// vadd, vsub, vabsdiff, vmin, vmax: every type triple with and without .sat, the secondary step
// rotating through none, .add, .min, .max and the six merges; vset: every type pair and
// comparison, the secondary step rotating. asel and bsel rotate through the parts and the word.
inline void scalar_texts(std::vector<std::string>& out) {
  int n = 0;
  for (const char* op : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"})
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (int bt = 0; bt < 2; ++bt)
          for (bool sat : {false, true}) {
            std::string m =
                std::string(op) + kTypes[dt] + kTypes[at] + kTypes[bt] + (sat ? ".sat" : "");
            out.push_back(scalar_text(m, n * 3 % 10, kParts[n % 7], kParts[(n * 4 + 2) % 7]));
            ++n;
          }
  for (int at = 0; at < 2; ++at)
    for (int bt = 0; bt < 2; ++bt)
      for (const char* cmp : kCmps) {
        out.push_back(scalar_text(std::string("vset") + kTypes[at] + kTypes[bt] + cmp, n * 3 % 10,
                                  kParts[n % 7], kParts[(n * 4 + 2) % 7]));
        ++n;
      }
}

// SIMD forms: per operation and width, every type triple, the form (plain, .sat, .add) rotating;
// vset2/vset4: every type pair and comparison, plain or .add. Masks and selects rotate.
inline void simd_texts(std::vector<std::string>& out) {
  static const char* const kMask2[] = {"", ".h0", ".h1", ".h10"};
  static const char* const kMask4[] = {"",     ".b0",   ".b1",   ".b10",  ".b2",  ".b20",
                                       ".b21", ".b210", ".b3",   ".b30",  ".b31", ".b310",
                                       ".b32", ".b320", ".b321", ".b3210"};
  static const char* const kSel2[] = {"", ".h10", ".h32", ".h00", ".h33", ".h21", ".h13", ".h02"};
  static const char* const kSel4[] = {"",       ".b3210", ".b7654", ".b0000", ".b7777",
                                      ".b0123", ".b4567", ".b1357", ".b6420", ".b5173"};
  static const char* const kForms[] = {"", ".sat", ".add"};
  int n = 0;
  for (int w : {2, 4}) {
    auto mask = [&](int i) { return w == 2 ? kMask2[i % 4] : kMask4[i % 16]; };
    auto sel = [&](int i) { return w == 2 ? kSel2[i % 8] : kSel4[i % 10]; };
    auto text = [&](const std::string& m) {
      out.push_back(m + " %r10" + mask(n * 5 + 3) + ", %r1" + sel(n) + ", %r2" + sel(n * 3 + 1) +
                    ", %r3");
      ++n;
    };
    for (const char* op : {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"})
      for (int dt = 0; dt < 2; ++dt)
        for (int at = 0; at < 2; ++at)
          for (int bt = 0; bt < 2; ++bt)
            text(std::string(op) + std::to_string(w) + kTypes[dt] + kTypes[at] + kTypes[bt] +
                 kForms[n % 3]);
    for (int at = 0; at < 2; ++at)
      for (int bt = 0; bt < 2; ++bt)
        for (const char* cmp : kCmps)
          text(std::string("vset") + std::to_string(w) + kTypes[at] + kTypes[bt] + cmp +
               (n % 2 ? ".add" : ""));
  }
}

// The secondary .min/.max on whole words, where the value compared with c may exceed the
// 32-bit range: every primary operation, dtype, atype = btype and .sat.
inline void secondary_texts(std::vector<std::string>& out) {
  for (const char* op : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"})
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (bool sat : {false, true})
          for (int sec : {2, 3})
            out.push_back(scalar_text(std::string(op) + kTypes[dt] + kTypes[at] + kTypes[at] +
                                          (sat ? ".sat" : ""),
                                      sec, "", ""));
}

inline std::vector<std::string> texts() {
  std::vector<std::string> t;
  shift_texts(t);
  vmad_texts(t);
  scalar_texts(t);
  secondary_texts(t);
  simd_texts(t);
  return t;
}

// The kernel `k(out, in)` running `text` for thread i < kCount: a, b, c at in[i], in[kCount + i],
// in[2 kCount + i] (words), d to out[i].
inline std::string kernel(const std::string& text) {
  const std::string n = std::to_string(kCount);
  return ".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
         ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
         "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
         "mov.u32 %r5, %ctaid.x;\nmov.u32 %r6, %ntid.x;\nmov.u32 %r7, %tid.x;\nmad.lo.u32 %r8, "
         "%r5, %r6, %r7;\n"
         "setp.ge.u32 %p1, %r8, " +
         n +
         ";\n@%p1 bra DONE;\n"
         "mul.wide.u32 %rd3, %r8, 4;\nadd.u64 %rd4, %rd2, %rd3;\n"
         "ld.global.b32 %r1, [%rd4];\nld.global.b32 %r2, [%rd4+" +
         std::to_string(4 * kCount) +
         "];\n"
         "ld.global.b32 %r3, [%rd4+" +
         std::to_string(8 * kCount) + "];\n" + text +
         ";\n"
         "add.u64 %rd5, %rd1, %rd3;\nst.global.b32 [%rd5], %r10;\n"
         "DONE:\nret;\n}\n";
}

} // namespace ptxvm_hw_video
