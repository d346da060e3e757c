// tcgen05.mma (PTX §9.7.16.10, 000_70a4b524dfe259fa.txt): D = A*B + D in Tensor Memory, issued by
// one thread, landing asynchronously (tensor_memory.h).
//
// The instruction descriptor (a register, §9.7.16.4.2 Table 42) gives M, N, the element types,
// negation, transposition (MN-major A/B) and saturation; K follows from .kind (Table 39). A comes
// from shared memory through its matrix descriptor or from Tensor Memory; B from shared memory.
// With .cta_group::2 the CTA pair computes together (§9.7.16.5.1): each CTA holds M/2 rows of A
// and N/2 columns of B (the even CTA the first half) at the same descriptors in its own shared
// memory, and the M/2 rows of D that its A rows give, in its own Tensor Memory.
//
// Where row i, column j of a CTA's part of D lies, relative to d-tmem (the data-path layouts of
// §9.7.16.10.5, drawn only in its figures; these are CUTLASS's tmem_frg layouts,
// include/cute/atom/mma_traits_sm100_frag.hpp):
//   M = 128, .cta_group::1 (Layout D), M = 256 (Layout A): lane i, column j
//   M = 64,  .cta_group::1 (Layout F): lane (i%16) + 32(i/16), column j; d-tmem's lane 0 or 16
//   M = 128, .cta_group::2, dense A (Layout B): lane i + 64(j / (N/2)), column j % (N/2)
// A in Tensor Memory puts row i in D's row lanes (column j = 0) and packs K along the columns:
// 32 / bits elements per cell, the first in the low bits; a 6- or 4-bit element takes a byte, as
// in the 8-bit containers of mma (e2m1 in bits 5..2, e3m2/e2m3 in bits 5..0, §9.7.14.5.14; the
// figures of §9.7.16.10.4.3 are not in the text). In shared memory an 8-, 6- or 4-bit element
// takes a byte of the canonical layout, and a 16-byte chunk packs its 16 elements first, the
// padding last (.b6x16_p32 / .b4x16_p64, §9.7.16.10.4.4).
//
// .ws (weight-stationary, §9.7.16.10.9.3) has M = 32, 64 or 128 and splits D's columns into
// 128 / M groups of N / (128/M), group q in lanes q*M .. q*M + M - 1 (Layouts G, E, D; CUTLASS's
// tmem_frg_ws): row i, column j at lane (j / (N/g)) M + i, column j % (N/g). Where D's columns
// split over lane groups (.ws, Layout B) the group computing column j reads A's row i (from
// Tensor Memory) and its sparsity metadata in its own lanes: the data path is local to each
// group, so a kernel keeps a copy in each (as it must for the scale factors). .ws's optional
// zero-column mask descriptor (§9.7.16.4.3 Table 45) zeroes columns of B and shifts them: MMA
// column j reads B's column j + shift, and the mask of column j's group says whether it is zero
// (the table's examples fix the field meanings: from fs, runs of (skip span + 1) ones and
// (use span + 1) zeros, the first sc bits dropped; a one zeroes the column). Collector buffers
// (§9.7.16.10.9.1, .ws's b0-b3 and A's a) only permit reuse: ptxvm always reads memory, and
// reports a use or lastuse of a buffer no fill has made valid.
//
// The arithmetic is mma::gemm on the tcgen05 rows of the model (src/mma/arith.cpp: modelled on
// public measurements, not recorded; no Blackwell GPU is at hand).
#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "exec/warp.h"
#include "isa/idesc.h"
#include "mma/arith.h"
#include "mma/descriptor.h"
#include "mma/types.h"
#include "program/registry.h"
#include "units/tcgen05/sparsity.h"
#include "units/tcgen05/tensor_memory.h"

