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
// chain of wgmma.mma_async on the same accumulators within one group computes as a chain; while
// one wait lands such a chain, the accumulators stay a row-major matrix from one operation to the
// next and reach the registers when the wait ends.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
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
using mem::Space;
using mma::Type;
using program::Arg;
using program::ArgKind;
using program::Op;

constexpr unsigned kWarpgroupThreads = 128;

// A register fragment of the warpgroup as the unit walks it: for warp 0..3, register, lane and
// element in the register, the element's index in the row-major matrix.
struct Fragment {
  unsigned width = 0, per_reg = 1;
  uint64_t mask = 0;
  std::vector<uint32_t> at;
  Fragment() = default;
  explicit Fragment(const mma::Layout& l)
      : width(l.width), per_reg(l.per_reg), mask(l.width == 64 ? ~uint64_t{0} : (uint64_t{1} << l.width) - 1) {
    for (unsigned wi = 0; wi < 4; ++wi)
      for (unsigned r = 0; r < l.regs(); ++r)
        for (unsigned lane = 0; lane < 32; ++lane)
          for (unsigned e = 0; e < l.per_reg; ++e) {
            const mma::Coord& c = l.where(32 * wi + lane, r * l.per_reg + e);
            at.push_back(c.row * l.cols + c.col);
          }
  }
};

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
  Fragment a_fragment;                      // A's registers, when from registers
  Fragment d_fragment;                      // the accumulators
  unsigned a_cols() const { return sparsity == mma::Sparsity::Dense ? shape.k : shape.k / 2; }
};

// The sign bit of a floating-point element, for imm-scale = -1 (§9.7.15.5.2).
uint64_t sign_bit(Type t) {
  switch (t) {
  case Type::F16:
  case Type::BF16: return uint64_t{1} << 15;
  case Type::TF32: return uint64_t{1} << 31;
  default: return uint64_t{1} << 7;  // e4m3, e5m2
  }
}

// The 32 lanes of register `slot` in warp `wi` of the warpgroup whose first warp is `first`
// (registers are stored slot-major).
uint64_t* warpgroup_lanes(exec::Cta& cta, uint32_t first, unsigned wi, uint32_t slot) {
  return &cta.warps[first + wi].slot(slot, 0);
}

// A fragment held in the registers of `v` by the warpgroup's 128 threads, into a row-major matrix,
// or (scatter) back from it; `at` is the fragment's Fragment::at.
void gather(exec::Cta& cta, uint32_t first, const Fragment& f, const Arg& v, std::vector<uint64_t>& m) {
  const uint32_t* at = f.at.data();
  for (unsigned wi = 0; wi < 4; ++wi)
    for (const Arg& r : v.elems) {
      const uint64_t* values = warpgroup_lanes(cta, first, wi, r.reg);
      if (f.per_reg == 1) {
        for (unsigned lane = 0; lane < 32; ++lane) m[at[lane]] = values[lane] & f.mask;
        at += 32;
        continue;
      }
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned e = 0; e < f.per_reg; ++e) m[*at++] = (values[lane] >> (e * f.width)) & f.mask;
    }
}
void scatter(exec::Cta& cta, uint32_t first, const Fragment& f, const Arg& v, const std::vector<uint64_t>& m) {
  const uint32_t* at = f.at.data();
  for (unsigned wi = 0; wi < 4; ++wi)
    for (const Arg& r : v.elems) {
      uint64_t* values = warpgroup_lanes(cta, first, wi, r.reg);
      if (f.per_reg == 1) {  // one element per register (32-bit accumulators): 32 lanes in a row
        for (unsigned lane = 0; lane < 32; ++lane) values[lane] = (values[lane] & ~f.mask) | (m[at[lane]] & f.mask);
        at += 32;
        continue;
      }
      for (unsigned lane = 0; lane < 32; ++lane) {
        uint64_t bits = values[lane];
        for (unsigned e = 0; e < f.per_reg; ++e)
          bits = (bits & ~(f.mask << (e * f.width))) | (m[*at++] & f.mask) << (e * f.width);
        values[lane] = bits;
      }
    }
}

struct Chain;

