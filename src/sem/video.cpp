// Video instructions, PTX §9.7.18 (000_70a4b524dfe259fa.txt): the scalar forms (vadd, vsub,
// vabsdiff, vmin, vmax, vshl, vshr, vmad, vset) with byte/half-word operand selectors, saturation,
// a secondary operation or a sub-word merge; the SIMD forms on half-word pairs (vadd2 ... vset2)
// and byte quads (vadd4 ... vset4) with selects, masks, saturation and accumulation.
//
// Operand selectors come from lowering (lower.cpp, video_selector): Arg::component = 0x80 | 0x40
// for `.h` | digit count, Arg::imm = the digits one per nibble as written (`.b3210` → 0x3210).
// Each selector below checks them once and packs what the handlers need into op.aux (Config).
//
// Bit for bit what an H200 writes for every form, including where it departs from the spec's
// pseudo-code (noted below): tests/sem/video_hw_test.cpp replays the vectors of tests/hw/video
// (750 instruction texts over 4096 operand triples each).
#include <algorithm>
#include <bit>
#include <cstring>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Arg;
using program::Op;

__extension__ typedef __int128 int128;

enum class V : uint8_t { Add, Sub, Absdiff, Min, Max, Shl, Shr, Set, Avrg };
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
enum class Sec : uint8_t { None, Add, Min, Max };

// Everything a video handler reads, fixed at load time (op.aux).
struct Config {
  uint16_t asel = 0, bsel = 0;  // scalar: part code (see part()); SIMD: element sources, one per nibble
  uint8_t dsel = 0;             // scalar: part code of d.dsel; SIMD: mask bit per element
  uint8_t sec = 0;              // scalar: Sec; vmad: 0, 7 or 15 (the .shr scale)
  uint8_t cmp = 0;
  bool dsigned : 1 = false, asigned : 1 = false, bsigned : 1 = false, sat : 1 = false;
  bool clamp : 1 = false;  // vshl/vshr .clamp
  bool po : 1 = false;     // vmad .po
  bool add : 1 = false;    // SIMD .add (accumulate instead of merge)
  bool merge : 1 = false;  // scalar d.dsel
};
static_assert(sizeof(Config) == 8);
Config config(const Op& op) { return std::bit_cast<Config>(op.aux); }

bool compare(Cmp c, int64_t a, int64_t b) {
  switch (c) {
  case Cmp::Eq: return a == b;
  case Cmp::Ne: return a != b;
  case Cmp::Lt: return a < b;
  case Cmp::Le: return a <= b;
  case Cmp::Gt: return a > b;
  case Cmp::Ge: return a >= b;
  }
  return false;
}

int64_t extend(uint32_t bits, unsigned width, bool sign) {
  uint64_t v = width == 32 ? bits : bits & ((1u << width) - 1);
  if (sign && (v >> (width - 1) & 1)) v |= ~uint64_t{0} << width;
  return static_cast<int64_t>(v);
}

// ---- scalar forms (§9.7.18.1) ----
// Part codes: 0 the word, 1..4 bytes b0..b3, 5..6 half-words h0..h1.
unsigned part_width(uint8_t code) { return code == 0 ? 32 : code <= 4 ? 8 : 16; }
unsigned part_shift(uint8_t code) { return code == 0 ? 0 : code <= 4 ? 8 * (code - 1) : 16 * (code - 5); }
// partSelectSignExtend: the selected part, sign- or zero-extended (an .s33 value).
int64_t part(uint32_t v, uint8_t code, bool sign) {
  return extend(v >> part_shift(code), part_width(code), sign);
}

