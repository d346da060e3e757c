// Warpgroup matrix multiply-accumulate (PTX §9.7.15, 001_23fdd5978b24a3ed.txt): wgmma.fence,
// wgmma.mma_async, wgmma.commit_group, wgmma.wait_group.
//
// A warpgroup is four contiguous warps, the first with a warp index that is a multiple of 4
// (§9.7.15.2). wgmma.mma_async is .sync.aligned: every thread of the warpgroup executes the same
// instruction, so the warps meet in an exec::Rendezvous; the last to arrive issues the operation
// for all four, capturing what the instruction reads when it is issued (the descriptors and
// scale-d). The multiply-accumulate itself is an asynchronous effect (exec::AsyncGroups): it
// reads A (shared memory or the 128 threads' registers), B and the accumulators, and writes the
// accumulators, when a wgmma.wait_group of one of its warps retires its wgmma-group, or a thread of
// the warpgroup exits: the latest moment the ISA allows (§9.7.15.7.3: accessing the accumulators or
// A's registers before that wait is undefined). Operations of one warp land in issue order, so a
// chain of wgmma.mma_async on the same accumulators within one group computes as a chain.
#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/async_groups.h"
#include "exec/engine.h"
#include "exec/rendezvous.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "mma/arith.h"
#include "mma/descriptor.h"
#include "mma/layout.h"
#include "mma/sparse.h"
#include "mma/types.h"
#include "program/registry.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using mem::GuestFault;
using mem::Space;
using mma::Type;
using program::Arg;
using program::ArgKind;
using program::Op;

constexpr unsigned kWarpgroupThreads = 128;

// What a wgmma.mma_async instruction computes, fixed at load time (op.aux points at it).
struct Plan {
  mma::Shape shape;
  Type a, b, d;
  bool a_from_registers = false;
  bool satfinite = false;
  bool negate_a = false, negate_b = false;  // imm-scale-a/b = -1
  bool trans_a = false, trans_b = false;    // imm-trans-a/b = 1: the operand is MN-major
  mma::Sparsity sparsity = mma::Sparsity::Dense;  // wgmma.mma_async.sp: A is M x K/2, with metadata
  unsigned scale_d_arg = 3;                 // the operand index of scale-d (5 for .sp)
  mma::Layout a_layout;                     // A's register fragment, when from registers
  mma::Layout d_layout;                     // the accumulators
  unsigned a_cols() const { return sparsity == mma::Sparsity::Dense ? shape.k : shape.k / 2; }
};

[[noreturn]] void undefined(Warp& w, int lane, const std::string& what) {
  w.fault_lane = lane;
  throw GuestFault{GuestFault::Kind::Invalid, Space::Shared, 0, 0, what};
}

// The sign bit of a floating-point element, for imm-scale = -1 (§9.7.15.5.2).
uint64_t sign_bit(Type t) {
  switch (t) {
  case Type::F16:
  case Type::BF16: return uint64_t{1} << 15;
  case Type::TF32: return uint64_t{1} << 31;
  default: return uint64_t{1} << 7;  // e4m3, e5m2
  }
}

// The values wgmma operations last wrote into registers of the CTA, by (warp * 32 + lane) << 32 |
// slot.
using Ledger = std::unordered_map<uint64_t, uint64_t>;

// One issued wgmma.mma_async of a warpgroup.
struct Mma {
  const Plan* plan;
  const Op* op;
  exec::Cta* cta;
  uint32_t first_warp;      // the warpgroup's first warp
  uint64_t desc_a = 0, desc_b;
  bool scale_d;
  bool done = false;
  Ledger* ledger;
  std::vector<uint64_t> at_issue;  // per thread, the registers of d, then of a when from registers

  // The registers the operation reads and writes asynchronously: d's, and a's when from registers.
  template <typename F>
  void each_register(F f) const {
    for (unsigned t = 0; t < kWarpgroupThreads; ++t) {
      for (const Arg& e : op->args[0].elems) f(t, e.reg);
      if (plan->a_from_registers)
        for (const Arg& e : op->args[1].elems) f(t, e.reg);
    }
  }
  uint64_t key(unsigned t, uint32_t slot) const { return uint64_t{first_warp * 32 + t} << 32 | slot; }

  void snapshot() {
    each_register([&](unsigned t, uint32_t slot) { at_issue.push_back(reg(t, slot)); });
  }

