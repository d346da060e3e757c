// Conversions through src/numeric (bit-exact against sm_90, tests/hw/cvt): cvt (PTX §9.7.9.21),
// cvt.pack (§9.7.9.22), testp (§9.7.3.1) and copysign (§9.7.3.2), 001_23fdd5978b24a3ed.txt.
// The selector resolves types, rounding and modifiers once; handlers only call the library.
#include <array>
#include <optional>
#include <string>

#include "exec/warp.h"
#include "numeric/classify.h"
#include "numeric/cvt_float.h"
#include "numeric/cvt_int.h"
#include "numeric/cvt_packed.h"
#include "numeric/f16_convert.h"
#include "numeric/names.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using numeric::Format;
using numeric::IntType;

// Formats and integer types by index, so that an op's aux can name them.
constexpr std::array<Format, 12> kFormats = {numeric::kF64,  numeric::kF32,  numeric::kTF32, numeric::kF16,
                                             numeric::kBF16, numeric::kE4M3, numeric::kE5M2, numeric::kE2M3,
                                             numeric::kE3M2, numeric::kE2M1, numeric::kUE8M0, numeric::kUE4M3};
constexpr std::array<IntType, 8> kInts = {numeric::kU8, numeric::kU16, numeric::kU32, numeric::kU64,
                                          numeric::kS8, numeric::kS16, numeric::kS32, numeric::kS64};

// A PTX type name without its dot: a format (with x2/x4 lanes) or an integer type.
struct TypeRef {
  int format = -1, integer = -1;
  int lanes = 1;
};

TypeRef type_ref(std::string t) {
  TypeRef r;
  if (!t.empty() && t[0] == '.') t.erase(0, 1);
  if (t.size() > 2 && (t.ends_with("x2") || t.ends_with("x4"))) {
    r.lanes = t.back() - '0';
    t.resize(t.size() - 2);
  }
  if (auto f = numeric::format_by_name(t))
    for (size_t i = 0; i < kFormats.size(); ++i)
      if (kFormats[i] == *f) r.format = static_cast<int>(i);
  if (auto it = numeric::int_type_by_name(t))
    for (size_t i = 0; i < kInts.size(); ++i)
      if (kInts[i] == *it) r.integer = static_cast<int>(i);
  return r;
}

// op.aux: dst index | src index << 8 (into kFormats or kInts as the handler knows);
// op.aux2: the FloatMods: round | ftz << 3 | sat << 4 | relu << 5 | satfinite << 6.
numeric::FloatMods mods_of(uint64_t aux2) {
  numeric::FloatMods m;
  m.round = static_cast<numeric::Round>(aux2 & 7);
  m.ftz = aux2 & 8;
  m.sat = aux2 & 16;
  m.relu = aux2 & 32;
  m.satfinite = aux2 & 64;
  return m;
}
const Format& dst_format(const Op& op) { return kFormats[op.aux & 0xff]; }
const Format& src_format(const Op& op) { return kFormats[op.aux >> 8 & 0xff]; }
const IntType& dst_int(const Op& op) { return kInts[op.aux & 0xff]; }
const IntType& src_int(const Op& op) { return kInts[op.aux >> 8 & 0xff]; }

uint64_t low_bits(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1); }

// Signed integer results sign-extend into wider registers (§9.4.1 relaxed destination rule),
// as ld does (sem/data.cpp); registers are 64-bit slots.
uint64_t int_result(const IntType& t, uint64_t v) {
  return t.is_signed ? static_cast<uint64_t>(t.as_signed(v)) : v;
}

void float_to_float(Warp& w, const Op& op, uint32_t mask) {
  const Format &d = dst_format(op), &s = src_format(op);
  const numeric::FloatMods m = mods_of(op.aux2);
  for_lanes(mask, [&](int l) {
    w.set<uint64_t>(op.args[0], l, numeric::cvt_float(d, s, low_bits(w.get<uint64_t>(op.args[1], l), s.width() + s.pad_bits), m));
  });
}

// cvt.f32.f16 and cvt.rn.f16.f32 (.ftz at most): the same bits, directly (numeric/f16_convert.h).
void f32_from_f16(Warp& w, const Op& op, uint32_t mask) {
  w.lanewise<uint64_t>(mask, op.args[0], [](uint64_t a) -> uint64_t { return numeric::f16_to_f32(uint16_t(a)); },
                       op.args[1]);
}
void f16_from_f32(Warp& w, const Op& op, uint32_t mask) {
  w.lanewise<uint64_t>(mask, op.args[0], [](uint64_t a) -> uint64_t { return numeric::f32_to_f16_rn(uint32_t(a)); },
                       op.args[1]);
}

// cvt.{rni,rzi,rmi,rpi}.f.f of one type: round to an integral value.
void round_integral(Warp& w, const Op& op, uint32_t mask) {
  const Format& f = dst_format(op);
  const numeric::FloatMods m = mods_of(op.aux2);
  for_lanes(mask, [&](int l) {
    w.set<uint64_t>(op.args[0], l, numeric::cvt_round_integral(f, low_bits(w.get<uint64_t>(op.args[1], l), f.width()), m));
  });
}

