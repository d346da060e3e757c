// Video instructions, PTX §9.7.18 (000_70a4b524dfe259fa.txt): every scalar and SIMD video family
// over its types, selectors, masks, saturation, secondary operations, merges and accumulation,
// against references transcribed from the spec's pseudo-code, departing from it where an H200
// does (saturation, the secondary .min/.max, the shifts' 64-bit width and vmad's product and c:
// each noted at its reference; tests/hw/video holds the recorded vectors that show it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "rows.h"

namespace ptxvm::test {
namespace {

__extension__ typedef __int128 i128;

// ---- cases: one instruction `insn %r10{.dsel}, %r1{.asel}, %r2{.bsel}{, %r3}` per output slot ----
using Ref = std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c)>;
struct Case {
  std::string insn;  // the whole instruction, operands included
  Ref ref;
};

std::vector<uint64_t> video_rows() {
  std::vector<uint64_t> v = {0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
                             0x807f01ff, 0xff80017f, 0x7fff8000, 0x80007fff, 0x01020304, 0x1f200021};
  std::vector<uint64_t> rows;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < v.size(); j += 3) rows.insert(rows.end(), {v[i], v[j], v[(i + j) % v.size()]});
  std::mt19937_64 rng(9);
  for (int i = 0; i < 96; ++i) rows.insert(rows.end(), {rng() & 0xffffffff, rng() & 0xffffffff, rng() & 0xffffffff});
  for (int i = 0; i < 32; ++i)  // small per-byte amounts for the shifts
    rows.insert(rows.end(), {rng() & 0xffffffff, rng() & 0x3f3f3f3f, rng() & 0xffffffff});
  return rows;
}

void run_cases(const std::vector<Case>& cases) {
  std::vector<uint64_t> rows = video_rows();
  for (size_t first = 0; first < cases.size(); first += 400) {
    size_t n = std::min<size_t>(400, cases.size() - first);
    std::string body = "ld.global.b32 %r1, " + in_slot(0) + ";\nld.global.b32 %r2, " + in_slot(1) + ";\nld.global.b32 %r3, " + in_slot(2) + ";\n";
    for (size_t i = 0; i < n; ++i) body += cases[first + i].insn + ";\nst.global.b32 " + out_slot(i) + ", %r10;\n";
    std::vector<uint64_t> out = run_rows(body, rows, 3, n);
    for (size_t i = 0; i < n; ++i) {
      int failures = 0;
      for (size_t k = 0; k < rows.size() / 3 && failures < 3; ++k) {
        auto a = static_cast<uint32_t>(rows[3 * k]), b = static_cast<uint32_t>(rows[3 * k + 1]), c = static_cast<uint32_t>(rows[3 * k + 2]);
        uint32_t want = cases[first + i].ref(a, b, c);
        if (out[k * n + i] != want) {
          ++failures;
          ADD_FAILURE() << cases[first + i].insn << " a=0x" << std::hex << a << " b=0x" << b << " c=0x" << c << ": 0x" << out[k * n + i]
                        << ", want 0x" << want;
        }
      }
    }
  }
}

