#include "exec/engine.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace ptxvm::exec {
namespace {

// Ops a lane group may run before another group of the same warp gets a turn, so that a lane
// spinning on a flag another lane sets cannot starve it.
constexpr uint32_t kGroupStreak = 4096;
// Ops a warp runs before the next warp of its CTA gets a turn.
constexpr uint32_t kWarpSlice = 2048;
// Rounds a resident cluster runs in a row while it moves, before the next cluster's turn.
constexpr unsigned kClusterTurns = 256;
// CTAs each host thread keeps resident and interleaves (an SM holds up to 32 on sm_90), as
// far as their registers and memory fit in kResidentBytes.
constexpr size_t kResidentCtas = 16;
constexpr uint64_t kResidentBytes = uint64_t{256} << 20;

struct Stop {};  // another CTA faulted: unwind quietly

class CtaRunner {
public:
  CtaRunner(Launch& l, Cta& cta, std::atomic<bool>& stop) : launch_(l), cta_(cta), stop_(stop) {}

  enum class Round { Done, Progress, Stuck };

  // Runs every unfinished warp for one slice. Stuck: no warp could move (a deadlock, unless
  // another CTA of its cluster moves and releases it).
  Round round() {
    bool progress = false, all_done = true;
    for (Warp& w : cta_.warps) {
      if (done(w)) continue;
      all_done = false;
      running = &w;
      if (launch_.sanitizer ? run_warp<true>(w) : run_warp<false>(w)) progress = true;
      running = nullptr;
      if (stop_.load(std::memory_order_relaxed)) throw Stop{};
    }
    if (all_done) return Round::Done;
    return progress ? Round::Progress : Round::Stuck;
  }

  static bool done(const Warp& w) { return (w.alive & ~w.exited) == 0; }

  // Whether a warp ran a whole slice in the last round (rather than parking, waiting or exiting).
  bool sliced = false;

private:
  // The lanes that may run: alive, not exited, not parked by a unit or at a .sync op.
  static uint32_t runnable_lanes(const Warp& w) { return w.alive & ~w.exited & ~w.parked & ~w.sync_waiting; }

  // Runs one slice of `w`; false when no lane could move. kChecked: the launch runs checks, which
  // see each instruction before it runs (checked()).
  template <bool kChecked>
  bool run_warp(Warp& w) {
    const program::Op* ops = launch_.program->ops.data();
    const uint64_t step_limit = launch_.step_limit;
    bool progressed = false;
    // The group that ran last, when it moved on together to `next` (after an op that cannot move
    // PCs, program::Op::jumps, or a branch the whole group took, Op::branches): while the runnable
    // lanes stay the same, no lanes are owed a turn and every other runnable lane stands at
    // `others` or above, with next < others, the lowest PC is `next` and its lanes are that
    // group, so that no lanes need comparing.
    uint32_t last_runnable = 0, last_group = 0, next = 0, others = 0;
    for (uint32_t n = 0; n < kWarpSlice; ++n) {
      uint32_t runnable = runnable_lanes(w);
      if (!runnable) return progressed;
      uint32_t pc, group;
      if (runnable == last_runnable && next < others && !w.favored) {
        pc = next;
        group = last_group;
        if (group == runnable) {
          ++w.streak;  // converged: the fairness window keeps counting
        } else if (uint32_t pool = pool_of(w, runnable); pool != runnable) {
          pc = lowest(w, pool);  // the window turned: the lanes owed a turn go first
          group = lanes_at(w, pc) & runnable;
        }
      } else {
        // The fast case: every runnable lane at one PC (a converged warp) and no lanes owed a
        // turn. Else the lowest PC, among the lanes owed a turn if there are any.
        pc = w.pc[std::countr_zero(runnable)];
        group = w.favored ? 0 : lanes_at(w, pc) & runnable;
        if (group == runnable) {
          ++w.streak;
          others = UINT32_MAX;
        } else {
          uint32_t pool = pool_of(w, runnable);
          pc = lowest(w, pool);
          group = lanes_at(w, pc) & runnable;
          others = pool == runnable ? lowest(w, runnable & ~group) : 0;
        }
      }
      if (group == runnable && !w.sync_waiting && !w.favored) {
        // Converged: the straight run below, until the warp is not.
        uint32_t budget = kWarpSlice - n;
        if (step_limit) budget = static_cast<uint32_t>(std::min<uint64_t>(budget, step_limit - w.steps + 1));
        n += run_converged<kChecked>(w, pc, group, budget) - 1;
        last_runnable = 0;
        progressed = true;
        if (step_limit && w.steps > step_limit) step_limit_exceeded();
        continue;
      }
      const program::Op& op = ops[pc];
      const uint32_t exec = guarded(w, op, group);
      w.recent |= group;
      advance(w, group, pc + 1);
      w.current_pc = pc;
      w.group = group;
      if constexpr (kChecked) {
        if (!checked(w, pc, group, exec)) {  // it waits for the rest of its warp
          advance(w, group, pc);
          w.sync_waiting |= group;
          last_runnable = 0;
          continue;
        }
      }
      if (exec) op.fn(w, op, exec);
      if constexpr (kChecked) w.settle();
      // The group stays together at a known PC after an op that moved no PCs (it did not jump,
      // or its guard held for no lane) and after a branch that all of it took.
      last_runnable = !op.jumps || !exec || (op.branches && exec == group) ? runnable : 0;
      last_group = group;
      next = op.branches && exec ? op.args[0].reg : pc + 1;
      // A group that ran (rather than parked at a .sync op) may be what parked lanes wait for:
      // they try again.
      if (!(w.sync_waiting & group)) w.sync_waiting = 0;
      ++w.steps;
      progressed = true;
      if (step_limit && w.steps > step_limit) step_limit_exceeded();
      if (done(w)) return true;
    }
    sliced = true;
    return progressed;
  }