namespace ptxvm::units::tcgen05 {
namespace {

using exec::Warp;
using mma::Type;
using program::Arg;
using program::ArgKind;
using program::Op;

enum class Kind : uint8_t { F16, TF32, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };

bool block_scaled(Kind k) { return k == Kind::MXF8F6F4 || k == Kind::MXF4 || k == Kind::MXF4NVF4; }
// .kind::mxf4 and .kind::mxf4nvf4 pack two e2m1 to a byte; every other kind gives an element at
// least a byte (§9.7.16.10.4).
bool packed_fp4(Kind k) { return k == Kind::MXF4 || k == Kind::MXF4NVF4; }

// What the instruction is, fixed at load time (op.aux points at it).
struct Plan {
  isa::Bound bound;
  Kind kind = Kind::F16;
  unsigned group = 1;   // .cta_group::1 or ::2
  bool a_tmem = false;  // A in Tensor Memory ([a-tmem]) rather than through a-desc
  int disable = -1;     // operand index of disable-output-lane, if written
  unsigned enable = 4;  // operand index of enable-input-d
  unsigned scale = 0;   // scale-input-d
  // Block scaling (§9.7.16.10.7): scale factors per row of A and column of B (1, 2 or 4; 0 when
  // not block-scaled), and the operand indexes of [scale-A-tmem] and [scale-B-tmem].
  unsigned scale_vec = 0, sfa = 0, sfb = 0;
  bool sparse = false;  // .sp: the metadata at operand `meta`
  bool ashift = false;
  bool ws = false;      // .ws
  unsigned meta = 0, idesc = 3;
  int zero_mask = -1;   // .ws: operand index of the zero-column mask descriptor, if written
  // The collector buffer (0-3: .ws's b0-b3, 4: A's) and what the instruction does with it; an
  // instruction without the qualifier discards b0 (.ws) or a.
  enum class Use : uint8_t { Fill, Use, LastUse, Discard };
  unsigned collector = 4;
  Use use = Use::Discard;
};

// The instruction descriptor decoded (Table 42).
struct Shape {
  Type a, b, d;
  unsigned m, n, k;
  bool saturate, negate_a, negate_b, a_mn_major, b_mn_major;
  Type scale = Type::UE8M0;  // block scaling: the scale factors' type and byte offsets
  unsigned sfa_id = 0, sfb_id = 0;
  unsigned blocks = 0;       // and their number per row of A and column of B (Table 54)
  unsigned selector = 0;     // .sp: the sparsity selector (bits 0-1)
};

// Tables 43-44: the block-scaled kinds' descriptor.
std::optional<std::string> decode_block_scaled_idesc(const Plan& p, uint32_t x, Shape& s) {
  auto bit = [&](unsigned i) { return ((x >> i) & 1u) != 0; };
  const bool fp4 = packed_fp4(p.kind);
  for (unsigned r : {0u, 1u, 3u, 6u, 24u, 25u, 26u})
    if (bit(r)) return "reserved bit " + std::to_string(r) + " of the instruction descriptor is set";
  if (fp4 && bit(12)) return std::string("reserved bit 12 of the instruction descriptor is set (Table 44)");
  // Bit 31 (Table 44): K = 96, dense, on 256 rows of a CTA pair (Table 39) or, as CUTLASS's sm_103a
  // kernels issue it, 128 rows of one CTA.
  const bool k96 = bit(31);
  if (k96 && !fp4) return std::string("reserved bit 31 of the instruction descriptor is set (Table 43)");
  if (k96 && p.sparse) return std::string("K = 96 (bit 31) is for dense A only (Tables 39 and 44)");
  if (k96 && p.group == 2 && s.m != 256)
    return "K = 96 (bit 31) with .cta_group::2 needs M = 256, not " + std::to_string(s.m) + " (Table 39)";
  const unsigned atype = (x >> 7) & 7, btype = fp4 ? (x >> 10) & 3 : (x >> 10) & 7;
  if (fp4) {
    if (atype != 1 || btype != 1) return std::string("atype and btype must be 1 (E2M1) for ") + *p.bound.value("kind");
    s.a = s.b = Type::E2M1;
    if (s.a_mn_major || s.b_mn_major) return *p.bound.value("kind") + " cannot transpose A or B (Table 49)";
  } else {
    static const Type kTypes[] = {Type::E4M3, Type::E5M2, Type::E4M3, Type::E2M3, Type::E3M2, Type::E2M1};
    if (atype == 2 || atype > 5) return "atype " + std::to_string(atype) + " is not a type of .kind::mxf8f6f4";
    if (btype == 2 || btype > 5) return "btype " + std::to_string(btype) + " is not a type of .kind::mxf8f6f4";
    s.a = kTypes[atype], s.b = kTypes[btype];
    if (s.b != Type::E2M1 && s.b != Type::E3M2 && s.b != Type::E2M3 && s.b_mn_major && (p.group == 1 ? s.n % 16 : s.n % 32))
      return "an 8-bit transposed B needs N a multiple of " + std::to_string(p.group == 1 ? 16 : 32) + " (Table 50)";
  }
  s.d = Type::F32;
  s.scale = bit(23) ? Type::UE8M0 : Type::UE4M3;
  if (s.scale == Type::UE4M3 && (p.kind != Kind::MXF4NVF4 || p.scale_vec != 4))
    return std::string("scale type UE4M3 (bit 23 clear) is for .kind::mxf4nvf4 with 16-element blocks only (Table 55)");
  s.sfb_id = (x >> 4) & 3, s.sfa_id = (x >> 29) & 3;
  // A scale factor ID is the byte of the Tensor Memory cell the factors start at; K = 96's 3 or 6
  // factors may run on into the row's next cell (scale_factor), from any byte or from byte 0 or 2
  // (§9.7.16.10.7.2-3: the figures' IDs).
  s.blocks = k96 ? p.scale_vec * 3 / 2 : p.scale_vec;
  const unsigned align = k96 ? p.scale_vec / 2 : p.scale_vec;
  for (unsigned id : {s.sfa_id, s.sfb_id})
    if (id % align != 0)
      return "scale factor ID " + std::to_string(id) + " does not fit " + std::to_string(s.blocks) +
             " scale factors (" + (align == 1 ? "0 to 3" : align == 2 ? "0 or 2" : "0") + ", §9.7.16.10.7.2)";
  s.k = k96 ? 96 : fp4 ? 64 : 32;  // Table 39
  return std::nullopt;
}

std::optional<std::string> decode_idesc(const Plan& p, uint32_t x, Shape& s) {
  auto bit = [&](unsigned i) { return ((x >> i) & 1u) != 0; };
  const isa::MmaShape mn = isa::idesc_shape(p.bound, x);
  s.m = mn.m, s.n = mn.n;
  s.saturate = bit(3), s.negate_a = bit(13), s.negate_b = bit(14), s.a_mn_major = bit(15), s.b_mn_major = bit(16);
  if (auto bad = isa::check_idesc_shape(p.bound, x)) return *bad;
  if (bit(2) != p.sparse)
    return std::string("the instruction descriptor's sparsity bit (2) is ") + (p.sparse ? "clear on" : "set on a dense") +
           " tcgen05.mma" + (p.sparse ? ".sp" : "");
  if (block_scaled(p.kind)) {
    s.saturate = false;
    auto bad = decode_block_scaled_idesc(p, x, s);
    if (p.sparse) s.k *= 2;  // Table 39: the dense K
    return bad;
  }
  s.selector = p.sparse ? x & 3 : 0;
  if (s.selector && (p.kind == Kind::I8 || p.kind == Kind::F8F6F4))
    return "the sparsity selector is " + std::to_string(s.selector) + "; it must be 0 for " + *p.bound.value("kind") +
           " (§9.7.16.10.8.4)";
  const unsigned dtype = (x >> 4) & 3, atype = (x >> 7) & 7, btype = (x >> 10) & 7;
  if (bit(6) || bit(23) || bit(29))
    return "reserved bit " + std::to_string(bit(6) ? 6 : bit(23) ? 23 : 29) + " of the instruction descriptor is set";
  if ((x >> 30) && !p.ws) return std::string("the maximum shift (bits 30-31) applies to .ws only");
  if (p.kind != Kind::I8 && s.saturate) return std::string("saturation (bit 3) applies to .kind::i8 only");
  auto type = [&](unsigned code, Type& t) -> bool {
    switch (p.kind) {
    case Kind::F16: t = code == 0 ? Type::F16 : Type::BF16; return code <= 1;
    case Kind::TF32: t = Type::TF32; return code == 2;
    case Kind::I8: t = code == 0 ? Type::U8 : Type::S8; return code <= 1;
    default: {  // .kind::f8f6f4
      static const Type kTypes[] = {Type::E4M3, Type::E5M2, Type::E4M3, Type::E2M3, Type::E3M2, Type::E2M1};
      t = code < 6 ? kTypes[code] : Type::E4M3;
      return code != 2 && code < 6;
    }
    }
  };
  if (!type(atype, s.a)) return "atype " + std::to_string(atype) + " is not a type of " + *p.bound.value("kind");
  if (!type(btype, s.b)) return "btype " + std::to_string(btype) + " is not a type of " + *p.bound.value("kind");
  if (p.kind == Kind::F16 && s.a != s.b) return std::string("atype and btype differ (.kind::f16: both f16 or both bf16)");
  const bool d_ok = p.kind == Kind::I8 ? dtype == 2 : p.kind == Kind::TF32 ? dtype == 1 : dtype <= 1;
  if (!d_ok) return "dtype " + std::to_string(dtype) + " is not a type of D for " + *p.bound.value("kind");
  s.d = dtype == 2 ? Type::S32 : dtype == 1 ? Type::F32 : Type::F16;
  if (p.kind == Kind::I8 && (s.negate_a || s.negate_b)) return std::string(".kind::i8 cannot negate (Table 49)");
  const unsigned bits = mma::register_bits(s.b);
  if (bits == 8 && s.b_mn_major && (p.group == 1 ? s.n % 16 : s.n % 32))
    return "an 8-bit transposed B needs N a multiple of " + std::to_string(p.group == 1 ? 16 : 32) + " (Table 50)";
  s.k = (p.kind == Kind::TF32 ? 8 : p.kind == Kind::F16 ? 16 : 32) * (p.sparse ? 2 : 1);  // Table 39
  return std::nullopt;
}

// Bits of an element in the layout (its geometry) and of its value.
unsigned layout_bits(Type t) { return t == Type::E2M1 || t == Type::E3M2 || t == Type::E2M3 ? 8 : mma::register_bits(t); }
unsigned value_bits(Type t) { return t == Type::E2M1 ? 4 : t == Type::E3M2 || t == Type::E2M3 ? 6 : layout_bits(t); }

// The element's value from its Tensor Memory byte (mma's 8-bit containers).
uint64_t from_container(Type t, uint64_t byte) {
  if (t == Type::E2M1) return (byte >> 2) & 0xf;
  if (t == Type::E3M2 || t == Type::E2M3) return byte & 0x3f;
  return byte;
}

uint64_t sign_bit(Type t) { return uint64_t{1} << (value_bits(t) - 1); }

// Lane and column of row i, column j of a CTA's part of D (the table at the top).
struct Place {
  unsigned lane, column;
};
Place d_place(unsigned m, unsigned n, unsigned group, unsigned i, unsigned j) {
  if (group == 1 && m == 64) return {(i % 16) + 32 * (i / 16), j};
  if (group == 2 && m == 128) return {i + 64 * (j / (n / 2)), j % (n / 2)};
  return {i, j};
}

// One issued tcgen05.mma.
struct Mma {
  const Plan* plan;
  const Op* op;
  Warp* issuer;  // for reports
  int lane;
  uint32_t issue_pc = 0;
  uint32_t proxy_epoch = 0;  // the async check: the issuing thread's latest fence.proxy.async at issue
  TensorMemory::Issue issue;  // the tcgen05 check: the issue, for the order of its accesses
  exec::Cta* ctas[2];  // the CTA (group 1), or the even and odd CTAs of the pair
  Shape s;
  uint32_t d_tmem, a_tmem, meta_tmem;
  uint64_t a_desc, b_desc;
  uint32_t sfa_tmem, sfb_tmem;
  uint32_t disabled[8];
  uint64_t zero_mask = 0;  // .ws's zero-column mask descriptor (0: none)
  bool enable_d;
  mma::Model model;

