// Fragment sizes of the matrix families; see fragments.h.
#include "isa/fragments.h"

#include <cstdlib>
#include <string>

namespace ptxvm::isa {

namespace {

std::string val(const Bound& b, const char* axis) {
  const std::string* v = b.value(axis);
  return v ? *v : std::string();
}

unsigned dim(const std::string& shape, char which) { // ".m16n8k16" -> M, N or K
  size_t p = shape.find(which, 1);
  return p == std::string::npos ? 0 : static_cast<unsigned>(std::atoi(shape.c_str() + p + 1));
}

unsigned element_bits(const std::string& t) {
  if (t == ".f16" || t == ".bf16") return 16;
  if (t == ".tf32") return 32;
  if (t == ".s4" || t == ".u4") return 4;
  if (t == ".b1") return 1;
  return 8; // .s8 .u8 and the fp8/fp6/fp4 types, each in an 8-bit container
}

// Registers per thread of a 32-thread fragment of `elems` elements; .f16 accumulators pack two.
unsigned accumulator(const std::string& t, unsigned elems) {
  return t == ".f16" ? elems / 2 : elems;
}

// mma and mma.sp: D, A, B, C (§9.7.14.5.1-13; sparse A holds half of K, §9.7.14.6.2).
std::vector<unsigned> mma(const Bound& b, bool sparse) {
  std::string shape = val(b, "shape"), at = val(b, "atype");
  unsigned M = dim(shape, 'm'), N = dim(shape, 'n'), K = dim(shape, 'k');
  unsigned ka = sparse ? K / 2 : K;
  // .e2m1 packs two to a byte under .kind::mxf4 and .kind::mxf4nvf4 (§9.7.14.3).
  bool packed4 = b.is("kind", ".kind::mxf4") || b.is("kind", ".kind::mxf4nvf4");
  unsigned a, bb, cd = M * N / 32;
  if (at == ".f64") {
    a = M * ka / 32, bb = N * K / 32;
  } else {
    unsigned bits = packed4 ? 4 : element_bits(at);
    a = M * ka * bits / 1024, bb = N * K * bits / 1024;
  }
  if (shape == ".m8n8k4" && at == ".f16") a = 2, bb = 2, cd = 8; // quad-pair layout, §9.7.14.5.1
  return {accumulator(val(b, "dtype"), cd), a ? a : 1, bb ? bb : 1,
          accumulator(val(b, "ctype"), cd)};
}

// wmma fragments (§9.7.14.4.1): registers per thread for each fragment and shape.
unsigned wmma(const std::string& frag, const std::string& t, const std::string& shape) {
  bool tall = shape == ".m32n8k16";
  if (frag == "c" || frag == "d") {
    if (t == ".f64") return 2;
    if (t == ".s32") return shape == ".m8n8k32" || shape == ".m8n8k128" ? 2 : 8;
    return t == ".f16" ? 4 : 8;
  }
  bool is_a = frag == "a";
  if (t == ".f64" || t == ".s4" || t == ".u4" || t == ".b1") return 1;
  if (t == ".f16") return 8;
  if (t == ".tf32") return 4;
  if (t == ".bf16") return shape == ".m16n16k16" ? 4 : (is_a == tall ? 8 : 2);
  if (t == ".s8" || t == ".u8") return shape == ".m16n16k16" ? 2 : (is_a == tall ? 4 : 1);
  return 0;
}

// tcgen05.ld/st: .num times the registers of one repetition of the shape (Tables 47-48).
unsigned tmem(const Bound& b) {
  unsigned n = static_cast<unsigned>(std::atoi(val(b, "num").c_str() + 2));
  std::string shape = val(b, "shape");
  if (shape == ".16x128b") return 2 * n;
  if (shape == ".16x256b") return 4 * n;
  return n;
}

} // namespace

std::optional<std::vector<unsigned>> fragment_sizes(const Bound& b) {
  const std::string& m = b.family->mnemonic;
  std::string shape = val(b, "shape");
  if (m == "mma") return mma(b, false);
  if (m == "mma.sp" || m == "mma.sp::ordered_metadata") return mma(b, true);
  if (m == "wmma.load")
    return std::vector<unsigned>{wmma(val(b, "frag").substr(1), val(b, "type"), shape), 0, 0};
  if (m == "wmma.store") return std::vector<unsigned>{0, wmma("d", val(b, "type"), shape), 0};
  if (m == "wmma.mma") {
    std::string at = val(b, "atype").empty() ? ".f16" : val(b, "atype");
    return std::vector<unsigned>{wmma("d", val(b, "dtype"), shape), wmma("a", at, shape),
                                 wmma("b", at, shape), wmma("c", val(b, "ctype"), shape)};
  }
  if (m == "wgmma.mma_async" || m == "wgmma.mma_async.sp") {
    unsigned n = dim(shape, 'n');
    return std::vector<unsigned>{val(b, "dtype") == ".f16" ? n / 4 : n / 2};
  }
  if (m == "ldmatrix" || m == "stmatrix") {
    unsigned n = static_cast<unsigned>(std::atoi(val(b, "num").c_str() + 2));
    if (shape == ".m16n16") n *= 2; // two 8x16 halves per matrix
    return m == "ldmatrix" ? std::vector<unsigned>{n, 0} : std::vector<unsigned>{0, n};
  }
  if (m == "tcgen05.ld" || m == "tcgen05.ld.red") return std::vector<unsigned>{tmem(b)};
  if (m == "tcgen05.st") return std::vector<unsigned>{0, 0, tmem(b)};
  return std::nullopt;
}

} // namespace ptxvm::isa
