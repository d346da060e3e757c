// Tensor Memory state, shared by the tcgen05 instructions (tensor_memory.h).
#include "units/tcgen05/tensor_memory.h"

#include <algorithm>
#include <bit>

#include "exec/engine.h"
#include "exec/warp.h"
#include "program/program.h"

namespace ptxvm::units::tcgen05 {

using exec::Warp;
using program::Op;

TensorMemory::TensorMemory(exec::Cta& cta) : cta_(cta), cells_(size_t{kLanes} * kColumns, 0) {
  if (cta.launch->sanitizer && cta.launch->sanitizer->checks.tcgen05) {
    shadow = std::make_unique<Shadow>();
    shadow->written.assign(cells_.size(), 0);
    shadow->pending.assign(cells_.size(), 0);
    shadow->issuers.emplace_back(0, 0);  // seq 0: none
    shadow->loading.assign(cells_.size(), {});
    shadow->waits.assign(cta.warps.size(), 0);
    if (cta.race && cta.launch->sanitizer->tcgen05_order) shadow->last_write.assign(cells_.size(), {}), shadow->last_read.assign(cells_.size(), {});
  }
}

void TensorMemory::loads(const Warp& w, int l, uint32_t pc, unsigned lane, unsigned column) {
  const size_t at = size_t{lane} * kColumns + column;
  if (!shadow || at >= cells_.size() || w.index >= shadow->waits.size()) return;
  shadow->loading[at] = {w.index + 1, shadow->waits[w.index], w.first_thread + static_cast<uint32_t>(l), pc};
}

void TensorMemory::waited_for_loads(const Warp& w) {
  if (shadow && w.index < shadow->waits.size()) ++shadow->waits[w.index];
}

bool TensorMemory::check_overwrite(Warp& w, int l, uint32_t pc, unsigned lane, unsigned column) {
  const size_t at = size_t{lane} * kColumns + column;
  if (!shadow || at >= cells_.size()) return true;
  const Shadow::Load& ld = shadow->loading[at];
  if (ld.warp_plus_one != w.index + 1 || ld.waits != shadow->waits[w.index]) return true;
  w.check_report("tcgen05", l, pc, "Tensor Memory written before the tcgen05.ld reading it completed",
                 "lane " + std::to_string(lane) + ", column " + std::to_string(column) +
                     " is read by a tcgen05.ld of the warp that no tcgen05.wait::ld has waited for: the store may "
                     "land before the load reads it (PTX §9.7.16.6: tcgen05.wait::ld avoids anti-dependency "
                     "hazards around tcgen05.ld)",
                 ld.thread, ld.pc);
  return false;
}

void TensorMemory::will_write(uint64_t seq, uint32_t thread, uint32_t pc, unsigned lane, unsigned column) {
  const size_t at = size_t{lane} * kColumns + column;
  if (!shadow || at >= cells_.size()) return;
  if (seq & kStore) {
    shadow->pending[at] = kStore | uint64_t{thread} << 32 | pc;
    shadow->written[at] = 1;
  } else if (seq == 0) {
    shadow->written[at] = 1;
  } else {
    if (shadow->issuers.size() <= seq) shadow->issuers.resize(seq + 1), shadow->cells.resize(seq + 1);
    shadow->issuers[seq] = {thread, pc};
    shadow->cells[seq].push_back(static_cast<uint32_t>(at));
    shadow->pending[at] = seq;
  }
}

bool TensorMemory::check_read(Warp& w, int l, uint32_t pc, unsigned lane, unsigned column, const char* what,
                              const Issue* queued) {
  const size_t at = size_t{lane} * kColumns + column;
  if (!shadow || at >= cells_.size()) return true;
  const uint64_t p = queued ? 0 : shadow->pending[at];  // a queued operation lands after the earlier ones
  const std::string cell = "lane " + std::to_string(lane) + ", column " + std::to_string(column);
  if (p & kStore) {
    w.check_report("tcgen05", l, pc, "Tensor Memory read before the tcgen05.st that writes it completed",
                   std::string(what) + " (" + cell + ") was written by a tcgen05.st that no tcgen05.wait::st has "
                   "completed: the read is not ordered after it (PTX §9.7.16.6.4.2, §9.7.16.8.5)",
                   static_cast<uint32_t>(p >> 32 & 0x7fffffff), static_cast<uint32_t>(p));
    return false;
  }
  if (p > shadow->landed) {
    w.check_report("tcgen05", l, pc, "Tensor Memory read before the operation that writes it completed",
                   std::string(what) + " (" + cell + ") is written by an operation whose tcgen05.commit no thread "
                   "has observed complete (its mbarrier phase): the read is not ordered after it (PTX §9.7.16.6)",
                   shadow->issuers[p].first, shadow->issuers[p].second);
    return false;
  }
  if (!shadow->written[at]) {
    w.check_report("tcgen05", l, pc, "read of unwritten Tensor Memory",
                   std::string(what) + " (" + cell + ") has not been written since tcgen05.alloc: its value is "
                   "undefined (PTX §9.7.16.7.1)");
    return false;
  }
  return order(w, l, queued ? *queued : issue_of(w, l, false), lane, column, false);
}

TensorMemory::Issue TensorMemory::issue_of(const Warp& w, int l, bool async) {
  Issue i;
  if (!w.cta->race) return i;
  i.race = w.cta->race;
  i.thread = w.race_thread(l);
  i.warp = w.race_thread(0);
  i.clock = i.race->now(i.thread);
  i.pc = w.current_pc;
  i.async = async;
  return i;
}

bool TensorMemory::order(Warp& w, int l, const Issue& i, unsigned lane, unsigned column, bool writes, bool check) {
  using Fenced = sanitize::RaceShadow::Fenced;
  const size_t at = size_t{lane} * kColumns + column;
  if (!shadow || at >= shadow->last_write.size() || i.race != cta_.race) return true;
  Shadow::Stamp& last = shadow->last_write[at];
  Shadow::Stamp& read = shadow->last_read[at];
  // How `s`, earlier, is ordered before this access. A thread's own are in program order, and
  // so are its warp's tcgen05.ld and tcgen05.st (warp-wide instructions, which tcgen05.wait
  // orders), but for its mma, cp or shift before its ld or st: the wait for the commit's mbarrier
  // orders that (relaxed, with a fence after).
  auto fenced = [&](const Shadow::Stamp& s) {
    if (!s.thread_plus_one) return Fenced::Ordered;
    const uint32_t thread = s.thread_plus_one - 1;
    if (thread == i.thread && !(s.async && !i.async)) return Fenced::Ordered;
    if (s.warp == i.warp && !s.async && !i.async) return Fenced::Ordered;
    return i.race->fenced(thread, s.clock, i.thread);
  };
  bool clean = true;
  if (check)
    for (const Shadow::Stamp* s : {&last, writes ? &read : nullptr}) {
      if (!s) continue;
      const Fenced f = fenced(*s);
      if (f == Fenced::Ordered) continue;
      const uint32_t other = s->thread_plus_one - 1;
      const char* kind = f == Fenced::NotSynchronised ? "tcgen05 operations of different threads not synchronised"
                         : f == Fenced::NoFenceBefore ? "tcgen05 operation not ordered by tcgen05.fence::before_thread_sync"
                                                      : "tcgen05 operation not ordered by tcgen05.fence::after_thread_sync";
      const std::string cell = "lane " + std::to_string(lane) + ", column " + std::to_string(column);
      const std::string earlier = std::string(s == &last ? "written" : "read") + " by " +
                                  (other == i.thread ? "an mma, cp or shift of this thread" : "another thread's tcgen05 operation");
      const std::string why =
          f == Fenced::NotSynchronised
              ? "no barrier, mbarrier phase or strong access orders it before this one"
          : f == Fenced::NoFenceBefore
              ? "that thread executed no tcgen05.fence::before_thread_sync (or tcgen05.commit) between it and the "
                "synchronisation that orders the threads"
              : "this thread executed no tcgen05.fence::after_thread_sync between that synchronisation (or the "
                "commit's mbarrier wait) and this operation";
      w.check_report("tcgen05", l, i.pc, kind,
                     cell + " was " + earlier + "; " + why + ", so the operations are not ordered (PTX §9.7.16.6.3, "
                     "§9.7.16.6.4)",
                     other % cta_.threads, s->pc);
      clean = false;
      break;
    }
  const Shadow::Stamp now{i.thread + 1, i.warp, i.clock, i.pc, i.async};
  if (writes) {
    last = now;
    read = {};
  } else if (fenced(read) == Fenced::Ordered) {
    read = now;  // else the earlier read stays, as the witness a later write would race with
  }
  return clean;
}

void TensorMemory::check_allocated(Warp& w, int l, const Op& op, unsigned lane, unsigned lanes, unsigned column,
                                   unsigned columns) const {
  if (lane + lanes > kLanes || column + columns > kColumns)
    w.undefined(l, "'" + op.text + "' reaches lanes " + std::to_string(lane) + ".." + std::to_string(lane + lanes - 1) +
                       ", columns " + std::to_string(column) + ".." + std::to_string(column + columns - 1) +
                       ", outside the 128 lanes x 512 columns of Tensor Memory (§9.7.16.1)");
  for (unsigned c = column; c < column + columns; ++c)
    if (!allocated(c))
      w.undefined(l, "'" + op.text + "' reaches column " + std::to_string(c) +
                         " of Tensor Memory, which no tcgen05.alloc of the CTA holds (§9.7.16.1.2)");
}

void TensorMemory::take(unsigned column, unsigned columns) {
  if (shadow)  // fresh columns hold nothing defined
    for (unsigned lane = 0; lane < kLanes; ++lane)
      for (unsigned c = column; c < column + columns && c < kColumns; ++c)
        shadow->written[size_t{lane} * kColumns + c] = 0, shadow->pending[size_t{lane} * kColumns + c] = 0;
  if (shadow && !shadow->last_write.empty())  // ordered after the alloc's synchronisation
    for (unsigned lane = 0; lane < kLanes; ++lane)
      for (unsigned c = column; c < column + columns && c < kColumns; ++c)
        shadow->last_write[size_t{lane} * kColumns + c] = {}, shadow->last_read[size_t{lane} * kColumns + c] = {};
  columns_in_use |= static_cast<uint16_t>(((1u << (columns / kColumnUnit)) - 1) << (column / kColumnUnit));
  allocations.push_back({column, columns});
  last_columns = columns;
}

uint64_t TensorMemory::issue(std::function<void()> run) {
  queue.push_back({++issued, std::move(run)});
  return issued;
}

void TensorMemory::land(uint64_t upto) {
  size_t n = 0;
  while (n < queue.size() && queue[n].seq <= upto) ++n;
  if (n == 0) return;
  std::vector<Operation> landing(std::make_move_iterator(queue.begin()), std::make_move_iterator(queue.begin() + n));
  queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(n));
  for (Operation& o : landing) {
    if (shadow) shadow->landed = std::max(shadow->landed, o.seq);
    o.run();
    if (shadow && o.seq < shadow->cells.size()) {  // its cells hold what it wrote now
      for (uint32_t at : shadow->cells[o.seq]) shadow->written[at] = 1;
      std::vector<uint32_t>().swap(shadow->cells[o.seq]);
    }
  }
}