const char* const kTypes[] = {".u32", ".s32"};
const char* const kCmps[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge"};
bool compare(int cmp, int64_t a, int64_t b) {
  switch (cmp) {
  case 0: return a == b;
  case 1: return a != b;
  case 2: return a < b;
  case 3: return a <= b;
  case 4: return a > b;
  default: return a >= b;
  }
}

// ---- scalar forms (§9.7.18.1) ----
// Selectors: "" (the word), "b0".."b3", "h0", "h1".
const char* const kParts[] = {"", "b0", "b1", "b2", "b3", "h0", "h1"};
std::string dot(const std::string& sel) { return sel.empty() ? "" : "." + sel; }

// partSelectSignExtend
int64_t part_select(uint32_t v, bool sign, const std::string& sel) {
  unsigned width = sel.empty() ? 32 : sel[0] == 'b' ? 8 : 16;
  unsigned shift = sel.empty() ? 0 : static_cast<unsigned>(sel[1] - '0') * width;
  uint64_t f = (uint64_t{v} >> shift) & ((uint64_t{1} << width) - 1);
  if (sign && (f >> (width - 1) & 1)) f |= ~uint64_t{0} << width;
  return static_cast<int64_t>(f);
}
i128 clamp(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }
// Saturation as an H200 does it (tests/hw/video; the spec's optSaturate clamps the exact result
// to the destination part): for all but the shifts, a byte or half-word destination takes its
// maximum for a negative result; the word clamps exactly for signed dtype, and for unsigned
// dtype gives 0 when negative, else the low 32 bits. The shifts take their 64-bit result as
// .s34 and clamp it to dtype's 32-bit range whatever the destination part.
i128 saturate(i128 tmp, bool sign, const std::string& dsel, bool shift) {
  if (shift) {
    i128 s34 = static_cast<int64_t>(static_cast<uint64_t>(tmp) << 30) >> 30;
    return sign ? clamp(s34, INT32_MIN, INT32_MAX) : clamp(s34, 0, UINT32_MAX);
  }
  if (!dsel.empty()) {
    int w = dsel[0] == 'b' ? 8 : 16;
    i128 hi = sign ? (i128{1} << (w - 1)) - 1 : (i128{1} << w) - 1;
    return tmp < 0 ? hi : std::min(tmp, hi);
  }
  if (sign) return clamp(tmp, INT32_MIN, INT32_MAX);
  return tmp < 0 ? 0 : tmp & UINT32_MAX;
}
// optMerge, except that .h1 takes tmp<31..16> (an H200's merge) rather than tmp<15..0> << 16.
uint32_t opt_merge(const std::string& dsel, i128 tmp, uint32_t c) {
  auto t = static_cast<uint32_t>(tmp);
  if (dsel == "h0") return (t & 0xffff) | (0xffff0000 & c);
  if (dsel == "h1") return (t & 0xffff0000) | (0x0000ffff & c);
  if (dsel == "b0") return (t & 0xff) | (0xffffff00 & c);
  if (dsel == "b1") return ((t & 0xff) << 8) | (0xffff00ff & c);
  if (dsel == "b2") return ((t & 0xff) << 16) | (0xff00ffff & c);
  return ((t & 0xff) << 24) | (0x00ffffff & c);
}

struct Scalar {
  std::string vop;
  int dt, at, bt;  // 0 .u32, 1 .s32
  bool sat;
  std::string mode;  // vshl/vshr: ".clamp" or ".wrap"; vset: the comparison
  std::string asel, bsel;
  std::string op2;   // "", "add", "min", "max"
  std::string dsel;  // merge position, or ""

  std::string insn() const {
    std::string m = vop + (vop == "vset" ? "" : kTypes[dt]) + kTypes[at] + kTypes[bt] + (sat ? ".sat" : "") + mode + dot(op2);
    std::string s = m + " %r10" + dot(dsel) + ", %r1" + dot(asel) + ", %r2" + dot(bsel);
    return op2.empty() && dsel.empty() ? s : s + ", %r3";
  }
  uint32_t ref(uint32_t a, uint32_t b, uint32_t c) const {
    bool shift = vop == "vshl" || vop == "vshr";
    int64_t ta = part_select(a, at == 1, asel), tb = part_select(b, !shift && bt == 1, bsel);
    i128 tmp = 0;
    if (vop == "vadd") tmp = i128{ta} + tb;
    if (vop == "vsub") tmp = i128{ta} - tb;
    if (vop == "vabsdiff") tmp = ta > tb ? i128{ta} - tb : i128{tb} - ta;
    if (vop == "vmin") tmp = std::min(ta, tb);
    if (vop == "vmax") tmp = std::max(ta, tb);
    if (shift) {  // on the 64-bit extension of a (an H200: vshl drops what leaves bit 63)
      if (mode == ".clamp" && tb > 32) tb = 32;
      if (mode == ".wrap") tb &= 0x1f;
      tmp = vop == "vshl" ? static_cast<int64_t>(static_cast<uint64_t>(ta) << tb) : ta >> tb;
    }
    bool dsigned = dt == 1;
    if (vop == "vset") {
      tmp = compare(static_cast<int>(std::find(std::begin(kCmps), std::end(kCmps), mode) - std::begin(kCmps)), ta, tb);
      dsigned = at == 1;  // no dtype: c is signed when atype is (an H200)
    }
    if (sat) tmp = saturate(tmp, dsigned, dsel, shift);
    if (!dsel.empty()) return opt_merge(dsel, tmp, c);
    i128 cv = dsigned ? i128{static_cast<int32_t>(c)} : i128{c};
    // .min/.max as an H200 (the spec compares the exact tmp): vadd and vsub, and the shifts
    // with .sat, compare tmp's low 32 bits sign-extended; with unsigned dtype a negative value
    // ranks above every c.
    if (vop == "vadd" || vop == "vsub" || (shift && sat)) tmp = static_cast<int32_t>(static_cast<uint32_t>(tmp));
    auto less = [dsigned](i128 x, i128 y) { return dsigned || (x >= 0 && y >= 0) ? x < y : y < 0; };
    if (op2 == "add") tmp += cv;
    if (op2 == "min") tmp = less(tmp, cv) ? tmp : cv;
    if (op2 == "max") tmp = less(cv, tmp) ? tmp : cv;
    return static_cast<uint32_t>(tmp);
  }
};

void add_scalar(std::vector<Case>& cases, const Scalar& s) { cases.push_back({s.insn(), [s](uint32_t a, uint32_t b, uint32_t c) { return s.ref(a, b, c); }}); }

// Each vop: every type triple and .sat with every asel x bsel pair, every secondary op and
// every merge position.
void scalar_family(const std::string& vop, const std::vector<std::string>& modes, bool has_sat, bool has_dtype_bt) {
  std::vector<Case> cases;
  for (int dt = 0; dt < 2; ++dt)
    for (int at = 0; at < 2; ++at)
      for (int bt = 0; bt < 2; ++bt) {
        if (!has_dtype_bt && (dt == 1 || (vop != "vset" && bt == 1))) continue;
        for (bool sat : {false, true}) {
          if (sat && !has_sat) continue;
          for (const std::string& mode : modes) {
            Scalar s{vop, dt, at, bt, sat, mode, "", "", "", ""};
            for (int i = 0; i < 7; ++i)
              for (int j = 0; j < 7; ++j) {
                s.asel = kParts[i];
                s.bsel = kParts[j];
                if ((i * 7 + j) % (sat ? 3 : 1) == 0) add_scalar(cases, s);
              }
            s.asel = "b1";
            s.bsel = "h1";
            for (const char* op2 : {"add", "min", "max"}) {
              s.op2 = op2;
              add_scalar(cases, s);
            }
            s.op2 = "";
            for (int d = 1; d < 7; ++d) {
              s.dsel = kParts[d];
              s.asel = kParts[(d + 2) % 7];
              add_scalar(cases, s);
            }
          }
        }
      }
  run_cases(cases);
}

TEST(VideoSem, ScalarAddSubAbsdiffMinMax) {  // §9.7.18.1.1
  for (const char* vop : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}) scalar_family(vop, {""}, true, true);
}