// Where an H200 departs from the spec's pseudo-code (which clamps and compares the exact .s34
// result): ptxas emulates these instructions on sm_90, and the emulation, read from its SASS and
// checked bit for bit against an H200 over every form (tests/hw/video), does the following.
//
// Saturation, vadd, vsub, vabsdiff, vmin, vmax (from the exact result):
//  - into a byte or half-word (d.dsel): a negative result gives the part's maximum, others clamp
//    to it (for signed and unsigned dtype alike);
//  - into the word: signed dtype clamps exactly; unsigned dtype gives 0 for a negative result
//    and keeps the low 32 bits otherwise.
// Saturation, vshl and vshr: the shift is done on the 64-bit extension of a (vshl drops what
// leaves bit 63), the result taken as .s34 (bits 33:0, sign-extended from bit 33) and clamped
// exactly to dtype's 32-bit range, also for d.dsel: the merge then takes that word's low byte
// or half-word (so vshr.sat into a byte keeps the low byte unclamped).
// The secondary .min/.max compare a 64-bit value with c extended by dtype, signed for signed
// dtype and unsigned for unsigned dtype (so with unsigned dtype a value with bit 63 set ranks
// above every c). That value is, for vadd and vsub, the low 32 bits of the (saturated) result
// sign-extended from bit 31; for vshl and vshr, the 64-bit shift result, or with .sat the
// saturated word sign-extended from bit 31; for vabsdiff, vmin and vmax, the exact (saturated)
// result. (.add keeps the low 32 bits of the sum either way.)
int128 clamp_exact(int128 t, bool sign, unsigned width) {
  int128 lo = sign ? -(int128{1} << (width - 1)) : 0;
  int128 hi = sign ? (int128{1} << (width - 1)) - 1 : (int128{1} << width) - 1;
  return std::clamp(t, lo, hi);
}
int128 saturate_part(int128 t, bool sign, uint8_t dsel) {
  int128 hi = sign ? (int128{1} << (part_width(dsel) - 1)) - 1 : (int128{1} << part_width(dsel)) - 1;
  return t < 0 ? hi : std::min(t, hi);
}
int128 saturate_word(int128 t, bool sign) {
  if (sign) return clamp_exact(t, sign, 32);
  return t < 0 ? 0 : t & UINT32_MAX;
}
// The saturation of vshl/vshr: the 64-bit shift result as .s34, clamped to dtype's word.
int128 saturate_shift(int64_t t, bool sign) {
  int64_t s34 = static_cast<int64_t>(static_cast<uint64_t>(t) << 30) >> 30;
  return clamp_exact(s34, sign, 32);
}
int64_t sext32(int128 t) { return static_cast<int32_t>(static_cast<uint32_t>(t)); }
bool less(int64_t a, int64_t b, bool sign) {
  return sign ? a < b : static_cast<uint64_t>(a) < static_cast<uint64_t>(b);
}

template <V O>
int128 primary(int64_t a, int64_t b, const Config& k) {
  switch (O) {
  case V::Add: return int128{a} + b;
  case V::Sub: return int128{a} - b;
  case V::Absdiff: return a > b ? int128{a} - b : int128{b} - a;
  case V::Min: return std::min(a, b);
  case V::Max: return std::max(a, b);
  case V::Shl:
    return static_cast<int64_t>(static_cast<uint64_t>(a) << (k.clamp ? std::min<int64_t>(b, 32) : b & 0x1f));
  case V::Shr: return a >> (k.clamp ? std::min<int64_t>(b, 32) : b & 0x1f);
  case V::Set: return compare(static_cast<Cmp>(k.cmp), a, b) ? 1 : 0;
  case V::Avrg: break;
  }
  return 0;
}

