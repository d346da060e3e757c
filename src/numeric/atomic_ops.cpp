// PTX §9.7.13.5 atom "Semantics", §9.7.13.6 red, §9.7.9.25.4.2 cp.reduce.async.bulk
// (001_23fdd5978b24a3ed.txt): one element's read-modify-write.
#include "numeric/atomic_ops.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "numeric/cvt_float.h"
#include "numeric/minmax.h"

namespace ptxvm::numeric {
namespace {

// ---- bit-size and integer operations (§9.7.13.5 "Semantics") ----
uint64_t op_and(uint64_t o, uint64_t b, uint64_t, bool) { return o & b; }
uint64_t op_or(uint64_t o, uint64_t b, uint64_t, bool) { return o | b; }
uint64_t op_xor(uint64_t o, uint64_t b, uint64_t, bool) { return o ^ b; }
uint64_t op_exch(uint64_t, uint64_t b, uint64_t, bool) { return b; }
template <typename T>
uint64_t op_cas(uint64_t o, uint64_t b, uint64_t c, bool) { return static_cast<T>(o) == static_cast<T>(b) ? c : o; }
// inc(r, s) = (r >= s) ? 0 : r+1;  dec(r, s) = (r == 0 || r > s) ? s : r-1  (.u32 only)
uint64_t op_inc(uint64_t o, uint64_t b, uint64_t, bool) {
  auto r = static_cast<uint32_t>(o), s = static_cast<uint32_t>(b);
  return r >= s ? 0 : r + 1;
}
uint64_t op_dec(uint64_t o, uint64_t b, uint64_t, bool) {
  auto r = static_cast<uint32_t>(o), s = static_cast<uint32_t>(b);
  return (r == 0 || r > s) ? s : r - 1;
}
template <typename T, bool kMax>
uint64_t op_minmax(uint64_t o, uint64_t b, uint64_t, bool) {
  T x = static_cast<T>(o), y = static_cast<T>(b);
  T r = kMax ? std::max(x, y) : std::min(x, y);
  return static_cast<std::make_unsigned_t<T>>(r);
}

// ---- floating point ----
// .add rounds to nearest even (§9.7.13.5). "atom.add.f32 on global memory flushes subnormal
// inputs and results to sign-preserving zero; on shared memory it keeps them" — done per the
// space the address resolves to, for the vector forms too. .f32, .f16 and .bf16 NaN results
// are the canonical NaN, as for add (§9.7.3.3). All of this matches an H200 bit for bit on
// every pair of the edge values in tests/sem/atomic_test.cpp, global and shared. The bulk and
// tensor reductions' f32 adds keep subnormals in global memory too (tests/hw/bulk_reduce,
// tests/hw/tma/probes); their f64 NaNs follow atom's global rule.
uint32_t flush_f32(uint32_t x) { return (x & 0x7f800000u) == 0 ? x & 0x80000000u : x; }
template <bool kFlushInGlobal>
uint64_t add_f32(uint64_t o, uint64_t b, uint64_t, bool global) {
  auto x = static_cast<uint32_t>(o), y = static_cast<uint32_t>(b);
  const bool flush = kFlushInGlobal && global;
  if (flush) x = flush_f32(x), y = flush_f32(y);
  float s = std::bit_cast<float>(x) + std::bit_cast<float>(y);
  if (std::isnan(s)) return 0x7fffffffu;
  uint32_t r = std::bit_cast<uint32_t>(s);
  return flush ? flush_f32(r) : r;
}
// .f64 NaNs as an H200 (sm_90) gives them, which the ISA leaves open. In global memory a NaN
// operand b comes back unchanged (not even quieted), else memory's NaN; in shared memory
// memory's NaN comes first and either is quieted. Inf + -Inf gives 0xfff8000000000000.
uint64_t add_f64(uint64_t o, uint64_t b, uint64_t, bool global) {
  constexpr uint64_t kQuiet = uint64_t{1} << 51;
  double x = std::bit_cast<double>(o), y = std::bit_cast<double>(b);
  if (global && std::isnan(y)) return b;
  if (global && std::isnan(x)) return o;
  if (std::isnan(x)) return o | kQuiet;
  if (std::isnan(y)) return b | kQuiet;
  double s = x + y;
  return std::isnan(s) ? 0xfff8000000000000ull : std::bit_cast<uint64_t>(s);
}

// 16-bit formats (.noftz: subnormals kept). The f64 sum of two f16 or bf16 values rounds once
// more to the half format; 53 >= 2p+2 bits makes that double rounding exact (Figueroa 1995),
// so the result is the correctly rounded sum.
template <const Format& F>
struct Half {
  static constexpr uint16_t kNaN = 0x7fff;  // canonical NaN of f16 and bf16
  static double value(uint16_t x) {
    return std::bit_cast<double>(cvt_float(kF64, F, x, {}));
  }
  static uint16_t add(uint16_t a, uint16_t b) {
    double s = value(a) + value(b);
    if (std::isnan(s)) return kNaN;
    return static_cast<uint16_t>(cvt_float(F, kF64, std::bit_cast<uint64_t>(s), {}));
  }
  // min/max as min.f16/max.f16 (§9.7.4.7, §9.7.4.8): a NaN operand yields the other, two NaNs
  // the canonical NaN; -0.0 orders below +0.0.
  template <bool kMax>
  static uint16_t minmax(uint16_t a, uint16_t b) {
    return static_cast<uint16_t>(numeric::minmax(F, kMax, a, b, 0));
  }
};
template <uint16_t (*G)(uint16_t, uint16_t)>
uint64_t half1(uint64_t o, uint64_t b, uint64_t, bool) {
  return G(static_cast<uint16_t>(o), static_cast<uint16_t>(b));
}
template <uint16_t (*G)(uint16_t, uint16_t)>
uint64_t half2(uint64_t o, uint64_t b, uint64_t, bool) {
  uint64_t lo = G(static_cast<uint16_t>(o), static_cast<uint16_t>(b));
  uint64_t hi = G(static_cast<uint16_t>(o >> 16), static_cast<uint16_t>(b >> 16));
  return lo | hi << 16;
}

}  // namespace

uint64_t add_integers(uint64_t o, uint64_t b, uint64_t, bool) { return o + b; }

void combine_atomically(Combine f, uint8_t* element, const uint8_t* operand, unsigned size, bool global) {
  auto update = [&](auto zero) {
    using T = decltype(zero);
    T b;
    std::memcpy(&b, operand, sizeof(T));
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(element));
    T old = ref.load();
    while (!ref.compare_exchange_weak(old, static_cast<T>(f(old, b, 0, global)))) {
    }
  };
  if (size == 2) update(uint16_t{});
  else if (size == 4) update(uint32_t{});
  else update(uint64_t{});
}

