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

// One unit's state in one scope (a CTA, or a cluster for the units the ISA gives a cluster's
// scope), created by the unit's first instruction there and dropped when the scope finishes. A
// unit subclasses it and is reached with Cta::unit<U>() or Cluster::unit<U>(), which build it as
// U(cta) or U(cluster) on first use.
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

// The units of one scope: each CTA owns one and each cluster one beside its CTAs', so a unit's
// state lives at the scope the ISA gives it: mbarriers per CTA, the cluster barrier per cluster
// (and, with tcgen05, a CTA pair's tensor memory per pair).
class Units {
public:
  template <typename U, typename Scope>
  U& get(Scope& scope) {
    const uint32_t i = index<U>();
    if (i >= slots_.size()) slots_.resize(i + 1);
    if (!slots_[i]) slots_[i] = std::make_unique<U>(scope);
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
