// The metadata placement and the meaningful nibbles of tcgen05.mma.sp (sparsity.h).
#include "units/tcgen05/sparsity.h"

namespace ptxvm::units::tcgen05 {

NibblePlace nibble_place(bool wide, unsigned selector, unsigned i, unsigned g) {
  if (wide) return {(i & 7) + 16 * (i >> 4) + 8 * (g >> 2), selector, 16 * ((i >> 3) & 1) + 4 * (g & 3)};
  return {i, g >> 3, 4 * (g & 7)};
}

bool valid_nibble(Granularity g, unsigned nibble) {
  if (g == Granularity::OneOfTwo) return nibble == 0b0100 || nibble == 0b1110;  // §9.7.16.10.8.1
  switch (nibble) {  // §9.7.16.10.8.2-3
  case 0b0100: case 0b1000: case 0b1100: case 0b1001: case 0b1101: case 0b0110: case 0b1110: return true;
  default: return false;
  }
}

}  // namespace ptxvm::units::tcgen05
