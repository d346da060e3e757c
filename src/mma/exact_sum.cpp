#include "mma/exact_sum.h"

#include <bit>

#include "numeric/encode.h"

namespace ptxvm::mma {

void ExactSum::add(bool negative, u128 sig, int exp) {
  if (sig == 0) return;
  const unsigned pos = static_cast<unsigned>(exp - kLowExp);
  const unsigned limb = pos / 64, shift = pos % 64;
  // sig << shift spans up to three limbs
  uint64_t part[3] = {static_cast<uint64_t>(sig) << shift, 0, 0};
  const u128 hi = shift ? sig >> (64 - shift) : sig >> 64;
  part[1] = shift ? static_cast<uint64_t>(hi) : static_cast<uint64_t>(sig >> 64);
  part[2] = shift ? static_cast<uint64_t>(hi >> 64) : 0;
  if (!negative) {
    u128 carry = 0;
    for (unsigned i = limb; i < kLimbs; ++i) {
      const u128 s = static_cast<u128>(limbs_[i]) + (i - limb < 3 ? part[i - limb] : 0) + carry;
      limbs_[i] = static_cast<uint64_t>(s);
      carry = s >> 64;
      if (i - limb >= 2 && carry == 0) break;
    }
  } else {
    uint64_t borrow = 0;
    for (unsigned i = limb; i < kLimbs; ++i) {
      const uint64_t sub = i - limb < 3 ? part[i - limb] : 0;
      const uint64_t before = limbs_[i];
      const uint64_t r = before - sub - borrow;
      borrow = (before < sub || (before - sub) < borrow) ? 1 : 0;
      limbs_[i] = r;
      if (i - limb >= 2 && borrow == 0) break;
    }
  }
}

bool ExactSum::zero() const {
  for (uint64_t l : limbs_)
    if (l) return false;
  return true;
}

uint64_t ExactSum::round(const numeric::Format& f, numeric::Round r, bool overflow_to_inf) const {
  const bool neg = negative();
  std::array<uint64_t, kLimbs> mag = limbs_;
  if (neg) {  // two's complement negation
    uint64_t carry = 1;
    for (uint64_t& l : mag) {
      l = ~l + carry;
      carry = (carry && l == 0) ? 1 : 0;
    }
  }
  int top = kLimbs - 1;
  while (top > 0 && mag[top] == 0) --top;
  // The 64 bits from the leading one down, with every bit below folded into bit 0 (sticky).
  const int lead = 63 - std::countl_zero(mag[top]) + 64 * top;  // bit index of the leading one
  uint64_t sig;
  int exp;
  if (lead < 64) {
    sig = mag[0];
    exp = kLowExp;
  } else {
    const int low = lead - 63;  // bit index of sig's bit 0
    const int li = low / 64, sh = low % 64;
    sig = sh ? (mag[li] >> sh) | (mag[li + 1] << (64 - sh)) : mag[li];
    bool sticky = sh && (mag[li] & ((uint64_t{1} << sh) - 1));
    for (int i = 0; i < li && !sticky; ++i) sticky = mag[i] != 0;
    sig |= sticky ? 1 : 0;
    exp = kLowExp + low;
  }
  const numeric::Encoded e = numeric::encode_magnitude(f, neg, sig, exp, r);
  const uint64_t sign = neg ? f.sign_bit() : 0;
  if (e.overflow) {
    const bool to_max = !overflow_to_inf && (r == numeric::Round::RZ || (r == numeric::Round::RM && !neg) ||
                                             (r == numeric::Round::RP && neg));
    const uint64_t inf = ((uint64_t{1} << f.exp_bits) - 1) << f.man_bits;
    return sign | (to_max ? inf - 1 : inf);
  }
  return sign | e.code;
}

}  // namespace ptxvm::mma
