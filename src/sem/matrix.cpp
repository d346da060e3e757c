// Warp-level matrix instructions (PTX §9.7.14, 001_23fdd5978b24a3ed.txt; wmma.mma in
// 004_8b65a6cd58917981.txt): mma §9.7.14.5.14, ldmatrix §9.7.14.5.15, stmatrix §9.7.14.5.16,
// movmatrix §9.7.14.5.17, wmma.load/store/mma §9.7.14.4.3-5.
//
// Each is a .sync.aligned warp collective: it runs once for the whole warp. The products gather
// the 32 lanes' registers into matrices through the fragment layouts of src/mma/layout.h, compute
// every D element with src/mma/arith.h, and scatter D back through its layout.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/engine.h"
#include "exec/warp.h"
#include "isa/fragments.h"
#include "mma/arith.h"
#include "mma/layout.h"
#include "mma/sparse.h"
#include "mma/types.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::for_lanes;
using exec::Warp;
using program::Arg;
using program::Op;
using mem::GuestFault;
using mem::Space;
using mma::Frag;
using mma::Layout;
using mma::Type;

// ---- the warp collective ----

// .sync.aligned (§9.7.14.5.14 and each family's text): the op waits until every non-exited lane
// of the warp stands at it; if then not all 32 lanes execute it (a false guard on some lanes,
// exited lanes, a partial warp) the ISA leaves the result undefined, and ptxvm stops with a fault.
bool whole_warp(Warp& w, const Op& op, uint32_t m) {
  uint32_t missing = w.alive & ~w.exited & ~w.group;
  if (missing) {
    for_lanes(w.group, [&](int l) { w.pc[l] = w.current_pc; });
    w.sync_waiting |= w.group;
    return false;
  }
  if (m == 0xffffffffu) return true;
  w.fault_lane = std::countr_zero(~m);
  throw GuestFault{GuestFault::Kind::Invalid, Space::Generic, 0, 0,
                   op.family->mnemonic +
                       " is .sync.aligned: all 32 lanes of the warp must execute it "
                       "together (§9.7.14)"};
}

// Plans are built once per qualifier combination at load time and live for the process: a
// handler finds its plan through op.aux.
template <typename T> const T* keep(const std::string& key, T plan) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const T>> plans;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = plans[key];
  if (!p) p = std::make_unique<const T>(std::move(plan));
  return p.get();
}

// The state space of an address operand: the variable's own, else the .ss qualifier.
Space space_of(const isa::Bound& b) {
  std::string ss = axis(b, "ss");
  if (ss.rfind(".shared", 0) == 0) return Space::Shared;
  if (ss == ".global") return Space::Global;
  return Space::Generic;
}
Space space_at(const Arg& a, const Op& op) {
  return a.space != Space::Generic ? a.space : static_cast<Space>(op.aux2);
}

// ---- element types ----

// The element's bits from its container: "the .e2m1 value sits in bits 5..2 of its 8-bit
// container, .e3m2/.e2m3 in bits 5..0" (§9.7.14.5.14, .kind::f8f6f4 and .kind::mxf8f6f4); the
// .e2m1 of .kind::mxf4/.kind::mxf4nvf4 are packed 4-bit elements, "no explicit padding".
uint64_t unpack(Type t, unsigned width, uint64_t container) {
  if (t == Type::E2M1 && width == 8) return (container >> 2) & 0xf;
  if (t == Type::E3M2 || t == Type::E2M3) return container & 0x3f;
  return container;
}

// ---- gather and scatter ----

uint64_t mask_of(unsigned width) {
  return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// The matrix index (set, row, col flattened) of each fragment element of `l`, element-major:
// [i * 32 + lane]. Where a fragment holds an element twice (wmma .f16 A and B), the first copy is
// the one read, as on an H200 (tests/hw/mma wmma_mma.bin): the copy a lane-by-lane read would
// write last, reading lanes upwards and each lane's elements downwards. With `for_reading`, every
// other copy gets the index one past the matrix, a slot gather() discards.
std::vector<uint32_t> flat_index(const Layout& l, bool for_reading) {
  const uint32_t size = l.sets * l.rows * l.cols;
  std::vector<uint32_t> index(size_t{32} * l.elems), read(size);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = l.elems; i-- > 0;) {
      const mma::Coord& c = l.where(lane, i);
      const uint32_t at = (uint32_t{c.set} * l.rows + c.row) * l.cols + c.col;
      index[i * 32 + lane] = at;
      read[at] = i * 32 + lane;
    }
  if (for_reading)
    for (uint32_t k = 0; k < index.size(); ++k)
      if (read[index[k]] != k) index[k] = size;
  return index;
}

// flat_index of a plan's layout, computed once per thread: plans live as long as the process
// (keep()), so their addresses identify them.
const uint32_t* plan_index(const Layout& l, bool for_reading) {
  thread_local std::unordered_map<const Layout*, std::vector<uint32_t>> cache[2];
  std::vector<uint32_t>& index = cache[for_reading][&l];
  if (index.empty()) index = flat_index(l, for_reading);
  return index.data();
}