  // Between issue and the wait that retires it, only a later wgmma.mma_async of the same chain may
  // write the operation's registers (§9.7.15.7.3): each must hold what it held at issue or what
  // the last wgmma to land wrote there.
  void check_untouched(Warp& w) const {
    const size_t per_thread = at_issue.size() / kWarpgroupThreads, accumulators = op->args[0].elems.size();
    size_t i = 0;
    each_register([&](unsigned t, uint32_t slot) {
      const size_t j = i % per_thread;
      const uint64_t now = reg(t, slot), then = at_issue[i++];
      if (now == then) return;
      const auto landed = ledger->find(key(t, slot));
      if (landed != ledger->end() && landed->second == now) return;
      undefined(w, static_cast<int>(t % 32),
                "'" + op->text + "': " + (j < accumulators ? "accumulator " + std::to_string(j) : "A register " + std::to_string(j - accumulators)) +
                    " of warp " + std::to_string(first_warp + t / 32) + " lane " + std::to_string(t % 32) +
                    " was written after the wgmma.mma_async that reads it and before the wgmma.wait_group "
                    "that retires it (§9.7.15.7.3)");
    });
  }

  // Thread t's register `slot` (t = 0..127 of the warpgroup).
  uint64_t& reg(unsigned t, uint32_t slot) const { return cta->warps[first_warp + t / 32].slot(slot, static_cast<int>(t % 32)); }

  // Element i of a fragment (`l`) of thread t, whose registers are the elements of `v`.
  uint64_t element(const mma::Layout& l, const Arg& v, unsigned t, unsigned i) const {
    const uint64_t bits = reg(t, v.elems[i / l.per_reg].reg);
    const unsigned shift = (i % l.per_reg) * l.width;
    return l.width == 64 ? bits : (bits >> shift) & ((uint64_t{1} << l.width) - 1);
  }

  // Matrix element (mn, k) of an operand in shared memory, as element bits.
  uint64_t shared_element(Warp& w, const mma::MatrixDescriptor& d, bool k_major, Type t, unsigned mn, unsigned k) const {
    const unsigned bits = mma::register_bits(t);
    const uint64_t at = mma::element_bit_address(d, k_major, bits, mn, k);
    const auto& shared = cta->shared.bytes;
    if (at / 8 + (bits + 7) / 8 > shared.size())
      undefined(w, 0, "'" + op->text + "' reads shared byte " + std::to_string(at / 8) +
                          " through its matrix descriptor, outside the CTA's " + std::to_string(shared.size()) +
                          " bytes of shared memory (§9.7.15.5.1)");
    if (bits < 8) return (shared[at / 8] >> (at % 8)) & ((1u << bits) - 1);
    uint64_t v = 0;
    std::memcpy(&v, &shared[at / 8], bits / 8);
    return v;
  }

  // D = A·B + (scale-d ? D : 0), over the 128 threads' accumulators.
  void run(Warp& w) {
    if (done) return;
    done = true;
    check_untouched(w);
    const Plan& p = *plan;
    const unsigned m = p.shape.m, n = p.shape.n, k = p.shape.k, ka = p.a_cols();
    std::vector<uint64_t> a(size_t{m} * ka), b(size_t{k} * n), c(size_t{m} * n, 0), d(size_t{m} * n);
    const Arg& dv = op->args[0];
    if (p.a_from_registers) {
      for (unsigned t = 0; t < kWarpgroupThreads; ++t)
        for (unsigned i = 0; i < p.a_layout.elems; ++i) {
          const mma::Coord& at = p.a_layout.where(t, i);
          a[size_t{at.row} * ka + at.col] = element(p.a_layout, op->args[1], t, i);
        }
    } else {
      const mma::MatrixDescriptor da = mma::decode_descriptor(desc_a);
      for (unsigned i = 0; i < m; ++i)
        for (unsigned kk = 0; kk < ka; ++kk) a[size_t{i} * ka + kk] = shared_element(w, da, !p.trans_a, p.a, i, kk);
    }
    const mma::MatrixDescriptor db = mma::decode_descriptor(desc_b);
    for (unsigned j = 0; j < n; ++j)
      for (unsigned kk = 0; kk < k; ++kk) b[size_t{kk} * n + j] = shared_element(w, db, !p.trans_b, p.b, j, kk);
    if (p.negate_a)
      for (uint64_t& x : a) x ^= sign_bit(p.a);
    if (p.negate_b)
      for (uint64_t& x : b) x ^= sign_bit(p.b);
    if (scale_d)
      for (unsigned t = 0; t < kWarpgroupThreads; ++t)
        for (unsigned i = 0; i < p.d_layout.elems; ++i) {
          const mma::Coord& at = p.d_layout.where(t, i);
          c[size_t{at.row} * n + at.col] = element(p.d_layout, dv, t, i);
        }
    compute(w, a, b, c, d);
    for (unsigned t = 0; t < kWarpgroupThreads; ++t)
      for (unsigned i = 0; i < p.d_layout.elems; ++i) {
        const mma::Coord& at = p.d_layout.where(t, i);
        uint64_t& r = reg(t, dv.elems[i / p.d_layout.per_reg].reg);
        const unsigned shift = (i % p.d_layout.per_reg) * p.d_layout.width;
        const uint64_t mask = ((uint64_t{1} << p.d_layout.width) - 1) << shift;
        r = (r & ~mask) | ((d[size_t{at.row} * n + at.col] << shift) & mask);
      }
    for (unsigned t = 0; t < kWarpgroupThreads; ++t)
      for (const Arg& e : dv.elems) (*ledger)[key(t, e.reg)] = reg(t, e.reg);
  }

