#include "sanitize/race.h"

#include <algorithm>

namespace ptxvm::sanitize {

RaceShadow::RaceShadow(uint32_t threads, uint64_t shared_bytes, bool tcgen05)
    : threads_(threads), clocks_(size_t{threads} * threads, 0), cells_(shared_bytes), tcgen05_(tcgen05) {
  for (uint32_t t = 0; t < threads; ++t) clock_of(t)[t] = 1;
  if (tcgen05) {
    published_.assign(threads, 0);
    views_.assign(size_t{threads} * threads, 0);
    received_.assign(size_t{threads} * threads, 0);
  }
}

std::optional<RaceShadow::Hazard> RaceShadow::access(uint32_t thread, uint32_t pc, uint64_t offset, uint32_t size,
                                                     Access a, const uint8_t* bytes) {
  if (a == Access::None || offset >= cells_.size()) return std::nullopt;
  size = static_cast<uint32_t>(std::min<uint64_t>(size, cells_.size() - offset));
  const bool strong = a == Access::StrongRead || a == Access::StrongWrite || a == Access::Atomic;
  const bool writes = a == Access::Write || a == Access::StrongWrite || a == Access::Atomic;
  const Stamp now{clock_of(thread)[thread], static_cast<uint16_t>(thread), strong, true, pc};
  std::optional<Hazard> found;
  auto hazard = [&](const char* kind, const Stamp& s, uint64_t b) {
    found = Hazard{kind, thread, pc, size, s.thread, s.pc, b};
  };
  Pending p{offset, bytes, size, thread, now.clock, {}, {}, std::nullopt};
  for (uint64_t b = offset; b < offset + size; ++b) {
    Cell& c = cells_[b];
    if (writes && b - offset < 16) p.replaced[b - offset] = ordered(c.write, thread, strong) ? Stamp{} : c.write;
    if (!found) {
      if (!ordered(c.write, thread, strong) && (writes || c.write.changed))
        hazard(writes ? "write-after-write" : "read-after-write", c.write, b);
      else if (writes && !ordered(c.read, thread, strong))
        hazard("write-after-read", c.read, b);
    }
    if (writes) {
      c.write = now;
      c.read = {};
    } else if (ordered(c.read, thread, false)) {
      // The earlier read is ordered before this one, which stands for both from now on; an
      // unordered one stays, as the witness a later write would race with.
      c.read = now;
    }
  }
  if (!writes) return found;
  // Settled in pieces of up to 16 bytes (the widest access); a wider one (st.bulk) counts as
  // changing its bytes.
  p.hazard = found;
  std::copy_n(bytes, std::min<uint32_t>(size, 16), p.before);
  pending_.push_back(p);
  return std::nullopt;
}

std::vector<RaceShadow::Hazard> RaceShadow::settle() {
  std::vector<Hazard> found;
  for (const Pending& p : pending_) {
    const bool changed = p.size > 16 || !std::equal(p.before, p.before + p.size, p.memory);
    if (changed) {
      if (p.hazard) found.push_back(*p.hazard);
      continue;
    }
    // The bytes keep the write they had when it raced with this one (a later read racing with it
    // may read the bytes before it), else they record this one as changing nothing; unless a
    // later write took them.
    for (uint64_t b = p.offset; b < p.offset + p.size; ++b)
      if (Stamp& w = cells_[b].write; w.thread == p.thread && w.clock == p.clock) {
        const Stamp& replaced = p.replaced[b - p.offset];
        if (replaced.clock) w = replaced;
        else w.changed = false;
      }
  }
  pending_.clear();
  return found;
}

void RaceShadow::release(uint64_t key, uint32_t thread, bool relaxed) {
  SyncObject& o = objects_[key];
  if (o.clocks.empty()) o.clocks.assign(threads_, 0);
  if (tcgen05_) {  // what the thread's tcgen05 operations are ordered after, and what it published
    if (!relaxed) published_[thread] = now(thread);
    if (o.published.empty()) o.published.assign(threads_, 0);
    const uint32_t* v = view_of(thread);
    for (uint32_t t = 0; t < threads_; ++t) o.published[t] = std::max(o.published[t], v[t]);
    o.published[thread] = std::max(o.published[thread], published_[thread]);
  }
  uint32_t* mine = clock_of(thread);
  for (uint32_t t = 0; t < threads_; ++t) o.clocks[t] = std::max(o.clocks[t], mine[t]);
  ++mine[thread];  // what the thread does next is not part of this release
}

void RaceShadow::acquire(uint64_t key, uint32_t thread, bool relaxed) {
  auto it = objects_.find(key);
  if (it == objects_.end()) return;
  const SyncObject& o = it->second;
  if (!o.published.empty()) {
    uint32_t* into = relaxed ? received_of(thread) : view_of(thread);
    for (uint32_t t = 0; t < threads_; ++t) into[t] = std::max(into[t], o.published[t]);
  }
  uint32_t* mine = clock_of(thread);
  for (uint32_t t = 0; t < threads_; ++t) mine[t] = std::max(mine[t], o.clocks[t]);
}

void RaceShadow::forget(uint64_t key) { objects_.erase(key); }

void RaceShadow::join(const uint32_t* threads, uint32_t count, bool barrier) {
  if (count < 2) return;
  std::vector<uint32_t> all(clock_of(threads[0]), clock_of(threads[0]) + threads_);
  for (uint32_t i = 1; i < count; ++i) {
    const uint32_t* c = clock_of(threads[i]);
    for (uint32_t t = 0; t < threads_; ++t) all[t] = std::max(all[t], c[t]);
  }
  if (tcgen05_ && barrier) {  // the threads' views joined, with what each published
    std::vector<uint32_t> seen(view_of(threads[0]), view_of(threads[0]) + threads_);
    for (uint32_t i = 0; i < count; ++i) {
      published_[threads[i]] = now(threads[i]);
      const uint32_t* v = view_of(threads[i]);
      for (uint32_t t = 0; t < threads_; ++t) seen[t] = std::max(seen[t], v[t]);
      seen[threads[i]] = std::max(seen[threads[i]], published_[threads[i]]);
    }
    for (uint32_t i = 0; i < count; ++i) std::copy(seen.begin(), seen.end(), view_of(threads[i]));
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t* c = clock_of(threads[i]);
    std::copy(all.begin(), all.end(), c);
    ++c[threads[i]];
  }
}

void RaceShadow::fence_before(uint32_t thread) {
  published_[thread] = now(thread);
  ++clock_of(thread)[thread];  // an operation after the fence is not published by it
}

void RaceShadow::fence_after(uint32_t thread) {
  uint32_t* v = view_of(thread);
  const uint32_t* r = received_of(thread);
  for (uint32_t t = 0; t < threads_; ++t) v[t] = std::max(v[t], r[t]);
}

RaceShadow::Fenced RaceShadow::fenced(uint32_t thread, uint32_t clock, uint32_t later) {
  if (clock <= view_of(later)[thread]) return Fenced::Ordered;
  if (clock <= received_of(later)[thread]) return Fenced::NoFenceAfter;
  if (thread != later && clock <= clock_of(later)[thread]) return Fenced::NoFenceBefore;
  return Fenced::NotSynchronised;
}

}  // namespace ptxvm::sanitize