// Matrix of `l` (all its sets) from the 32 lanes' registers of vector operand `v`, into `m`
// (whose storage a caller may keep from one instruction to the next); `index` is
// flat_index(l, true).
void gather(Warp& w, const Arg& v, const Layout& l, Type t, const uint32_t* index, std::vector<uint64_t>& m) {
  const size_t size = size_t{l.sets} * l.rows * l.cols;
  m.assign(size + 1, 0);  // m[size]: the copies not read
  const uint64_t mask = mask_of(l.width);
  const unsigned width = l.width, regs = l.regs(), reg_shift = std::countr_zero(l.per_reg);
  thread_local std::vector<uint64_t> words;  // [r * 32 + lane]: the registers of the operand
  words.resize(size_t{regs} * 32);
  for (unsigned r = 0; r < regs; ++r) {
    const Arg& e = v.elems[r];
    uint64_t* to = &words[size_t{r} * 32];
    uint64_t tmp[32];
    if (exec::plain(e)) std::copy_n(w.row(e, tmp), 32, to);
    else for (int lane = 0; lane < 32; ++lane) to[lane] = w.get<uint64_t>(e, lane);
  }
  for (unsigned i = 0; i < l.elems; ++i) {  // element i is part i % per_reg (a power of 2) of its register
    const uint64_t* bits = &words[size_t{i >> reg_shift} * 32];
    const unsigned shift = (i & (l.per_reg - 1)) * width;
    const uint32_t* at = &index[size_t{i} * 32];
    for (unsigned lane = 0; lane < 32; ++lane) m[at[lane]] = unpack(t, width, (bits[lane] >> shift) & mask);
  }
  m.pop_back();
}

// The registers of vector operand `v` from matrix `m` through `l`; `index` is
// flat_index(l, false).
void scatter(Warp& w, const Arg& v, const Layout& l, const uint32_t* index, const std::vector<uint64_t>& m) {
  const uint64_t mask = mask_of(l.width);
  const unsigned per_reg = l.per_reg, width = l.width;
  for (unsigned r = 0; r < l.regs(); ++r) {
    uint64_t bits[32] = {};
    for (unsigned j = 0; j < per_reg; ++j) {
      const uint32_t* at = &index[size_t{r * per_reg + j} * 32];
      for (unsigned lane = 0; lane < 32; ++lane) bits[lane] |= (m[at[lane]] & mask) << (j * width);
    }
    const Arg& e = v.elems[r];
    if (e.kind == program::ArgKind::Reg) std::copy_n(bits, 32, &w.slot(e.reg, 0));
    else for (int lane = 0; lane < 32; ++lane) w.set<uint64_t>(e, lane, bits[lane]);
  }
}

// ---- products: mma and wmma.mma ----

enum class Arith : uint8_t { Float, Int, B1 };

using mma::Sparsity;

struct Product {
  Arith arith;
  mma::FloatClass cls; // the float classes
  bool satfinite = false, xor_op = false;
  unsigned m, n, k;    // of one product
  Layout a, b, c, d;   // a: the compressed M x K/2 matrix when sparse
  Sparsity sparsity = Sparsity::Dense;
  Type scale = Type::UE8M0;  // block scaling (§9.7.14.3): the scale factors' type
  unsigned scale_vec = 0;    // and how many a row of A (column of B) has; 0: not block-scaled
};

// For each element of the compressed M x K/2 matrix A of mma.sp, its column in the dense A, which
// is the row of B it multiplies: a sparse product is a dense one of length K/2 over the rows of B
// the metadata selects, and the arithmetic model sums exactly those K/2 products. From the metadata
// operand (args[4]) of the lanes the sparsity selector (args[5]) names (mma/sparse.h).
std::vector<uint16_t> sparse_rows(Warp& w, const Op& op, const Product& p) {
  uint32_t metadata[32];
  for (int lane = 0; lane < 32; ++lane) metadata[lane] = w.get<uint32_t>(op.args[4], lane);
  return mma::sparse_columns(p.sparsity, p.k, p.a.width, w.get<uint32_t>(op.args[5], 0), metadata);
}

