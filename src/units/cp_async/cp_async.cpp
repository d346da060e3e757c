// Non-bulk asynchronous copies (PTX §9.7.9.25.3, 001_23fdd5978b24a3ed.txt): cp.async,
// cp.async.commit_group, cp.async.wait_group, cp.async.wait_all.
//
// A cp.async reads its source when issued and its bytes reach shared memory only when a wait
// completes its cp.async-group (exec::AsyncCopies), the latest moment the ISA allows: "the writes
// are visible to the executing thread only after" the wait (§9.7.9.25.3.3). A kernel that reads
// the destination before waiting, or relies on bar.sync alone, reads what was there before, as
// it may on a GPU. A thread that exits with copies pending has them completed.
#include "units/cp_async/cp_async.h"

#include <cstring>
#include <vector>

#include "exec/async_groups.h"
#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "program/registry.h"

namespace ptxvm::units::cp_async {
namespace {

using exec::Warp;
using program::Arg;
using program::ArgKind;
using program::Op;
using mem::Space;

// op.aux: cp-size, and where the optional src-size or ignore-src operand is (0: absent).
constexpr uint64_t kSizeMask = 0xff, kSourceArgShift = 8;

// n of at most 16 bytes; the cp-sizes 16, 8 and 4 as fixed-size copies, which compile inline.
void copy_bytes(uint8_t* to, const uint8_t* from, uint32_t n) {
  switch (n) {
  case 16: std::memcpy(to, from, 16); break;
  case 8: std::memcpy(to, from, 8); break;
  case 4: std::memcpy(to, from, 4); break;
  default: std::memcpy(to, from, n);
  }
}

// One copy in flight: its source bytes, read at issue, and where they land.
struct Copy {
  uint8_t* dst;
  uint8_t size;  // cp-size bytes, zero-filled past src-size
  uint8_t data[16];
  Warp::AsyncTicket ticket;  // the async check's
  void apply() const {
    ticket.retire();
    copy_bytes(dst, data, size);
  }
};

// The unit's state in one CTA: each warp's copies and groups.
class Copies : public exec::Unit {
public:
  explicit Copies(exec::Cta& cta) : warps(cta.warps.size()) {}
  void exited(Warp& w, uint32_t lanes) override { warps[w.index].complete_all(lanes); }
  std::vector<exec::AsyncGroups<Copy>> warps;
};

exec::AsyncGroups<Copy>& groups(Warp& w) { return w.cta->unit<Copies>().warps[w.index]; }
// The warp's groups, or null when no copy was issued in this CTA (every group is then empty).
exec::AsyncGroups<Copy>* issued(Warp& w) {
  Copies* c = w.cta->units.find<Copies>();
  return c ? &c->warps[w.index] : nullptr;
}

// cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}{, policy}:
// cp-size bytes to dst, of which the first src-size come from src (all of them when absent,
// none when ignore-src is true) and the rest are zero. dst and src are aligned to cp-size
// ("Addresses as Operands"); no source byte is read when src-size is 0 or ignore-src true, so a
// masked-off lane may name any source address (Triton's predicated loads do).
void cp_async(Warp& w, const Op& op, uint32_t m) {
  const auto size = static_cast<uint32_t>(op.aux & kSizeMask);
  const auto source_arg = static_cast<uint32_t>(op.aux >> kSourceArgShift);
  exec::AsyncGroups<Copy>& g = groups(w);
  for (uint32_t lanes = m; lanes; lanes &= lanes - 1) {
    const int l = std::countr_zero(lanes);
    uint32_t from = size;
    if (source_arg) {
      const Arg& s = op.args[source_arg];
      from = s.kind == ArgKind::Pred ? (w.pred(s, l) ? 0 : size) : w.get<uint32_t>(s, l);
    }
    if (from > size)
      w.undefined(l, "src-size " + std::to_string(from) + " is greater than cp-size " + std::to_string(size) +
                         " (undefined, PTX §9.7.9.25.3.1)");
    const uint64_t dst = w.address(op.args[0], l);
    uint8_t* const to = w.access(Space::Shared, dst, size, l);
    const uint8_t* source = nullptr;
    if (from) {
      const uint64_t src = w.address(op.args[1], l);
      if (src & (size - 1)) w.access(Space::Global, src, size, l);  // reports the misaligned source (size 4, 8, 16)
      source = w.access(Space::Global, src, from, l, false);
    }
    Copy& copy = g.issue(l);  // filled in place: every fault above is raised
    copy.dst = to, copy.size = static_cast<uint8_t>(size);
    copy.ticket = w.async_issue("a cp.async.wait_group or wait_all of the issuing thread completes its cp.async-group");
    w.async_region(copy.ticket, l, Space::Shared, dst, size, false);
    if (from) copy_bytes(copy.data, source, from);
  }
}

// cp.async.commit_group: the lane's uncommitted copies become its newest group.
void commit_group(Warp& w, const Op&, uint32_t m) { groups(w).commit(m); }

// cp.async.wait_group N: every group but the N newest complete. op.aux: N.
void wait_group(Warp& w, const Op& op, uint32_t m) {
  if (auto* g = issued(w)) g->wait(m, static_cast<uint32_t>(op.aux));
}

// cp.async.wait_all: cp.async.commit_group then cp.async.wait_group 0.
void wait_all(Warp& w, const Op&, uint32_t m) {
  if (auto* g = issued(w)) g->complete_all(m);
}

}  // namespace

void complete_all(Warp& w, uint32_t lanes) {
  if (auto* g = issued(w)) g->complete_all(lanes);
}

namespace {

const program::Registration registered([](program::Registry& r) {
  r["cp.async §9.7.9.25.3.1"] = [](const isa::Bound& b, Op& op, std::string&) {
    // [dst], [src], cp-size, then src-size or ignore-src when one more operand than the policy.
    const size_t fixed = 3 + (b.value("hint") ? 1 : 0);
    op.aux = op.args[2].imm | (op.args.size() > fixed ? uint64_t{3} << kSourceArgShift : 0);
    op.fn = &cp_async;
    return true;
  };
  r["cp.async.commit_group §9.7.9.25.3.2"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &commit_group;
    return true;
  };
  r["cp.async.wait_group §9.7.9.25.3.3"] = [](const isa::Bound&, Op& op, std::string&) {
    op.aux = op.args[0].imm;
    op.fn = &wait_group;
    return true;
  };
  r["cp.async.wait_all §9.7.9.25.3.3"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &wait_all;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units::cp_async
