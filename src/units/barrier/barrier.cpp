// The CTA barriers of PTX §9.7.13.1 (001_23fdd5978b24a3ed.txt): bar{.cta}.sync, barrier{.cta}.sync,
// bar{.cta}.arrive, barrier{.cta}.arrive, bar{.cta}.red, barrier{.cta}.red. Sixteen barriers per
// CTA, each a Rendezvous (exec/rendezvous.h) that completes when `b` threads have arrived (every
// non-exited thread of the CTA when `b` is absent); threads that exit count as arrived for the
// barriers that wait for all of them.
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "exec/rendezvous.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "program/registry.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;

// op.aux flags.
constexpr uint64_t kArrive = 1, kReduce = 2, kPredResult = 4;
// op.aux2 of bar.red: the reduction.
enum Red : uint64_t { Popc, And, Or };

struct Barrier {
  exec::Rendezvous threads;
  uint32_t expected = 0;   // 0: every thread of the CTA that has not exited
  uint32_t red_count = 0;  // bar.red: arrivals whose predicate is true
  uint32_t red_arrived = 0;
  // What the arrivals of one use of the barrier are compared with (check_use): the first
  // arrival's thread count and instruction (bar.red or not, .aligned or not), and for synccheck
  // the lanes of each warp that arrived.
  std::vector<uint32_t> arrived;
  uint32_t first_count = 0, first_pc = 0;
  bool used = false, first_red = false, first_aligned = false;
};

// The barrier unit of one CTA.
class Barriers : public exec::Unit {
public:
  explicit Barriers(exec::Cta& cta) : cta_(cta) {}

  // Barrier `id`, which threads are arriving at.
  Barrier& arriving(uint32_t id) {
    open_ |= 1u << id;
    return barriers_[id];
  }

  // Completes every barrier whose arrivals (and the CTA's exits) reached its count. The threads
  // parked at a bar.red first receive its reduction.
  void release() {
    const uint32_t live = cta_.threads - cta_.exited_threads;
    for (uint32_t open = open_; open; open &= open - 1) {
      const int id = std::countr_zero(open);
      Barrier& b = barriers_[id];
      if (b.threads.arrived < (b.expected ? b.expected : live)) continue;
      if (b.red_arrived) deliver(b);
      b.threads.complete(cta_);
      b.expected = b.red_count = b.red_arrived = 0;
      b.arrived.clear();
      b.used = false;
      open_ &= ~(1u << id);
    }
  }

  void exited(Warp&, uint32_t) override { release(); }

  std::string waiting(const Warp& w, int lane) const override {
    for (const Barrier& b : barriers_)
      if ((b.threads.parked(w.index) >> lane) & 1u) return " in a barrier";
    return {};
  }

private:
  // The bar.red result a parked lane receives: .popc counts true predicates; .and/.or combine them.
  void deliver(const Barrier& b) {
    for (Warp& w : cta_.warps) {
      for_lanes(b.threads.parked(w.index), [&](int l) {
        const Op& op = w.program->ops[w.pc[l]];  // a parked lane stands at its instruction
        if (!(op.aux & kReduce)) return;         // a bar.sync of the same barrier
        const auto red = static_cast<Red>(op.aux2);
        const uint32_t r = red == Popc ? b.red_count : red == And ? b.red_count == b.red_arrived : b.red_count != 0;
        if (op.aux & kPredResult) w.set_pred(op.args[0], l, r != 0);
        else w.set<uint32_t>(op.args[0], l, r);
      });
    }
  }

  exec::Cta& cta_;
  std::array<Barrier, 16> barriers_;
  uint32_t open_ = 0;  // bit id: barrier id has arrivals
};