// D = A·B + C for every set (the m8n8k4 .f16 quad pairs), args d, a, b, c.
void product(Warp& w, const Op& op, uint32_t mk) {
  if (!whole_warp(w, op, mk)) return;
  const Product& p = *reinterpret_cast<const Product*>(op.aux);
  thread_local std::vector<uint64_t> a, b, c, d, cols;  // kept: no allocation per instruction
  thread_local const Product* last = nullptr;            // the plan of `index` (loops run one)
  thread_local const uint32_t* index[4];
  if (last != &p) {
    index[0] = plan_index(p.a, true), index[1] = plan_index(p.b, true), index[2] = plan_index(p.c, true);
    index[3] = plan_index(p.d, false);
    last = &p;
  }
  gather(w, op.args[1], p.a, p.cls.a, index[0], a);
  gather(w, op.args[2], p.b, p.cls.b, index[1], b);
  gather(w, op.args[3], p.c, p.cls.c, index[2], c);
  d.resize(c.size());
  unsigned k = p.a.cols;      // the dot length: K, or K/2 for mma.sp
  std::vector<uint16_t> brow; // for mma.sp, the row of B each element of A multiplies
  if (p.sparsity != Sparsity::Dense) brow = sparse_rows(w, op, p);
  if (p.arith == Arith::Float) {  // whole tiles: per set, or per row of A when sparse
    const unsigned tile_rows = brow.empty() ? p.m : 1;
    for (unsigned s = 0; s < p.a.sets; ++s)
      for (unsigned i0 = 0; i0 < p.m; i0 += tile_rows) {
        const uint64_t* rows = &b[size_t{s} * p.k * p.n];  // B's k rows of this tile
        if (!brow.empty()) {  // mma.sp: the rows of B that row i0 of A selects
          cols.resize(size_t{k} * p.n);
          for (unsigned kk = 0; kk < k; ++kk)
            std::copy_n(&b[(size_t{s} * p.k + brow[size_t{i0} * k + kk]) * p.n], p.n, &cols[size_t{kk} * p.n]);
          rows = cols.data();
        }
        const size_t at = (size_t{s} * p.m + i0) * p.n;
        mma::gemm(w.launch->tensor_model, p.cls, tile_rows, p.n, &a[(size_t{s} * p.m + i0) * k], rows, &c[at],
                  &d[at]);
      }
    scatter(w, op.args[0], p.d, index[3], d);
    return;
  }
  std::vector<uint64_t> row(k), col(k);
  std::vector<uint32_t> row_words(k / 32 + 1), col_words(k / 32 + 1);
  for (unsigned s = 0; s < p.a.sets; ++s)
    for (unsigned i = 0; i < p.m; ++i)
      for (unsigned j = 0; j < p.n; ++j) {
        for (unsigned kk = 0; kk < k; ++kk) {
          unsigned r = brow.empty() ? kk : brow[size_t{i} * k + kk];
          row[kk] = a[(size_t{s} * p.m + i) * k + kk];
          col[kk] = b[(size_t{s} * p.k + r) * p.n + j];
        }
        size_t at = (size_t{s} * p.m + i) * p.n + j;
        if (p.arith == Arith::Int) {
          d[at] = static_cast<uint32_t>(mma::dot_int(p.cls.a, p.cls.b, k, row.data(), col.data(),
                                                     static_cast<int32_t>(c[at]), p.satfinite));
        } else {
          std::fill(row_words.begin(), row_words.end(), 0);
          std::fill(col_words.begin(), col_words.end(), 0);
          for (unsigned kk = 0; kk < k; ++kk) {
            row_words[kk / 32] |= static_cast<uint32_t>(row[kk]) << (kk % 32);
            col_words[kk / 32] |= static_cast<uint32_t>(col[kk]) << (kk % 32);
          }
          d[at] = static_cast<uint32_t>(mma::dot_b1(p.xor_op, k, row_words.data(), col_words.data(),
                                                    static_cast<int32_t>(c[at])));
        }
      }
  scatter(w, op.args[0], p.d, index[3], d);
}

// The value of operand `a` (a register, or a brace list of one) in `lane`.
uint32_t word(Warp& w, const Arg& a, int lane) {
  return w.get<uint32_t>(a.kind == program::ArgKind::Vector ? a.elems[0] : a, lane);
}

// §9.7.14.3 Table 36: the valid byte-id (of A or B) for a .scale_vec, and thread-id-a / -b.
bool byte_id_valid(unsigned scale_vec, uint64_t id) {
  return scale_vec == 1 ? id < 4 : scale_vec == 2 ? id == 0 || id == 2 : id == 0;
}
bool thread_id_valid(bool of_a, uint64_t id) {
  return id < (of_a ? 2u : 4u);
}