  // Runs the converged warp — every runnable lane (`group`) at `pc`, no lanes owed a turn, none
  // parked at a .sync op — for up to `budget` ops (at least one) while it stays so: through ops
  // that move no PCs and branches that all of the group or none of it takes. Returns the ops run.
  template <bool kChecked>
  uint32_t run_converged(Warp& w, uint32_t pc, uint32_t group, uint32_t budget) {
    const program::Op* ops = launch_.program->ops.data();
    w.recent |= group;
    w.group = group;
    uint32_t n = 0;
    while (n < budget) {
      const program::Op& op = ops[pc];
      const uint32_t exec = guarded(w, op, group);
      advance(w, group, pc + 1);
      w.current_pc = pc;
      ++n;
      if constexpr (kChecked) {
        if (!checked(w, pc, group, exec)) {  // the rest of the warp is parked or waiting: cannot
          advance(w, group, pc);             // happen while it runs converged, but stay correct
          w.sync_waiting |= group;
          break;
        }
      }
      if (exec) op.fn(w, op, exec);
      if constexpr (kChecked) w.settle();
      // Lanes parked, exited or released, or PCs set lane by lane: the general path goes on.
      if (runnable_lanes(w) != group) break;
      if (!op.jumps || !exec) ++pc;
      else if (op.branches && exec == group) pc = op.args[0].reg;
      else break;
    }
    w.streak += n;
    w.steps += n;
    return n;
  }

  // What the checks see of the op at `pc` before `group` runs it (`exec`: the lanes whose guard
  // holds); false: the group waits instead. synccheck: an .aligned instruction is executed by the
  // whole warp together (§9.7.13.1, §9.7.14). A GPU reconverges a warp before one (ptxas places
  // a convergence barrier), so the group first waits for the warp's other lanes that can still
  // move, as lanes parked at a .sync operation do; only what remains divergent once they cannot
  // is reported. racecheck: the lanes of a .sync instruction of the warp meet there.
  bool checked(Warp& w, uint32_t pc, uint32_t group, uint32_t exec) {
    const sanitize::OpTraits& t = launch_.sanitizer->traits(pc);
    const uint32_t live = w.alive & ~w.exited;
    if (t.aligned && (live & ~group & ~w.parked & ~w.sync_waiting)) return false;
    // A barrier does not wait for threads that exited (§9.7.13.1); any other .aligned instruction
    // needs every thread of the warp.
    uint32_t needed = t.barrier ? live : w.alive;
    if (t.aligned) {
      // Lanes that executed it before are needed again, exited or not: a barrier does not wait for
      // exited threads, but lanes that left a loop around one early diverged from the others.
      uint32_t& seen = w.aligned_seen[pc];
      needed |= seen;
      seen |= group;
    }
    if (t.aligned && group != needed) {
      const uint32_t gone = needed & ~group & w.exited, elsewhere = needed & ~group & ~w.exited;
      w.sync_report(std::countr_zero(group), "divergent .aligned instruction",
                    "lanes " + lane_list(group) + " of the warp execute it while lanes " +
                        (elsewhere ? lane_list(elsewhere) + " are elsewhere" : "") + (elsewhere && gone ? " and " : "") +
                        (gone ? lane_list(gone) + " have exited" : "") +
                        "; every thread of the warp must execute an .aligned instruction together "
                        "(undefined otherwise, PTX §9.7.13.1, §9.7.14)");
    }
    if (t.warp_sync && exec) w.joined(exec, t.warp_barrier);
    w.init_uses(exec);
    if (w.async_registers) w.async_uses(exec);
    return true;
  }