// The lanes `m` of `w` arrive at barrier `id`, with `counted` threads (0: the whole CTA). Every
// arrival in one use of a barrier names the same count, and bar.red is not mixed with the other
// forms (§9.7.13.1): an H200 stops the kernel with an illegal-instruction error at either
// (tests/hw/sanitizer), so ptxvm stops it too. With synccheck, also: the .aligned forms (bar.sync,
// bar.arrive, bar.red are barrier.*.aligned) are one instruction for every thread of the CTA, and
// a warp does not arrive again before the barrier completes (bar.arrive, then another barrier
// instruction on it). Divergent warps at .aligned forms are the engine's check.
void check_use(Warp& w, const Op& op, uint32_t m, uint32_t id, uint32_t counted, Barrier& b) {
  const int lane = std::countr_zero(m);
  const std::string name = "barrier " + std::to_string(id);
  const uint32_t count = counted ? counted : w.cta->threads;
  const bool red = op.aux & kReduce;
  const bool synccheck = w.launch->sanitizer && w.launch->sanitizer->checks.synccheck;
  const bool aligned = synccheck && w.launch->sanitizer->traits(w.current_pc).aligned;
  if (!b.used) {
    b.used = true;
    b.first_count = count;
    b.first_pc = w.current_pc;
    b.first_red = red;
    b.first_aligned = aligned;
  }
  const std::string first_line = std::to_string(w.program->ops[b.first_pc].line);
  if (count != b.first_count) {
    const std::string why = name + " is used with " + std::to_string(count) + " threads here and " +
                            std::to_string(b.first_count) + " threads at line " + first_line +
                            " before it completed; every arrival names the same count (PTX §9.7.13.1)";
    w.sync_report(lane, "barrier thread-count mismatch", why);
    w.undefined(lane, why);
  }
  if (red != b.first_red) {
    const std::string why = name + " is used by bar.red and by another barrier instruction (line " + first_line +
                            ") at once: the result is unpredictable (PTX §9.7.13.1)";
    w.sync_report(lane, "bar.red mixed with bar.sync or bar.arrive", why);
    w.undefined(lane, why);
  }
  if (!synccheck) return;
  if (aligned && b.first_aligned && w.current_pc != b.first_pc)
    w.sync_report(lane, "divergent .aligned barrier",
                  name + " is used at line " + first_line +
                      " and here by different threads of the CTA: an .aligned barrier (bar.sync is "
                      "barrier.sync.aligned) must be one instruction for every thread of the CTA, undefined "
                      "otherwise; barrier.sync without .aligned may differ (PTX §9.7.13.1)");
  if (b.arrived.size() < w.cta->warps.size()) b.arrived.resize(w.cta->warps.size(), 0);
  if (const uint32_t again = b.arrived[w.index] & m)
    w.sync_report(std::countr_zero(again), "barrier arrival before the barrier completed",
                  "these threads already arrived at " + name +
                      " (bar.arrive) and arrive again before it completed (undefined, PTX §9.7.13.1)");
  b.arrived[w.index] |= m;
}

// bar{.cta}.sync / barrier{.cta}.sync a{, b}, bar.arrive a, b, bar.red d, a{, b}, {!}c: the
// executing threads arrive at barrier `a`; all but arrive then wait until `b` threads (all
// non-exited threads of the CTA when absent) have arrived.
void barrier(Warp& w, const Op& op, uint32_t m) {
  const int lane = std::countr_zero(m);
  const bool reduce = op.aux & kReduce;
  const size_t first = reduce ? 1 : 0;
  const uint32_t id = w.get<uint32_t>(op.args[first], lane);
  if (id >= 16) w.undefined(lane, "barrier id " + std::to_string(id) + " is not in 0..15");
  Barriers& unit = w.cta->unit<Barriers>();
  Barrier& b = unit.arriving(id);
  const size_t count_arg = first + 1;
  const bool counted = op.args.size() > count_arg + (reduce ? 1 : 0);
  const uint32_t count = counted ? w.get<uint32_t>(op.args[count_arg], lane) : 0;
  check_use(w, op, m, id, count, b);
  if (counted) b.expected = count;
  if (reduce) {
    const program::Arg& p = op.args.back();
    for_lanes(m, [&](int l) { b.red_count += w.pred(p, l) ? 1 : 0; });
    b.red_arrived += exec::lane_count(m);
  }
  b.threads.arrive(w, m, !(op.aux & kArrive));
  unit.release();
}

template <uint64_t kAux>
bool select(const isa::Bound&, Op& op, std::string&) {
  op.fn = &barrier;
  op.aux = kAux;
  return true;
}

bool select_red(const isa::Bound& b, Op& op, std::string&) {
  const std::string* o = b.value("op");
  const std::string* type = b.value("type");
  op.fn = &barrier;
  op.aux = kReduce | (type && *type == ".pred" ? kPredResult : 0);
  op.aux2 = o && *o == ".popc" ? Popc : o && *o == ".and" ? And : Or;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["bar.sync §9.7.13.1"] = select<0>;
  r["barrier.sync §9.7.13.1"] = select<0>;
  r["bar.arrive §9.7.13.1"] = select<kArrive>;
  r["barrier.arrive §9.7.13.1"] = select<kArrive>;
  r["bar.red §9.7.13.1"] = select_red;
  r["barrier.red §9.7.13.1"] = select_red;
});

}  // namespace
}  // namespace ptxvm::units