  // For .sp, the row of B (dense column of A) of each element of the compressed A, from the
  // metadata registers of each warp (§9.7.15.6.2: warp w describes rows 16w..16w+15); empty when dense.
  std::vector<uint16_t> sparse_rows() {
    const Plan& p = *plan;
    if (p.sparsity == mma::Sparsity::Dense) return {};
    const unsigned ka = p.a_cols();
    std::vector<uint16_t> rows(size_t{p.shape.m} * ka);
    for (unsigned wi = 0; wi < 4; ++wi) {
      uint32_t metadata[32];
      for (unsigned lane = 0; lane < 32; ++lane)
        metadata[lane] = cta->warps[first_warp + wi].get<uint32_t>(op->args[3], static_cast<int>(lane));
      const std::vector<uint16_t> cols = mma::sparse_columns(p.sparsity, p.shape.k, mma::register_bits(p.a),
                                                             static_cast<unsigned>(op->args[4].imm), metadata);
      std::copy(cols.begin(), cols.end(), rows.begin() + size_t{16} * wi * ka);
    }
    return rows;
  }

  void compute(Warp& w, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
               const std::vector<uint64_t>& c, std::vector<uint64_t>& d) {
    const Plan& p = *plan;
    const unsigned m = p.shape.m, n = p.shape.n, k = p.shape.k, ka = p.a_cols();
    const std::vector<uint16_t> brow = sparse_rows();
    auto b_row = [&](unsigned i, unsigned kk) { return brow.empty() ? kk : brow[size_t{i} * ka + kk]; };
    if (p.a == Type::B1) {  // c + popc(a AND b) over K bits (§9.7.15.5.2 .and.popc)
      std::vector<uint32_t> row(k / 32), col(k / 32);
      for (unsigned i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), 0u);
        for (unsigned kk = 0; kk < k; ++kk) row[kk / 32] |= uint32_t(a[size_t{i} * k + kk] & 1) << (kk % 32);
        for (unsigned j = 0; j < n; ++j) {
          std::fill(col.begin(), col.end(), 0u);
          for (unsigned kk = 0; kk < k; ++kk) col[kk / 32] |= uint32_t(b[size_t{kk} * n + j] & 1) << (kk % 32);
          d[size_t{i} * n + j] = static_cast<uint32_t>(mma::dot_b1(false, k, row.data(), col.data(),
                                                                   static_cast<int32_t>(c[size_t{i} * n + j])));
        }
      }
      return;
    }
    if (p.a == Type::S8 || p.a == Type::U8) {
      std::vector<uint64_t> col(ka);
      for (unsigned i = 0; i < m; ++i)
        for (unsigned j = 0; j < n; ++j) {
          for (unsigned kk = 0; kk < ka; ++kk) col[kk] = b[size_t{b_row(i, kk)} * n + j];
          d[size_t{i} * n + j] = static_cast<uint32_t>(mma::dot_int(
              p.a, p.b, ka, &a[size_t{i} * ka], col.data(), static_cast<int32_t>(c[size_t{i} * n + j]), p.satfinite));
        }
      return;
    }
    mma::FloatClass cls{p.a, p.b, p.d, p.d, ka};
    cls.wgmma = true;
    if (brow.empty()) {
      mma::gemm(w.launch->tensor_model, cls, m, n, a.data(), b.data(), c.data(), d.data());
      return;
    }
    std::vector<uint64_t> rows(size_t{ka} * n);  // per row of A, the rows of B its metadata selects
    for (unsigned i = 0; i < m; ++i) {
      for (unsigned kk = 0; kk < ka; ++kk) std::copy_n(&b[size_t{b_row(i, kk)} * n], n, &rows[size_t{kk} * n]);
      mma::gemm(w.launch->tensor_model, cls, 1, n, &a[size_t{i} * ka], rows.data(), &c[size_t{i} * n], &d[size_t{i} * n]);
    }
  }
};