constexpr uint32_t kNoPc = UINT32_MAX;

// One issued wgmma.mma_async of a warpgroup.
struct Mma {
  const Plan* plan;
  const Op* op;
  exec::Cta* cta;
  uint32_t first_warp;      // the warpgroup's first warp
  uint64_t desc_a = 0, desc_b;
  bool scale_d;
  bool done = false;
  bool chained = false;            // issued while an operation on the same accumulators was in flight
  bool serialized = false;         // landed at issue, as ptxas serializes it (touched_before_wait)
  uint8_t retired = 0;             // the warps (bit i: the warpgroup's warp i) whose wait retired it
  // Where each warp of the warpgroup stood when the operation landed: the PC of all its lanes
  // (kNoPc: divergent) and how many waits it had executed (Chain::waits).
  std::array<uint32_t, 4> landed_pc{};
  std::array<uint64_t, 4> landed_waits{};
  uint32_t proxy_epoch = 0;        // the async check: the warpgroup's latest fence.proxy.async at issue
  Chain* chain;
  std::unique_ptr<uint64_t[]> at_issue;  // per thread, the registers of d, then of a when from registers

  std::vector<uint32_t> regs;  // slots(), listed at issue

  // The registers the operation reads and writes asynchronously: d's, then a's when from registers.
  const std::vector<uint32_t>& slots() const { return regs; }
  void list_slots() {
    for (const Arg& e : op->args[0].elems) regs.push_back(e.reg);
    if (plan->a_from_registers)
      for (const Arg& e : op->args[1].elems) regs.push_back(e.reg);
  }
  // The 32 lanes of register `slot` in warp `wi` of the warpgroup (registers are stored slot-major).
  uint64_t* lanes(unsigned wi, uint32_t slot) const { return warpgroup_lanes(*cta, first_warp, wi, slot); }

  // at_issue holds, per warp of the warpgroup and per slot of slots(), the 32 lanes' values; a
  // chained operation's accumulators are what its predecessor leaves there (refresh).
  void snapshot() {
    const std::vector<uint32_t>& s = slots();
    at_issue = std::make_unique_for_overwrite<uint64_t[]>(4 * s.size() * 32);
    for (unsigned wi = 0; wi < 4; ++wi)
      for (size_t r = chained ? op->args[0].elems.size() : 0; r < s.size(); ++r)
        std::copy_n(lanes(wi, s[r]), 32, &at_issue[(wi * s.size() + r) * 32]);
  }

  // Between issue and the wait that retires it, only a wgmma.mma_async of the same chain may write
  // the operation's registers (§9.7.15.7.3): each must hold what it held at issue, or what an
  // earlier operation of the warpgroup wrote there when it landed (after this one's issue).
  // With `continued`, the accumulators were written by the operation landed just before, in the
  // same wait.
  // Only warp `only` of the warpgroup with only < 4.
  void check_untouched(Warp& w, bool continued, unsigned only = 4) const {
    const std::vector<uint32_t>& s = slots();
    const size_t accumulators = op->args[0].elems.size();
    const unsigned first = only < 4 ? only : 0, last = only < 4 ? only + 1 : 4;
    for (unsigned wi = first; wi < last; ++wi)
      for (size_t r = continued ? accumulators : 0; r < s.size(); ++r) {
        const uint64_t *now = lanes(wi, s[r]), *then = &at_issue[(wi * s.size() + r) * 32];
        if (std::equal(now, now + 32, then)) continue;
        const int lane = static_cast<int>(std::mismatch(now, now + 32, then).first - now);
        w.undefined(lane, "'" + op->text + "': " +
                      (r < accumulators ? "accumulator " + std::to_string(r) : "A register " + std::to_string(r - accumulators)) +
                      " of warp " + std::to_string(first_warp + wi) + " lane " + std::to_string(lane) +
                      " was written after the wgmma.mma_async that reads it and before the wgmma.wait_group "
                      "that retires it (§9.7.15.7.3)");
      }
  }