// The combine function for an operation and type the row allows, or null.
Combine combine_for(const std::string& o, const std::string& t, bool bulk) {
  using F16 = Half<kF16>;
  using BF16 = Half<kBF16>;
  if (o == ".and") return op_and;
  if (o == ".or") return op_or;
  if (o == ".xor") return op_xor;
  if (o == ".exch") return op_exch;
  if (o == ".cas") return t == ".b16" ? op_cas<uint16_t> : t == ".b32" ? op_cas<uint32_t> : op_cas<uint64_t>;
  if (o == ".inc") return op_inc;
  if (o == ".dec") return op_dec;
  if (o == ".add") {
    if (t == ".f32") return bulk ? add_f32<false> : add_f32<true>;
    if (t == ".f64") return add_f64;
    if (t == ".f16") return half1<F16::add>;
    if (t == ".bf16") return half1<BF16::add>;
    if (t == ".f16x2") return half2<F16::add>;
    if (t == ".bf16x2") return half2<BF16::add>;
    return add_integers;
  }
  bool max = o == ".max";
  if (t == ".u32") return max ? op_minmax<uint32_t, true> : op_minmax<uint32_t, false>;
  if (t == ".s32") return max ? op_minmax<int32_t, true> : op_minmax<int32_t, false>;
  if (t == ".u64") return max ? op_minmax<uint64_t, true> : op_minmax<uint64_t, false>;
  if (t == ".s64") return max ? op_minmax<int64_t, true> : op_minmax<int64_t, false>;
  if (t == ".f16") return max ? half1<F16::minmax<true>> : half1<F16::minmax<false>>;
  if (t == ".bf16") return max ? half1<BF16::minmax<true>> : half1<BF16::minmax<false>>;
  if (t == ".f16x2") return max ? half2<F16::minmax<true>> : half2<F16::minmax<false>>;
  if (t == ".bf16x2") return max ? half2<BF16::minmax<true>> : half2<BF16::minmax<false>>;
  return nullptr;
}

}  // namespace ptxvm::numeric