// vop d{.dsel}, a{.asel}, b{.bsel}{, c}: the primary operation on the selected parts, optional
// saturation, then a secondary operation with c (optSecOp) or a merge into c (optMerge). vshl and
// vshr read b as .u32. vset has no dtype: its result is unsigned, and its c is signed when atype
// is (as on an H200). The merge into .h1 takes the result's bits 31:16, not 15:0 shifted up, as
// an H200 does; the other positions take the low bits as the spec says.
template <V O>
void scalar(Warp& w, const Op& op, uint32_t m) {
  const Config k = config(op);
  constexpr bool kShift = O == V::Shl || O == V::Shr;
  bool has_c = op.args.size() > 3;
  bool c_signed = O == V::Set ? k.asigned : k.dsigned;
  for_lanes(m, [&](int l) {
    int64_t a = part(w.get<uint32_t>(op.args[1], l), static_cast<uint8_t>(k.asel), k.asigned);
    int64_t b = part(w.get<uint32_t>(op.args[2], l), static_cast<uint8_t>(k.bsel), k.bsigned);
    uint32_t c = has_c ? w.get<uint32_t>(op.args[3], l) : 0;
    int128 t = primary<O>(a, b, k);
    if (k.sat) t = kShift ? saturate_shift(static_cast<int64_t>(t), k.dsigned)
                   : k.merge ? saturate_part(t, k.dsigned, k.dsel)
                             : saturate_word(t, k.dsigned);
    uint32_t d;
    if (k.merge) {
      unsigned width = part_width(k.dsel), shift = part_shift(k.dsel);
      uint32_t field = ((1u << width) - 1) << shift;
      uint32_t placed = k.dsel == 6 ? static_cast<uint32_t>(t) : static_cast<uint32_t>(t) << shift;
      d = (placed & field) | (c & ~field);
    } else {
      // The value .min/.max compare (see above); exact results fit in 64 bits.
      bool low_word = O == V::Add || O == V::Sub || (kShift && k.sat);
      int64_t v = low_word ? sext32(t) : static_cast<int64_t>(t);
      int64_t cv = c_signed ? int64_t{static_cast<int32_t>(c)} : int64_t{c};
      switch (static_cast<Sec>(k.sec)) {
      case Sec::None: break;
      case Sec::Add: v = static_cast<int64_t>(static_cast<uint64_t>(v) + static_cast<uint64_t>(cv)); break;  // wraps: d keeps 32 bits
      case Sec::Min: v = less(v, cv, c_signed) ? v : cv; break;
      case Sec::Max: v = less(cv, v, c_signed) ? v : cv; break;
      }
      d = static_cast<uint32_t>(v);
    }
    w.set(op.args[0], l, d);
  });
}

// vmad (§9.7.18.1.3) as its Semantics: tmp = a*b, negated by ~tmp + 1 when exactly one of a, b
// carries `-` (op.aux2 kNegProduct), else c replaced by ~c with the +1 when c carries `-` (kNegC),
// or the +1 of .po; then tmp + c + lsb, shifted right by 7 or 15, and clamped to the final type's
// 32-bit range with .sat. The final result is signed when atype or btype is, or an operand is
// negated; dtype does not enter. An H200 (ptxas's sm_90 emulation: one IMAD.WIDE) departs from
// the spec's pseudo-code in two places:
//  - a*b is the signed 32x32-bit product of the selected parts' extensions to 32 bits, so a .u32
//    word with bit 31 set counts as negative (the spec multiplies the .s33 values exactly);
//  - c is sign-extended from 32 to 64 bits always (the spec zero-extends it for an unsigned final
//    result): vmad.u32.u32.u32.shr7 with a*b = 0, c = 0x807f01ff gives 0xff00fe03.
// The sum is 64 bits wide (wrapping); the shift is arithmetic for a signed final result and
// logical otherwise; .sat clamps that 64-bit value as signed (signed final) or, unsigned, gives
// 0 for a negative value (bit 63 set) and 0xffffffff above it.
constexpr uint64_t kNegProduct = 1, kNegC = 2;
void vmad(Warp& w, const Op& op, uint32_t m) {
  const Config k = config(op);
  bool neg_product = op.aux2 & kNegProduct, neg_c = op.aux2 & kNegC;
  bool signed_final = k.asigned || k.bsigned || neg_product || neg_c;
  for_lanes(m, [&](int l) {
    int64_t a = part(w.get<uint32_t>(op.args[1], l), static_cast<uint8_t>(k.asel), k.asigned);
    int64_t b = part(w.get<uint32_t>(op.args[2], l), static_cast<uint8_t>(k.bsel), k.bsigned);
    uint32_t c = w.get<uint32_t>(op.args[3], l);
    uint64_t t = static_cast<uint64_t>(int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(b));
    uint64_t lsb = 0;
    if (k.po) lsb = 1;
    else if (neg_product) t = ~t, lsb = 1;
    else if (neg_c) c = ~c, lsb = 1;
    t += static_cast<uint64_t>(int64_t{static_cast<int32_t>(c)}) + lsb;
    int64_t r = signed_final ? static_cast<int64_t>(t) >> k.sec : static_cast<int64_t>(t >> k.sec);
    if (k.sat)
      r = signed_final ? std::clamp<int64_t>(r, INT32_MIN, INT32_MAX) : std::clamp<int64_t>(r, 0, UINT32_MAX);
    w.set(op.args[0], l, static_cast<uint32_t>(r));
  });
}