  unsigned rows() const { return plan->group == 1 ? s.m : s.m / 2; }  // rows of D per CTA
  unsigned geometry(Type t) const { return packed_fp4(plan->kind) ? 4 : layout_bits(t); }
  unsigned a_k() const { return plan->sparse ? s.k / 2 : s.k; }  // A's elements per row
  // Lane groups D's columns split over (the table at the top), and where row i, column j lies.
  unsigned groups() const { return plan->ws ? 128 / s.m : plan->group == 2 && s.m == 128 ? 2 : 1; }
  Place place(unsigned i, unsigned j) const {
    if (!plan->ws) return d_place(s.m, s.n, plan->group, i, j);
    const unsigned width = s.n / groups();
    return {(j / width) * s.m + i, j % width};
  }
  unsigned column_shift() const { return static_cast<unsigned>((zero_mask >> 56) & 0x3f); }

  // An operand of mns x ks elements through descriptor `desc` in `cta`'s shared memory, from
  // row (column) mn0 on, into out[mn * mn_stride + k * k_stride].
  void read_shared(exec::Cta& cta, uint64_t desc, bool k_major, Type t, unsigned mn0, unsigned mns, unsigned ks,
                   size_t mn_stride, size_t k_stride, uint64_t* out) const {
    mma::MatrixDescriptor d;
    if (auto bad = mma::decode_tcgen05_descriptor(desc, d)) issuer->undefined(lane, "'" + op->text + "': " + *bad);
    const unsigned row_bytes = ks * geometry(t) / 8;
    if (d.absolute_leading && (!k_major || issuer->program->target != "sm_103a"))
      issuer->undefined(lane, "'" + op->text + "': the absolute leading-dimension mode (descriptor bit 52) " +
                                  (k_major ? "is supported on sm_103a only, not " + issuer->program->target + " (§9.7.16.4.1)"
                                           : std::string("is for K-major operands only (§9.7.16.3.1.2.1)")));
    if (k_major && d.swizzle == mma::Swizzle::B128 && !d.absolute_leading && row_bytes == 48 &&
        (d.start >> 4) % 8 > 5)
      issuer->undefined(lane, "'" + op->text + "': the 48 bytes of K of a row start at byte " +
                                  std::to_string((d.start >> 4) % 8 * 16) +
                                  " of a 128-byte swizzle row and overflow it; the absolute leading-dimension mode "
                                  "(descriptor bit 52) splits them (§9.7.16.3.1.2)");
    // §9.7.16.10.1 Table 49 and Table 53: 32-byte atomicity is for MN-major operands, and a
    // transposed .kind::tf32 operand takes it and nothing else.
    const bool atom32 = d.swizzle == mma::Swizzle::B128Atom32;
    if (atom32 && k_major)
      issuer->undefined(lane, "'" + op->text + "': 128-byte swizzling with 32-byte atomicity is for MN-major "
                                              "(transposed) operands only (§9.7.16.10.6 Table 53)");
    if (!k_major && atom32 != (plan->kind == Kind::TF32))
      issuer->undefined(lane, "'" + op->text + "': " +
                                  (atom32 ? std::string("only .kind::tf32 transposes with 32-byte swizzle atomicity")
                                          : std::string("a transposed .kind::tf32 operand needs 128-byte swizzling "
                                                        "with 32-byte atomicity (swizzle mode 1)")) +
                                  " (§9.7.16.10.1 Table 49)");
    const unsigned g = geometry(t), v = value_bits(t);
    const auto& shared = cta.shared.bytes;
    const uint64_t mask = (uint64_t{1} << v) - 1;
    // A 16-byte chunk holds 128 / g consecutive elements along the contiguous dimension (K, or MN
    // when MN-major), their values packed from its first bit: read a chunk at a time.
    const unsigned per_chunk = 128 / g, outers = k_major ? mns : ks, inners = k_major ? ks : mns;
    for (unsigned outer = 0; outer < outers; ++outer)
      for (unsigned inner = 0; inner < inners;) {
        const unsigned mn = k_major ? outer : inner, k = k_major ? inner : outer;
        const uint64_t at = mma::element_bit_address(d, k_major, g, mn0 + mn, k);
        // the 16-byte chunk (a shared address, mem::cluster_shared_address: less the reserved
        // KiB), the element's place in it and the elements from there to its end
        const uint64_t chunk = at / 128 * 16 - mem::kSharedReserved;
        const unsigned first = static_cast<unsigned>(at % 128) / g, count = std::min(per_chunk - first, inners - inner);
        if (chunk + 16 > shared.size())
          issuer->undefined(lane, "'" + op->text + "' reads shared address " + std::to_string(at / 128 * 16) +
                                      " through its matrix descriptor, outside the CTA's " +
                                      std::to_string(shared.size()) + " bytes of shared memory from 0x400 (§9.7.16.4.1)");
        if (&cta == issuer->cta)  // the async proxy reads it (§9.7.16.6.5)
          issuer->async_proxy_read(lane, issuer->shared_base + chunk, 16, issue_pc, proxy_epoch);
        uint64_t word[2];
        std::memcpy(word, &shared[chunk], 16);
        uint64_t* to = &out[size_t{mn} * mn_stride + size_t{k} * k_stride];
        const size_t step = k_major ? k_stride : mn_stride;
        inner += count;
        if (v == 16) {  // f16, bf16: whole half-words
          uint16_t halves[8];
          std::memcpy(halves, word, sizeof halves);
          for (unsigned e = 0; e < count; ++e) to[e * step] = halves[first + e];
          continue;
        }
        for (unsigned e = 0; e < count; ++e) {
          const unsigned bit = (first + e) * v;
          uint64_t x = word[bit / 64] >> (bit % 64);
          if (bit % 64 + v > 64) x |= word[1] << (64 - bit % 64);
          to[e * step] = x & mask;
        }
      }
  }