  // "0-15, 20": the lanes of `mask`.
  static std::string lane_list(uint32_t mask) {
    std::string text;
    for (int lane = 0; lane < 32;) {
      if (!((mask >> lane) & 1u)) {
        ++lane;
        continue;
      }
      int last = lane;
      while (last + 1 < 32 && ((mask >> (last + 1)) & 1u)) ++last;
      text += (text.empty() ? "" : ", ") + std::to_string(lane) + (last > lane ? "-" + std::to_string(last) : "");
      lane = last + 1;
    }
    return text;
  }

  // The lanes of `group` for which `op`'s guard holds.
  static uint32_t guarded(const Warp& w, const program::Op& op, uint32_t group) {
    if (op.guard == program::kNoReg) return group;
    const uint32_t p = w.preds[op.guard];
    return group & (op.guard_negated ? ~p : p);
  }

  // Moves the lanes of `group` to `pc`.
  static void advance(Warp& w, uint32_t group, uint32_t pc) {
    if (group == ~0u) {
      w.pc.fill(pc);
      return;
    }
    for (int lane = 0; lane < 32; ++lane) {  // branch-free so that it vectorises
      const uint32_t in = -static_cast<uint32_t>((group & kLaneBit[lane]) != 0);
      w.pc[lane] = (in & pc) | (~in & w.pc[lane]);
    }
  }

  [[noreturn]] static void step_limit_exceeded() {
    throw mem::GuestFault{mem::GuestFault::Kind::Deadlock, mem::Space::Generic, 0, 0,
                          "step limit exceeded (possible infinite loop)"};
  }

  // The lanes whose PC is `pc`, compared for all 32 lanes branch-free (it vectorises).
  static uint32_t lanes_at(const Warp& w, uint32_t pc) {
    uint32_t at = 0;
    for (int lane = 0; lane < 32; ++lane) at |= -static_cast<uint32_t>(w.pc[lane] == pc) & kLaneBit[lane];
    return at;
  }

  // The lowest PC among runnable lanes reconverges structured code. Every kGroupStreak ops the
  // lanes that did not run in that window get the next window to themselves, so a lane spinning
  // on a flag that another lane of its warp sets cannot starve it. Returns the lanes to choose
  // from.
  static uint32_t pool_of(Warp& w, uint32_t runnable) {
    if (++w.streak > kGroupStreak) {
      w.streak = 0;
      w.favored = runnable & ~w.recent;
      w.recent = 0;
    }
    return (w.favored & runnable) ? (w.favored & runnable) : runnable;
  }