// Block-scaled mma (§9.7.14.3), args d, a, b, c, then for mma.sp the metadata and sparsity
// selector, then scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}:
// D = (A * scale_A) * (B * scale_B) + C, each row of A (column of B) split into scale_vec k-blocks
// of K / scale_vec (of the dense K for mma.sp). The selectors are read from lane 0 (the .aligned
// forms give every lane the same); values outside Table 36 are undefined, and ptxvm stops with a
// fault.
void scaled_product(Warp& w, const Op& op, uint32_t mk) {
  if (!whole_warp(w, op, mk)) return;
  const Product& p = *reinterpret_cast<const Product*>(op.aux);
  std::vector<uint64_t> a, b, c;
  gather(w, op.args[1], p.a, p.cls.a, plan_index(p.a, true), a);
  gather(w, op.args[2], p.b, p.cls.b, plan_index(p.b, true), b);
  gather(w, op.args[3], p.c, p.cls.c, plan_index(p.c, true), c);
  std::vector<uint64_t> d(c.size());
  const size_t at0 = p.sparsity == Sparsity::Dense ? 4 : 6; // scale-a-data
  const Arg &data_a = op.args[at0], &sel_a = op.args[at0 + 1], &data_b = op.args[at0 + 2],
            &sel_b = op.args[at0 + 3];
  unsigned byte_a = w.get<uint32_t>(sel_a.elems[0], 0), thread_a = w.get<uint32_t>(sel_a.elems[1], 0),
           byte_b = w.get<uint32_t>(sel_b.elems[0], 0), thread_b = w.get<uint32_t>(sel_b.elems[1], 0);
  if (!byte_id_valid(p.scale_vec, byte_a) || !byte_id_valid(p.scale_vec, byte_b) ||
      !thread_id_valid(true, thread_a) || !thread_id_valid(false, thread_b)) {
    w.fault_lane = 0;
    throw GuestFault{GuestFault::Kind::Invalid, Space::Generic, 0, 0,
                     "mma block-scale selectors {" + std::to_string(byte_a) + ", " +
                         std::to_string(thread_a) + "}, {" + std::to_string(byte_b) + ", " +
                         std::to_string(thread_b) +
                         "} are outside Table 36 for this .scale_vec (undefined, §9.7.14.3)"};
  }
  auto scale_byte = [&](const Arg& data, mma::ScaleSource s) {
    return static_cast<uint8_t>(word(w, data, static_cast<int>(s.lane)) >> (8 * s.byte));
  };
  const unsigned k = p.a.cols, block = p.k / p.scale_vec; // k: the dot length (K/2 for mma.sp)
  std::vector<uint16_t> brow; // for mma.sp, the row of B (dense k) each element of A multiplies
  if (p.sparsity != Sparsity::Dense) brow = sparse_rows(w, op, p);
  std::vector<uint64_t> col(k);
  std::vector<uint8_t> sa(k), sb(k);
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned j = 0; j < p.n; ++j) {
      for (unsigned kk = 0; kk < k; ++kk) {
        unsigned r = brow.empty() ? kk : brow[size_t{i} * k + kk];
        col[kk] = b[size_t{r} * p.n + j];
        sa[kk] = scale_byte(data_a, mma::scale_a_source(i, r / block, byte_a, thread_a));
        sb[kk] = scale_byte(data_b, mma::scale_b_source(j, r / block, byte_b, thread_b));
      }
      size_t at = size_t{i} * p.n + j;
      d[at] = mma::dot_scaled(w.launch->tensor_model, p.cls, p.scale, &a[size_t{i} * k], col.data(), sa.data(), sb.data(), c[at]);
    }
  scatter(w, op.args[0], p.d, plan_index(p.d, false), d);
}

// The arithmetic class of a product from its types and qualifiers.
void classify(const isa::Bound& b, Type at, Type bt, Type ct, Type dt, unsigned k, Product& p) {
  p.cls = {at, bt, ct, dt, k, numeric::Round::RN};
  std::string rnd = axis(b, "rnd");
  if (rnd == ".rz") p.cls.rnd = numeric::Round::RZ;
  if (rnd == ".rm") p.cls.rnd = numeric::Round::RM;
  if (rnd == ".rp") p.cls.rnd = numeric::Round::RP;
  p.satfinite = b.value("satfinite") != nullptr;
  p.arith = at == Type::B1                                                           ? Arith::B1
            : (at == Type::S8 || at == Type::U8 || at == Type::S4 || at == Type::U4) ? Arith::Int
                                                                                     : Arith::Float;
  std::string bitop = axis(b, "bitop").empty() ? axis(b, "op") : axis(b, "bitop");
  p.xor_op = bitop == ".xor";
}

// Block scaling (§9.7.14.3 Table 35, as ptxas 13.0 accepts for sm_120a): the scale factors a row
// of A has ("the number of columns of scale_A", §9.7.14.6.3) and their type, with .scale_vec
// defaulting to 1X for .kind::mxf8f6f4 and 2X for .kind::mxf4; a factor covers K / scale_vec of
// the dense K (mma.sp: .m16n8k64 / .m16n8k128, so twice as many k):
//   .kind::mxf8f6f4  mma .m16n8k32  .ue8m0  1X            (one factor per 32 k)
//   .kind::mxf4      mma .m16n8k64  .ue8m0  2X            (per 32 k)
//   .kind::mxf4nvf4  mma .m16n8k64  .ue8m0  2X; .ue4m3 4X (per 32 k; per 16 k)
bool block_scaling(const isa::Bound& b, Product& p, std::string& why) {
  std::string kind = axis(b, "kind"), vec = axis(b, "scale_vec"), stype = axis(b, "stype");
  if (vec.empty() && kind != ".kind::mxf4nvf4") vec = kind == ".kind::mxf4" ? ".scale_vec::2X" : ".scale_vec::1X";
  p.scale_vec = vec == ".scale_vec::1X" ? 1 : vec == ".scale_vec::2X" ? 2 : vec == ".scale_vec::4X" ? 4 : 0;
  p.scale = stype == ".ue4m3" ? Type::UE4M3 : Type::UE8M0;
  bool ok = kind == ".kind::mxf8f6f4"  ? p.scale_vec == 1 && stype == ".ue8m0"
            : kind == ".kind::mxf4"    ? p.scale_vec == 2 && stype == ".ue8m0"
            : kind == ".kind::mxf4nvf4" ? (p.scale_vec == 2 && stype == ".ue8m0") ||
                                              (p.scale_vec == 4 && stype == ".ue4m3")
                                        : false;
  if (!ok)
    return unsupported(why, kind + (vec.empty() ? "" : "." + vec.substr(1)) + " with " + stype +
                                " is not a block scaling of §9.7.14.3 Table 35");
  return true;
}