  // A's rows of `cta` from Tensor Memory at a_tmem, as lane group q holds them.
  void read_tmem_a(exec::Cta& cta, unsigned q, uint64_t* out) const {
    TensorMemory& t = cta.unit<TensorMemory>();
    const unsigned g = geometry(s.a), per = 32 / g, r = rows(), ks = a_k();
    const unsigned columns = (ks + per - 1) / per;
    for (unsigned i = 0; i < r; ++i) {
      const unsigned at = lane_of(a_tmem) + place(i, q * s.n / groups()).lane;
      t.check_allocated(*issuer, lane, *op, at, 1, column_of(a_tmem), columns);
      for (unsigned k = 0; k < ks; ++k) {
        if (k % per == 0 && t.shadow)
          t.check_read(*issuer, lane, issue_pc, at, column_of(a_tmem) + k / per, "A in Tensor Memory", &issue);
        const uint32_t cell = t.cell(at, column_of(a_tmem) + k / per);
        const uint64_t raw = g == 32 ? cell : (cell >> (k % per * g)) & ((1u << g) - 1);
        out[size_t{i} * ks + k] = g == 8 ? from_container(s.a, raw) : raw;
      }
    }
  }

  // .sp: the kept elements of A (rows() x a_k()) into the dense rows, by the metadata lane group
  // q holds (sparsity.h).
  void expand(exec::Cta& cta, unsigned q, const std::vector<uint64_t>& kept, std::vector<uint64_t>& a) const {
    TensorMemory& t = cta.unit<TensorMemory>();
    const Granularity gr = plan->kind == Kind::TF32 ? Granularity::OneOfTwo
                           : packed_fp4(plan->kind) ? Granularity::PairsOfEight
                                                    : Granularity::TwoOfFour;
    const bool wide = plan->kind == Kind::TF32 || plan->kind == Kind::F16;
    const unsigned group_rows = groups() > 1 ? 128 / groups() : 0;  // a lane group's copy
    for (unsigned i = 0; i < rows(); ++i)
      expand_row(gr, &kept[size_t{i} * a_k()], s.k, [&](unsigned g) {
        const NibblePlace n = nibble_place(wide, s.selector, i, g);
        const unsigned at = lane_of(meta_tmem) + n.lane + q * group_rows, column = column_of(meta_tmem) + n.column;
        t.check_allocated(*issuer, lane, *op, at, 1, column, 1);
        if (t.shadow) t.check_read(*issuer, lane, issue_pc, at, column, "the sparsity metadata", &issue);
        const unsigned nibble = (t.cell(at, column) >> n.bit) & 0xf;
        if (!valid_nibble(gr, nibble))
          issuer->undefined(lane, "'" + op->text + "': the sparsity metadata of row " + std::to_string(i) +
                                      ", chunk " + std::to_string(g) + " is 0b" + std::to_string(nibble >> 3 & 1) +
                                      std::to_string(nibble >> 2 & 1) + std::to_string(nibble >> 1 & 1) +
                                      std::to_string(nibble & 1) + ", not one the ISA gives a meaning (§9.7.16.10.8)");
        return nibble;
      }, &a[size_t{i} * s.k]);
  }

