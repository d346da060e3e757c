// Whole-warp (or any length) forms of the element functions, for the SIMT engine:
// one loop with no data-dependent calls, so the compiler can keep it tight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "numeric/cvt_float.h"
#include "numeric/cvt_int.h"

namespace ptxvm::numeric {

inline void cvt_float_lanes(const Format& dst, const Format& src, std::span<const uint64_t> a,
                            std::span<uint64_t> d, const FloatMods& m) {
  for (size_t i = 0; i < d.size(); ++i) d[i] = cvt_float(dst, src, a[i], m);
}

inline void cvt_float_to_int_lanes(const IntType& dst, const Format& src,
                                   std::span<const uint64_t> a, std::span<uint64_t> d,
                                   Round irnd, bool ftz) {
  for (size_t i = 0; i < d.size(); ++i) d[i] = cvt_float_to_int(dst, src, a[i], irnd, ftz);
}

inline void cvt_int_to_float_lanes(const Format& dst, const IntType& src,
                                   std::span<const uint64_t> a, std::span<uint64_t> d,
                                   const FloatMods& m) {
  for (size_t i = 0; i < d.size(); ++i) d[i] = cvt_int_to_float(dst, src, a[i], m);
}

}  // namespace ptxvm::numeric