bool select_mma(const isa::Bound& b, Op& op, std::string& why) {
  std::string kind = axis(b, "kind");
  const bool scaled = b.value("block_scale") || b.value("stype") || b.value("scale_vec") ||
                      (!kind.empty() && kind != ".kind::f8f6f4");
  Type at, bt, ct, dt;
  if (!mma::type_named(axis(b, "atype"), at) || !mma::type_named(axis(b, "btype"), bt) ||
      !mma::type_named(axis(b, "ctype"), ct) || !mma::type_named(axis(b, "dtype"), dt))
    return unsupported(why, "no such mma type");
  std::string shape = axis(b, "shape");
  mma::Shape s = mma::parse_shape(shape);
  Product p;
  if (scaled && !block_scaling(b, p, why)) return false;
  const size_t sel_a = b.family->mnemonic == "mma" ? 5 : 7; // {byte-id-a, thread-id-a}
  if (scaled)  // immediate selectors outside Table 36 are rejected here, as ptxas does
    for (size_t operand : {sel_a, sel_a + 2})
      for (size_t e = 0; e < 2; ++e) {
        const Arg& x = op.args[operand].elems[e];
        if (x.kind == program::ArgKind::Imm &&
            !(e == 0 ? byte_id_valid(p.scale_vec, x.imm) : thread_id_valid(operand == sel_a, x.imm)))
          return unsupported(why, std::string(e == 0 ? "byte-id" : "thread-id") + "-" +
                                      (operand == sel_a ? "a" : "b") + " " + std::to_string(x.imm) +
                                      " is outside §9.7.14.3 Table 36 for this .scale_vec");
      }
  bool sparse = b.family->mnemonic != "mma";
  classify(b, at, bt, ct, dt, sparse ? s.k / 2 : s.k, p); // mma.sp sums K/2 products
  p.cls.f8f6f4 = kind == ".kind::f8f6f4";
  // .kind::mxf4/.kind::mxf4nvf4 pack .e2m1 eight to a register, as .s4 (§9.7.14.5.14)
  const bool packed = kind == ".kind::mxf4" || kind == ".kind::mxf4nvf4";
  const unsigned aw = packed ? 4 : mma::register_bits(at), bw = packed ? 4 : mma::register_bits(bt);
  p.m = s.m, p.n = s.n;
  p.k = s.k;
  if (sparse) {
    p.sparsity = at == Type::TF32                   ? Sparsity::Tf32
                 : at == Type::S4 || at == Type::U4 || packed ? Sparsity::Quads
                                                    : Sparsity::Pairs;
    // §9.7.14.6.2: the compressed M x K/2 matrix in the dense fragment of K/2.
    p.a = mma::mma_layout({s.m, s.n, s.k / 2}, Frag::A, aw);
  } else {
    p.a = mma::mma_layout(s, Frag::A, aw, axis(b, "alayout") == ".row");
  }
  p.b = mma::mma_layout(s, Frag::B, bw, axis(b, "blayout") == ".row");
  p.c = mma::mma_layout(s, Frag::C, mma::register_bits(ct));
  p.d = mma::mma_layout(s, Frag::C, mma::register_bits(dt));
  std::string key = b.family->mnemonic + shape + axis(b, "alayout") + axis(b, "blayout") + kind +
                    axis(b, "satfinite") + axis(b, "dtype") + axis(b, "atype") + axis(b, "btype") +
                    axis(b, "ctype") + axis(b, "bitop") + axis(b, "rnd") + axis(b, "stype") +
                    std::to_string(p.scale_vec);
  op.aux = reinterpret_cast<uint64_t>(keep("mma" + key, std::move(p)));
  op.fn = scaled ? &scaled_product : &product;
  return true;
}

// Registers per lane of each operand of the bound row (src/isa/fragments.cpp).
std::vector<unsigned> sizes(const isa::Bound& b) {
  return isa::fragment_sizes(b).value_or(std::vector<unsigned>{});
}