  // The lowest PC of the lanes of `pool`.
  static uint32_t lowest(const Warp& w, uint32_t pool) {
    uint32_t low = UINT32_MAX;
    for (int lane = 0; lane < 32; ++lane) {  // branch-free so that it vectorises
      const uint32_t outside = -static_cast<uint32_t>((pool & kLaneBit[lane]) == 0);
      low = std::min(low, w.pc[lane] | outside);  // UINT32_MAX for a lane outside the pool
    }
    return low;
  }

public:
  Warp* running = nullptr;  // the warp whose op is executing, for fault reports

private:
  Launch& launch_;
  Cta& cta_;
  std::atomic<bool>& stop_;
};

// What the warps of a CTA that cannot move wait for: " warp 0 (32 threads) waits at line 12 in a
// barrier; ...".
std::string stuck_warps(const Cta& cta, const Launch& launch) {
  std::string detail;
  for (const Warp& w : cta.warps) {
    if (CtaRunner::done(w)) continue;
    const uint32_t lanes = w.alive & ~w.exited;
    const int lane = std::countr_zero(w.parked ? w.parked : lanes);  // a parked lane says why
    std::string why = w.parked ? cta.units.waiting(w, lane) : w.sync_waiting ? " in a .sync warp operation" : "";
    if (w.parked && why.empty()) why = cta.cluster->units.waiting(w, lane);
    detail += " warp " + std::to_string(w.index) + " (" + std::to_string(std::popcount(lanes)) +
              " threads) waits at line " + std::to_string(launch.program->ops[w.pc[lane]].line) + why + ";";
  }
  return detail;
}

// The deadlock of a cluster none of whose CTAs can move: barriers, .sync operations and the
// cluster's units only wait for threads of the same cluster.
mem::GuestFault deadlock(const Cluster& cluster, const Launch& launch) {
  std::string detail;
  if (cluster.ctas.size() == 1) {
    detail = "no thread of the CTA can make progress:" + stuck_warps(*cluster.ctas[0], launch);
  } else {
    detail = "no thread of the cluster can make progress:";
    for (const Cta* c : cluster.ctas)
      detail += " CTA (" + std::to_string(c->id.x) + ", " + std::to_string(c->id.y) + ", " + std::to_string(c->id.z) +
                ") rank " + std::to_string(c->rank) + (c->finished ? " has exited;" : ":" + stuck_warps(*c, launch));
  }
  return mem::GuestFault{mem::GuestFault::Kind::Deadlock, mem::Space::Generic, 0, 0, detail};
}

// Sets `cta` up to run CTA `id`; a reused Cta keeps the capacity of its buffers.
void init_cta(Launch& l, Cta& cta, Dim3 id, Cluster& cluster, uint32_t rank, unsigned host_thread) {
  const program::Program& p = *l.program;
  cta.id = id;
  cta.cluster = &cluster;
  cta.rank = rank;
  cta.launch = &l;
  cta.host_thread = host_thread;
  cta.threads = static_cast<uint32_t>(l.block.count());
  cta.exited_threads = 0;
  cta.shared.bytes.assign(l.kernel->shared_bytes + l.dynamic_shared, 0);
  if (p.local_bytes || !cta.locals_empty || cta.local.size() != cta.threads) {
    cta.local.resize(cta.threads);
    for (auto& b : cta.local) {
      if (p.local_bytes) b.bytes.assign(p.local_bytes, 0);
      else b.bytes.clear();  // the same, in fewer steps (no local memory is common)
    }
  }
  cta.locals_empty = !p.local_bytes;
  uint32_t nwarps = (cta.threads + 31) / 32;
  cta.warps.resize(nwarps);
  if (!cta.units.empty()) cta.units.clear();
  cta.own_race.reset();
  cta.race = cluster.race.get();
  cta.race_thread = cluster.race ? rank * cta.threads : 0;
  cta.race_byte = cluster.race ? rank * cta.shared.bytes.size() : 0;
  if (!cta.race && l.sanitizer && l.sanitizer->clocks() && !cta.shared.bytes.empty()) {  // nothing to race on without
    cta.own_race = std::make_unique<sanitize::RaceShadow>(
        cta.threads, l.sanitizer->checks.racecheck ? cta.shared.bytes.size() : 0, l.sanitizer->tcgen05_order);
    cta.race = cta.own_race.get();
  }
  cta.proxy.reset();
  if (cluster.async && !cta.shared.bytes.empty())
    cta.proxy = std::make_unique<sanitize::ProxyShadow>(cta.shared.bytes.size(), cta.threads);
  cta.init.reset();
  if (l.sanitizer && l.sanitizer->checks.initcheck)
    cta.init = std::make_unique<sanitize::InitShadow>(cta.shared.bytes.size(), cta.threads, p.local_bytes);
  for (uint32_t i = 0; i < nwarps; ++i) {
    Warp& w = cta.warps[i];
    std::vector<uint64_t> regs = std::move(w.regs);  // a fresh Warp, keeping these buffers
    std::vector<uint32_t> preds = std::move(w.preds);
    // and the allocations found by an earlier CTA of this launch (none is freed during it)
    const bool same_launch = w.launch == &l;
    const mem::GlobalMemory::Range last_global = w.last_global, other_global = w.other_global;
    std::destroy_at(&w);  // rebuilt in place: a temporary Warp copied over it stalls on its reload
    std::construct_at(&w);
    w.regs = std::move(regs);
    w.preds = std::move(preds);
    if (same_launch) w.last_global = last_global, w.other_global = other_global;
    w.cta = &cta;
    w.launch = &l;
    w.program = &p;
    w.shared_data = cta.shared.bytes.data();
    w.shared_size = cta.shared.bytes.size();
    w.shared_base = mem::cluster_shared_address(rank, 0);
    w.param_data = const_cast<uint8_t*>(l.params.bytes.data());  // as access_checked reaches it
    w.param_size = l.params.bytes.size();
    w.checked = l.sanitizer != nullptr;
    w.race_checked = cta.race != nullptr;
    w.async_checked = cluster.async != nullptr;
    w.async_registers = 0;
    if (w.async_checked) w.async_register_pc.assign(p.reg_slots, 0), w.async_register_count.assign(p.reg_slots, 0);
    if (cta.init) {
      w.vbits.assign(size_t{p.reg_slots} * 32, 0);
      w.vfrom.assign(size_t{p.reg_slots} * 32, 0);
      w.uninit.assign(p.reg_slots, 0);
      w.pundef.assign(p.pred_regs, 0);
    }
    w.index = i;
    w.first_thread = i * 32;
    uint32_t n = std::min<uint32_t>(32, cta.threads - i * 32);
    w.alive = n == 32 ? ~0u : (1u << n) - 1;
    w.pc.fill(l.kernel->entry);
    // A reused Warp (of this launch or, kept by its host thread, of an earlier one) zeroes only
    // the registers a thread may read before writing them (program::Function::zeroed_slots); the
    // others it writes before anything can see them. A new one starts all zero.
    w.regs.resize(size_t{p.reg_slots} * 32);
    for (auto [first, count] : l.kernel->zeroed_slots)
      for (uint32_t slot = first; slot < first + count; ++slot)  // one fixed-size row at a time:
        std::memset(&w.regs[size_t{slot} * 32], 0, 32 * sizeof(uint64_t));  // stores, no call
    for (auto [slot, offset] : l.kernel->shared_vars)  // the shared variables' addresses in this CTA
      std::fill_n(&w.regs[size_t{slot} * 32], 32, w.shared_base + offset);
    if (cta.init) {  // initcheck: a register a thread may read before writing it holds undefined bits
      for (auto [first, count] : l.kernel->zeroed_slots)
        for (uint32_t slot = first; slot < first + count; ++slot) {
          w.uninit[slot] = ~0u;
          std::fill_n(&w.vbits[size_t{slot} * 32], 32, ~uint64_t{0});
          std::fill_n(&w.vfrom[size_t{slot} * 32], 32, Warp::kNeverWritten);
        }
      for (auto [slot, offset] : l.kernel->shared_vars) w.defined(slot, ~0u);
    }
    w.preds.assign(p.pred_regs, 0);
  }
}

}  // namespace

