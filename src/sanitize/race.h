// racecheck's state for one cluster (or one CTA of a cluster too large for one): a vector clock
// per thread and a shadow record per byte of shared memory (the FastTrack scheme: Flanagan and
// Freund, PLDI 2009). Threads and bytes are numbered across the cluster's CTAs, so that an access
// to another CTA's shared memory (DSMEM, §5.1.4) races with that CTA's own accesses unless the
// cluster barrier, a remote mbarrier phase or a strong access orders them. An access races with an earlier
// one of another thread when no synchronisation orders them: a CTA barrier, an mbarrier phase, a
// warp's .sync instruction, or a strong access to one location (a flag, a lock) between them.
// Synchronisation objects are named by a key (sync_key); releasing one passes on everything the
// thread has done so far, acquiring it receives what every release passed on. A hazard whose write
// leaves the bytes as they were (every lane of a warp storing the same value, a common reduction
// idiom) cannot change what any thread sees and is not reported: a write is settled after its
// instruction, by comparing the bytes with those before it.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sanitize/op_traits.h"

namespace ptxvm::sanitize {

enum class SyncKind : uint8_t { Rendezvous = 1, Mbarrier, Location, ClusterBarrier };
// The key of a synchronisation object: its kind, and an address or identity below 2^56.
inline uint64_t sync_key(SyncKind kind, uint64_t value) {
  return uint64_t{static_cast<uint8_t>(kind)} << 56 | (value & ((uint64_t{1} << 56) - 1));
}

class RaceShadow {
public:
  RaceShadow(uint32_t threads, uint64_t shared_bytes, bool tcgen05 = false);

  // An access and the earlier one it races with.
  struct Hazard {
    const char* kind;  // "read-after-write", "write-after-read", "write-after-write"
    uint32_t thread, pc, size;
    uint32_t other_thread, other_pc;
    uint64_t offset;   // the first byte both touch
  };
  // Thread `thread` at `pc` touches [offset, offset + size) of shared memory, whose bytes are
  // `bytes` (the memory itself, read before a write): a read's hazard at once; a write's wait for
  // settle().
  std::optional<Hazard> access(uint32_t thread, uint32_t pc, uint64_t offset, uint32_t size, Access a,
                               const uint8_t* bytes);
  // After the instruction: the hazards of its writes that changed the bytes.
  std::vector<Hazard> settle();

  // `relaxed`: a .relaxed operation, which orders tcgen05 operations only through their fences.
  void release(uint64_t key, uint32_t thread, bool relaxed = false);
  void acquire(uint64_t key, uint32_t thread, bool relaxed = false);
  void forget(uint64_t key);  // the object starts over (a barrier's next generation)
  // The threads meet (a warp's .sync instruction): each is ordered after everything all did.
  // `barrier`: bar.warp.sync, which orders their tcgen05 operations too; the warp's other .sync
  // instructions (shfl, vote, tcgen05.*.sync.aligned) do not.
  void join(const uint32_t* threads, uint32_t count, bool barrier = true);

  // ---- the tcgen05 check: asynchronous tcgen05 operations across threads (PTX §9.7.16.6.3) ----
  // Strong synchronisation (barriers, bar.warp.sync, mbarrier arrive-on and waits with their
  // default .release and .acquire semantics, strong accesses to one location) orders the tcgen05 operations issued
  // before it as the memory model orders other accesses ("the standard memory consistency model
  // synchronization mechanisms also apply"). Relaxed synchronisation (.relaxed mbarrier and
  // cluster barrier operations) orders them only with tcgen05.fence::before_thread_sync in the
  // first thread before it (tcgen05.commit implies one) and tcgen05.fence::after_thread_sync in
  // the second after it, as the canonical patterns of §9.7.16.6.4 do. Operations are stamped
  // with their thread's clock (now). Only with `tcgen05` at construction.
  uint32_t now(uint32_t thread) { return clock_of(thread)[thread]; }
  void fence_before(uint32_t thread);
  void fence_after(uint32_t thread);
  enum class Fenced { Ordered, NotSynchronised, NoFenceBefore, NoFenceAfter };
  // Whether the operation `thread` issued at `clock` is ordered before what `later` issues now,
  // or the first step missing.
  Fenced fenced(uint32_t thread, uint32_t clock, uint32_t later);

private:
  struct Stamp {  // one access: the thread's clock at it (0: none), the thread, the instruction
    uint32_t clock = 0;
    uint16_t thread = 0;
    bool strong = false;
    bool changed = true;  // a write: it changed the bytes (settled after its instruction)
    uint32_t pc = 0;
  };
  struct Pending {  // a write to settle: its bytes and their last writes before it, its hazard
    uint64_t offset;
    const uint8_t* memory;  // the bytes written
    uint32_t size, thread, clock;
    uint8_t before[16];
    Stamp replaced[16];
    std::optional<Hazard> hazard;
  };
  struct Cell {
    Stamp write, read;
  };
  uint32_t* clock_of(uint32_t thread) { return &clocks_[size_t{thread} * threads_]; }
  // Whether `s` happened before everything `thread` does now.
  bool ordered(const Stamp& s, uint32_t thread, bool strong) {
    return !s.clock || s.thread == thread || (strong && s.strong) || s.clock <= clock_of(thread)[s.thread];
  }

  uint32_t threads_;
  std::vector<uint32_t> clocks_;  // [thread][thread]: what each thread has seen of each
  std::vector<Cell> cells_;       // per byte of shared memory
  // A synchronisation object: the clocks released to it, and (the tcgen05 check) the views.
  struct SyncObject {
    std::vector<uint32_t> clocks, published;
  };
  std::unordered_map<uint64_t, SyncObject> objects_;  // by key
  std::vector<Pending> pending_;
  // The tcgen05 check's: per thread, its clock at its last fence before (what it published);
  // [thread][thread], what each thread's tcgen05 operations are ordered after (view) and what
  // relaxed synchronisation passed on to it that a fence after would add (received).
  bool tcgen05_;
  std::vector<uint32_t> published_, views_, received_;
  uint32_t* view_of(uint32_t thread) { return &views_[size_t{thread} * threads_]; }
  uint32_t* received_of(uint32_t thread) { return &received_[size_t{thread} * threads_]; }
};

}  // namespace ptxvm::sanitize
