// What the sanitizer needs to know of each instruction, decided once per launch from its ISA row
// and qualifiers: how it touches memory and how it synchronises threads.
#pragma once

#include <cstdint>
#include <vector>

#include "program/program.h"
#include "sanitize/definedness.h"

namespace ptxvm::sanitize {

// A memory access as racecheck sees it. Strong accesses (§8.4: .volatile, .relaxed, .acquire,
// .release, atomics) do not race with each other, and each is taken to release and acquire the
// location it touches, so that flags and locks order the accesses around them. None: the
// instruction's accesses are not a thread's (the asynchronous units' copies, mbarrier objects)
// or are its own (local memory, parameters).
enum class Access : uint8_t { None, Read, Write, StrongRead, StrongWrite, Atomic };

struct OpTraits {
  Access access = Access::None;
  bool warp_sync = false;    // a .sync instruction of the warp: its lanes meet there (§9.7.13.2)
  bool warp_barrier = false; // bar.warp.sync, which also orders memory among them (§9.7.13.2)
  bool aligned = false;      // .aligned (bar.sync implies it): the whole warp executes it together
  bool cta_barrier = false;  // bar / barrier (§9.7.13.1), whose .aligned form the whole CTA shares
  bool barrier = false;      // a CTA or cluster barrier: threads that exited count as arrived
  // A warp collective (shfl, vote, match, redux, elect, bar.warp.sync: §9.7.9.6, §9.7.13) or a
  // barrier: its undefined uses are synchronisation errors.
  bool collective = false;
  // initcheck: the register slots the instruction writes (its first operand when that is a
  // destination), those it reads as values, those whose values it stores to memory, and those it
  // forms addresses from; the predicates it writes and reads. `rule` says how its result's bits
  // follow its operands' (args[1], args[2]), in a `width`-bit result.
  std::vector<uint32_t> writes, reads, stores, addresses, pred_writes, pred_reads;
  Rule rule = Rule::Any;
  unsigned width = 64;
  bool cross_lane = false;  // a warp's matrix load or store: lanes move other lanes' fragments
};

OpTraits traits_of(const program::Op& op);

}  // namespace ptxvm::sanitize
