// Test helper: evaluate one PTX instruction text ("cvt.rn.satfinite.e4m3x2.f32",
// "testp.normal.f64", "cvt.pack.sat.s8.s32.b32", ...) with the numeric library, on
// register values. The execution engine resolves qualifiers once at load time; tests
// that replay recorded instruction texts need the same mapping at run time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "numeric/classify.h"
#include "numeric/cvt_float.h"
#include "numeric/cvt_int.h"
#include "numeric/cvt_packed.h"
#include "numeric/names.h"

namespace ptxvm::numeric::test {

struct Insn {
  std::vector<std::string> parts;
  explicit Insn(std::string_view text) {
    size_t b = 0;
    for (size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '.') {
        parts.emplace_back(text.substr(b, i - b));
        b = i + 1;
      }
  }
  bool has(std::string_view q) const {
    for (const auto& p : parts)
      if (p == q) return true;
    return false;
  }
};

// Register width in bits for a result type as the recorder declared it.
inline uint64_t extend(const IntType& t, uint64_t v, unsigned reg_bits) {
  const uint64_t mask = reg_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << reg_bits) - 1;
  return static_cast<uint64_t>(t.as_signed(v)) & mask;
}

inline std::optional<Format> packed_element(std::string_view t) {
  if (t.size() > 2 && t.substr(t.size() - 2) == "x2") return format_by_name(t.substr(0, t.size() - 2));
  return std::nullopt;
}

using Evaluator = std::function<uint64_t(uint64_t a, uint64_t b, uint64_t c)>;

// Operands a, b, c are registers (zero-extended); reg_bits is the destination register
// width. Returns an empty function for an instruction text it does not know.
inline Evaluator evaluator(const Insn& in, unsigned reg_bits) {
  const auto& p = in.parts;
  if (p[0] == "testp") {
    static constexpr std::pair<std::string_view, TestOp> ops[] = {
        {"finite", TestOp::Finite}, {"infinite", TestOp::Infinite}, {"number", TestOp::Number},
        {"notanumber", TestOp::NotANumber}, {"normal", TestOp::Normal},
        {"subnormal", TestOp::Subnormal}};
    for (auto [n, op] : ops)
      if (n == p[1])
        return [op, f = *format_by_name(p[2])](uint64_t a, uint64_t, uint64_t) -> uint64_t {
          return testp(op, f, a);
        };
    return {};
  }
  if (p[0] == "copysign")
    return [f = *format_by_name(p[1])](uint64_t a, uint64_t b, uint64_t) { return copysign(f, a, b); };
  if (p[1] == "pack") {
    const IntType t = p[3] == "u16" ? kU16 : p[3] == "s16" ? kS16 : IntType{static_cast<uint8_t>(std::stoi(p[3].substr(1))), p[3][0] == 's'};
    return [t](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
      return cvt_pack(t, static_cast<uint32_t>(a), static_cast<uint32_t>(b), static_cast<uint32_t>(c));
    };
  }
  FloatMods m;
  bool integer_round = false;
  for (const auto& q : p) {
    if (auto r = round_by_name(q)) {
      m.round = *r;
      integer_round = q.size() == 3 && q != "rna";
    }
  }
  m.ftz = in.has("ftz");
  m.sat = in.has("sat");
  m.relu = in.has("relu");
  m.satfinite = in.has("satfinite");
  const std::string& dt = p[p.size() - 2];
  const std::string& st = p[p.size() - 1];
  const auto df = format_by_name(dt), sf = format_by_name(st);
  const auto di = int_type_by_name(dt), si = int_type_by_name(st);
  const auto dp = packed_element(dt), sp = packed_element(st);
  using R = uint64_t;
  if (dp && st == "f32")
    return [f = *dp, m](R a, R b, R) { return cvt_f32x2(f, static_cast<uint32_t>(a), static_cast<uint32_t>(b), m); };
  if (dp && sp) return [d = *dp, s = *sp, m](R a, R, R) { return cvt_x2(d, s, a, m); };
  if (df && sf && integer_round) return [f = *df, m](R a, R, R) { return cvt_round_integral(f, a, m); };
  if (df && sf) return [d = *df, s = *sf, m](R a, R, R) { return cvt_float(d, s, a, m); };
  if (di && sf)
    return [d = *di, s = *sf, m, reg_bits](R a, R, R) {
      return extend(d, cvt_float_to_int(d, s, a, m.round, m.ftz), reg_bits);
    };
  if (df && si) return [d = *df, s = *si, m](R a, R, R) { return cvt_int_to_float(d, s, a, m); };
  if (di && si)
    return [d = *di, s = *si, sat = m.sat, reg_bits](R a, R, R) {
      return extend(d, cvt_int_to_int(d, s, a, sat), reg_bits);
    };
  return {};
}

}  // namespace ptxvm::numeric::test