bool select_wmma_mma(const isa::Bound& b, Op& op, std::string& why) {
  std::string atype = axis(b, "atype").empty() ? ".f16" : axis(b, "atype");
  Type at, ct, dt;
  if (!mma::type_named(atype, at) || !mma::type_named(axis(b, "ctype"), ct) || !mma::type_named(axis(b, "dtype"), dt))
    return unsupported(why, "no such wmma.mma type");
  std::vector<unsigned> regs = sizes(b); // d, a, b, c
  if (regs.size() != 4) return unsupported(why, "no fragment sizes for this wmma.mma");
  std::string shape = axis(b, "shape");
  mma::Shape s = mma::parse_shape(shape);
  Product p;
  classify(b, at, at, ct, dt, s.k, p);
  p.m = s.m, p.n = s.n, p.k = s.k;
  p.cls.wmma = true;  // ptxas may compile wmma.mma unlike mma (src/mma/arith.cpp's recipes)
  p.a = mma::wmma_layout(s, Frag::A, mma::register_bits(at), regs[1]);
  p.b = mma::wmma_layout(s, Frag::B, mma::register_bits(at), regs[2]);
  p.c = mma::wmma_layout(s, Frag::C, mma::register_bits(ct), regs[3]);
  p.d = mma::wmma_layout(s, Frag::C, mma::register_bits(dt), regs[0]);
  std::string key = shape + atype + axis(b, "ctype") + axis(b, "dtype") + axis(b, "satfinite") +
                    axis(b, "op") + axis(b, "rnd");
  op.aux = reinterpret_cast<uint64_t>(keep("wmma" + key, std::move(p)));
  op.fn = &product;
  return true;
}

// ---- wmma.load / wmma.store (§9.7.14.4.2-4) ----

struct WmmaAccess {
  Layout l;
  bool row_major;
  unsigned default_stride; // the leading dimension (§9.7.14.4.2 table)
};

// The bit address of element (row, col) for a lane: base + (row * stride + col) elements for
// .row, (col * stride + row) for .col; stride in elements, the default when absent.
uint64_t element_bit(Warp& w, const Op& op, const WmmaAccess& a, size_t stride_arg, int lane,
                     const mma::Coord& c) {
  uint64_t stride =
      op.args.size() > stride_arg ? w.get<uint32_t>(op.args[stride_arg], lane) : a.default_stride;
  uint64_t index = a.row_major ? c.row * stride + c.col : c.col * stride + c.row;
  return index * a.l.width;
}

// Each element goes through w.access at its natural alignment (sub-byte elements by their byte).
void wmma_load(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  const WmmaAccess& a = *reinterpret_cast<const WmmaAccess*>(op.aux);
  const Arg& dst = op.args[0];
  Space space = space_at(op.args[1], op);
  uint64_t mask = mask_of(a.l.width);
  for (int lane = 0; lane < 32; ++lane) {
    uint64_t base = w.address(op.args[1], lane);
    for (unsigned r = 0; r < a.l.regs(); ++r) {
      uint64_t bits = 0;
      for (unsigned j = 0; j < a.l.per_reg; ++j) {
        uint64_t bit = element_bit(w, op, a, 2, lane,
                                   a.l.where(static_cast<unsigned>(lane), r * a.l.per_reg + j));
        uint64_t v = 0;
        unsigned bytes = a.l.width < 8 ? 1 : a.l.width / 8;
        std::memcpy(&v, w.access(space, base + bit / 8, bytes, lane), bytes);
        if (a.l.width < 8) v = (v >> (bit % 8)) & mask;
        bits |= v << (j * a.l.width);
      }
      w.set<uint64_t>(dst.elems[r], lane, bits);
    }
  }
}

void wmma_store(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  const WmmaAccess& a = *reinterpret_cast<const WmmaAccess*>(op.aux);
  const Arg& src = op.args[1];
  Space space = space_at(op.args[0], op);
  unsigned bytes = a.l.width / 8; // .f16 .f32 .s32 .f64
  for (int lane = 0; lane < 32; ++lane) {
    uint64_t base = w.address(op.args[0], lane);
    for (unsigned r = 0; r < a.l.regs(); ++r) {
      uint64_t bits = w.get<uint64_t>(src.elems[r], lane);
      for (unsigned j = 0; j < a.l.per_reg; ++j) {
        uint64_t bit = element_bit(w, op, a, 2, lane,
                                   a.l.where(static_cast<unsigned>(lane), r * a.l.per_reg + j));
        uint64_t v = (bits >> (j * a.l.width)) & mask_of(a.l.width);
        std::memcpy(w.access(space, base + bit / 8, bytes, lane), &v, bytes);
      }
    }
  }
}

bool select_wmma_access(const isa::Bound& b, Op& op, std::string& why, bool store) {
  std::string type = axis(b, "type"), shape = axis(b, "shape");
  Type t;
  if (!mma::type_named(type, t)) return unsupported(why, "no such wmma type");
  std::vector<unsigned> regs = sizes(b);
  unsigned n = store ? (regs.size() > 1 ? regs[1] : 0) : (regs.empty() ? 0 : regs[0]);
  if (!n) return unsupported(why, "no fragment size for this wmma form");
  std::string frag = store ? ".d" : axis(b, "frag");
  Frag f = frag == ".a" ? Frag::A : frag == ".b" ? Frag::B : Frag::C;
  mma::Shape s = mma::parse_shape(shape);
  WmmaAccess a;
  a.l = mma::wmma_layout(s, f, mma::register_bits(t), n);
  a.row_major = axis(b, "layout") == ".row";
  a.default_stride = a.row_major ? a.l.cols : a.l.rows;
  op.aux = reinterpret_cast<uint64_t>(
      keep((store ? "st" : "ld") + frag + shape + type + axis(b, "layout"), std::move(a)));
  op.aux2 = static_cast<uint64_t>(space_of(b));
  op.fn = store ? &wmma_store : &wmma_load;
  return true;
}