// An issued operation as one warp's pending effect.
struct Issued {
  std::shared_ptr<Mma> mma;
  Warp* warp;  // the warp whose wait or exit lands it
  void apply() const { mma->run(*warp); }
};

// The unit's state in one CTA: per warpgroup the rendezvous of its warps at wgmma.mma_async, per
// warp its wgmma-groups.
class Warpgroups : public exec::Unit {
public:
  explicit Warpgroups(exec::Cta& cta) : meeting((cta.warps.size() + 3) / 4), groups(cta.warps.size()) {}
  void exited(Warp& w, uint32_t lanes) override { groups[w.index].complete_all(lanes); }
  std::string waiting(const Warp& w, int lane) const override {
    return (meeting[w.index / 4].parked(w.index) >> lane) & 1u
               ? " in wgmma.mma_async, waiting for the other warps of its warpgroup (§9.7.15.2)"
               : "";
  }
  std::vector<exec::Rendezvous> meeting;
  std::vector<exec::AsyncGroups<Issued>> groups;
  Ledger landed;
};

// The warpgroup of `w` must be four full warps of the CTA, and every lane must execute (.aligned).
void check_warpgroup(Warp& w, const Op& op, uint32_t m) {
  const uint32_t first = w.index / 4 * 4;
  const auto& warps = w.cta->warps;
  if (first + 4 > warps.size() || warps[first].alive != ~0u || warps[first + 1].alive != ~0u ||
      warps[first + 2].alive != ~0u || warps[first + 3].alive != ~0u)
    undefined(w, std::countr_zero(m), "'" + op.text + "' needs a warpgroup of four full warps, but the CTA's " +
                                          std::to_string(w.cta->threads) +
                                          " threads leave warp " + std::to_string(w.index) +
                                          "'s warpgroup short (§9.7.15.2)");
  if (m != ~0u)
    undefined(w, std::countr_zero(~m), "'" + op.text + "' is .sync.aligned: every thread of the warpgroup must "
                                                       "execute it, lane " + std::to_string(std::countr_zero(~m)) +
                                                       " does not (§9.7.15)");
}

// wgmma.mma_async.sync.aligned: the warps of the warpgroup meet; the last issues the operation.
void mma_async(Warp& w, const Op& op, uint32_t m) {
  check_warpgroup(w, op, m);
  Warpgroups& u = w.cta->unit<Warpgroups>();
  exec::Rendezvous& meeting = u.meeting[w.index / 4];
  meeting.arrive(w, m, true);
  if (meeting.arrived < kWarpgroupThreads) return;  // parked until the other warps arrive
  const Plan& p = *reinterpret_cast<const Plan*>(op.aux);
  auto mma = std::make_shared<Mma>();
  mma->plan = &p;
  mma->op = &op;
  mma->cta = w.cta;
  mma->first_warp = w.index / 4 * 4;
  if (!p.a_from_registers) mma->desc_a = w.get<uint64_t>(op.args[1], 0);
  mma->desc_b = w.get<uint64_t>(op.args[2], 0);
  for (uint32_t i = 0; i < 4; ++i) {  // "the same across all the warps in the warpgroup" (§9.7.15.5.2)
    Warp& member = w.cta->warps[mma->first_warp + i];
    for (int lane = 0; lane < 32; ++lane)
      if ((!p.a_from_registers && member.get<uint64_t>(op.args[1], lane) != mma->desc_a) ||
          member.get<uint64_t>(op.args[2], lane) != mma->desc_b)
        undefined(member, lane, "'" + op.text + "': the matrix descriptors of warp " + std::to_string(member.index) +
                                    " lane " + std::to_string(lane) + " differ from the rest of the warpgroup's (§9.7.15.5.2)");
  }
  mma->scale_d = w.get<bool>(op.args[p.scale_d_arg], 0);
  mma->ledger = &u.landed;
  mma->snapshot();
  for (uint32_t i = 0; i < 4; ++i) {
    Warp& member = w.cta->warps[mma->first_warp + i];
    u.groups[member.index].issue(0, {mma, &member});
  }
  meeting.complete(*w.cta);
}

