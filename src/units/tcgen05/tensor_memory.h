// The 5th-generation TensorCore unit (PTX §9.7.16, 000_70a4b524dfe259fa.txt): each CTA's Tensor
// Memory, its allocation, and the asynchronous tcgen05 operations in flight.
//
// Tensor Memory is 128 lanes x 512 columns of 32-bit cells per CTA (§9.7.16.1), addressed
// lane << 16 | column (§9.7.16.1.1). Asynchrony (§9.7.16.6) is modelled at the latest moment the
// ISA allows, so that a missing wait or commit shows:
//  - tcgen05.mma / .cp / .shift queue in the issuing CTA in issue order (which keeps every
//    pipelined pair of §9.7.16.6.2 in order) and land when a tcgen05.commit that tracks them is
//    observed on its mbarrier (mbarrier::expect_completion): their shared-memory reads, their
//    Tensor Memory reads and writes happen then;
//  - tcgen05.st lands at the thread's tcgen05.wait::st (or its exit);
//  - tcgen05.ld writes its registers at once: §9.7.16.6.4.5 keeps a true register dependency on
//    its destination ordered without a wait.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exec/unit.h"
#include "sanitize/race.h"

namespace ptxvm::exec {
class Warp;
struct Cta;
}  // namespace ptxvm::exec
namespace ptxvm::program {
struct Op;
struct Arg;
}  // namespace ptxvm::program

namespace ptxvm::units::tcgen05 {

constexpr unsigned kLanes = 128, kColumns = 512, kColumnUnit = 32;

inline unsigned lane_of(uint32_t address) { return address >> 16; }
inline unsigned column_of(uint32_t address) { return address & 0xffff; }

class TensorMemory : public exec::Unit {
public:
  explicit TensorMemory(exec::Cta& cta);

  uint32_t& cell(unsigned lane, unsigned column) { return cells_[size_t{lane} * kColumns + column]; }
  bool allocated(unsigned column) const { return column < kColumns && (columns_in_use >> (column / kColumnUnit)) & 1u; }
  // Stops the launch (lane `l` of `w`) when a cell of lanes [lane, lane + lanes) x columns
  // [column, column + columns) lies outside Tensor Memory or in columns not allocated.
  void check_allocated(exec::Warp& w, int l, const program::Op& op, unsigned lane, unsigned lanes,
                       unsigned column, unsigned columns) const;

  // ---- allocation (allocation.cpp, §9.7.16.7) ----
  struct Allocation {
    unsigned column, columns;
  };
  uint16_t columns_in_use = 0;  // bit u: columns 32u .. 32u + 31
  std::vector<Allocation> allocations;
  unsigned last_columns = 0;    // nCols of the last allocation: the next may not be larger
  bool relinquished = false;
  // A warp that executes .cta_group::2 alloc, dealloc or relinquish waits here for the peer
  // CTA's warp to execute the same (§9.7.16.5): one side of the pair.
  struct Side {
    exec::Warp* warp = nullptr;
    uint32_t lanes = 0;
    const program::Op* op = nullptr;
  };
  Side pair_waiting;
  // A tcgen05.alloc waiting for columns to be freed: one side, or both sides of a pair (`other`
  // in the peer CTA).
  struct Blocked {
    Side mine, other;
    unsigned columns;
  };
  std::vector<Blocked> blocked;
  void take(unsigned column, unsigned columns);

  // ---- asynchronous mma / cp / shift, in issue order ----
  struct Operation {
    uint64_t seq;
    std::function<void()> run;
  };
  std::vector<Operation> queue;
  uint64_t issued = 0;
  uint64_t issue(std::function<void()> run);
  // Runs, in issue order, every queued operation up to number `upto`.
  void land(uint64_t upto);

  // ---- tcgen05.st not yet landed: per cell written, the warp that wrote it ----
  struct Store {
    uint32_t warp;
    uint16_t lane, column;
    uint32_t value;
  };
  std::vector<Store> stores;
  void land_stores(uint32_t warp);