  // .ws's zero-column mask: whether MMA column j reads zeros (Table 45; the top of the file).
  bool zeroed(unsigned j) const {
    if (!((zero_mask >> 39) & 1)) return false;  // Non-Zero Mask clear: nothing zeroed
    const unsigned width = s.n / groups(), q = j / width;
    const unsigned skip = static_cast<unsigned>((zero_mask >> 40) & 0xff) + 1, use = static_cast<unsigned>((zero_mask >> 48) & 0xff) + 1;
    const bool first = (zero_mask >> (32 + q)) & 1;
    const unsigned at = (j % width + static_cast<unsigned>((zero_mask >> (8 * q)) & 0xff)) % (skip + use);
    return first ? at < skip : at >= use;
  }

  void run() {
    bool d_reported = false;  // the tcgen05 check: one report of unwritten D per operation
    bool d_ordered = true;    // and one of its order
    const unsigned m = rows(), n = s.n, k = s.k, group = plan->group;
    std::vector<uint64_t> a(size_t{m} * k), b(size_t{k} * n), c(size_t{m} * n), d(size_t{m} * n);
    // B: N columns, the pair's halves from each CTA; .ws's from column shift on, masked.
    const unsigned n_part = n / group;
    for (unsigned x = 0; x < group; ++x)
      read_shared(*ctas[x], b_desc, !s.b_mn_major, s.b, column_shift(), n_part, k, 1, n, &b[x * n_part]);
    if (s.negate_b)
      for (uint64_t& e : b) e ^= sign_bit(s.b);
    for (unsigned j = 0; j < n; ++j)
      if (zeroed(j))
        for (unsigned kk = 0; kk < k; ++kk) b[size_t{kk} * n + j] = 0;
    std::vector<uint64_t> kept(plan->sparse ? size_t{m} * a_k() : 0);
    for (unsigned x = 0; x < group; ++x) {
      exec::Cta& cta = *ctas[x];
      TensorMemory& t = cta.unit<TensorMemory>();
      // Where D's columns do not split over lane groups, row i is a run of cells of one lane.
      const bool runs = groups() == 1 && !t.shadow;
      for (unsigned i = 0; i < m; ++i) {
        if (runs) {
          const uint32_t* row = &t.cell(lane_of(d_tmem) + place(i, 0).lane, column_of(d_tmem));
          for (unsigned j = 0; j < n; ++j) c[size_t{i} * n + j] = !enable_d ? 0 : s.d == Type::F16 ? row[j] & 0xffff : row[j];
          continue;
        }
        for (unsigned j = 0; j < n; ++j) {
          const Place p = place(i, j);
          const uint32_t cell = t.cell(lane_of(d_tmem) + p.lane, column_of(d_tmem) + p.column);
          c[size_t{i} * n + j] = !enable_d ? 0 : s.d == Type::F16 ? cell & 0xffff : cell;
          if (enable_d && t.shadow && !d_reported)
            d_reported = !t.check_read(*issuer, lane, issue_pc, lane_of(d_tmem) + p.lane, column_of(d_tmem) + p.column,
                                       "the accumulator D, read with enable-input-d true,", &issue);
        }
      }
      // Lane group q computes D's columns [q N/g, (q+1) N/g) from the A rows and metadata it
      // holds; with A in shared memory and no metadata every group has the same A.
      const unsigned passes = plan->a_tmem || plan->sparse ? groups() : 1;
      for (unsigned q = 0; q < passes; ++q) {
        uint64_t* rows_a = plan->sparse ? kept.data() : a.data();
        if (plan->a_tmem) read_tmem_a(cta, q, rows_a);
        else read_shared(cta, a_desc, !s.a_mn_major, s.a, 0, m, a_k(), a_k(), 1, rows_a);
        if (s.negate_a)
          for (uint64_t* e = rows_a; e != rows_a + size_t{m} * a_k(); ++e) *e ^= sign_bit(s.a);
        if (plan->sparse) expand(cta, q, kept, a);
        if (block_scaled(plan->kind)) compute_scaled(t, a, b, c, d);
        else compute(a, b, c, d);
        const unsigned j0 = passes == 1 ? 0 : q * n / passes, j1 = passes == 1 ? n : (q + 1) * n / passes;
        for (unsigned i = 0; i < m; ++i) {
          if (runs) {
            const unsigned tl = lane_of(d_tmem) + place(i, 0).lane;
            if ((disabled[x * 4 + tl / 32] >> (tl % 32)) & 1u) continue;  // disable-output-lane
            uint32_t* row = &t.cell(tl, column_of(d_tmem));
            for (unsigned j = j0; j < j1; ++j) row[j] = static_cast<uint32_t>(d[size_t{i} * n + j]);
            continue;
          }
          for (unsigned j = j0; j < j1; ++j) {
            const Place p = place(i, j);
            const unsigned tl = lane_of(d_tmem) + p.lane;
            if ((disabled[x * 4 + tl / 32] >> (tl % 32)) & 1u) continue;  // disable-output-lane
            t.cell(tl, column_of(d_tmem) + p.column) = static_cast<uint32_t>(d[size_t{i} * n + j]);
            if (t.shadow) d_ordered &= t.order(*issuer, lane, issue, tl, column_of(d_tmem) + p.column, true, d_ordered);
          }
        }
      }
      if (plan->ashift) shift_a(t);
    }
  }

  // .ashift: after the MMA, A's rows in Tensor Memory move up one lane within each 32-lane
  // sub-partition, over the columns this MMA read; lane 31 of each keeps its value
  // (§9.7.16.10.9.1 "shifts the rows of the A matrix down by one row, except for the last row";
  // NVIDIA's CuTe DSL documents the direction and the sub-partitions as observed on a B200:
  // shifted[r] = A[r + 1] for r % 32 != 31).
  void shift_a(TensorMemory& t) const {
    const unsigned columns = (a_k() * geometry(s.a) + 31) / 32;
    for (unsigned q = 0; q < groups(); ++q)
      for (unsigned i = 0; i + 1 < rows(); ++i) {
        const unsigned at = lane_of(a_tmem) + place(i, q * s.n / groups()).lane;
        if (at % 32 == 31) continue;
        for (unsigned col = 0; col < columns; ++col)
          t.cell(at, column_of(a_tmem) + col) = t.cell(at + 1, column_of(a_tmem) + col);
      }
  }