TEST(VideoSem, ScalarShifts) {  // §9.7.18.1.2: b is .u32; .clamp at 32, .wrap mod 32
  for (const char* vop : {"vshl", "vshr"}) {
    std::vector<Case> cases;
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (bool sat : {false, true})
          for (const char* mode : {".clamp", ".wrap"}) {
            Scalar s{vop, dt, at, 0, sat, mode, "", "", "", ""};
            for (int i = 0; i < 7; ++i)
              for (int j = 0; j < 7; ++j) {
                s.asel = kParts[i];
                s.bsel = kParts[j];
                if ((i + j) % 2 == 0) add_scalar(cases, s);
              }
            s.asel = "h0";
            s.bsel = "b0";
            for (const char* op2 : {"add", "min", "max"}) {
              s.op2 = op2;
              add_scalar(cases, s);
            }
            s.op2 = "";
            for (int d = 1; d < 7; ++d) {
              s.dsel = kParts[d];
              add_scalar(cases, s);
            }
          }
    run_cases(cases);
  }
}

TEST(VideoSem, ScalarSet) {  // §9.7.18.1.4
  std::vector<Case> cases;
  for (int at = 0; at < 2; ++at)
    for (int bt = 0; bt < 2; ++bt)
      for (const char* cmp : kCmps) {
        Scalar s{"vset", 0, at, bt, false, cmp, "", "", "", ""};
        for (int i = 0; i < 7; ++i) {
          s.asel = kParts[i];
          s.bsel = kParts[(i * 3) % 7];
          add_scalar(cases, s);
        }
        for (const char* op2 : {"add", "min", "max"}) {
          s.op2 = op2;
          add_scalar(cases, s);
        }
        s.op2 = "";
        for (int d = 1; d < 7; ++d) {
          s.dsel = kParts[d];
          add_scalar(cases, s);
        }
      }
  run_cases(cases);
}