uint64_t cta_footprint(const Launch& l) {
  const program::Program& p = *l.program;
  uint64_t threads = l.block.count(), warps = (threads + 31) / 32;
  return warps * (uint64_t{p.reg_slots} * 32 * 8 + uint64_t{p.pred_regs} * 4 + sizeof(Warp)) +
         l.kernel->shared_bytes + l.dynamic_shared + threads * p.local_bytes;
}

namespace {

// Host threads kept from launch to launch: starting threads for each launch costs more than a
// small grid takes to run. One launch uses them at a time; run() says false to a launch that
// finds them busy (launches from several host threads at once), which then starts its own.
class HostThreads {
public:
  ~HostThreads() {
    {
      std::lock_guard lock(mutex_);
      quit_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // Runs job(0) .. job(n - 1) at once, job(0) on the calling thread, and waits for all.
  bool run(unsigned n, const std::function<void(unsigned)>& job) {
    std::unique_lock busy(busy_, std::try_to_lock);
    if (!busy) return false;
    {
      std::lock_guard lock(mutex_);
      while (threads_.size() + 1 < n) {
        auto index = static_cast<unsigned>(threads_.size() + 1);
        threads_.emplace_back([this, index, seen = generation_] { serve(index, seen); });
      }
      job_ = &job;
      width_ = n;
      pending_ = n - 1;
      ++generation_;
    }
    wake_.notify_all();
    auto wait = [&] {
      std::unique_lock lock(mutex_);
      done_.wait(lock, [&] { return pending_ == 0; });
    };
    try {
      job(0);
    } catch (...) {
      wait();  // the others still use this launch's state
      throw;
    }
    wait();
    return true;
  }

private:
  void serve(unsigned index, uint64_t seen) {
    for (;;) {
      const std::function<void(unsigned)>* job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
        if (quit_) return;
        seen = generation_;
        if (index >= width_) continue;
        job = job_;
      }
      (*job)(index);
      {
        std::lock_guard lock(mutex_);
        --pending_;
      }
      done_.notify_all();
    }
  }

  std::mutex busy_;   // held by the launch using the threads
  std::mutex mutex_;  // guards the fields below
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;  // threads_[i] runs job(i + 1)
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned width_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool quit_ = false;
};

HostThreads& host_threads() {
  static HostThreads threads;
  return threads;
}

Dim3 unlinear(uint64_t i, Dim3 d) {
  return {static_cast<uint32_t>(i % d.x), static_cast<uint32_t>(i / d.x % d.y),
          static_cast<uint32_t>(i / (uint64_t{d.x} * d.y))};
}

}  // namespace

uint64_t cluster_count(const Launch& l) {
  return Dim3{l.grid.x / l.cluster.x, l.grid.y / l.cluster.y, l.grid.z / l.cluster.z}.count();
}

Dim3 cluster_origin(const Launch& l, uint64_t i) {
  const Dim3 at = unlinear(i, {l.grid.x / l.cluster.x, l.grid.y / l.cluster.y, l.grid.z / l.cluster.z});
  return {at.x * l.cluster.x, at.y * l.cluster.y, at.z * l.cluster.z};
}

namespace {

// Where the warps of a CTA in flight are, for an interruption report: one line per CTA, warps at
// the same place named together ("warps 0-3 at k.ptx:12 (pc 7) bra.uni LOOP").
std::string cta_position(const Cta& cta, const Launch& launch) {
  std::string text = "CTA (" + std::to_string(cta.id.x) + ", " + std::to_string(cta.id.y) + ", " +
                     std::to_string(cta.id.z) + "):";
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> at;  // pc, the warps there
  for (const Warp& w : cta.warps) {
    uint32_t live = w.alive & ~w.exited;
    if (!live) continue;
    uint32_t pc = UINT32_MAX;
    for (uint32_t lanes = live; lanes; lanes &= lanes - 1) pc = std::min(pc, w.pc[std::countr_zero(lanes)]);
    auto it = std::find_if(at.begin(), at.end(), [&](const auto& p) { return p.first == pc; });
    if (it == at.end()) at.push_back({pc, {w.index}});
    else it->second.push_back(w.index);
  }
  for (const auto& [pc, warps] : at) {
    std::string names = warps.size() == 1 ? "warp " + std::to_string(warps[0])
                        : warps.back() - warps.front() + 1 == warps.size()
                            ? "warps " + std::to_string(warps.front()) + "-" + std::to_string(warps.back())
                            : std::to_string(warps.size()) + " warps";
    const program::Op& op = launch.program->ops[pc];
    text += " " + names + " at " + launch.program->source_name + ":" + std::to_string(op.line) + " (pc " +
            std::to_string(pc) + ") " + op.text + ";";
  }
  text.pop_back();
  return text;
}

}  // namespace

std::string FaultReport::render(const std::string& source_name) const {
  if (interrupted) {
    constexpr size_t kShown = 8;  // CTAs listed; the rest are counted
    std::string text = "ptxvm: kernel '" + kernel + "' stopped: " + message + "\n";
    for (size_t i = 0; i < in_flight.size() && i < kShown; ++i) text += "  " + in_flight[i] + "\n";
    if (in_flight.size() > kShown)
      text += "  ... and " + std::to_string(in_flight.size() - kShown) + " more CTAs in flight\n";
    return text;
  }
  return "ptxvm: kernel '" + kernel + "' stopped: " + message + "\n  at " + source_name + ":" +
         std::to_string(line) + ": " + instruction + "\n  CTA (" + std::to_string(cta.x) + ", " +
         std::to_string(cta.y) + ", " + std::to_string(cta.z) + "), warp " + std::to_string(warp) +
         ", lane " + std::to_string(lane) + ", pc " + std::to_string(pc) + "\n";
}

std::optional<FaultReport> run(Launch& launch) {
  // The work is clusters (§2.2.2; a launch without one has clusters of one CTA), each run as a
  // unit on one host thread: its CTAs resident together and interleaved.
  const Dim3 cluster = launch.cluster;
  const uint64_t cluster_ctas = cluster.count(), nclusters = cluster_count(launch);
  std::atomic<uint64_t>& next = launch.next_cluster;
  next = 0;
  std::atomic<bool> stop{false};
  std::mutex fault_mutex;
  std::optional<FaultReport> fault;
  unsigned nthreads = std::max(1u, std::min<unsigned>(launch.threads, static_cast<unsigned>(nclusters)));
  auto record_fault = [&](const mem::GuestFault& f, const Cta& cta, const Warp* w) {
    std::lock_guard lock(fault_mutex);
    if (fault) return;
    FaultReport r;
    r.kernel = launch.kernel->name;
    r.cta = cta.id;
    r.message = f.describe();
    if (!w)
      for (const Warp& candidate : cta.warps)
        if ((candidate.alive & ~candidate.exited) && !w) w = &candidate;
    if (w) {
      const program::Op& op = launch.program->ops[w->current_pc];
      r.warp = w->index;
      r.lane = w->fault_lane >= 0 ? static_cast<uint32_t>(w->fault_lane)
                                  : static_cast<uint32_t>(std::countr_zero(w->group));
      r.pc = w->current_pc;
      r.line = op.line;
      r.instruction = op.text;
    }
    r.kind = f.kind;
    const bool memory = f.kind == mem::GuestFault::Kind::OutOfBounds || f.kind == mem::GuestFault::Kind::Misaligned;
    const uint32_t id[3] = {cta.id.x, cta.id.y, cta.id.z};
    if (w && f.kind == mem::GuestFault::Kind::Invalid && launch.sanitizer && launch.sanitizer->checks.synccheck &&
        launch.sanitizer->traits(r.pc).collective && !launch.sanitizer->reported("synccheck", r.pc)) {
      // Undefined behaviour at a synchronisation instruction (a lane outside its membermask, a
      // barrier id out of range) stops the launch, as without checks, and is synccheck's finding.
      CheckReport c;
      c.check = "synccheck";
      c.kind = "invalid synchronisation";
      c.site = launch.sanitizer->site(id, w->first_thread + r.lane, r.pc);
      c.detail = f.detail;
      launch.sanitizer->report(std::move(c));
    }
    if (w && memory && launch.sanitizer && launch.sanitizer->checks.memcheck) {
      CheckReport c;
      c.check = "memcheck";
      c.kind = f.kind == mem::GuestFault::Kind::OutOfBounds ? "out-of-bounds access" : "misaligned access";
      c.site = launch.sanitizer->site(id, w->first_thread + r.lane, r.pc);
      c.space = mem::to_string(f.space);
      c.address = f.address;
      c.size = f.size;
      c.detail = f.kind == mem::GuestFault::Kind::OutOfBounds
                     ? f.detail
                     : "the address is not a multiple of the access size (PTX §5.4.5)";
      launch.sanitizer->report(std::move(c));
    }
    fault = r;
    stop = true;
  };

  // Each host thread keeps several clusters resident and interleaves them, so that a CTA spinning
  // on a flag another resident CTA sets makes progress; a cooperative launch keeps the whole
  // grid resident (grid-wide synchronisation through global memory). Otherwise a host thread
  // holds no more than its even share of the grid, so that every host thread gets work.
  const uint64_t even_share = (nclusters + nthreads - 1) / nthreads;
  const uint64_t cluster_bytes = cta_footprint(launch) * cluster_ctas;
  const size_t residency =
      launch.cooperative ? even_share
                         : std::clamp<uint64_t>(std::min(kResidentBytes / cluster_bytes, even_share), 1,
                                                std::max<uint64_t>(1, kResidentCtas / cluster_ctas));
  auto started = std::chrono::steady_clock::now();
  auto watchdog_expired = [&] {
    return launch.watchdog_seconds > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >
               launch.watchdog_seconds;
  };
  auto seconds_text = [&] {
    char buf[32];
    snprintf(buf, sizeof buf, "%g", launch.watchdog_seconds);
    return std::string(buf);
  };
  // A cluster in flight and its CTAs.
  struct Resident {
    Cluster cluster;
    std::vector<std::unique_ptr<Cta>> ctas;
    Cta& first_unfinished() const {
      for (const auto& c : ctas)
        if (!c->finished) return *c;
      return *ctas.front();
    }
  };
  auto worker = [&](unsigned host_thread) {
    std::vector<std::unique_ptr<Resident>> resident;
    // finished CTAs, reused: their buffers keep their capacity, from launch to launch on a host
    // thread, so that a kernel with a large register file does not allocate and fault in its
    // CTAs' registers at every launch
    thread_local std::vector<std::unique_ptr<Cta>> kept;
    std::vector<std::unique_ptr<Cta>> spare = std::move(kept);
    struct Keep {  // at every exit: the CTAs back to the host thread (up to 64 MiB), forgetting this launch
      std::vector<std::unique_ptr<Resident>>& resident;
      std::vector<std::unique_ptr<Cta>>& spare;
      size_t most;
      ~Keep() {
        for (auto& r : resident)
          for (auto& c : r->ctas) spare.push_back(std::move(c));
        resident.clear();  // the clusters' units go before their CTAs are reused
        if (spare.size() > most) spare.resize(most);
        for (auto& c : spare) {
          c->units.clear();
          c->launch = nullptr;
          c->cluster = nullptr;
          for (Warp& w : c->warps) w.launch = nullptr;  // a later Launch at this address is another launch
        }
        kept = std::move(spare);
      }
    } keep{resident, spare, std::clamp<size_t>((uint64_t{64} << 20) / cta_footprint(launch), 1, kResidentCtas)};
    // Starts cluster i: its CTAs, ranked x first (§10.15), co-resident from now on.
    auto start = [&](uint64_t i) {
      auto r = std::make_unique<Resident>();
      const Dim3 origin = cluster_origin(launch, i);
      r->cluster.id = {origin.x / cluster.x, origin.y / cluster.y, origin.z / cluster.z};
      if (launch.sanitizer && launch.sanitizer->checks.async) r->cluster.async = std::make_unique<sanitize::AsyncShadow>();
      const uint64_t threads = launch.block.count() * cluster_ctas, shared = launch.kernel->shared_bytes + launch.dynamic_shared;
      if (launch.sanitizer && launch.sanitizer->clocks() && cluster_ctas > 1 && shared &&
          threads <= Cluster::kClusterRaceThreads)
        r->cluster.race = std::make_unique<sanitize::RaceShadow>(
            static_cast<uint32_t>(threads), launch.sanitizer->checks.racecheck ? shared * cluster_ctas : 0,
            launch.sanitizer->tcgen05_order);
      for (uint32_t rank = 0; rank < cluster_ctas; ++rank) {
        if (spare.empty()) spare.push_back(std::make_unique<Cta>());
        r->ctas.push_back(std::move(spare.back()));
        spare.pop_back();
        Cta& cta = *r->ctas.back();
        const Dim3 in = unlinear(rank, cluster);
        init_cta(launch, cta, {origin.x + in.x, origin.y + in.y, origin.z + in.z}, r->cluster, rank, host_thread);
        cta.finished = false;
        r->cluster.ctas.push_back(&cta);
      }
      resident.push_back(std::move(r));
    };
    while (!stop.load()) {
      if (launch.cancel && launch.cancel->load()) {  // each host thread reports its own CTAs
        std::lock_guard lock(fault_mutex);
        if (!fault) {
          fault.emplace();
          fault->kernel = launch.kernel->name;
          fault->message = "interrupted";
          fault->interrupted = true;
        }
        if (fault->interrupted)
          for (const auto& r : resident)
            for (const auto& c : r->ctas)
              if (!c->finished) fault->in_flight.push_back(cta_position(*c, launch));
        return;
      }
      if (watchdog_expired() && !resident.empty()) {
        record_fault(mem::GuestFault{mem::GuestFault::Kind::Deadlock, mem::Space::Generic, 0, 0,
                                     "watchdog: the launch ran longer than " + seconds_text() +
                                         " s (a thread may be waiting for something that never "
                                         "happens)"},
                     resident.front()->first_unfinished(), nullptr);
        return;
      }
      while (resident.size() < residency) {
        const uint64_t i = next.fetch_add(1);
        if (i >= nclusters) break;
        start(i);
      }
      if (resident.empty()) return;
      for (size_t c = 0; c < resident.size();) {
        // One round of each unfinished CTA of the cluster; a round in which none moved is a
        // deadlock, since what a cluster's threads wait for only its threads can do.
        Resident& r = *resident[c];
        bool moved = false, finished = true;
        // Up to kClusterTurns rounds in a row while its warps move and then park (at barriers,
        // units), so that its registers and shared memory stay in the host's caches; a round in
        // which a warp ran a whole slice (a long computation, or a spin on a flag that another
        // cluster sets) ends its turn.
        for (unsigned turn = 0; turn < kClusterTurns; ++turn) {
          bool moved_now = false, sliced = false;
          finished = true;
          for (auto& cta : r.ctas) {
            if (cta->finished) continue;
            CtaRunner runner(launch, *cta, stop);
            try {
              switch (runner.round()) {
              case CtaRunner::Round::Done: cta->finished = moved_now = true; break;
              case CtaRunner::Round::Progress: moved_now = true, finished = false; break;
              case CtaRunner::Round::Stuck: finished = false; break;
              }
              sliced |= runner.sliced;
            } catch (const Stop&) {
              return;
            } catch (const mem::GuestFault& f) {
              record_fault(f, *cta, runner.running);
              return;
            }
          }
          moved |= moved_now;
          if (finished || !moved_now || sliced) break;
        }
        if (finished) {
          if (launch.ctas_done) launch.ctas_done->fetch_add(r.ctas.size(), std::memory_order_relaxed);
          for (auto& cta : r.ctas) spare.push_back(std::move(cta));
          resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(c));
          continue;
        }
        if (!moved) {
          record_fault(deadlock(r.cluster, launch), r.first_unfinished(), nullptr);
          return;
        }
        ++c;
      }
    }
  };
  if (nthreads == 1) {
    worker(0);
  } else if (!host_threads().run(nthreads, worker)) {  // the pool is busy with another launch
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < nthreads; ++t) pool.emplace_back(worker, t);
    for (auto& t : pool) t.join();
  }
  return fault;
}

}  // namespace ptxvm::exec