  // The scale factors of block k-block `t` for D's row i, column j (§9.7.16.10.7), as CUTLASS
  // lays them out (tmem_sf_frg, mma_traits_sm100_frag.hpp; the ISA draws them only in figures):
  // the 32-lane quarter that computes D[i][j] reads row i's factors at its lane i % 32, column
  // i / 32 from scale-A-tmem, and column j's at its lane c % 32, column c / 32 from
  // scale-B-tmem, c being j's column in D's layout (j, or j % (N/2) in Layout B); a factor is
  // byte sf_id + t of its cell. Each quarter holds its own copy ("duplicated to all 32 lane
  // partitions"). K = 96's factors run on from byte 3 into the row's next cell, `next` columns
  // on: past the 4 columns of A's 128 rows, past the 4 or 8 of B's N <= 128 or N > 128 columns
  // (the ISA's separate figures for N <= 128 and N > 128; CUTLASS's sm_103a main loop issues
  // IDs 0, 3, 2, 1 over factors so laid out, sm103_blockscaled_mma_warpspecialized.hpp).
  uint8_t scale_factor(TensorMemory& t, uint32_t base, unsigned id, unsigned quarter, unsigned index,
                       unsigned block, unsigned next) const {
    const unsigned at = lane_of(base & 0x3fffffff) + 32 * quarter + index % 32;  // CUTLASS keeps sf_id in bits 30-31
    const unsigned column = column_of(base) + index / 32 + (id + block) / 4 * next, byte = (id + block) % 4;
    t.check_allocated(*issuer, lane, *op, at, 1, column, 1);
    if (t.shadow) t.check_read(*issuer, lane, issue_pc, at, column, "a scale factor", &issue);
    return static_cast<uint8_t>(t.cell(at, column) >> (8 * byte));
  }

  void compute_scaled(TensorMemory& t, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                      const std::vector<uint64_t>& c, std::vector<uint64_t>& d) const {
    const unsigned m = rows(), n = s.n, k = s.k, blocks = s.blocks;
    const unsigned next_a = 4, next_b = n > 128 ? 8 : 4;  // scale_factor
    mma::FloatClass cls{s.a, s.b, s.d, s.d, k};
    cls.tcgen05 = true;
    cls.mxf4 = packed_fp4(plan->kind);
    auto quarter = [&](const Place& p) { return (lane_of(d_tmem) + p.lane) / 32; };
    // Where each element's quarter follows from its row and its layout column from j (Layouts A
    // and D: M = 256, or 128 on one CTA), the rows of one quarter form one tile whose factors are
    // read once per row and column.
    bool separable = true;
    for (unsigned i = 0; i < m && separable; ++i)
      for (unsigned j = 0; j < n && separable; ++j) {
        const Place p = place(i, j);
        separable = quarter(p) == quarter(place(i, 0)) && p.column == place(0, j).column;
      }
    std::vector<uint8_t> sa, sb;
    if (separable) {
      for (unsigned i0 = 0; i0 < m;) {
        const unsigned q = quarter(place(i0, 0));
        unsigned i1 = i0 + 1;
        while (i1 < m && quarter(place(i1, 0)) == q) ++i1;
        sa.resize(size_t{i1 - i0} * blocks), sb.resize(size_t{n} * blocks);
        for (unsigned i = i0; i < i1; ++i)
          for (unsigned u = 0; u < blocks; ++u)
            sa[size_t{i - i0} * blocks + u] = scale_factor(t, sfa_tmem, s.sfa_id, q, i, u, next_a);
        for (unsigned j = 0; j < n; ++j)
          for (unsigned u = 0; u < blocks; ++u)
            sb[size_t{j} * blocks + u] = scale_factor(t, sfb_tmem, s.sfb_id, q, place(i0, j).column, u, next_b);
        mma::gemm_scaled(model, cls, s.scale, i1 - i0, n, blocks, &a[size_t{i0} * k], b.data(), sa.data(),
                         sb.data(), &c[size_t{i0} * n], &d[size_t{i0} * n]);
        i0 = i1;
      }
      return;
    }
    sa.resize(blocks), sb.resize(blocks);  // every other layout: element by element
    std::vector<uint64_t> col(k);
    for (unsigned i = 0; i < m; ++i)
      for (unsigned j = 0; j < n; ++j) {
        const Place p = place(i, j);
        for (unsigned u = 0; u < blocks; ++u)
          sa[u] = scale_factor(t, sfa_tmem, s.sfa_id, quarter(p), i, u, next_a),
          sb[u] = scale_factor(t, sfb_tmem, s.sfb_id, quarter(p), p.column, u, next_b);
        for (unsigned kk = 0; kk < k; ++kk) col[kk] = b[size_t{kk} * n + j];
        const size_t at = size_t{i} * n + j;
        mma::gemm_scaled(model, cls, s.scale, 1, 1, blocks, &a[size_t{i} * k], col.data(), sa.data(), sb.data(),
                         &c[at], &d[at]);
      }
  }