// vmad's Semantics (§9.7.18.1.3) with the two places where an H200 departs from them
// (tests/hw/video): a*b is the signed product of the parts' 32-bit extensions (a .u32 word
// with bit 31 set counts as negative), and c is always sign-extended. The sum wraps at 64 bits;
// the scale shifts arithmetically for a signed final result, logically otherwise.
uint32_t vmad_ref(int64_t ta, int64_t tb, uint32_t c, bool po, bool neg_product, bool neg_c, bool signed_final,
                  const std::string& scale, bool sat) {
  uint64_t tmp = static_cast<uint64_t>(int64_t{static_cast<int32_t>(ta)} * static_cast<int32_t>(tb));
  uint64_t lsb = 0;
  if (po) lsb = 1;
  else if (neg_product) tmp = ~tmp, lsb = 1;
  else if (neg_c) c = ~c, lsb = 1;
  tmp += static_cast<uint64_t>(int64_t{static_cast<int32_t>(c)}) + lsb;
  int shift = scale == ".shr7" ? 7 : scale == ".shr15" ? 15 : 0;
  int64_t result = signed_final ? static_cast<int64_t>(tmp) >> shift : static_cast<int64_t>(tmp >> shift);
  if (sat) result = signed_final ? std::clamp<int64_t>(result, INT32_MIN, INT32_MAX) : std::clamp<int64_t>(result, 0, UINT32_MAX);
  return static_cast<uint32_t>(result);
}

TEST(VideoSem, Vmad) {  // §9.7.18.1.3 (operands not negated)
  std::vector<Case> cases;
  int n = 0;
  for (int dt = 0; dt < 2; ++dt)
    for (int at = 0; at < 2; ++at)
      for (int bt = 0; bt < 2; ++bt)
        for (bool po : {false, true})
          for (bool sat : {false, true})
            for (const char* scale : {"", ".shr7", ".shr15"}) {
              std::string asel = kParts[n % 7], bsel = kParts[(n * 5 + 3) % 7];
              ++n;
              std::string insn = std::string("vmad") + kTypes[dt] + kTypes[at] + kTypes[bt] + (po ? ".po" : "") + (sat ? ".sat" : "") + scale +
                                 " %r10, %r1" + dot(asel) + ", %r2" + dot(bsel) + ", %r3";
              cases.push_back({insn, [=](uint32_t a, uint32_t b, uint32_t c) {
                                 int64_t ta = part_select(a, at == 1, asel), tb = part_select(b, bt == 1, bsel);
                                 return vmad_ref(ta, tb, c, po, false, false, at == 1 || bt == 1, scale, sat);
                               }});
            }
  run_cases(cases);
}

TEST(VideoSem, VmadNegatedOperands) {  // §9.7.18.1.3 with {-}a, {-}b, {-}c
  // The product is negated iff exactly one of a, b is; else c may be; a negation makes the final
  // result signed.
  std::vector<Case> cases;
  int n = 0;
  for (int at = 0; at < 2; ++at)
    for (int bt = 0; bt < 2; ++bt)
      for (int neg : {1, 2, 3, 4, 7})  // bits: -a, -b, -c (not -a*b with -c: rejected below)
        for (bool sat : {false, true})
          for (const char* scale : {"", ".shr7", ".shr15"}) {
            bool na = neg & 1, nb = neg & 2, nc = neg & 4;
            std::string asel = kParts[n % 7], bsel = kParts[(n * 5 + 3) % 7];
            ++n;
            std::string insn = std::string("vmad") + kTypes[(at | bt) ? 1 : 0] + kTypes[at] + kTypes[bt] +
                               (sat ? ".sat" : "") + scale + " %r10, " + (na ? "-" : "") + "%r1" + dot(asel) + ", " +
                               (nb ? "-" : "") + "%r2" + dot(bsel) + ", " + (nc ? "-" : "") + "%r3";
            cases.push_back({insn, [=](uint32_t a, uint32_t b, uint32_t c) {
                               int64_t ta = part_select(a, at == 1, asel), tb = part_select(b, bt == 1, bsel);
                               bool neg_product = na != nb;
                               return vmad_ref(ta, tb, c, false, neg_product, nc, at == 1 || bt == 1 || neg_product || nc, scale, sat);
                             }});
          }
  // The spec's example: a*b - c, a signed final result.
  cases.push_back({"vmad.s32.s32.u32.sat %r10, %r1, %r2, -%r3", [](uint32_t a, uint32_t b, uint32_t c) {
                     return vmad_ref(static_cast<int32_t>(a), b, c, false, false, true, true, "", true);
                   }});
  run_cases(cases);
}

