// PTX §9.7.14.6, §9.7.15.6: the metadata of structured-sparse A.
#include "mma/sparse.h"

namespace ptxvm::mma {

std::vector<uint16_t> sparse_columns(Sparsity s, unsigned k, unsigned elem_bits, unsigned selector,
                                     const uint32_t (&metadata)[32]) {
  const unsigned chunk = s == Sparsity::Quads ? 8 : s == Sparsity::Tf32 ? 2 : 4;
  const unsigned chunks = k / chunk, lanes = chunks / 4, kc = k / 2, per_chunk = chunk / 2;
  const bool narrow = elem_bits <= 8;
  std::vector<uint16_t> cols(size_t{16} * kc);
  for (unsigned q = 0; q < 8; ++q)
    for (unsigned h = 0; h < 2; ++h)
      for (unsigned c = 0; c < chunks; ++c) {
        const unsigned t = narrow ? (c / 8) * 2 + h : c / 4, at = narrow ? c % 8 : h * 4 + c % 4;
        const unsigned lane = 4 * q + (lanes == 1 ? selector : lanes == 2 ? 2 * selector : 0) + t;
        const uint32_t nibble = (metadata[lane % 32] >> (4 * at)) & 0xf;
        const unsigned row = q + 8 * h;
        for (unsigned e = 0; e < per_chunk; ++e) {
          unsigned col;
          switch (s) {
          case Sparsity::Tf32:
            col = c * 2 + (nibble & 3) / 2;
            break;
          case Sparsity::Quads:
            col = c * 8 + 2 * ((nibble >> (2 * (e / 2))) & 3) + e % 2;
            break;
          default:
            col = c * 4 + ((nibble >> (2 * e)) & 3);
            break;
          }
          cols[size_t{row} * kc + c * per_chunk + e] = static_cast<uint16_t>(col);
        }
      }
  return cols;
}

}  // namespace ptxvm::mma