void float_to_int(Warp& w, const Op& op, uint32_t mask) {
  const IntType& d = dst_int(op);
  const Format& s = src_format(op);
  const numeric::FloatMods m = mods_of(op.aux2);
  for_lanes(mask, [&](int l) {
    const uint64_t a = low_bits(w.get<uint64_t>(op.args[1], l), s.width());
    w.set<uint64_t>(op.args[0], l, int_result(d, numeric::cvt_float_to_int(d, s, a, m.round, m.ftz)));
  });
}

void int_to_float(Warp& w, const Op& op, uint32_t mask) {
  const Format& d = dst_format(op);
  const IntType& s = src_int(op);
  const numeric::FloatMods m = mods_of(op.aux2);
  for_lanes(mask, [&](int l) {
    w.set<uint64_t>(op.args[0], l, numeric::cvt_int_to_float(d, s, w.get<uint64_t>(op.args[1], l), m));
  });
}

void int_to_int(Warp& w, const Op& op, uint32_t mask) {
  const IntType &d = dst_int(op), &s = src_int(op);
  const bool sat = op.aux2 & 16;
  w.lanewise<uint64_t>(mask, op.args[0], [&](uint64_t a) { return int_result(d, numeric::cvt_int_to_int(d, s, a, sat)); },
                       op.args[1]);
}

// Random bits for .rs: 13 per f16 element, 16 per bf16 element (numeric/round.h).
uint8_t rs_width(const Format& f) { return f == numeric::kF16 ? 13 : 16; }

// cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2,e4m3x2,...}.f32 d, a, b{, rbits}: a goes high.
void pair_from_f32(Warp& w, const Op& op, uint32_t mask) {
  const Format& d = dst_format(op);
  numeric::FloatMods m = mods_of(op.aux2);
  const bool rs = m.round == numeric::Round::RS;
  for_lanes(mask, [&](int l) {
    if (rs) m.rbits = {w.get<uint32_t>(op.args[3], l), rs_width(d)};
    w.set<uint64_t>(op.args[0], l, numeric::cvt_f32x2(d, w.get<uint32_t>(op.args[1], l), w.get<uint32_t>(op.args[2], l), m));
  });
}

// cvt.rn.f16x2.f32 d, a, b without modifiers: a to the upper half, directly (numeric/f16_convert.h).
void f16x2_from_f32(Warp& w, const Op& op, uint32_t mask) {
  w.lanewise<uint32_t>(mask, op.args[0], [](uint32_t a, uint32_t b) -> uint32_t {
    return uint32_t{numeric::f32_to_f16_rn(a)} << 16 | numeric::f32_to_f16_rn(b);
  }, op.args[1], op.args[2]);
}

// cvt.rs{.relu}.satfinite.{e4m3x4,...}.f32 d, {a, b, e, f}, rbits.
void quad_from_f32(Warp& w, const Op& op, uint32_t mask) {
  const Format& d = dst_format(op);
  const numeric::FloatMods m = mods_of(op.aux2);
  for_lanes(mask, [&](int l) {
    const auto& v = op.args[1].elems;
    const uint32_t in[4] = {w.get<uint32_t>(v[0], l), w.get<uint32_t>(v[1], l), w.get<uint32_t>(v[2], l),
                            w.get<uint32_t>(v[3], l)};
    w.set<uint64_t>(op.args[0], l, numeric::cvt_f32x4_rs(d, in, w.get<uint32_t>(op.args[2], l), m));
  });
}

// Packed to packed (x2 -> x2), high element to high element.
void pair_to_pair(Warp& w, const Op& op, uint32_t mask) {
  const Format &d = dst_format(op), &s = src_format(op);
  const numeric::FloatMods m = mods_of(op.aux2);
  for_lanes(mask, [&](int l) {
    w.set<uint64_t>(op.args[0], l, numeric::cvt_x2(d, s, w.get<uint64_t>(op.args[1], l), m));
  });
}