TEST(VideoSem, VmadNegationsOutsideTheSpecAreRejected) {
  for (const char* insn : {"vmad.s32.s32.s32 %r10, -%r1, %r2, -%r3",      // product or c, not both
                           "vmad.s32.s32.s32.po %r10, -%r1, %r2, %r3",    // no negation with .po
                           "vmad.s32.s32.s32.po %r10, %r1, %r2, -%r3"}) {
    Device dev;
    std::string diags;
    EXPECT_FALSE(dev.load_module(kernel_ptx(std::string(insn) + ";"), "t.ptx", &diags)) << insn;
    EXPECT_NE(diags.find("unsupported"), std::string::npos) << insn << ": " << diags;
  }
  Device dev;  // '-' on a register is vmad's alone
  std::string diags;
  EXPECT_FALSE(dev.load_module(kernel_ptx("add.s32 %r10, -%r1, %r2;"), "t.ptx", &diags));
  EXPECT_NE(diags.find("vmad only"), std::string::npos) << diags;
}

// ---- SIMD forms (§9.7.18.2) ----
// A select ".hxy"/".bxyzw": element i takes field (digit i from the right) of {b, a}.
int64_t simd_elem(uint32_t a, uint32_t b, const std::string& sel, int i, int width, bool sign) {
  uint64_t ab = uint64_t{b} << 32 | a;
  int field = sel[sel.size() - 1 - static_cast<size_t>(i)] - '0';
  uint64_t f = ab >> (width * field) & ((uint64_t{1} << width) - 1);
  if (sign && (f >> (width - 1) & 1)) f |= ~uint64_t{0} << width;
  return static_cast<int64_t>(f);
}

struct Simd {
  std::string vop;  // "vadd", ..., "vset"
  int n;            // 2 or 4
  int dt, at, bt;
  bool sat, add;
  int cmp;
  std::string mask, asel, bsel;  // digits only ("10", "3210"); "" for the default

  std::string insn() const {
    std::string m = vop + std::to_string(n) + (vop == "vset" ? "" : kTypes[dt]) + kTypes[at] + kTypes[bt] +
                    (vop == "vset" ? kCmps[cmp] : "") + (sat ? ".sat" : "") + (add ? ".add" : "");
    std::string p = n == 2 ? ".h" : ".b";
    auto sel = [&](const std::string& s) { return s.empty() ? "" : p + s; };
    return m + " %r10" + sel(mask) + ", %r1" + sel(asel) + ", %r2" + sel(bsel) + ", %r3";
  }
  uint32_t ref(uint32_t a, uint32_t b, uint32_t c) const {
    int width = 32 / n;
    std::string as = asel.empty() ? (n == 2 ? "10" : "3210") : asel, bs = bsel.empty() ? (n == 2 ? "32" : "7654") : bsel;
    std::string ms = mask.empty() ? (n == 2 ? "10" : "3210") : mask;
    int64_t t[4];
    for (int i = 0; i < n; ++i) {
      int64_t va = simd_elem(a, b, as, i, width, at == 1), vb = simd_elem(a, b, bs, i, width, bt == 1);
      if (vop == "vadd") t[i] = va + vb;
      if (vop == "vsub") t[i] = va - vb;
      if (vop == "vavrg") t[i] = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
      if (vop == "vabsdiff") t[i] = va > vb ? va - vb : vb - va;
      if (vop == "vmin") t[i] = std::min(va, vb);
      if (vop == "vmax") t[i] = std::max(va, vb);
      if (vop == "vset") t[i] = compare(cmp, va, vb);
      if (sat) {
        int64_t hi = dt == 1 ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
        int64_t lo = dt == 1 ? -(int64_t{1} << (width - 1)) : 0;
        t[i] = std::clamp(t[i], lo, hi);
      }
    }
    uint32_t field = (1u << width) - 1;
    uint32_t d = add ? c : 0;
    for (int i = 0; i < n; ++i) {
      bool on = ms.find(static_cast<char>('0' + i)) != std::string::npos;
      if (add) d += on ? static_cast<uint32_t>(t[i]) : 0;
      else d |= on ? (static_cast<uint32_t>(t[i]) & field) << (width * i) : c & (field << (width * i));  // Vc[i]
    }
    return d;
  }
};

