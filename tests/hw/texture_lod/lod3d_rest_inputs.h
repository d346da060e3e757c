// The gradient pairs of lod3d_rest (issue 21, after lod3d_dense): probes of the 11/16 length of a
// three-component sum or difference, the part of tex.grad's 3D level of detail that lod3d_dense's
// random set 4 left open (88 of 65,536 lookups 1/256 low). Same texture and lookup as
// lod3d_dense.cu (128^3, 8 levels, isotropic, at (0.5, 0.5, 0.5), gradients / 128), which records
// them as `lod3d_dense rest`; ddx, ddy in texels. Every value is exact in f32 (integer arithmetic,
// powers of two, one f32 multiply).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "lod3d_dense_inputs.h"

namespace lod3d_rest {

using Lookup = lod3d_dense::Lookup;  // ddx, ddy in texels, the set

// The sets, in the order they are recorded:
//  0 ddx = ddy = (a/64, b/128, n/128), a in {520, 611, 745, 1000}, b = 512..992 step 32,
//    n = 1..1023: the sum 2 ddx has exact 10-bit components; the sweep of its smallest (or middle)
//    component n shows where the min term of 11/16 |sum| rounds (65,472 lookups);
//  1 ddx = (a/64, b/128, n/128), ddy = (a/64, b/128, (n + j)/128), a in {520, 745},
//    b = 512..960 step 64, n = 512..1023, j in {1, 3}: the sum's smallest component has 11
//    significant bits (16,384);
//  2 as 1 with the middle component odd instead: ddx = (a/64, b/128, n/256),
//    ddy = (a/64, (b + j)/128, n/256), n = 512..1022 step 2 (8,192);
//  3 near-parallel random pairs: each ddx component +-m 2^(e-24), m a 24-bit integer, e = 0..5;
//    ddy = ddx (8192 + k)/8192, k in [-512, 512), negated for odd i (so that the difference
//    decides), up to 200,000 lookups in all (109,952).
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  for (int a : {520, 611, 745, 1000})
    for (int b = 512; b < 1024; b += 32)
      for (int n = 1; n < 1024; ++n) {
        const float g[3] = {a / 64.0f, b / 128.0f, n / 128.0f};
        v.push_back({{g[0], g[1], g[2]}, {g[0], g[1], g[2]}, 0});
      }
  for (int a : {520, 745})
    for (int b = 512; b < 1024; b += 64)
      for (int n = 512; n < 1024; ++n)
        for (int j : {1, 3})
          v.push_back({{a / 64.0f, b / 128.0f, n / 128.0f}, {a / 64.0f, b / 128.0f, (n + j) / 128.0f}, 1});
  for (int a : {520, 745})
    for (int b = 512; b < 1024; b += 64)
      for (int n = 512; n < 1024; n += 2)
        for (int j : {1, 3})
          v.push_back({{a / 64.0f, b / 128.0f, n / 256.0f}, {a / 64.0f, (b + j) / 128.0f, n / 256.0f}, 2});
  uint64_t state = 0x2545f4914f6cdd1dull;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(state >> 33);  // 31 bits
  };
  auto component = [&] {
    const uint32_t r = next();
    const uint32_t m = (1u << 23) | (r & ((1u << 23) - 1));
    const int e = int((r >> 23) % 6);
    const float x = std::ldexp(float(m), e - 24);  // in [2^(e-1), 2^e)
    return (r >> 29) & 1 ? -x : x;
  };
  for (int i = 0; v.size() < 200000; ++i) {
    Lookup l{{component(), component(), component()}, {}, 3};
    const int k = int(next() % 1024) - 512;
    const float s = float(8192 + k) / 8192.0f;
    for (int c = 0; c < 3; ++c) {
      const float y = l.ddx[c] * s;
      l.ddy[c] = i & 1 ? -y : y;
    }
    v.push_back(l);
  }
  return v;
}

}  // namespace lod3d_rest