// ---- ldmatrix, stmatrix, movmatrix: 8x8 matrices of 16-bit elements ----
//
// Lanes 8q..8q+7 give the addresses of rows 0..7 of matrix q (§9.7.14.5.15 table); each row is
// 16 bytes, naturally aligned. Lane l holds, in register q, elements (l / 4, 2 (l % 4)) and
// (l / 4, 2 (l % 4) + 1) of matrix q, the lower column in the low half (figures 103, 106);
// with .trans the matrix is read (written) column-major, so lane l holds row 2 (l % 4) + h,
// column l / 4. An H200 agrees for every .num and .trans (tests/hw/mma layouts.bin).

// op.aux: matrices (1, 2, 4); op.aux2: space; bit 8 of aux: .trans.
constexpr uint64_t kTrans = 0x100;

using Matrix8 = std::array<uint16_t, 64>; // [row * 8 + col]

uint16_t fragment_half(const Matrix8& mtx, int lane, int h, bool trans) {
  int r = lane / 4, c = 2 * (lane % 4) + h;
  return trans ? mtx[c * 8 + r] : mtx[r * 8 + c];
}

void ldmatrix(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  unsigned count = static_cast<unsigned>(op.aux & 0xff);
  bool trans = op.aux & kTrans;
  Space space = space_at(op.args[1], op);
  std::vector<Matrix8> mtx(count);
  for (unsigned q = 0; q < count; ++q)
    for (int r = 0; r < 8; ++r) {
      int lane = static_cast<int>(8 * q) + r;
      std::memcpy(&mtx[q][static_cast<size_t>(r) * 8],
                  w.access(space, w.address(op.args[1], lane), 16, lane), 16);
    }
  for (int lane = 0; lane < 32; ++lane)
    for (unsigned q = 0; q < count; ++q)
      w.set<uint32_t>(op.args[0].elems[q], lane,
                      fragment_half(mtx[q], lane, 0, trans) |
                          uint32_t{fragment_half(mtx[q], lane, 1, trans)} << 16);
}