void TensorMemory::land_stores(uint32_t warp) {
  size_t kept = 0;
  for (const Store& s : stores) {
    if (s.warp == warp) {
      cell(s.lane, s.column) = s.value;
      if (shadow)
        if (uint64_t& p = shadow->pending[size_t{s.lane} * kColumns + s.column]; p & kStore) p = 0;
    } else {
      stores[kept++] = s;
    }
  }
  stores.resize(kept);
}

void TensorMemory::check_cta_group(Warp& w, int l, const Op& op, unsigned group) {
  if (cta_group == 0) cta_group = group;
  if (cta_group != group)
    w.undefined(l, "'" + op.text + "' names .cta_group::" + std::to_string(group) +
                       ", but this CTA ran tcgen05 instructions with .cta_group::" + std::to_string(cta_group) +
                       ": all tcgen05 instructions of a kernel must name the same (§9.7.16.7.1)");
}

void TensorMemory::exited(Warp& w, uint32_t lanes) {
  land_stores(w.index);
  if (cta_.exited_threads < cta_.threads || allocations.empty()) return;
  unsigned columns = 0;
  for (const Allocation& a : allocations) columns += a.columns;
  w.undefined(std::countr_zero(lanes), "the CTA exits with " + std::to_string(columns) +
                                           " columns of Tensor Memory still allocated: all of it must be freed "
                                           "by tcgen05.dealloc before the kernel exits (§9.7.16.7.1)");
}