// wgmma.commit_group: the warp's uncommitted operations become its newest wgmma-group.
void commit_group(Warp& w, const Op&, uint32_t m) { w.cta->unit<Warpgroups>().groups[w.index].commit(m); }

// wgmma.wait_group N: all but the N newest of the warp's wgmma-groups complete.
void wait_group(Warp& w, const Op& op, uint32_t m) {
  if (Warpgroups* u = w.cta->units.find<Warpgroups>()) u->groups[w.index].wait(m, static_cast<uint32_t>(op.aux));
}

// wgmma.fence orders register accesses before it and wgmma.mma_async after it (§9.7.15.7.1);
// operations here land at their wait, after every access that precedes the wait, so it has
// nothing to do.
void fence(Warp&, const Op&, uint32_t) {}

const Plan* keep(Plan plan) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<const Plan>> plans;
  std::lock_guard<std::mutex> lock(mutex);
  plans.push_back(std::make_unique<const Plan>(std::move(plan)));
  return plans.back().get();
}

bool select_mma_async(const isa::Bound& b, Op& op, std::string& why) {
  Plan p;
  const std::string* shape = b.value("shape");
  const std::string* dtype = b.value("dtype");
  const std::string* atype = b.value("atype");
  const std::string* btype = b.value("btype");
  if (!shape || !dtype || !atype || !btype || !mma::type_named(*atype, p.a) || !mma::type_named(*btype, p.b) ||
      !mma::type_named(*dtype, p.d)) {
    why = "wgmma.mma_async needs its shape and types";
    return false;
  }
  p.shape = mma::parse_shape(*shape);
  p.satfinite = b.value("satfinite") != nullptr;
  p.a_from_registers = op.args[1].kind == ArgKind::Vector;
  if (b.family->mnemonic == "wgmma.mma_async.sp") {
    p.sparsity = p.a == Type::TF32 ? mma::Sparsity::Tf32 : mma::Sparsity::Pairs;
    p.scale_d_arg = 5;
  }
  // d, a, b-desc, (for .sp: sp-meta, sp-sel), scale-d, then the immediates: imm-scale-a,
  // imm-scale-b, imm-trans-a (A from shared memory only), imm-trans-b.
  size_t next = p.scale_d_arg + 1;
  auto imm = [&]() -> int64_t { return next < op.args.size() ? static_cast<int64_t>(op.args[next++].imm) : 1; };
  const bool is_float = p.a != Type::S8 && p.a != Type::U8 && p.a != Type::B1;
  if (is_float) {
    p.negate_a = imm() == -1;
    p.negate_b = imm() == -1;
    if (p.a == Type::F16 || p.a == Type::BF16) {
      if (!p.a_from_registers) p.trans_a = next < op.args.size() && op.args[next++].imm == 1;
      p.trans_b = next < op.args.size() && op.args[next++].imm == 1;
    }
  }
  const unsigned d_bits = mma::register_bits(p.d);
  p.d_layout = mma::wgmma_layout(p.shape, mma::Frag::C, d_bits);
  if (op.args[0].elems.size() != p.d_layout.regs()) {
    why = "the accumulator vector has " + std::to_string(op.args[0].elems.size()) + " registers; " +
          *shape + *dtype + " needs " + std::to_string(p.d_layout.regs());
    return false;
  }
  if (p.a_from_registers) {
    p.a_layout = mma::wgmma_layout({p.shape.m, p.shape.n, p.a_cols()}, mma::Frag::A, mma::register_bits(p.a));
    if (op.args[1].elems.size() != p.a_layout.regs()) {
      why = "the A fragment has " + std::to_string(op.args[1].elems.size()) + " registers; " + *shape + *atype +
            " needs " + std::to_string(p.a_layout.regs());
      return false;
    }
  }
  op.aux = reinterpret_cast<uint64_t>(keep(std::move(p)));
  op.fn = &mma_async;
  op.cross_lane = ~0u;  // the fragments of all 128 threads
  return true;
}

template <program::Handler H>
bool plain(const isa::Bound&, Op& op, std::string&) {
  op.fn = H;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["wgmma.mma_async §9.7.15.5.2"] = select_mma_async;
  r["wgmma.mma_async.sp §9.7.15.6.3"] = select_mma_async;
  r["wgmma.fence §9.7.15.7.1"] = plain<&fence>;
  r["wgmma.commit_group §9.7.15.7.2"] = plain<&commit_group>;
  r["wgmma.wait_group §9.7.15.7.3"] = [](const isa::Bound&, Op& op, std::string&) {
    op.aux = op.args[0].imm;
    op.fn = &wait_group;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units
