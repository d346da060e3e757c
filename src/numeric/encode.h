// Exact value -> bits of any format, with one rounding. Overflow and NaN policy live in
// cvt_float.h; this file only rounds and reports overflow.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "numeric/format.h"
#include "numeric/round.h"

namespace ptxvm::numeric {

struct Encoded {
  uint64_t code;   // magnitude code (no sign, no padding); meaningful when !overflow
  bool overflow;   // rounded magnitude exceeds the format's largest finite value
};

// Round |sig * 2^exp| (sig != 0) into f. Values below the smallest magnitude round to
// code 0, which is zero, or 2^-bias for a format without zero (ue8m0).
constexpr Encoded encode_magnitude(const Format& f, bool negative, uint64_t sig, int exp,
                                   Round r, RandomBits rb = {}) {
  const int e = 63 - std::countl_zero(sig) + exp;  // floor(log2(value))
  const int qmin = f.min_quantum();
  int q = std::max(e - f.man_bits, qmin);
  // Far above the range: report overflow before the quantum arithmetic can overflow.
  if (e - f.man_bits > qmin + (1 << f.exp_bits)) return {0, true};
  uint64_t k = round_to_quantum(sig, exp, q, r, negative, rb);
  const uint64_t one = uint64_t{1} << f.man_bits;
  if (k >> (f.man_bits + 1)) {  // rounding carried into the next binade
    k >>= 1;
    ++q;
  }
  uint64_t code;
  if (f.has_subnormals) {
    code = (static_cast<uint64_t>(q - qmin) << f.man_bits) + k;
  } else {
    code = k ? (static_cast<uint64_t>(q - qmin) << f.man_bits) + (k - one) : 0;
  }
  return {code, code > f.max_code()};
}

}  // namespace ptxvm::numeric
