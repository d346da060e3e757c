// The async check's state for one cluster (docs/Sanitizer.md): the memory each asynchronous
// operation in flight will write when it completes (its destination) or may still read (its
// source) — cp.async, bulk copies and reductions, TMA, st.async/red.async — from its issue until
// its completion is observed (an mbarrier phase, a wait_group). A thread's access to a
// destination, or its write to a source, in that time is undefined (PTX §9.7.9.25.1: the async
// proxy; §9.7.9.25.3-5) and reported: ptxvm lands copies at the latest moment, so such a thread
// reads the old bytes, where a GPU may show either.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mem/memory.h"

namespace ptxvm::sanitize {

class AsyncShadow {
public:
  struct Region {
    mem::Space space = mem::Space::Shared;  // Shared (of the CTA of rank `rank`) or Global
    uint32_t rank = 0;
    uint64_t offset = 0, size = 0;
    bool source = false;  // the operation reads it: only writes conflict
    uint64_t ticket = 0;  // the operation
    // The issuing thread (its CTA's %ctaid, its linear index there) and instruction, and what
    // completes the operation.
    uint32_t cta[3] = {0, 0, 0};
    uint32_t thread = 0, pc = 0;
    std::string completion;
  };
  // A new operation's ticket, for its regions.
  uint64_t open() { return next_++; }
  void add(Region r) { regions_.push_back(std::move(r)); }
  // The operation completes: its regions go.
  void retire(uint64_t ticket) {
    std::erase_if(regions_, [ticket](const Region& r) { return r.ticket == ticket; });
  }
  // The region an access of [offset, offset + size) of `space` (of the CTA of rank `rank` for
  // shared memory) conflicts with, or null.
  const Region* conflict(mem::Space space, uint32_t rank, uint64_t offset, uint64_t size, bool write) const {
    for (const Region& r : regions_)
      if (r.space == space && (space != mem::Space::Shared || r.rank == rank) && offset < r.offset + r.size &&
          r.offset < offset + size && (write || !r.source))
        return &r;
    return nullptr;
  }
  bool empty() const { return regions_.empty(); }

private:
  std::vector<Region> regions_;
  uint64_t next_ = 1;
};

// The async check's record of a CTA's shared memory as the generic proxy wrote it: per byte the
// thread and instruction of the last generic write and the fence epoch then; per thread the epoch
// of its last fence.proxy.async. The async proxy (bulk and tensor copies from shared memory, wgmma
// operands) reads a byte safely once its writer, or the reading thread after it, has executed a
// proxy fence since the write (PTX §9.7.9.25.2; §9.7.13.4: fence.proxy.async).
class ProxyShadow {
public:
  ProxyShadow(uint64_t shared_bytes, uint32_t threads)
      : writer_(shared_bytes, kNone), pc_(shared_bytes, 0), epoch_(shared_bytes, 0), fenced_(threads, 0) {}

  void write(uint32_t thread, uint32_t pc, uint64_t offset, uint64_t size) {
    for (uint64_t b = offset; b < offset + size && b < writer_.size(); ++b) writer_[b] = thread, pc_[b] = pc, epoch_[b] = now_;
  }
  void fence(uint32_t thread) { fenced_[thread] = ++now_; }
  uint32_t fenced(uint32_t thread) const { return fenced_[thread]; }

  // A generic write in [offset, offset + size) that neither its writer nor a reader whose last
  // proxy fence is at epoch `reader` has fenced since, or null.
  struct Write {
    uint32_t thread, pc;
  };
  std::optional<Write> unfenced(uint64_t offset, uint64_t size, uint32_t reader) const {
    for (uint64_t b = offset; b < offset + size && b < writer_.size(); ++b)
      if (writer_[b] != kNone && fenced_[writer_[b]] <= epoch_[b] && reader <= epoch_[b]) return Write{writer_[b], pc_[b]};
    return std::nullopt;
  }

private:
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> writer_, pc_, epoch_;
  std::vector<uint32_t> fenced_;
  uint32_t now_ = 0;
};

}  // namespace ptxvm::sanitize
