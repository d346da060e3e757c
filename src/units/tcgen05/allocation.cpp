// Tensor Memory allocation (PTX §9.7.16.7.1, 000_70a4b524dfe259fa.txt): tcgen05.alloc,
// tcgen05.dealloc, tcgen05.relinquish_alloc_permit.
//
// One warp allocates (.cta_group::1), or one warp in each CTA of a CTA pair together
// (.cta_group::2: the same columns in both CTAs' Tensor Memory; the first warp to arrive waits for
// the other). nCols is a power of two in [32, 512]; an allocation takes a run of columns aligned
// to its size, the lowest free one (ptxvm's choice: the ISA fixes only the unit, 32 columns). With
// no such run, tcgen05.alloc blocks until a tcgen05.dealloc frees one. The address (lane 0, the
// run's first column) is written to [dst] in shared memory.
#include <bit>
#include <string>

#include "exec/engine.h"
#include "exec/warp.h"
#include "mem/memory.h"
#include "program/registry.h"
#include "units/tcgen05/tensor_memory.h"

namespace ptxvm::units::tcgen05 {
namespace {

using exec::Warp;
using mem::Space;
using program::Op;
using Side = TensorMemory::Side;

constexpr const char* kSection = "9.7.16.7.1";

// Writes the allocation's address to each lane's [dst] (shared::cta, or generic in its window).
void write_address(const Side& s, unsigned column) {
  Warp& w = *s.warp;
  const Space space = static_cast<Space>(s.op->aux2);
  exec::for_lanes(s.lanes, [&](int l) {
    const uint64_t dst = w.address(s.op->args[0], l);
    if (space == Space::Generic && mem::resolve(Space::Generic, dst).space != Space::Shared)
      w.undefined(l, "'" + s.op->text + "': dst " + std::to_string(dst) +
                         " is not in the shared::cta window of the generic address space (§9.7.16.7.1)");
    w.store<uint32_t>(Space::Shared, space == Space::Generic ? mem::shared_offset(dst) : dst, l, column);
  });
}

TensorMemory& memory_of(const Side& s) { return s.warp->cta->unit<TensorMemory>(); }

// The lowest run of `columns` columns aligned to its size that no bit of `in_use` covers, or -1.
int free_run(uint16_t in_use, unsigned columns) {
  const unsigned units = columns / kColumnUnit;
  const uint32_t mask = (1u << units) - 1;
  for (unsigned u = 0; u + units <= kColumns / kColumnUnit; u += units)
    if (((in_use >> u) & mask) == 0) return static_cast<int>(u * kColumnUnit);
  return -1;
}

// Allocates for one side, or both sides of a pair; false when no run is free in all of them.
bool try_allocate(const Side& mine, const Side& other, unsigned columns) {
  TensorMemory& t = memory_of(mine);
  TensorMemory* o = other.warp ? &memory_of(other) : nullptr;
  const int column = free_run(t.columns_in_use | (o ? o->columns_in_use : 0), columns);
  if (column < 0) return false;
  t.take(static_cast<unsigned>(column), columns);
  write_address(mine, static_cast<unsigned>(column));
  if (o) {
    o->take(static_cast<unsigned>(column), columns);
    write_address(other, static_cast<unsigned>(column));
  }
  return true;
}

// Allocations blocked in `t` go ahead, in order, while columns allow.
void retry_blocked(TensorMemory& t) {
  while (!t.blocked.empty() && try_allocate(t.blocked.front().mine, t.blocked.front().other, t.blocked.front().columns)) {
    const TensorMemory::Blocked b = t.blocked.front();
    t.blocked.erase(t.blocked.begin());
    b.mine.warp->wake(b.mine.lanes);
    if (b.other.warp) b.other.warp->wake(b.other.lanes);
  }
}

// The checks every allocation instruction makes; for .cta_group::2, the peer CTA's side when it
// is waiting already (else this side now waits, and the result has no warp).
Side meet(Warp& w, const Op& op, uint32_t m, bool& go) {
  check_aligned(w, op, m, kSection);
  const unsigned group = static_cast<unsigned>(op.aux);
  TensorMemory& t = w.cta->unit<TensorMemory>();
  t.check_cta_group(w, std::countr_zero(m), op, group);
  go = true;
  if (group == 1) return {};
  TensorMemory& p = peer(w, std::countr_zero(m), op).unit<TensorMemory>();
  if (p.pair_waiting.warp && p.pair_waiting.op->family == op.family) {
    const Side other = p.pair_waiting;
    p.pair_waiting = {};
    return other;
  }
  if (t.pair_waiting.warp)
    w.undefined(std::countr_zero(m), "'" + op.text + "': warp " + std::to_string(w.index) + " and warp " +
                                         std::to_string(t.pair_waiting.warp->index) +
                                         " of one CTA both wait for the peer CTA; .cta_group::2 takes one warp "
                                         "from each CTA of the pair (§9.7.16.5)");
  t.pair_waiting = {&w, m, &op};
  w.park(m);
  go = false;
  return {};
}

unsigned columns_operand(Warp& w, const Op& op, uint32_t m) {
  const uint64_t n = uniform(w, op, m, op.args[1], "nCols", kSection);
  if (n < 32 || n > 512 || !std::has_single_bit(n))
    w.undefined(std::countr_zero(m), "'" + op.text + "': nCols is " + std::to_string(n) +
                                         "; it must be a power of 2 in [32, 512] (§9.7.16.7.1)");
  return static_cast<unsigned>(n);
}

void check_may_allocate(Warp& w, const Op& op, uint32_t m, const TensorMemory& t, unsigned columns) {
  const int l = std::countr_zero(m);
  if (t.relinquished)
    w.undefined(l, "'" + op.text + "' after the CTA relinquished its permit to allocate "
                                   "(tcgen05.relinquish_alloc_permit, §9.7.16.7.1)");
  if (t.last_columns && columns > t.last_columns)
    w.undefined(l, "'" + op.text + "' allocates " + std::to_string(columns) + " columns after an allocation of " +
                       std::to_string(t.last_columns) +
                       ": the number of columns may not increase between allocations of a CTA (§9.7.16.7.1)");
}

// tcgen05.alloc.cta_group.sync.aligned{.shared::cta}.b32 [dst], nCols
void alloc(Warp& w, const Op& op, uint32_t m) {
  const unsigned columns = columns_operand(w, op, m);
  check_may_allocate(w, op, m, w.cta->unit<TensorMemory>(), columns);
  bool go;
  const Side other = meet(w, op, m, go);
  if (!go) return;
  const Side mine{&w, m, &op};
  if (other.warp) {
    check_may_allocate(*other.warp, *other.op, other.lanes, memory_of(other), columns);
    const uint64_t theirs = other.warp->get<uint64_t>(other.op->args[1], std::countr_zero(other.lanes));
    if (theirs != columns)
      w.undefined(std::countr_zero(m), "'" + op.text + "' allocates " + std::to_string(columns) +
                                           " columns, the peer CTA's warp " + std::to_string(theirs) +
                                           "; a .cta_group::2 allocation is one size in both (§9.7.16.7.1)");
  }
  if (try_allocate(mine, other, columns)) {
    if (other.warp) other.warp->wake(other.lanes);
    return;
  }
  w.cta->unit<TensorMemory>().blocked.push_back({mine, other, columns});
  w.park(m);
}

void free_columns(Warp& w, const Op& op, int l, TensorMemory& t, uint32_t taddr, unsigned columns) {
  for (size_t i = 0; i < t.allocations.size(); ++i) {
    const TensorMemory::Allocation a = t.allocations[i];
    if (a.column != column_of(taddr) || lane_of(taddr) != 0) continue;
    if (a.columns != columns)
      w.undefined(l, "'" + op.text + "' frees " + std::to_string(columns) + " columns at " + std::to_string(a.column) +
                         ", but that allocation has " + std::to_string(a.columns) + " (§9.7.16.7.1)");
    t.columns_in_use &= static_cast<uint16_t>(~(((1u << (columns / kColumnUnit)) - 1) << (a.column / kColumnUnit)));
    t.allocations.erase(t.allocations.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
  w.undefined(l, "'" + op.text + "': taddr " + std::to_string(taddr) +
                     " is not the address of a Tensor Memory allocation of the CTA (§9.7.16.7.1)");
}

// tcgen05.dealloc.cta_group.sync.aligned.b32 taddr, nCols
void dealloc(Warp& w, const Op& op, uint32_t m) {
  const unsigned columns = columns_operand(w, op, m);
  const uint32_t taddr = static_cast<uint32_t>(uniform(w, op, m, op.args[0], "taddr", kSection));
  bool go;
  const Side other = meet(w, op, m, go);
  if (!go) return;
  TensorMemory& t = w.cta->unit<TensorMemory>();
  free_columns(w, op, std::countr_zero(m), t, taddr, columns);
  if (other.warp) {
    free_columns(*other.warp, *other.op, std::countr_zero(other.lanes), memory_of(other),
                 static_cast<uint32_t>(other.warp->get<uint64_t>(other.op->args[0], std::countr_zero(other.lanes))),
                 columns);
    other.warp->wake(other.lanes);
    retry_blocked(memory_of(other));
  }
  retry_blocked(t);
  if (exec::Cta* p = w.cta->cluster->at(w.cta->rank ^ 1u))
    if (TensorMemory* pm = p->units.find<TensorMemory>()) retry_blocked(*pm);
}

// tcgen05.relinquish_alloc_permit.cta_group.sync.aligned
void relinquish(Warp& w, const Op& op, uint32_t m) {
  bool go;
  const Side other = meet(w, op, m, go);
  if (!go) return;
  w.cta->unit<TensorMemory>().relinquished = true;
  if (other.warp) {
    memory_of(other).relinquished = true;
    other.warp->wake(other.lanes);
  }
}

template <program::Handler H>
bool select(const isa::Bound& b, Op& op, std::string&) {
  op.fn = H;
  op.aux = b.is("cta_group", ".cta_group::2") ? 2 : 1;
  op.aux2 = static_cast<uint64_t>(b.value("ss") ? Space::Shared : Space::Generic);
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["tcgen05.alloc §9.7.16.7.1"] = select<&alloc>;
  r["tcgen05.dealloc §9.7.16.7.1"] = select<&dealloc>;
  r["tcgen05.relinquish_alloc_permit §9.7.16.7.1"] = select<&relinquish>;
});

}  // namespace
}  // namespace ptxvm::units::tcgen05