std::string TensorMemory::waiting(const Warp& w, int lane) const {
  for (const Blocked& b : blocked)
    for (const Side* s : {&b.mine, &b.other})
      if (s->warp == &w && ((s->lanes >> lane) & 1u))
        return " in tcgen05.alloc, waiting for " + std::to_string(b.columns) +
               " free columns of Tensor Memory (§9.7.16.7.1)";
  if (pair_waiting.warp == &w && ((pair_waiting.lanes >> lane) & 1u))
    return " in '" + pair_waiting.op->text + "', waiting for a warp of the peer CTA to execute it too (§9.7.16.5)";
  return {};
}

void check_aligned(Warp& w, const Op& op, uint32_t m, const char* section) {
  if (w.exited) {
    const int lane = std::countr_zero(w.exited);
    w.undefined(lane, "'" + op.text + "' is .sync.aligned, but lane " + std::to_string(lane) +
                          " of the warp has exited (§" + section + ")");
  }
  const uint32_t all = w.alive;
  if (m == all) return;
  const int lane = std::countr_zero(all & ~m);
  w.undefined(lane, "'" + op.text + "' is .sync.aligned: every thread of the warp must execute it, lane " +
                        std::to_string(lane) + " does not (§" + section + ")");
}

uint64_t uniform(Warp& w, const Op& op, uint32_t m, const program::Arg& a, const char* what, const char* section) {
  const int first = std::countr_zero(m);
  const uint64_t v = a.kind == program::ArgKind::Address ? w.address(a, first) : w.get<uint64_t>(a, first);
  for (uint32_t rest = m & (m - 1); rest; rest &= rest - 1) {
    const int l = std::countr_zero(rest);
    const uint64_t x = a.kind == program::ArgKind::Address ? w.address(a, l) : w.get<uint64_t>(a, l);
    if (x != v)
      w.undefined(l, "'" + op.text + "': lane " + std::to_string(l) + " gives " + what + " " + std::to_string(x) +
                         ", lane " + std::to_string(first) + " gives " + std::to_string(v) +
                         "; every thread of the warp must give the same (§" + section + ")");
  }
  return v;
}

exec::Cta& peer(Warp& w, int l, const Op& op) {
  exec::Cta* p = w.cta->cluster->at(w.cta->rank ^ 1u);
  if (!p)
    w.undefined(l, "'" + op.text + "' is .cta_group::2, but CTA rank " + std::to_string(w.cta->rank) +
                       " has no peer CTA: its cluster has " + std::to_string(w.cta->cluster->ctas.size()) +
                       " CTA(s) (§9.7.16.5.1)");
  if (p->finished)
    w.undefined(l, "'" + op.text + "' is .cta_group::2, but the peer CTA (rank " + std::to_string(p->rank) +
                       ") has exited (§9.7.16.5)");
  return *p;
}

}  // namespace ptxvm::units::tcgen05