  // An earlier operation has landed and written the registers `written` (sorted): this one, a
  // chain on them, expects its results there now. `after_chain`: the operation issued just before
  // this one is in flight and has the same accumulators, so this one lands right after it,
  // continuing its chain (its accumulators go unchecked) or after a flush that refreshes them then.
  // Only the warps whose bit is clear in `retired`: the others have retired it.
  void refresh(const std::vector<uint32_t>& written, bool after_chain) {
    const std::vector<uint32_t>& s = slots();
    for (size_t r = after_chain ? op->args[0].elems.size() : 0; r < s.size(); ++r)
      if (std::binary_search(written.begin(), written.end(), s[r]))
        for (unsigned wi = 0; wi < 4; ++wi)
          if (!(retired >> wi & 1)) std::copy_n(lanes(wi, s[r]), 32, &at_issue[(wi * s.size() + r) * 32]);
  }

  // An operand of mns x ks elements of type t from shared memory through descriptor `desc`, stored
  // k_major or MN-major, as element bits into out[mn * mn_stride + k * k_stride]. A 16-byte chunk
  // of the layout holds 128 / bits elements consecutive along the contiguous dimension; the
  // swizzle moves whole chunks.
  void read_shared(Warp& w, uint64_t desc, bool k_major, Type t, unsigned mns, unsigned ks, size_t mn_stride,
                   size_t k_stride, std::vector<uint64_t>& out) const {
    const mma::MatrixDescriptor d = mma::decode_descriptor(desc);
    const unsigned bits = mma::register_bits(t), per_chunk = 128 / bits;
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const auto& shared = cta->shared.bytes;
    for (unsigned mn = 0; mn < mns; mn += k_major ? 1 : per_chunk)
      for (unsigned k = 0; k < ks; k += k_major ? per_chunk : 1) {
        // descriptors hold shared addresses (mem::cluster_shared_address): less the reserved KiB
        const uint64_t address = mma::element_bit_address(d, k_major, bits, mn, k);
        const uint64_t at = address - mem::kSharedReserved * 8;
        const unsigned n = std::min(per_chunk, k_major ? ks - k : mns - mn);
        if (at / 8 + (uint64_t{n} * bits + 7) / 8 > shared.size())
          w.undefined(0, "'" + op->text + "' reads shared address " + std::to_string(address / 8) +
                              " through its matrix descriptor, outside the CTA's " + std::to_string(shared.size()) +
                              " bytes of shared memory from 0x400 (§9.7.15.5.1)");
        w.async_proxy_read(0, w.shared_base + at / 8, (uint64_t{n} * bits + 7) / 8,
                           static_cast<uint32_t>(op - w.program->ops.data()), proxy_epoch);
        uint64_t chunk[2] = {0, 0};  // the 16 bytes at `at`, or the part inside shared memory
        if (at / 8 + 16 <= shared.size()) std::memcpy(chunk, &shared[at / 8], 16);
        else std::memcpy(chunk, &shared[at / 8], shared.size() - at / 8);
        uint64_t* to = &out[size_t{mn} * mn_stride + size_t{k} * k_stride];
        const size_t step = k_major ? k_stride : mn_stride;
        if (bits == 16 && at % 8 == 0) {  // f16, bf16: the common case, whole bytes
          uint16_t halves[8];
          std::memcpy(halves, chunk, sizeof halves);
          for (unsigned e = 0; e < n; ++e) to[e * step] = halves[e];
          continue;
        }
        for (unsigned e = 0; e < n; ++e) {
          const unsigned bit = static_cast<unsigned>(at % 8) + e * bits;
          to[e * step] = (chunk[bit / 64] >> (bit % 64)) & mask;
        }
      }
  }

