// The extension point for hardware units that keep state of their own: CTA barriers, mbarrier
// objects, cp.async groups today; warpgroup MMA, the tensor-memory accelerator, clusters and
// tcgen05 next (docs/ReadingGuide.md, "Units"). The engine owns a Units per CTA and knows a unit
// only through the Unit interface below; the unit's folder (src/units/<unit>/) owns its state, its
// instructions and its moment of completion.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptxvm::exec {

class Warp;
struct Cta;

// One unit's state in one CTA, created by the unit's first instruction in that CTA and dropped
// when the CTA finishes. A unit subclasses it and is reached with Cta::unit<U>(), which builds
// it as U(cta) on first use.
class Unit {
public:
  virtual ~Unit() = default;
  // Lanes of `w` exited (§9.7.12.7): their operations in flight complete, and waits that counted
  // them count again.
  virtual void exited(Warp& w, uint32_t lanes) {}
  // For a deadlock report: what lane `lane` of `w` waits for, when this unit parked it
  // (Warp::park), as " in a barrier"; empty otherwise.
  virtual std::string waiting(const Warp& w, int lane) const { return {}; }
};

// The units of one scope: a CTA today. A cluster and a CTA pair will each own one beside their
// CTAs' (clusters, issue 16), reached the same way, so a unit's state lives at the scope the ISA
// gives it: mbarriers per CTA, a cluster barrier per cluster, a tcgen05 pair's tensor memory per
// CTA pair.
class Units {
public:
  template <typename U>
  U& get(Cta& cta) {
    const uint32_t i = index<U>();
    if (i >= slots_.size()) slots_.resize(i + 1);
    if (!slots_[i]) slots_[i] = std::make_unique<U>(cta);
    return static_cast<U&>(*slots_[i]);
  }
  // U's state when this scope has used U, else null.
  template <typename U>
  U* find() {
    const uint32_t i = index<U>();
    return i < slots_.size() ? static_cast<U*>(slots_[i].get()) : nullptr;
  }
  bool empty() const { return slots_.empty(); }
  void clear() { slots_.clear(); }
  void exited(Warp& w, uint32_t lanes);
  std::string waiting(const Warp& w, int lane) const;

private:
  static uint32_t next_index();
  template <typename U>
  static uint32_t index() {
    static const uint32_t i = next_index();  // one slot per unit type, numbered on first use
    return i;
  }
  std::vector<std::unique_ptr<Unit>> slots_;
};

}  // namespace ptxvm::exec