void add_simd(std::vector<Case>& cases, const Simd& s) { cases.push_back({s.insn(), [s](uint32_t a, uint32_t b, uint32_t c) { return s.ref(a, b, c); }}); }

const char* const kMasks2[] = {"", "0", "1", "10"};
const char* const kMasks4[] = {"", "0", "1", "10", "2", "20", "21", "210", "3", "30", "31", "310", "32", "320", "321", "3210"};
const char* const kSel2[] = {"", "10", "32", "00", "33", "21", "13", "02"};
const char* const kSel4[] = {"", "3210", "7654", "0000", "7777", "0123", "4567", "1357", "6420", "5173"};

void simd_family(int n, const std::vector<std::string>& vops) {
  std::vector<Case> cases;
  int k = 0;
  for (const std::string& vop : vops)
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (int bt = 0; bt < 2; ++bt)
          for (int form = 0; form < 3; ++form)  // plain, .sat, .add
            for (int cmp = 0; cmp < (vop == "vset" ? 6 : 1); ++cmp) {
              if (vop == "vset" && (dt == 1 || form == 1)) continue;
              size_t masks = n == 2 ? std::size(kMasks2) : std::size(kMasks4);
              for (size_t m = 0; m < masks; m += (vop == "vset" && n == 4 ? 3 : 1), ++k) {
                size_t sels = n == 2 ? std::size(kSel2) : std::size(kSel4);
                Simd s{vop, n, dt, at, bt, form == 1, form == 2, cmp, n == 2 ? kMasks2[m] : kMasks4[m],
                       n == 2 ? kSel2[k % sels] : kSel4[k % sels], n == 2 ? kSel2[(k * 3 + 1) % sels] : kSel4[(k * 3 + 1) % sels]};
                add_simd(cases, s);
              }
            }
  run_cases(cases);
}

TEST(VideoSem, Simd2) {  // §9.7.18.2.1, §9.7.18.2.2
  simd_family(2, {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"});
}

TEST(VideoSem, Simd4) {  // §9.7.18.2.3, §9.7.18.2.4
  simd_family(4, {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"});
}

TEST(VideoSem, SelectorsOutsideTheirFormsAreRejected) {
  for (const char* insn : {"vadd.u32.u32.u32 %r10.b0, %r1, %r2",         // a merge needs c
                           "vadd.u32.u32.u32 %r10, %r1.b4, %r2",         // scalar parts are b0..b3
                           "vadd.u32.u32.u32 %r10, %r1.h2, %r2",         // ... and h0, h1
                           "vadd.u32.u32.u32.add %r10.b1, %r1, %r2, %r3",  // merge and op2 exclude each other
                           "vadd2.u32.u32.u32 %r10.b0, %r1, %r2, %r3",   // 2-way masks are .h
                           "vadd4.u32.u32.u32 %r10, %r1.b10, %r2, %r3",  // 4-way selects have 4 digits
                           "vadd4.u32.u32.u32 %r10.b01, %r1, %r2, %r3",  // mask digits descend
                           "vmad.u32.u32.u32 %r10.b0, %r1, %r2, %r3"}) {
    Device dev;
    std::string diags;
    EXPECT_FALSE(dev.load_module(kernel_ptx(std::string(insn) + ";"), "t.ptx", &diags)) << insn;
    EXPECT_NE(diags.find("unsupported"), std::string::npos) << insn << ": " << diags;
  }
}

}  // namespace
}  // namespace ptxvm::test