// ---- SIMD forms (§9.7.18.2): N elements of 32/N bits. Element i of a source is field
// asel<i> (bsel<i>) of the 64-bit {b, a}; results go to the elements in the mask, the others
// take c's (merge), or the masked results are added to c (.add). ----
template <V O, int N>
void simd(Warp& w, const Op& op, uint32_t m) {
  constexpr unsigned kW = 32 / N;
  constexpr uint32_t kField = (1u << kW) - 1;
  const Config k = config(op);
  for_lanes(m, [&](int l) {
    uint64_t ab = uint64_t{w.get<uint32_t>(op.args[2], l)} << 32 | w.get<uint32_t>(op.args[1], l);
    uint32_t c = w.get<uint32_t>(op.args[3], l);
    uint32_t d = k.add ? c : 0;
    for (int i = 0; i < N; ++i) {
      int64_t a = extend(static_cast<uint32_t>(ab >> (kW * (k.asel >> (4 * i) & 0xf))), kW, k.asigned);
      int64_t b = extend(static_cast<uint32_t>(ab >> (kW * (k.bsel >> (4 * i) & 0xf))), kW, k.bsigned);
      int64_t t;
      if constexpr (O == V::Avrg) t = a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;
      else t = static_cast<int64_t>(primary<O>(a, b, k));
      if (k.sat) {
        int64_t lo = k.dsigned ? -(int64_t{1} << (kW - 1)) : 0;
        int64_t hi = k.dsigned ? (int64_t{1} << (kW - 1)) - 1 : int64_t{kField};
        t = std::clamp(t, lo, hi);
      }
      bool on = k.dsel >> i & 1;
      if (k.add) d += on ? static_cast<uint32_t>(t) : 0;
      else d |= on ? (static_cast<uint32_t>(t) & kField) << (kW * i) : c & (kField << (kW * i));
    }
    w.set(op.args[0], l, d);
  });
}

// ---- selectors ----
struct Selector {
  bool present = false, half = false;
  unsigned count = 0;
  uint32_t digits = 0;  // as written, one per nibble
};
Selector selector_of(const Arg& a) {
  Selector s;
  if (a.kind != program::ArgKind::Reg || !(a.component & 0x80)) return s;
  s.present = true;
  s.half = a.component & 0x40;
  s.count = a.component & 0x0f;
  s.digits = static_cast<uint32_t>(a.imm);
  return s;
}

// A scalar part code from `.b0`..`.b3` / `.h0` / `.h1`, or false.
bool scalar_part(const Arg& a, uint8_t& code) {
  Selector s = selector_of(a);
  code = 0;
  if (!s.present) return true;
  if (s.count != 1 || s.digits > (s.half ? 1u : 3u)) return false;
  code = static_cast<uint8_t>(s.half ? 5 + s.digits : 1 + s.digits);
  return true;
}