void stmatrix(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  unsigned count = static_cast<unsigned>(op.aux & 0xff);
  bool trans = op.aux & kTrans;
  Space space = space_at(op.args[0], op);
  for (unsigned q = 0; q < count; ++q) {
    Matrix8 mtx{};
    for (int lane = 0; lane < 32; ++lane) {
      uint32_t v = w.get<uint32_t>(op.args[1].elems[q], lane);
      for (int h = 0; h < 2; ++h) {
        int r = lane / 4, c = 2 * (lane % 4) + h;
        (trans ? mtx[c * 8 + r] : mtx[r * 8 + c]) = static_cast<uint16_t>(v >> (16 * h));
      }
    }
    for (int r = 0; r < 8; ++r) {
      int lane = static_cast<int>(8 * q) + r;
      std::memcpy(w.access(space, w.address(op.args[0], lane), 16, lane),
                  &mtx[static_cast<size_t>(r) * 8], 16);
    }
  }
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a (§9.7.14.5.17): a holds the rows of the matrix as
// ldmatrix delivers them (figure 108), d the rows of its transpose in the same layout (figure 109).
void movmatrix(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  Matrix8 mtx{};
  for (int lane = 0; lane < 32; ++lane) {
    uint32_t v = w.get<uint32_t>(op.args[1], lane);
    mtx[(lane / 4) * 8 + 2 * (lane % 4)] = static_cast<uint16_t>(v);
    mtx[(lane / 4) * 8 + 2 * (lane % 4) + 1] = static_cast<uint16_t>(v >> 16);
  }
  for (int lane = 0; lane < 32; ++lane)
    w.set<uint32_t>(op.args[0], lane,
                    fragment_half(mtx, lane, 0, true) | uint32_t{fragment_half(mtx, lane, 1, true)}
                                                            << 16);
}

// ---- the 8-bit forms (sm_100a/sm_120a): ldmatrix .m16n16/.m8n16, stmatrix .m16n8 ----
//
// Each matrix is rows of 16 bytes in shared memory, one address per row; mma::byte_matrix_layout
// places every byte of the registers. ldmatrix .b8x16 unpacks each row first.

struct ByteMatrices {
  Layout l;
  unsigned packed_bits = 8; // ldmatrix source elements: 8 (.b8), 6 (.b6x16_p32), 4 (.b4x16_p64)
};

void ldmatrix_b8(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  const ByteMatrices& p = *reinterpret_cast<const ByteMatrices*>(op.aux);
  Space space = space_at(op.args[1], op);
  std::vector<std::array<uint8_t, 16>> rows(size_t{p.l.sets} * p.l.rows);
  for (size_t r = 0; r < rows.size(); ++r) {
    int lane = static_cast<int>(r);
    rows[r] = mma::unpack_b8x16(w.access(space, w.address(op.args[1], lane), 16, lane), p.packed_bits);
  }
  for (int lane = 0; lane < 32; ++lane)
    for (unsigned reg = 0; reg < p.l.regs(); ++reg) {
      uint32_t v = 0;
      for (unsigned b = 0; b < 4; ++b) {
        const mma::Coord& c = p.l.where(static_cast<unsigned>(lane), reg * 4 + b);
        v |= uint32_t{rows[size_t{c.set} * p.l.rows + c.row][c.col]} << (8 * b);
      }
      w.set<uint32_t>(op.args[0].elems[reg], lane, v);
    }
}

void stmatrix_b8(Warp& w, const Op& op, uint32_t m) {
  if (!whole_warp(w, op, m)) return;
  const ByteMatrices& p = *reinterpret_cast<const ByteMatrices*>(op.aux);
  Space space = space_at(op.args[0], op);
  std::vector<std::array<uint8_t, 16>> rows(size_t{p.l.sets} * p.l.rows);
  for (int lane = 0; lane < 32; ++lane)
    for (unsigned reg = 0; reg < p.l.regs(); ++reg) {
      uint32_t v = w.get<uint32_t>(op.args[1].elems[reg], lane);
      for (unsigned b = 0; b < 4; ++b) {
        const mma::Coord& c = p.l.where(static_cast<unsigned>(lane), reg * 4 + b);
        rows[size_t{c.set} * p.l.rows + c.row][c.col] = static_cast<uint8_t>(v >> (8 * b));
      }
    }
  for (size_t r = 0; r < rows.size(); ++r) {
    int lane = static_cast<int>(r);
    std::memcpy(w.access(space, w.address(op.args[0], lane), 16, lane), rows[r].data(), 16);
  }
}

bool select_ld_st_matrix(const isa::Bound& b, Op& op, std::string& why, bool store) {
  std::string num = axis(b, "num"), shape = axis(b, "shape");
  unsigned count = num == ".x1" ? 1 : num == ".x2" ? 2 : 4;
  op.aux2 = static_cast<uint64_t>(space_of(b));
  if (shape == ".m8n8") {
    op.aux = count | (b.value("trans") ? kTrans : 0);
    op.fn = store ? &stmatrix : &ldmatrix;
    return true;
  }
  // The ISA rows require .trans for .m16n16/.m16n8 and forbid it for .m8n16.
  if (shape == ".m16n16" && count == 4) return unsupported(why, ".m16n16 loads .x1 or .x2");
  ByteMatrices p;
  p.l = mma::byte_matrix_layout(shape, count);
  std::string fmt = axis(b, "src_fmt");
  p.packed_bits = fmt == ".b6x16_p32" ? 6 : fmt == ".b4x16_p64" ? 4 : 8;
  op.aux = reinterpret_cast<uint64_t>(
      keep((store ? "st" : "ld") + shape + num + fmt, std::move(p)));
  op.fn = store ? &stmatrix_b8 : &ldmatrix_b8;
  return true;
}

// A matrix instruction's fragments are spread over the warp (§9.7.14.5.1): its handler reads
// every operand's registers in every lane.
template <program::Selector S>
bool warp_wide(const isa::Bound& b, Op& op, std::string& why) {
  op.cross_lane = ~0u;
  return S(b, op, why);
}

template <bool kStore>
bool select_wmma_load_store(const isa::Bound& b, Op& op, std::string& why) {
  return select_wmma_access(b, op, why, kStore);
}
template <bool kStore>
bool select_ld_st(const isa::Bound& b, Op& op, std::string& why) {
  return select_ld_st_matrix(b, op, why, kStore);
}
bool select_movmatrix(const isa::Bound&, Op& op, std::string&) {
  op.fn = &movmatrix;
  return true;
}

} // namespace

const program::Registration registered([](program::Registry& r) {
  r["mma §9.7.14.5.14"] = warp_wide<select_mma>;
  r["wmma.mma §9.7.14.4.5"] = warp_wide<select_wmma_mma>;
  r["wmma.load §9.7.14.4.3"] = warp_wide<select_wmma_load_store<false>>;
  r["wmma.store §9.7.14.4.4"] = warp_wide<select_wmma_load_store<true>>;
  r["ldmatrix §9.7.14.5.15"] = warp_wide<select_ld_st<false>>;
  r["stmatrix §9.7.14.5.16"] = warp_wide<select_ld_st<true>>;
  r["mma.sp §9.7.14.6.3"] = warp_wide<select_mma>;
  r["mma.sp::ordered_metadata §9.7.14.6.3"] = warp_wide<select_mma>;
  r["movmatrix §9.7.14.5.17"] = warp_wide<select_movmatrix>;
});

} // namespace ptxvm::sem