bool select_cvt(const isa::Bound& b, Op& op, std::string& why) {
  const std::string dt = axis(b, "dtype"), st = axis(b, "atype");
  const std::string irnd = axis(b, "irnd"), frnd = axis(b, "frnd");
  const TypeRef d = type_ref(dt), s = type_ref(st);
  const std::string rnd = !irnd.empty() ? irnd : frnd;
  numeric::Round round = numeric::Round::RN;
  if (!rnd.empty()) {
    const auto r = numeric::round_by_name(rnd.substr(1));
    if (!r) return unsupported(why, "rounding " + rnd);
    round = *r;
  }
  op.aux2 = static_cast<uint64_t>(round) | (b.value("ftz") ? 8 : 0) | (b.value("sat") ? 16 : 0) |
            (b.value("relu") ? 32 : 0) | (b.value("satfinite") ? 64 : 0);
  const bool df = d.format >= 0, sf = s.format >= 0;
  const bool di = d.integer >= 0, si = s.integer >= 0;
  if (df) op.aux = static_cast<uint64_t>(d.format);
  if (di) op.aux = static_cast<uint64_t>(d.integer);
  if (sf) op.aux |= static_cast<uint64_t>(s.format) << 8;
  if (si) op.aux |= static_cast<uint64_t>(s.integer) << 8;
  if (d.lanes == 4 && sf && s.lanes == 1) op.fn = &quad_from_f32;
  else if (d.lanes == 2 && sf && s.lanes == 1)
    op.fn = kFormats[d.format] == numeric::kF16 && op.aux2 == static_cast<uint64_t>(numeric::Round::RN) ? &f16x2_from_f32
                                                                                                        : &pair_from_f32;
  else if (d.lanes == 2 && s.lanes == 2) op.fn = &pair_to_pair;
  else if (d.lanes == 1 && s.lanes == 1) {
    // .rn (or no rounding) and .ftz at most, which changes neither f32 <-> f16 conversion: f16
    // values are normal f32 values, and sm_90 ignores .ftz on cvt.f16.f32's input (cvt_float.h)
    const bool plain = df && sf && (op.aux2 & ~uint64_t{8}) == static_cast<uint64_t>(numeric::Round::RN);
    const Format* dfmt = df ? &kFormats[d.format] : nullptr;
    const Format* sfmt = sf ? &kFormats[s.format] : nullptr;
    if (plain && *dfmt == numeric::kF32 && *sfmt == numeric::kF16) op.fn = &f32_from_f16;
    else if (plain && *dfmt == numeric::kF16 && *sfmt == numeric::kF32) op.fn = &f16_from_f32;
    else if (df && sf) op.fn = !irnd.empty() ? &round_integral : &float_to_float;
    else if (di && sf) op.fn = &float_to_int;
    else if (df && si) op.fn = &int_to_float;
    else if (di && si) op.fn = &int_to_int;
  }
  return op.fn || unsupported(why, "cvt" + dt + st);
}

// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u2,s2,u4,s4,u8,s8}.s32.b32 d, a, b, c.
void cvt_pack(Warp& w, const Op& op, uint32_t mask) {
  const IntType t{static_cast<uint8_t>(op.aux), (op.aux2 & 1) != 0};
  const bool has_c = op.args.size() > 3;
  for_lanes(mask, [&](int l) {
    const uint32_t c = has_c ? w.get<uint32_t>(op.args[3], l) : 0;
    w.set<uint32_t>(op.args[0], l, numeric::cvt_pack(t, w.get<uint32_t>(op.args[1], l), w.get<uint32_t>(op.args[2], l), c));
  });
}

bool select_cvt_pack(const isa::Bound& b, Op& op, std::string& why) {
  const std::string c = axis(b, "ctype");
  if (c.size() < 3) return unsupported(why, c);
  op.aux = static_cast<uint64_t>(std::stoi(c.substr(2)));
  op.aux2 = c[1] == 's';
  op.fn = &cvt_pack;
  return true;
}

// testp.op.type p, a (§9.7.3.1); op.aux: the TestOp, aux2: the format index.
void testp(Warp& w, const Op& op, uint32_t mask) {
  const auto t = static_cast<numeric::TestOp>(op.aux);
  const Format& f = kFormats[op.aux2];
  for_lanes(mask, [&](int l) { w.set_pred(op.args[0], l, numeric::testp(t, f, low_bits(w.get<uint64_t>(op.args[1], l), f.width()))); });
}

bool select_testp(const isa::Bound& b, Op& op, std::string& why) {
  static const char* kOps[] = {".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal"};
  const std::string o = axis(b, "op");
  const TypeRef t = type_ref(axis(b, "type"));
  if (t.format < 0) return unsupported(why, axis(b, "type"));
  for (uint64_t i = 0; i < 6; ++i)
    if (o == kOps[i]) op.aux = i, op.fn = &testp;
  op.aux2 = static_cast<uint64_t>(t.format);
  return op.fn || unsupported(why, o);
}

// copysign d, a, b: the sign of a, the rest of b (§9.7.3.2).
void copysign(Warp& w, const Op& op, uint32_t mask) {
  const Format& f = kFormats[op.aux];
  for_lanes(mask, [&](int l) {
    w.set<uint64_t>(op.args[0], l, low_bits(numeric::copysign(f, w.get<uint64_t>(op.args[1], l), w.get<uint64_t>(op.args[2], l)), f.width()));
  });
}

bool select_copysign(const isa::Bound& b, Op& op, std::string& why) {
  const TypeRef t = type_ref(axis(b, "type"));
  if (t.format < 0) return unsupported(why, axis(b, "type"));
  op.aux = static_cast<uint64_t>(t.format);
  op.fn = &copysign;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["cvt §9.7.9.21"] = select_cvt;
  r["cvt.pack §9.7.9.22"] = select_cvt_pack;
  r["testp §9.7.3.1"] = select_testp;
  r["copysign §9.7.3.2"] = select_copysign;
});

}  // namespace ptxvm::sem
