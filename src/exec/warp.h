// What a semantic body sees: one warp of 32 lanes with lane-major registers, its CTA and
// launch, and checked access to every state space (PTX §2, §3, §5.1).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "program/program.h"
#include "mem/memory.h"
#include "sanitize/race.h"

namespace ptxvm::exec {

struct Launch;
struct Cta;
struct Cluster;

// Calls `f(lane)` for every set bit of `mask`.
template <typename F>
inline void for_lanes(uint32_t mask, F&& f) {
  while (mask) {
    int lane = std::countr_zero(mask);
    f(lane);
    mask &= mask - 1;
  }
}

// for_lanes for a cheap body: a full warp runs as a plain loop over the 32 lanes, with no bit
// scan per lane.
template <typename F>
[[gnu::always_inline]] inline void for_lanes_dense(uint32_t mask, F&& f) {
  if (mask == ~0u) {
    for (int lane = 0; lane < 32; ++lane) f(lane);
  } else {
    for_lanes(mask, f);
  }
}

// std::popcount and std::has_single_bit are library calls on x86-64 without -mpopcnt; the hot
// paths count lanes and test access sizes with these plain-arithmetic forms instead.
inline uint32_t lane_count(uint32_t mask) {
  mask -= (mask >> 1) & 0x55555555u;
  mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
  return (((mask + (mask >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
inline bool power_of_two(uint32_t x) { return x && !(x & (x - 1)); }

// 1 << lane, as a table so that loops over all 32 lanes need no variable shifts and vectorise.
inline constexpr auto kLaneBit = [] {
  std::array<uint32_t, 32> bits{};
  for (int lane = 0; lane < 32; ++lane) bits[lane] = 1u << lane;
  return bits;
}();

// A register, an immediate or a special register: an operand whose 32 values Warp::gather
// reads at once, so that whole-warp loops need no switch per lane.
inline bool plain(const program::Arg& a) {
  return a.kind == program::ArgKind::Reg || a.kind == program::ArgKind::Imm || a.kind == program::ArgKind::Special;
}

struct CallFrame {
  uint32_t return_pc;
  uint32_t function;                  // the callee
  uint32_t caller_function;
  std::vector<uint32_t> copy_back;    // caller return-variable offsets (local space), per return
  std::vector<uint64_t> saved;        // callee registers saved across a recursive call
  std::vector<uint8_t> saved_local;   // callee param frame saved across a recursive call
  uint64_t stack_pointer = 0;         // the thread's alloca stack pointer at the call (sem/stack.cpp)
};

class Warp {
public:
  Cta* cta = nullptr;
  const Launch* launch = nullptr;
  const program::Program* program = nullptr;
  uint32_t index = 0;       // warp index in the CTA
  uint32_t first_thread = 0;  // linear thread index of lane 0
  uint32_t alive = 0;       // lanes that are threads of the CTA
  uint32_t exited = 0;      // lanes that executed exit/ret from the kernel
  uint32_t sync_waiting = 0;  // lanes parked at a .sync warp operation (retried when others move)
  uint32_t parked = 0;      // lanes parked by a unit until it wakes them (park, wake)
  uint32_t carry = 0;       // CC.CF per lane (§9.7.2): add.cc/sub.cc/mad.cc write it, addc/subc/madc read it
  std::array<uint32_t, 32> pc{};
  std::vector<uint64_t> regs;   // [slot * 32 + lane]
  std::vector<uint32_t> preds;  // one bit per lane
  // Per lane, the calls it is in (sem/control.cpp); empty until the warp's first call, so that
  // a fresh Warp is cheap to set up.
  std::vector<std::vector<CallFrame>> frames;
  uint32_t current_pc = 0;      // the op being executed
  uint64_t steps = 0;
  int fault_lane = -1;          // the lane whose access faulted
  // The device allocations this warp touched last and the one before (kernels often alternate
  // between two arrays): allocations cannot change during a launch, so they are kept from CTA to
  // CTA (engine.cpp init_cta).
  mem::GlobalMemory::Range last_global, other_global;
  // The CTA's shared memory (Cta::shared, sized once per CTA) and the shared address of its first
  // byte (mem::cluster_shared_address: the CTA's rank, the reserved KiB), for access's fast path.
  uint8_t* shared_data = nullptr;
  uint64_t shared_size = 0;
  uint64_t shared_base = 0;
  // The launch's kernel parameter buffer (Launch::params), likewise.
  uint8_t* param_data = nullptr;
  uint64_t param_size = 0;
  // Scheduler fairness window (engine.cpp): lanes that ran lately, lanes owed a turn.
  uint32_t recent = 0, favored = 0, streak = 0;
  // The launch runs checks (Launch::sanitizer): every access takes access_checked, which shows it
  // to them.
  bool checked = false;
  bool race_checked = false;  // racecheck follows this CTA (Cta::race)
  bool async_checked = false;  // the async check follows this CTA's cluster (Cluster::async)
  // synccheck: per .aligned instruction (by PC) the lanes that have executed it, so that a lane
  // that executed it before and is missing from a later execution is seen (a loop whose trip count
  // differs within the warp).
  std::unordered_map<uint32_t, uint32_t> aligned_seen;
  // initcheck (Cta::init, sanitize/init.h): per register slot and lane the undefined bits of its
  // value and the load they came from, per slot the lanes with any, per predicate the lanes whose
  // value is undefined. For the instruction running: the lanes it runs, and per destination and
  // lane the undefined bits it will hold (set before it runs, and by its loads).
  std::vector<uint64_t> vbits, pending;
  std::vector<uint32_t> vfrom, uninit, pundef;
  uint32_t checked_exec = 0, pending_preds = 0, pending_from = 0;

  // ---- waiting on a unit (exec/unit.h) ----
  // Parks `lanes` at the op being executed, until the unit whose condition they wait on (a
  // barrier, a rendezvous) wakes them.
  void park(uint32_t lanes) {
    parked |= lanes;
    for (int lane = 0; lane < 32; ++lane)  // branch-free so that it vectorises
      pc[lane] = (lanes & kLaneBit[lane]) ? current_pc : pc[lane];
  }
  // Stops the launch: lane `lane` did what the ISA leaves undefined; `what` says what, citing the
  // spec, for the report that names the kernel, CTA, warp, lane and instruction.
  [[noreturn]] void undefined(int lane, std::string what) {
    fault_lane = lane;
    throw mem::GuestFault{mem::GuestFault::Kind::Invalid, mem::Space::Generic, 0, 0, std::move(what)};
  }
  // Wakes parked lanes: they go on after the op they parked at.
  void wake(uint32_t lanes) {
    lanes &= parked;
    parked &= ~lanes;
    for (int lane = 0; lane < 32; ++lane) pc[lane] += (lanes & kLaneBit[lane]) != 0;
  }

  // ---- registers ----
  uint64_t& slot(uint32_t reg, int lane) { return regs[size_t{reg} * 32 + static_cast<size_t>(lane)]; }

  template <typename T>
  T get(const program::Arg& a, int lane) {
    uint64_t bits;
    switch (a.kind) {
    case program::ArgKind::Reg: bits = slot(a.reg, lane); break;
    case program::ArgKind::Imm: bits = a.imm; break;
    case program::ArgKind::Pred: bits = pred(a, lane); break;
    case program::ArgKind::Special: bits = special(a, lane); break;
    default: bits = value_of(a, lane); break;
    }
    return from_bits<T>(bits);
  }

  template <typename T>
  void set(const program::Arg& a, int lane, T v) {
    if (a.kind == program::ArgKind::Reg) slot(a.reg, lane) = to_bits(v);
    else if (a.kind == program::ArgKind::Pred) set_pred(a, lane, v != T{});
  }

  // The value of a plain() operand for all 32 lanes.
  template <typename T>
  [[gnu::always_inline]] void gather(const program::Arg& a, T (&v)[32]) const {
    if (a.kind == program::ArgKind::Reg) {
      const uint64_t* r = &regs[size_t{a.reg} * 32];
      for (int lane = 0; lane < 32; ++lane) v[lane] = from_bits<T>(r[lane]);
    } else if (a.kind == program::ArgKind::Imm) {
      const T x = from_bits<T>(a.imm);
      for (int lane = 0; lane < 32; ++lane) v[lane] = x;
    } else {
      uint64_t bits[32];
      specials(a, bits);
      for (int lane = 0; lane < 32; ++lane) v[lane] = from_bits<T>(bits[lane]);
    }
  }

  // The 32 values of a plain() operand as register bits: the register's own row, or `tmp`
  // filled with the immediate or the special register.
  [[gnu::always_inline]] const uint64_t* row(const program::Arg& a, uint64_t (&tmp)[32]) const {
    if (a.kind == program::ArgKind::Reg) return &regs[size_t{a.reg} * 32];
    if (a.kind == program::ArgKind::Imm) {
      for (int lane = 0; lane < 32; ++lane) tmp[lane] = a.imm;
    } else {
      specials(a, tmp);
    }
    return tmp;
  }

  // d = f(src...) with the sources read as T, for the lanes of `mask`. With a register
  // destination and plain() sources it runs as loops over all 32 lanes, which the compiler
  // vectorises (registers are lane-major); a partial mask then keeps the old value of the lanes
  // outside it, branch-free. That computes f for lanes outside the mask too, on whatever their
  // registers hold: f must be a pure function, defined for every input (no host trap), as every
  // instruction's semantics is. The sources' registers are read in place: the destination's
  // row is either one of theirs or no part of any (rows do not overlap), so no lane reads what
  // another lane wrote (GCC ivdep). Otherwise lane by lane through get/set.
  template <typename T, typename F, typename... Src>
  [[gnu::always_inline]] void lanewise(uint32_t mask, const program::Arg& d, F f, const Src&... src) {
    if (d.kind == program::ArgKind::Reg && (plain(src) && ...)) {
      uint64_t tmp[sizeof...(Src)][32];
      uint64_t* out = &regs[size_t{d.reg} * 32];
      [&]<size_t... I>(std::index_sequence<I...>) {
        const uint64_t* in[] = {row(src, tmp[I])...};
        if (mask == ~0u) {
#pragma GCC ivdep
          for (int lane = 0; lane < 32; ++lane) out[lane] = to_bits(f(from_bits<T>(in[I][lane])...));
        } else {
#pragma GCC ivdep
          for (int lane = 0; lane < 32; ++lane) {
            const uint64_t keep = uint64_t{0} - uint64_t{(mask & kLaneBit[lane]) == 0};
            out[lane] = (to_bits(f(from_bits<T>(in[I][lane])...)) & ~keep) | (out[lane] & keep);
          }
        }
      }(std::index_sequence_for<Src...>{});
      return;
    }
    for_lanes(mask, [&](int lane) { set(d, lane, f(get<T>(src, lane)...)); });
  }

  bool pred(const program::Arg& a, int lane) const {
    bool v = (preds[a.reg] >> lane) & 1u;
    return a.negated ? !v : v;
  }
  void set_pred(const program::Arg& a, int lane, bool v) {
    if (a.kind != program::ArgKind::Pred) return;  // `_` sink
    uint32_t bit = 1u << lane;
    preds[a.reg] = v ? (preds[a.reg] | bit) : (preds[a.reg] & ~bit);
  }

  // get<bool> of all 32 lanes as a mask: a predicate (negated with `!`) or an immediate at once.
  uint32_t pred_bits(const program::Arg& a) {
    if (a.kind == program::ArgKind::Pred) return a.negated ? ~preds[a.reg] : preds[a.reg];
    if (a.kind == program::ArgKind::Imm) return from_bits<bool>(a.imm) ? ~0u : 0u;
    uint32_t bits = 0;
    for (int lane = 0; lane < 32; ++lane) bits |= uint32_t{get<bool>(a, lane)} << lane;
    return bits;
  }
  // set_pred for the lanes of `mask` at once: bit `lane` of `bits` for each.
  void set_preds(const program::Arg& a, uint32_t mask, uint32_t bits) {
    if (a.kind != program::ArgKind::Pred) return;  // `_` sink
    preds[a.reg] = (preds[a.reg] & ~mask) | (bits & mask);
  }

  template <typename T>
  static T from_bits(uint64_t bits) {
    if constexpr (sizeof(T) == 8) {
      return std::bit_cast<T>(bits);
    } else if constexpr (sizeof(T) == 4) {
      return std::bit_cast<T>(static_cast<uint32_t>(bits));
    } else if constexpr (sizeof(T) == 2) {
      return std::bit_cast<T>(static_cast<uint16_t>(bits));
    } else {
      return static_cast<T>(static_cast<uint8_t>(bits));
    }
  }
  template <typename T>
  static uint64_t to_bits(T v) {
    if constexpr (sizeof(T) == 8) return std::bit_cast<uint64_t>(v);
    else if constexpr (sizeof(T) == 4) return std::bit_cast<uint32_t>(v);
    else if constexpr (sizeof(T) == 2) return std::bit_cast<uint16_t>(v);
    else return static_cast<uint8_t>(v);
  }

  // ---- memory ----
  // Address operand value for `lane`: register base plus offset, in the operand's space.
  uint64_t address(const program::Arg& a, int lane) {
    uint64_t base = a.reg == program::kNoReg ? 0 : slot(a.reg, lane);
    const uint64_t sum = base + a.imm;
    return a.narrow ? static_cast<uint32_t>(sum) : sum;
  }
  // Host pointer for a checked access of `size` bytes; raises mem::GuestFault. `aligned`: the
  // address must be a multiple of `size` (every PTX access; not the ABI's by-value copies).
  uint8_t* access(mem::Space space, uint64_t address, uint32_t size, int lane, bool aligned = true) {
    // The common cases inline: an aligned access inside the device allocation touched last (at
    // a global address, or a generic one below the windows, §6.4.1.1) or inside the CTA's
    // shared memory or kernel parameters. Anything else, faults included, takes the full path.
    if (!checked && power_of_two(size) && !(aligned && (address & (size - 1)))) {
      uint64_t offset = address - last_global.base;
      if ((space == mem::Space::Global || (space == mem::Space::Generic && address < mem::kParamWindow)) &&
          offset < last_global.size && size <= last_global.size - offset)
        return last_global.data + offset;
      if (space == mem::Space::Shared && address - shared_base < shared_size &&
          size <= shared_size - (address - shared_base))
        return shared_data + (address - shared_base);
      if (space == mem::Space::Param && address < param_size && size <= param_size - address)
        return param_data + address;
    }
    return access_checked(space, address, size, lane, aligned);
  }
  // Where a whole-warp access lies in host memory: lane l's bytes are at data + (addr[l] - base).
  struct Span {
    uint8_t* data = nullptr;
    uint64_t base = 0;
  };
  // For a whole-warp access of `size` bytes per lane at addr[lane]: when the access of every lane
  // of `mask` is aligned and inside one device allocation (which becomes last_global) or inside
  // the CTA's shared memory, the common case of ld/st over arrays, its Span; else a Span with
  // null data, and some lane needs access()'s full path (which reports faults).
  Span span(mem::Space space, uint32_t mask, const uint64_t (&addr)[32], uint32_t size);
  template <typename T>
  T load(mem::Space space, uint64_t address, int lane) {
    T v;
    std::memcpy(&v, access(space, address, sizeof(T), lane), sizeof(T));
    return v;
  }
  template <typename T>
  void store(mem::Space space, uint64_t address, int lane, T v) {
    std::memcpy(access(space, address, sizeof(T), lane), &v, sizeof(T));
  }

  // The CTA whose shared memory a shared address names (mem::cluster_shared_address) and the
  // offset there; reports a rank outside the cluster, the system's reserved KiB, or a CTA that has
  // exited (§2.2.2) as a fault of lane `lane`. The offset is not bounds-checked.
  struct SharedTarget {
    Cta* cta;
    uint64_t offset;
  };
  SharedTarget shared_target(uint64_t address, int lane);

  // ---- synchronisation as racecheck follows it (src/sanitize/race.h); nothing unless it runs ----
  // The lanes pass on what they did to the object `key` (sanitize::sync_key), or receive what
  // was passed on to it, or meet one another (a .sync instruction of the warp).
  // `relaxed`: a .relaxed operation (RaceShadow::release).
  void released(uint32_t lanes, uint64_t key, bool relaxed = false) {
    if (race_checked) release_lanes(lanes, key, relaxed);
  }
  void acquired(uint32_t lanes, uint64_t key, bool relaxed = false) {
    if (race_checked) acquire_lanes(lanes, key, relaxed);
  }
  // `barrier`: bar.warp.sync, which orders tcgen05 operations too (RaceShadow::join).
  void joined(uint32_t lanes, bool barrier) {
    if (race_checked) join_lanes(lanes, barrier);
  }
  // Lane l's thread as racecheck's shadow numbers it (across the CTAs it covers).
  uint32_t race_thread(int l) const;
  // Before each instruction (`exec`: the lanes it runs): initcheck reports the uses of undefined
  // values among its operands.
  void init_uses(uint32_t exec);
  // After each instruction: racecheck settles its writes (sanitize::RaceShadow::settle) and
  // initcheck records what its destinations hold.
  void settle();
  // A synccheck finding at lane `lane`'s instruction, when synccheck runs.
  void sync_report(int lane, std::string kind, std::string detail);
  // A finding of `check` (when the launch runs checks) at lane `lane` of the instruction at
  // `at_pc`, beside the instruction at `other_pc` of thread `other_thread` of this CTA, if given.
  void check_report(const char* check, int lane, uint32_t at_pc, std::string kind, std::string detail,
                    uint32_t other_thread = UINT32_MAX, uint32_t other_pc = 0);

  // ---- the async check (sanitize::AsyncShadow); nothing unless it runs ----
  // An asynchronous operation the current instruction issues, which `completion` completes ("a
  // wait_group that retires its bulk async-group"): the memory it writes or reads until then are
  // its regions (async_region).
  struct AsyncTicket {
    Cluster* cluster = nullptr;
    uint64_t id = 0;  // 0: the check is off
    const char* completion = nullptr;
    // The operation completes (call it before it moves its bytes).
    void retire() const {
      if (id) retire_checked();
    }
    void retire_checked() const;
  };
  AsyncTicket async_issue(const char* completion) {
    return async_checked ? async_open(completion) : AsyncTicket{};
  }
  // [address, address + size) of `space` (Shared or Global) is the operation's destination, or,
  // with `source`, memory it reads.
  void async_region(const AsyncTicket& t, int lane, mem::Space space, uint64_t address, uint64_t size, bool source) {
    if (t.id) async_add(t, lane, space, address, size, source);
  }
  // Registers an operation in flight writes or reads (wgmma's accumulators and A fragments,
  // §9.7.15.7.3): the instruction at `issued_at` holds register `slot` of every lane from now, until it
  // lets it go (its warp's wait retires it). Another instruction's read of it in between is a report.
  void async_hold(uint32_t slot, uint32_t issued_at) {
    if (!async_checked) return;
    if (!async_register_count[slot]++) ++async_registers;
    async_register_pc[slot] = issued_at;
  }
  void async_release(uint32_t slot) {
    if (async_checked && async_register_count[slot] && !--async_register_count[slot]) --async_registers;
  }
  // The async proxy reads [address, address + size) of the CTA's shared memory for the
  // instruction at `at_pc`, issued by threads whose latest proxy fence is at epoch `reader`
  // (proxy_fenced): a generic write there that no fence.proxy.async has ordered before is a report.
  void async_proxy_read(int lane, uint64_t address, uint64_t size, uint32_t at_pc, uint32_t reader) {
    if (async_checked) async_proxy_check(lane, address, size, at_pc, reader);
  }
  uint32_t proxy_fenced(uint32_t thread) const;
  // fence.proxy.async by the lanes (§9.7.13.4).
  void proxy_fence(uint32_t lanes);
  // Before each instruction while registers are held (`exec`: the lanes it runs): its reads of them.
  void async_uses(uint32_t exec);
  uint32_t async_registers = 0;  // registers held now
  std::vector<uint32_t> async_register_pc, async_register_count;  // per slot

  uint64_t special(const program::Arg& a, int lane) const;
  // special() for all 32 lanes.
  void specials(const program::Arg& a, uint64_t (&v)[32]) const;
  // The lanes that run the current op (the engine's mask) before guards: for .sync operations.
  uint32_t group = 0;

private:
  uint8_t* access_checked(mem::Space space, uint64_t address, uint32_t size, int lane, bool aligned);
  // Shows an access that succeeded to the checks (access_checked, when the launch runs them):
  // `offset` in `space` (in `owner`'s shared memory for .shared); `bytes`: the memory accessed.
  void observe(mem::Space space, Cta* owner, uint64_t offset, uint32_t size, int lane, const uint8_t* bytes);
  void race_report(const sanitize::RaceShadow::Hazard& h);
  // memcheck: why a local access of [offset, offset + size) in the static frame lies in no one
  // variable (call-frame parameter), or "" when it lies in one.
  std::string local_object_overrun(uint64_t offset, uint32_t size) const;
  AsyncTicket async_open(const char* completion);
  void async_proxy_check(int lane, uint64_t address, uint64_t size, uint32_t at_pc, uint32_t reader);
  void async_add(const AsyncTicket& t, int lane, mem::Space space, uint64_t address, uint64_t size, bool source);
  // The async check: lane `lane`'s access (a write with `write`) meets an operation's region.
  void async_access(mem::Space space, Cta* owner, uint64_t offset, uint32_t size, int lane, bool write);
  // initcheck: an access of lane `lane` to [offset, offset + size) of `space` (of `owner`'s shared
  // memory for .shared).
  void init_access(mem::Space space, Cta* owner, uint64_t offset, uint32_t size, int lane);
  void init_report(int lane, uint32_t from, const char* kind, const std::string& what);
public:
  // initcheck's origin (vfrom) of a register no instruction has written: registers are undefined
  // until written (PTX §5.1.1).
  static constexpr uint32_t kNeverWritten = UINT32_MAX;
  // A unit wrote register `slot` of `lanes` outside the instruction that names it (wgmma's
  // accumulators at the wait that lands them): initcheck takes the value as defined.
  void defined(uint32_t slot, uint32_t lanes) {
    if (uninit.empty()) return;
    uninit[slot] &= ~lanes;
    for_lanes(lanes, [&](int l) { vbits[size_t{slot} * 32 + static_cast<size_t>(l)] = 0; });
  }
  // `lanes` stand at instructions of their own that another group's handler executes for them now
  // (a .sync rendezvous, sem/warp.cpp): initcheck takes what those write as defined.
  void executed_elsewhere(uint32_t lanes);
private:
  void release_lanes(uint32_t lanes, uint64_t key, bool relaxed);
  void acquire_lanes(uint32_t lanes, uint64_t key, bool relaxed);
  void join_lanes(uint32_t lanes, bool barrier);
  // Makes the allocation holding `address` last_global (data null when none holds it).
  void find_global(uint64_t address);
  uint64_t value_of(const program::Arg& a, int lane);
};

}  // namespace ptxvm::exec