  // ---- the tcgen05 check (docs/Sanitizer.md), when the launch runs it ----
  // Per cell: whether a write reached it since its columns were allocated (a queued operation's
  // when it lands, a tcgen05.st's when issued), and what will still write it: a queued operation's
  // seq (pending while above `landed`), or a tcgen05.st not yet waited for (kStore | thread << 32 |
  // pc). A read of a cell no write reached, or that a write in flight still changes, is a report.
  struct Shadow {
    std::vector<uint8_t> written;
    std::vector<uint64_t> pending;
    std::vector<std::pair<uint32_t, uint32_t>> issuers;  // by seq: (thread, pc) of the issuing instruction
    std::vector<std::vector<uint32_t>> cells;             // by seq: the cells it writes, until it lands
    uint64_t landed = 0;
    // Per cell, the latest tcgen05.ld reading it: its warp + 1, the warp's count of wait::ld then,
    // the thread and pc (loading_ld); per warp, its count of tcgen05.wait::ld.
    struct Load {
      uint32_t warp_plus_one = 0, waits = 0, thread = 0, pc = 0;
    };
    std::vector<Load> loading;
    std::vector<uint32_t> waits;
    // Per cell, its last write and a read not ordered before a later one (order), when racecheck's
    // clocks follow the CTA: the issuing thread + 1 (0: none), its clock, pc and kind.
    struct Stamp {
      uint32_t thread_plus_one = 0, warp = 0, clock = 0, pc = 0;
      bool async = false;
    };
    std::vector<Stamp> last_write, last_read;
  };
  static constexpr uint64_t kStore = uint64_t{1} << 63;
  std::unique_ptr<Shadow> shadow;  // null when the check is off
  // Operation `seq` (issued by `thread` at `pc`) will write the cell.
  void will_write(uint64_t seq, uint32_t thread, uint32_t pc, unsigned lane, unsigned column);

  // ---- the tcgen05 check across threads (§9.7.16.6.3), on racecheck's clocks ----
  // An operation's issue: its thread (racecheck's number) and that thread's clock then
  // (sanitize::RaceShadow::fenced); `async`: an mma, cp or shift, which completes through
  // tcgen05.commit (else an ld or st, through tcgen05.wait). A queued operation's accesses are
  // held to what orders its thread when it lands, not when it was issued (fewer reports, no
  // false ones).
  struct Issue {
    sanitize::RaceShadow* race = nullptr;  // null: the clocks do not follow the thread
    uint32_t thread = 0, warp = 0, clock = 0, pc = 0;  // warp: racecheck's number of its lane 0
    bool async = false;
  };
  static Issue issue_of(const exec::Warp& w, int l, bool async);
  // The issue's access to the cell (a read, or a write) is ordered after the cell's last write,
  // and a write after its last read, by another thread, or after a write by the same thread's
  // mma, cp or shift when it is an ld or st; then it is the cell's last. `check` false: only
  // recorded. False after a report (lane `l` of `w`).
  bool order(exec::Warp& w, int l, const Issue& i, unsigned lane, unsigned column, bool writes, bool check = true);
  // The tcgen05.ld of lane `l` of `w` reads the cell; the warp's tcgen05.wait::ld; lane `l` of `w`
  // writes the cell with tcgen05.st: a load of the warp not yet waited for still reading it is a
  // report (§9.7.16.6: tcgen05.wait::ld avoids anti-dependency hazards around tcgen05.ld). False
  // after a report.
  void loads(const exec::Warp& w, int l, uint32_t pc, unsigned lane, unsigned column);
  void waited_for_loads(const exec::Warp& w);
  bool check_overwrite(exec::Warp& w, int l, uint32_t pc, unsigned lane, unsigned column);
  // Lane `l` of `w` reads the cell for the instruction at `pc` (`what` it reads there); `queued`:
  // the reader is a queued operation landing (after every earlier one), issued so. False after a
  // report.
  bool check_read(exec::Warp& w, int l, uint32_t pc, unsigned lane, unsigned column, const char* what,
                  const Issue* queued = nullptr);

  // The collector buffers holding a fill (bit b: .ws's b0-b3, bit 4: A's), in issue order.
  uint8_t collectors = 0;

  // §9.7.16.7.1 and others: "all tcgen05 instructions within a kernel must specify the same
  // value for the .cta_group qualifier" — the first one the CTA runs sets it.
  unsigned cta_group = 0;
  void check_cta_group(exec::Warp& w, int l, const program::Op& op, unsigned group);

  void exited(exec::Warp& w, uint32_t lanes) override;
  std::string waiting(const exec::Warp& w, int lane) const override;

private:
  exec::Cta& cta_;
  std::vector<uint32_t> cells_;
};

// .sync.aligned over one warp: every thread of the warp executes the instruction, and none has
// exited (§9.7.16.7.1, §9.7.16.8.3).
void check_aligned(exec::Warp& w, const program::Op& op, uint32_t m, const char* section);
// The value of operand `a`, which every lane of `m` must give alike (`what` names it).
uint64_t uniform(exec::Warp& w, const program::Op& op, uint32_t m, const program::Arg& a, const char* what,
                 const char* section);
// The peer CTA of w's CTA (§9.7.16.5.2), for .cta_group::2; stops the launch when there is none.
exec::Cta& peer(exec::Warp& w, int l, const program::Op& op);

}  // namespace ptxvm::units::tcgen05
