// initcheck's bit-level rules (Valgrind memcheck's scheme, Seward and Nethercote, USENIX 2005):
// which bits of a result are undefined, given each operand's value and its undefined bits. Bitwise
// operations, shifts and copies keep the definedness of each bit, so that code that sets a bit
// field of a word it never initialised (debug builds do, for cooperative groups' objects) leaves
// the other bits' definedness as it was; any other computation is undefined as a whole when any
// operand bit is.
#pragma once

#include <cstdint>

namespace ptxvm::sanitize {

enum class Rule : uint8_t { Any, Copy, And, Or, Xor, Shl, Shr, ShrSigned };

struct Bits {
  uint64_t value = 0, undefined = 0;
};

// The undefined bits of `rule` applied to `a` and `b` (`b` unused by Copy), in a `width`-bit
// result.
inline uint64_t undefined_bits(Rule rule, Bits a, Bits b, unsigned width) {
  const uint64_t all = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  switch (rule) {
  case Rule::Copy: return a.undefined & all;
  case Rule::And:  // a defined 0 in either operand makes the bit a defined 0
    return (a.undefined | b.undefined) & ~(~a.undefined & ~a.value) & ~(~b.undefined & ~b.value) & all;
  case Rule::Or:  // a defined 1 makes it a defined 1
    return (a.undefined | b.undefined) & ~(~a.undefined & a.value) & ~(~b.undefined & b.value) & all;
  case Rule::Xor: return (a.undefined | b.undefined) & all;
  case Rule::Shl:
  case Rule::Shr:
  case Rule::ShrSigned: {
    if (b.undefined) return all;  // an undefined shift amount
    const uint64_t n = b.value;
    if (n >= width) return rule == Rule::ShrSigned && ((a.undefined >> (width - 1)) & 1) ? all : 0;
    if (rule == Rule::Shl) return (a.undefined << n) & all;
    uint64_t r = (a.undefined & all) >> n;
    if (rule == Rule::ShrSigned && ((a.undefined >> (width - 1)) & 1)) r |= all & ~(all >> n);  // the sign fills
    return r;
  }
  case Rule::Any: break;
  }
  return (a.undefined | b.undefined) ? all : 0;
}

}  // namespace ptxvm::sanitize