bool fail(std::string& why, const std::string& what) { return unsupported(why, what); }

bool types(const isa::Bound& b, Config& k) {
  k.dsigned = b.is("dtype", ".s32");
  k.asigned = b.is("atype", ".s32");
  k.bsigned = b.is("btype", ".s32");
  k.sat = b.value("sat") != nullptr;
  std::string cmp = axis(b, "cmp");
  static const char* const kCmp[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge"};
  for (uint8_t i = 0; i < 6; ++i)
    if (cmp == kCmp[i]) k.cmp = i;
  return true;
}

bool store(Op& op, const Config& k) {
  op.aux = std::bit_cast<uint64_t>(k);
  return true;
}

template <V O>
bool select_scalar(const isa::Bound& b, Op& op, std::string& why) {
  Config k;
  types(b, k);
  if (O == V::Shl || O == V::Shr) k.clamp = b.is("mode", ".clamp");
  if (O == V::Shl || O == V::Shr) k.bsigned = false;
  uint8_t asel, bsel, dsel;
  if (!scalar_part(op.args[1], asel) || !scalar_part(op.args[2], bsel) || !scalar_part(op.args[0], dsel))
    return fail(why, "scalar video selectors are .b0-.b3, .h0, .h1");
  if (op.args.size() > 3 && selector_of(op.args[3]).present) return fail(why, "c takes no selector");
  k.asel = asel;
  k.bsel = bsel;
  k.dsel = dsel;
  std::string sec = axis(b, "op2");
  bool has_c = op.args.size() > 3;
  k.sec = static_cast<uint8_t>(sec == ".add" ? Sec::Add : sec == ".min" ? Sec::Min : sec == ".max" ? Sec::Max : Sec::None);
  if (dsel) {
    if (!sec.empty()) return fail(why, "a secondary operation and d.dsel exclude each other");
    if (!has_c) return fail(why, "d.dsel merges into c, which is missing");
    k.merge = true;
  } else if (sec.empty() && has_c) {
    return fail(why, "c needs a secondary operation or d.dsel");
  }
  op.fn = &scalar<O>;
  return store(op, k);
}

bool select_vmad(const isa::Bound& b, Op& op, std::string& why) {
  Config k;
  types(b, k);
  uint8_t asel, bsel, dsel;
  if (!scalar_part(op.args[1], asel) || !scalar_part(op.args[2], bsel) || !scalar_part(op.args[0], dsel) || dsel ||
      selector_of(op.args[3]).present)
    return fail(why, "vmad selects .b0-.b3, .h0, .h1 on a and b only");
  k.asel = asel;
  k.bsel = bsel;
  k.po = b.value("po") != nullptr;
  std::string scale = axis(b, "scale");
  k.sec = scale == ".shr7" ? 7 : scale == ".shr15" ? 15 : 0;
  // "PTX allows negation of either (a*b) or c"; "Source operands may not be negated in .po mode".
  bool neg_product = op.args[1].negated != op.args[2].negated, neg_c = op.args[3].negated;
  if (op.args[0].negated) return fail(why, "the destination of vmad cannot be negated");
  if (k.po && (op.args[1].negated || op.args[2].negated || neg_c))
    return fail(why, "source operands may not be negated in .po mode");
  if (neg_product && neg_c) return fail(why, "vmad negates either the product a*b or c, not both");
  op.aux2 = (neg_product ? kNegProduct : 0) | (neg_c ? kNegC : 0);
  op.fn = &vmad;
  return store(op, k);
}

// SIMD selects: N digits of one kind (`.hxy`, `.bxyzw`), element i from the i-th digit from the
// right; masks: distinct element numbers in descending order (`.h10`, `.b320`).
template <int N>
bool simd_select(const Arg& a, uint16_t dflt, uint16_t& sel) {
  Selector s = selector_of(a);
  sel = s.present ? static_cast<uint16_t>(s.digits) : dflt;
  return !s.present || (s.half == (N == 2) && s.count == N);
}
template <int N>
bool simd_mask(const Arg& a, uint8_t& mask) {
  Selector s = selector_of(a);
  mask = (1u << N) - 1;
  if (!s.present) return true;
  if (s.half != (N == 2)) return false;
  mask = 0;
  int last = N;
  for (unsigned i = s.count; i-- > 0;) {  // the digits from the left
    int e = static_cast<int>(s.digits >> (4 * i) & 0xf);
    if (e >= last) return false;
    mask |= static_cast<uint8_t>(1u << e);
    last = e;
  }
  return true;
}

template <V O, int N>
bool select_simd(const isa::Bound& b, Op& op, std::string& why) {
  Config k;
  types(b, k);
  k.add = b.value("add") != nullptr;
  if (k.sat && k.add) return fail(why, ".sat and .add exclude each other");
  uint16_t asel_default = N == 2 ? 0x10 : 0x3210, bsel_default = N == 2 ? 0x32 : 0x7654;
  if (!simd_select<N>(op.args[1], asel_default, k.asel) || !simd_select<N>(op.args[2], bsel_default, k.bsel))
    return fail(why, N == 2 ? "selects are .hxy with x, y in 0..3" : "selects are .bxyzw with x..w in 0..7");
  if (!simd_mask<N>(op.args[0], k.dsel))
    return fail(why, N == 2 ? "masks are .h0, .h1, .h10" : "masks are .b0 ... .b3210, digits descending");
  if (selector_of(op.args[3]).present) return fail(why, "c takes no selector");
  op.fn = &simd<O, N>;
  return store(op, k);
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["vadd §9.7.18.1.1"] = select_scalar<V::Add>;
  r["vsub §9.7.18.1.1"] = select_scalar<V::Sub>;
  r["vabsdiff §9.7.18.1.1"] = select_scalar<V::Absdiff>;
  r["vmin §9.7.18.1.1"] = select_scalar<V::Min>;
  r["vmax §9.7.18.1.1"] = select_scalar<V::Max>;
  r["vshl §9.7.18.1.2"] = select_scalar<V::Shl>;
  r["vshr §9.7.18.1.2"] = select_scalar<V::Shr>;
  r["vmad §9.7.18.1.3"] = select_vmad;
  r["vset §9.7.18.1.4"] = select_scalar<V::Set>;
  r["vadd2 §9.7.18.2.1"] = select_simd<V::Add, 2>;
  r["vsub2 §9.7.18.2.1"] = select_simd<V::Sub, 2>;
  r["vavrg2 §9.7.18.2.1"] = select_simd<V::Avrg, 2>;
  r["vabsdiff2 §9.7.18.2.1"] = select_simd<V::Absdiff, 2>;
  r["vmin2 §9.7.18.2.1"] = select_simd<V::Min, 2>;
  r["vmax2 §9.7.18.2.1"] = select_simd<V::Max, 2>;
  r["vset2 §9.7.18.2.2"] = select_simd<V::Set, 2>;
  r["vadd4 §9.7.18.2.3"] = select_simd<V::Add, 4>;
  r["vsub4 §9.7.18.2.3"] = select_simd<V::Sub, 4>;
  r["vavrg4 §9.7.18.2.3"] = select_simd<V::Avrg, 4>;
  r["vabsdiff4 §9.7.18.2.3"] = select_simd<V::Absdiff, 4>;
  r["vmin4 §9.7.18.2.3"] = select_simd<V::Min, 4>;
  r["vmax4 §9.7.18.2.3"] = select_simd<V::Max, 4>;
  r["vset4 §9.7.18.2.4"] = select_simd<V::Set, 4>;
});

}  // namespace ptxvm::sem