  // D = A·B + (scale-d ? D : 0), over the 128 threads' accumulators.
  void run(Warp& w);
  // Whether warp `wi` (w) cannot have written the registers since the operation landed: this is
  // its first wait since, and it came from where it stood then along straight-line code that names
  // none of them (the common case, which then costs no comparison).
  bool untouched_since_landing(const Warp& w, unsigned wi) const;

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

// What the operations of one warpgroup share: those issued and not landed, in issue order, and
// the accumulators of the one landed last in the current wait, as a row-major matrix not yet
// scattered into the registers.
struct Chain {
  std::vector<Mma*> in_flight;
  // Operations landed (by one warp's wait) that some warp of the warpgroup has not retired yet: at
  // that warp's wait its registers must still hold what the landing left there (Issued::apply).
  std::vector<Mma*> landed;
  std::array<uint64_t, 4> waits{};  // per warp of the warpgroup, the wgmma.wait_group (or exit) it executed
  const Op* resident = nullptr;  // the operation whose D `d` holds
  const Plan* resident_plan = nullptr;
  exec::Cta* cta;
  uint32_t first_warp;
  std::vector<uint64_t> d;

  // Whether two operations accumulate into the same registers, laid out alike.
  static bool same_accumulators(const Op& x, const Plan& px, const Op& y, const Plan& py) {
    const auto &rx = x.args[0].elems, &ry = y.args[0].elems;
    return px.shape.m == py.shape.m && px.shape.n == py.shape.n && px.d == py.d && rx.size() == ry.size() &&
           std::equal(rx.begin(), rx.end(), ry.begin(), [](const Arg& a, const Arg& b) { return a.reg == b.reg; });
  }
  // Whether `m` continues the chain whose accumulators `d` holds.
  bool continues(const Mma& m) const { return resident && same_accumulators(*m.op, *m.plan, *resident, *resident_plan); }
  // The resident D into its registers; the operations still in flight that read them expect them.
  void flush() {
    if (!resident) return;
    scatter(*cta, first_warp, resident_plan->d_fragment, resident->args[0], d);
    std::vector<uint32_t> written;
    for (const Arg& e : resident->args[0].elems) written.push_back(e.reg);
    std::sort(written.begin(), written.end());
    for (size_t i = 0; i < in_flight.size(); ++i)  // in issue order: landed ones left the front
      in_flight[i]->refresh(written, i > 0 && same_accumulators(*in_flight[i - 1]->op, *in_flight[i - 1]->plan,
                                                                *in_flight[i]->op, *in_flight[i]->plan));
    for (Mma* m : landed) m->refresh(written, false);
    resident = nullptr;
  }
  // Warp `wi` of the warpgroup retired `m`.
  void retire(Mma& m, unsigned wi) {
    m.retired = uint8_t(m.retired | 1u << wi);
    if (m.retired == 0xf) std::erase(landed, &m);
  }
};

void Mma::run(Warp& w) {
  if (done) return;
  done = true;
  const bool continued = chain->continues(*this);
  if (!continued) chain->flush();
  chain->in_flight.erase(std::find(chain->in_flight.begin(), chain->in_flight.end(), this));
  check_untouched(w, continued);
  if (!serialized) {
    chain->landed.push_back(this);
    for (unsigned wi = 0; wi < 4; ++wi) {
      const Warp& v = cta->warps[first_warp + wi];
      const uint32_t lanes = v.alive & ~v.exited;
      landed_pc[wi] = lanes ? v.pc[std::countr_zero(lanes)] : kNoPc;
      for (uint32_t l = lanes; l; l &= l - 1)
        if (v.pc[std::countr_zero(l)] != landed_pc[wi]) landed_pc[wi] = kNoPc;
      landed_waits[wi] = chain->waits[wi];
    }
  }
  const Plan& p = *plan;
  const unsigned m = p.shape.m, n = p.shape.n, k = p.shape.k, ka = p.a_cols();
  thread_local std::vector<uint64_t> a, b, c, d;  // kept between operations: no allocation per wgmma
  a.resize(size_t{m} * ka), b.resize(size_t{k} * n), c.resize(size_t{m} * n), d.resize(size_t{m} * n);
  const Arg& dv = op->args[0];
  if (p.a_from_registers) {
    gather(*cta, first_warp, p.a_fragment, op->args[1], a);
  } else {
    read_shared(w, desc_a, !p.trans_a, p.a, m, ka, ka, 1, a);
  }
  read_shared(w, desc_b, !p.trans_b, p.b, n, k, 1, n, b);
  if (p.negate_a)
    for (uint64_t& x : a) x ^= sign_bit(p.a);
  if (p.negate_b)
    for (uint64_t& x : b) x ^= sign_bit(p.b);
  if (!scale_d) std::fill(c.begin(), c.end(), 0);
  else if (continued) std::swap(c, chain->d);
  else gather(*cta, first_warp, p.d_fragment, dv, c);  // every element of D has one owner
  compute(w, a, b, c, d);
  std::swap(d, chain->d);
  chain->resident = op;
  chain->resident_plan = plan;
}

// An issued operation as one warp's pending effect.
struct Issued {
  std::shared_ptr<Mma> mma;
  Warp* warp;  // the warp whose wait or exit lands it
  void apply() const {
    const unsigned wi = warp->index - mma->first_warp;
    if (warp->async_checked) {  // the holds report a write when it happens
      for (uint32_t slot : mma->slots()) warp->async_release(slot);
    } else if (mma->done && !mma->serialized && !mma->untouched_since_landing(*warp, wi)) {
      mma->check_untouched(*warp, false, wi);  // landed by another warp's wait
    }
    mma->run(*warp);
    mma->chain->retire(*mma, wi);
  }
};

// The unit's state in one CTA: per warpgroup the rendezvous of its warps at wgmma.mma_async, per
// warp its wgmma-groups.
class Warpgroups : public exec::Unit {
public:
  explicit Warpgroups(exec::Cta& cta)
      : meeting((cta.warps.size() + 3) / 4), meeting_op(meeting.size()), groups(cta.warps.size()),
        chains(meeting.size()) {
    for (size_t g = 0; g < chains.size(); ++g) chains[g].cta = &cta, chains[g].first_warp = static_cast<uint32_t>(4 * g);
  }
  void exited(Warp& w, uint32_t lanes) override {
    ++chains[w.index / 4].waits[w.index % 4];
    groups[w.index].complete_all(lanes);
    chains[w.index / 4].flush();
  }
  std::string waiting(const Warp& w, int lane) const override {
    return (meeting[w.index / 4].parked(w.index) >> lane) & 1u
               ? " in wgmma.mma_async, waiting for the other warps of its warpgroup (§9.7.15.2)"
               : "";
  }
  std::vector<exec::Rendezvous> meeting;
  std::vector<const Op*> meeting_op;  // per warpgroup, the wgmma.mma_async its warps meet at
  std::vector<exec::AsyncGroups<Issued>> groups;
  std::vector<Chain> chains;  // per warpgroup
  // per wgmma.mma_async (its pc) met so far: whether ptxas serializes it (touched_before_wait)
  std::unordered_map<uint32_t, bool> serialized;
};

// The warpgroup of `w` must be four full warps of the CTA, and every lane must execute (.aligned).
void check_warpgroup(Warp& w, const Op& op, uint32_t m) {
  if (!w.cta->full_warpgroup(w.index))
    w.undefined(std::countr_zero(m), "'" + op.text + "' needs a warpgroup of four full warps, but the CTA's " +
                                          std::to_string(w.cta->threads) +
                                          " threads leave warp " + std::to_string(w.index) +
                                          "'s warpgroup short (§9.7.15.2)");
  if (m != ~0u)
    w.undefined(std::countr_zero(~m), "'" + op.text + "' is .sync.aligned: every thread of the warpgroup must "
                                                       "execute it, lane " + std::to_string(std::countr_zero(~m)) +
                                                       " does not (§9.7.15)");
}

void wait_group(Warp& w, const Op& op, uint32_t m);
void commit_group(Warp& w, const Op& op, uint32_t m);
void fence(Warp& w, const Op& op, uint32_t m);
void mma_async(Warp& w, const Op& op, uint32_t m);

// Whether an argument names one of the register slots `slots`.
bool names(const Arg& a, const std::vector<uint32_t>& slots) {
  if ((a.kind == ArgKind::Reg || a.kind == ArgKind::Address) &&
      std::find(slots.begin(), slots.end(), a.reg) != slots.end())
    return true;
  return std::any_of(a.elems.begin(), a.elems.end(), [&](const Arg& e) { return names(e, slots); });
}

// Whether an instruction after the wgmma.mma_async at `pc` and before the wgmma.wait_group that
// follows it reads or writes one of its registers `slots`, in the straight-line code up to a
// branch. The ISA leaves that undefined (§9.7.15.7.3), but ptxas then serializes the function's
// wgmma ("wgmma.mma_async instructions are serialized"): each completes before the next
// instruction, and the access sees its result. Triton relies on it (an fp8 tl.dot with
// max_num_imprecise_acc adds each product's accumulators into its own at once); an H200 gives
// those results (tests/kernels: triton_imprecise90_*).
bool touched_before_wait(const program::Program& prog, uint32_t pc, const std::vector<uint32_t>& slots) {
  const uint32_t end = prog.functions[prog.ops[pc].function].end;
  for (uint32_t i = pc + 1; i < end; ++i) {
    const Op& o = prog.ops[i];
    if (o.fn == &wait_group || o.jumps) return false;
    if (o.fn == &mma_async || o.fn == &commit_group || o.fn == &fence) continue;  // a chain may share them
    if (std::any_of(o.args.begin(), o.args.end(), [&](const Arg& a) { return names(a, slots); })) return true;
  }
  return false;
}

bool Mma::untouched_since_landing(const Warp& w, unsigned wi) const {
  const uint32_t from = landed_pc[wi], to = w.current_pc;
  if (chain->waits[wi] != landed_waits[wi] + 1 || from == kNoPc || from > to) return false;
  const program::Program& prog = *w.program;
  for (uint32_t i = from; i < to; ++i) {
    const Op& o = prog.ops[i];
    if (o.jumps) return false;
    if (o.fn == &mma_async || o.fn == &commit_group || o.fn == &fence || o.fn == &wait_group) continue;
    if (std::any_of(o.args.begin(), o.args.end(), [&](const Arg& a) { return names(a, regs); })) return false;
  }
  return true;
}

// wgmma.mma_async.sync.aligned: the warps of the warpgroup meet; the last issues the operation.
void mma_async(Warp& w, const Op& op, uint32_t m) {
  check_warpgroup(w, op, m);
  Warpgroups& u = w.cta->unit<Warpgroups>();
  exec::Rendezvous& meeting = u.meeting[w.index / 4];
  const Op*& first = u.meeting_op[w.index / 4];
  if (meeting.arrived == 0) first = &op;
  if (first != &op)  // .aligned: the warps meet at one instruction (§9.7.15)
    w.undefined(0, "'" + op.text + "' is .sync.aligned, but warp " + std::to_string(w.index) +
                        " reaches it while its warpgroup waits at '" + first->text + "' (§9.7.15)");
  meeting.arrive(w, m, true);
  if (meeting.arrived < kWarpgroupThreads) return;  // parked until the other warps arrive
  const Plan& p = *reinterpret_cast<const Plan*>(op.aux);
  auto mma = std::make_shared<Mma>();
  mma->plan = &p;
  mma->op = &op;
  mma->cta = w.cta;
  mma->first_warp = w.index / 4 * 4;
  mma->list_slots();
  if (!p.a_from_registers) mma->desc_a = w.get<uint64_t>(op.args[1], 0);
  mma->desc_b = w.get<uint64_t>(op.args[2], 0);
  for (uint32_t i = 0; i < 4; ++i) {  // "the same across all the warps in the warpgroup" (§9.7.15.5.2)
    Warp& member = w.cta->warps[mma->first_warp + i];
    for (int lane = 0; lane < 32; ++lane)
      if ((!p.a_from_registers && member.get<uint64_t>(op.args[1], lane) != mma->desc_a) ||
          member.get<uint64_t>(op.args[2], lane) != mma->desc_b)
        member.undefined(lane, "'" + op.text + "': the matrix descriptors of warp " + std::to_string(member.index) +
                                    " lane " + std::to_string(lane) + " differ from the rest of the warpgroup's (§9.7.15.5.2)");
  }
  mma->scale_d = w.get<bool>(op.args[p.scale_d_arg], 0);
  if (w.async_checked)  // the warpgroup's proxy fences so far order its threads' generic writes
    for (uint32_t t = 0; t < kWarpgroupThreads; ++t)
      mma->proxy_epoch = std::max(mma->proxy_epoch, w.proxy_fenced(mma->first_warp * 32 + t));
  mma->chain = &u.chains[w.index / 4];
  std::vector<Mma*>& in_flight = mma->chain->in_flight;
  // An earlier operation in flight on the same accumulators lands first and leaves them to this
  // one (refresh), so their values now are never compared.
  mma->chained = std::any_of(in_flight.begin(), in_flight.end(),
                             [&](const Mma* e) { return Chain::same_accumulators(*e->op, *e->plan, op, p); });
  in_flight.push_back(mma.get());
  mma->snapshot();
  for (uint32_t i = 0; i < 4; ++i) {
    Warp& member = w.cta->warps[mma->first_warp + i];
    u.groups[member.index].issue(0, {mma, &member});
    if (member.async_checked)
      for (uint32_t slot : mma->slots()) member.async_hold(slot, w.current_pc);
  }
  auto [known, first_meeting] = u.serialized.try_emplace(w.current_pc);
  if (first_meeting) known->second = touched_before_wait(*w.program, w.current_pc, mma->slots());
  if (known->second) {  // serialized as ptxas does: it lands now
    for (Mma* earlier : std::vector<Mma*>(in_flight)) {  // (its wait finds it done)
      earlier->serialized = true;
      earlier->run(w);
    }
    mma->chain->flush();
  }
  meeting.complete(*w.cta);
}

// wgmma.fence, commit_group and wait_group are .sync.aligned (§9.7.15.7): every thread of the warp
// executes the same instruction, which a lane left out by divergence or a guard breaks.
void check_aligned(Warp& w, const Op& op, uint32_t m) {
  const uint32_t all = w.alive & ~w.exited;
  if (m == all) return;
  const int lane = std::countr_zero(all & ~m);
  w.undefined(lane, "'" + op.text + "' is .sync.aligned: every thread of the warp must execute it, lane " +
                         std::to_string(lane) + " does not (§9.7.15.7)");
}

// wgmma.commit_group: the warp's uncommitted operations become its newest wgmma-group.
void commit_group(Warp& w, const Op& op, uint32_t m) {
  check_aligned(w, op, m);
  w.cta->unit<Warpgroups>().groups[w.index].commit(m);
}

// wgmma.wait_group N: all but the N newest of the warp's wgmma-groups complete.
void wait_group(Warp& w, const Op& op, uint32_t m) {
  check_aligned(w, op, m);
  if (Warpgroups* u = w.cta->units.find<Warpgroups>()) {
    ++u->chains[w.index / 4].waits[w.index % 4];
    u->groups[w.index].wait(m, static_cast<uint32_t>(op.aux));
    u->chains[w.index / 4].flush();
  }
}

// wgmma.fence orders register accesses before it and wgmma.mma_async after it (§9.7.15.7.1);
// operations here land at their wait, after every access that precedes the wait, so beyond its
// .aligned rule it has nothing to do.
void fence(Warp& w, const Op& op, uint32_t m) { check_aligned(w, op, m); }

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
  const mma::Layout d_layout = mma::wgmma_layout(p.shape, mma::Frag::C, d_bits);
  p.d_fragment = Fragment(d_layout);
  if (op.args[0].elems.size() != d_layout.regs()) {
    why = "the accumulator vector has " + std::to_string(op.args[0].elems.size()) + " registers; " +
          *shape + *dtype + " needs " + std::to_string(d_layout.regs());
    return false;
  }
  if (p.a_from_registers) {
    const mma::Layout a_layout = mma::wgmma_layout({p.shape.m, p.shape.n, p.a_cols()}, mma::Frag::A, mma::register_bits(p.a));
    p.a_fragment = Fragment(a_layout);
    if (op.args[1].elems.size() != a_layout.regs()) {
      why = "the A fragment has " + std::to_string(op.args[1].elems.size()) + " registers; " + *shape + *atype +
            " needs " + std::to_string(a_layout.regs());
      return false;
    }
  }
  op.aux = reinterpret_cast<uint64_t>(program::keep(std::move(p)));
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