  void compute(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, const std::vector<uint64_t>& c,
               std::vector<uint64_t>& d) const {
    const unsigned m = rows(), n = s.n, k = s.k;
    if (plan->kind == Kind::I8) {
      std::vector<uint64_t> col(k);
      for (unsigned j = 0; j < n; ++j) {
        for (unsigned kk = 0; kk < k; ++kk) col[kk] = b[size_t{kk} * n + j];
        for (unsigned i = 0; i < m; ++i)
          d[size_t{i} * n + j] = static_cast<uint32_t>(mma::dot_int(
              s.a, s.b, k, &a[size_t{i} * k], col.data(), static_cast<int32_t>(c[size_t{i} * n + j]), s.saturate));
      }
      return;
    }
    mma::FloatClass cls{s.a, s.b, s.d, s.d, k};
    cls.tcgen05 = true;
    cls.c_scale = plan->scale;
    mma::gemm(model, cls, m, n, a.data(), b.data(), c.data(), d.data());
  }
};

// Checks, at issue, the Tensor Memory the operation will reach.
void check_reach(Warp& w, int l, const Op& op, const Mma& x) {
  const unsigned m = x.rows(), n = x.s.n;
  const unsigned d_lane = lane_of(x.d_tmem);
  const bool half = x.plan->group == 1 && x.s.m == 64 && !x.plan->ws;  // Layout F: lane 0 or 16
  if (half ? d_lane != 0 && d_lane != 16 : d_lane != 0)
    w.undefined(l, "'" + op.text + "': d-tmem names lane " + std::to_string(d_lane) + "; M = " +
                       std::to_string(x.s.m) + " needs lane 0" + (half ? " or 16" : "") + " (§9.7.16.10.5)");
  if (x.plan->a_tmem && lane_of(x.a_tmem) != d_lane)
    w.undefined(l, "'" + op.text + "': a-tmem names lane " + std::to_string(lane_of(x.a_tmem)) +
                       ", d-tmem lane " + std::to_string(d_lane) +
                       ": A and D take the same Tensor Memory lane alignment (§9.7.16.10.5)");
  const Place last = x.place(m - 1, n - 1);
  for (unsigned c = 0; c < x.plan->group; ++c)
    x.ctas[c]->unit<TensorMemory>().check_allocated(w, l, op, 0, std::min(kLanes, d_lane + last.lane + 1),
                                                    column_of(x.d_tmem), last.column + 1);
}

// The collector buffer's state, in issue order: a fill makes it valid, a use needs it valid, a
// lastuse needs it and ends it, a discard ends it (§9.7.16.10.9.1).
void track_collector(Warp& w, int l, const Op& op, const Plan& p, TensorMemory& t) {
  const uint8_t bit = static_cast<uint8_t>(1u << p.collector);
  if ((p.use == Plan::Use::Use || p.use == Plan::Use::LastUse) && !(t.collectors & bit))
    w.undefined(l, "'" + op.text + "' reads collector buffer " +
                       (p.collector == 4 ? std::string("a") : "b" + std::to_string(p.collector)) +
                       ", which no earlier ::fill of the CTA has filled (or a ::lastuse or ::discard emptied) "
                       "(§9.7.16.10.9.1)");
  if (p.use == Plan::Use::Fill) t.collectors |= bit;
  else if (p.use != Plan::Use::Use) t.collectors &= static_cast<uint8_t>(~bit);
}

void mma_issue(Warp& w, const Op& op, uint32_t m) {
  const Plan& p = *reinterpret_cast<const Plan*>(op.aux);
  exec::for_lanes(m, [&](int l) {
    TensorMemory& t = w.cta->unit<TensorMemory>();
    t.check_cta_group(w, l, op, p.group);
    auto x = std::make_shared<Mma>();
    x->plan = &p, x->op = &op, x->issuer = &w, x->lane = l, x->model = w.launch->tensor_model;
    x->issue_pc = w.current_pc;
    if (t.shadow) x->issue = TensorMemory::issue_of(w, l, true);
    x->proxy_epoch = w.proxy_fenced(w.first_thread + static_cast<uint32_t>(l));
    x->ctas[0] = w.cta, x->ctas[1] = nullptr;
    if (p.group == 2) {
      exec::Cta& other = peer(w, l, op);
      x->ctas[w.cta->rank & 1u] = w.cta;
      x->ctas[(w.cta->rank & 1u) ^ 1u] = &other;
    }
    x->d_tmem = static_cast<uint32_t>(w.address(op.args[0], l));
    if (p.a_tmem) x->a_tmem = static_cast<uint32_t>(w.address(op.args[1], l));
    else x->a_desc = w.get<uint64_t>(op.args[1], l);
    x->b_desc = w.get<uint64_t>(op.args[2], l);
    if (p.scale_vec) {
      x->sfa_tmem = static_cast<uint32_t>(w.address(op.args[p.sfa], l));
      x->sfb_tmem = static_cast<uint32_t>(w.address(op.args[p.sfb], l));
    }
    if (auto bad = decode_idesc(p, w.get<uint32_t>(op.args[p.idesc], l), x->s))
      w.undefined(l, "'" + op.text + "': " + *bad + " (§9.7.16.4.2, 000_70a4b524dfe259fa.txt)");
    if (x->s.k == 96 && w.program->target != "sm_103a")
      w.undefined(l, "'" + op.text + "': K = 96 (instruction descriptor bit 31) is supported on sm_103a only, not " +
                         w.program->target + " (§9.7.16.2.1.1)");
    if (p.sparse) {
      x->meta_tmem = static_cast<uint32_t>(w.address(op.args[p.meta], l));
      // The metadata layouts ptxvm knows (sparsity.h) are those of full 128-row data paths and of
      // lane groups (.ws, Layout B); Layout F's (M = 64, half the lanes) is drawn only in figures.
      if (p.group == 1 && x->s.m == 64 && !p.ws)
        w.undefined(l, "'" + op.text + "': unsupported: the sparsity metadata layout of M = 64 with .cta_group::1 "
                                       "(Layout F, §9.7.16.10.8.4.1) is not implemented yet");
      // Sparse M = 128 on a CTA pair is Layout C (half the lanes, §9.7.16.10.5 Table), drawn only
      // in figures, D's and the metadata's placement alike.
      if (p.group == 2 && x->s.m == 128)
        w.undefined(l, "'" + op.text + "': unsupported: sparse M = 128 with .cta_group::2 (Layout C, "
                                       "§9.7.16.10.5.3), whose D and metadata layouts the ISA gives only in figures");
    }
    if (p.zero_mask >= 0) {
      x->zero_mask = w.get<uint64_t>(op.args[p.zero_mask], l);
      const unsigned limit = x->s.m == 32 ? 16 : 32;
      if (x->column_shift() > limit)
        w.undefined(l, "'" + op.text + "': the zero-column mask shifts B by " + std::to_string(x->column_shift()) +
                           " columns; M = " + std::to_string(x->s.m) + " allows " + std::to_string(limit) +
                           " (§9.7.16.4.3 Table 45)");
    }
    track_collector(w, l, op, p, t);
    std::fill(std::begin(x->disabled), std::end(x->disabled), 0u);
    if (p.disable >= 0)
      for (size_t i = 0; i < op.args[p.disable].elems.size(); ++i)
        x->disabled[i] = w.get<uint32_t>(op.args[p.disable].elems[i], l);
    x->enable_d = w.get<bool>(op.args[p.enable], l);
    check_reach(w, l, op, *x);
    const uint64_t seq = t.issue([x] { x->run(); });
    if (t.shadow)  // the tcgen05 check: D's cells (the peer CTA's, of another queue, only as written)
      for (unsigned c = 0; c < p.group; ++c) {
        TensorMemory& to = x->ctas[c]->unit<TensorMemory>();
        for (unsigned i = 0; i < x->rows(); ++i)
          for (unsigned j = 0; j < x->s.n; ++j) {
            const Place at = x->place(i, j);
            const unsigned lane = lane_of(x->d_tmem) + at.lane;
            if (!((x->disabled[c * 4 + lane / 32] >> (lane % 32)) & 1u))
              to.will_write(&to == &t ? seq : 0, w.first_thread + static_cast<uint32_t>(l), w.current_pc, lane,
                            column_of(x->d_tmem) + at.column);
          }
      }
  });
}

bool select(const isa::Bound& b, Op& op, std::string& why) {
  const std::string& kind = *b.value("kind");
  Plan p;
  p.bound = b;
  if (kind == ".kind::f16") p.kind = Kind::F16;
  else if (kind == ".kind::tf32") p.kind = Kind::TF32;
  else if (kind == ".kind::f8f6f4") p.kind = Kind::F8F6F4;
  else if (kind == ".kind::i8") p.kind = Kind::I8;
  else if (kind == ".kind::mxf8f6f4") p.kind = Kind::MXF8F6F4;
  else if (kind == ".kind::mxf4") p.kind = Kind::MXF4;
  else p.kind = Kind::MXF4NVF4;
  const std::string& mnemonic = b.family->mnemonic;
  p.sparse = mnemonic.find(".sp") != std::string::npos;
  p.ws = mnemonic.find(".ws") != std::string::npos;
  p.ashift = b.value("ashift") != nullptr;
  p.group = b.is("cta_group", ".cta_group::2") ? 2 : 1;
  p.a_tmem = op.args[1].kind == ArgKind::Address;
  if (p.ashift && !p.a_tmem) {
    why = ".ashift shifts A in Tensor Memory: it takes [a-tmem] (§9.7.16.10.9.1)";
    return false;
  }
  if (const std::string* c = b.value("collector")) {  // .collector::<buffer>::<use>
    const std::string buffer = c->substr(12, c->find("::", 12) - 12), use = c->substr(c->rfind("::") + 2);
    p.collector = buffer == "a" ? 4 : static_cast<unsigned>(buffer[1] - '0');
    p.use = use == "fill" ? Plan::Use::Fill : use == "use" ? Plan::Use::Use : use == "lastuse" ? Plan::Use::LastUse
                                                                                               : Plan::Use::Discard;
  } else {
    p.collector = p.ws ? 0 : 4;
  }
  // [d-tmem], a, b-desc, {[sp-meta-tmem],} idesc, then {disable-output-lane,} enable-input-d
  // {, scale-input-d}; with block scaling [scale-A-tmem], [scale-B-tmem], enable-input-d; .ws:
  // enable-input-d {, zero-column-mask-desc}
  if (p.sparse) p.meta = 3, p.idesc = 4;
  size_t next = p.idesc + 1;
  if (p.ws) {
    if (next >= op.args.size()) {
      why = "tcgen05.mma.ws needs enable-input-d";
      return false;
    }
    p.enable = static_cast<unsigned>(next++);
    if (next < op.args.size()) p.zero_mask = static_cast<int>(next);
    op.aux = reinterpret_cast<uint64_t>(program::keep(std::move(p)));
    op.fn = &mma_issue;
    return true;
  }
  if (block_scaled(p.kind)) {
    // Table 54: .block32 is one factor per 32 elements, .block16 per 16; no qualifier is
    // .block32 (the checker requires one for .kind::mxf4nvf4).
    const std::string* vec = b.value("scale_vec");
    const unsigned k = p.kind == Kind::MXF8F6F4 ? 32 : 64;
    p.scale_vec = !vec || *vec == ".block32" ? k / 32 : *vec == ".block16" ? k / 16 : (*vec)[12] - '0';
    if (op.args.size() != next + 3 || op.args[next].kind != ArgKind::Address || op.args[next + 1].kind != ArgKind::Address) {
      why = "block-scaled tcgen05.mma takes [scale-A-tmem], [scale-B-tmem] and enable-input-d after idesc";
      return false;
    }
    p.sfa = static_cast<unsigned>(next), p.sfb = static_cast<unsigned>(next + 1), next += 2;
  }
  if (next < op.args.size() && op.args[next].kind == ArgKind::Vector) {
    const size_t words = op.args[next].elems.size();
    if (words != 4 * p.group) {
      why = "disable-output-lane has " + std::to_string(words) + " elements; .cta_group::" +
            std::to_string(p.group) + " takes " + std::to_string(4 * p.group) + " (§9.7.16.10.9.1)";
      return false;
    }
    p.disable = static_cast<int>(next++);
  }
  if (next >= op.args.size()) {
    why = "tcgen05.mma needs enable-input-d";
    return false;
  }
  p.enable = static_cast<unsigned>(next++);
  if (next < op.args.size()) {
    if (op.args[next].kind != ArgKind::Imm || op.args[next].imm > 15 || (p.kind != Kind::F16 && p.kind != Kind::TF32)) {
      why = "scale-input-d is an immediate in [0, 15], for .kind::f16 and .kind::tf32 only (§9.7.16.10.9.1)";
      return false;
    }
    p.scale = static_cast<unsigned>(op.args[next].imm);
  }
  op.aux = reinterpret_cast<uint64_t>(program::keep(std::move(p)));
  op.fn = &mma_issue;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["tcgen05.mma §9.7.16.10.9.1"] = select;
  r["tcgen05.mma.sp §9.7.16.10.9.2"] = select;
  r["tcgen05.mma.ws §9.7.16.10.9.3"] = select;
  r["tcgen05.mma.ws.sp §9.7.16.10.9.4"] = select;
});

}  // namespace
}  // namespace ptxvm::units::tcgen05
