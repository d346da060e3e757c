// mbarrier objects (PTX §9.7.13.15, 001_23fdd5978b24a3ed.txt): mbarrier.init, .inval,
// .expect_tx, .complete_tx, .arrive, .arrive_drop, cp.async.mbarrier.arrive, .test_wait,
// .try_wait (and their .parity forms), .pending_count.
//
// The object is the 8 bytes at its shared-memory address, in an encoding of ptxvm's own (the
// ISA calls it opaque, §9.7.13.15.2): the pending and expected arrival counts, the tx-count and
// the phase. Which addresses hold a valid object is kept beside them (the unit's state), so
// that an operation on memory that holds none, a second init, a count out of range or a
// .noComplete arrive that completes the phase stops the kernel as the undefined behaviour it is.
// An mbarrier lives in its CTA's shared memory and a CTA runs on one host thread, so its updates
// need no host atomics. try_wait never suspends (the "time limit" of §9.7.13.15.16 is zero): a
// kernel's wait loop simply runs again, and other warps move meanwhile.
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "program/registry.h"
#include "units/cp_async/cp_async.h"
#include "units/mbarrier/mbarrier.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using program::Arg;
using program::Op;
using mem::Space;

// Counts of §9.7.13.15.2: arrival counts in [0, 2^20 - 1], tx-count in [-(2^20 - 1), 2^20 - 1].
constexpr int64_t kMaxCount = (int64_t{1} << 20) - 1;

struct State {
  int64_t pending, expected, tx;
  uint32_t phase;  // modulo 8
};

// 20 bits pending, 20 bits expected, 21 bits tx-count (two's complement), 3 bits phase.
uint64_t encode(const State& s) {
  return uint64_t(s.pending) | uint64_t(s.expected) << 20 | (uint64_t(s.tx) & 0x1fffff) << 40 |
         uint64_t(s.phase & 7) << 61;
}
State decode(uint64_t v) {
  int64_t tx = int64_t(v >> 40 & 0x1fffff);
  if (tx & 0x100000) tx -= 0x200000;
  return {int64_t(v & 0xfffff), int64_t(v >> 20 & 0xfffff), tx, uint32_t(v >> 61)};
}

// The state token arrive returns: the phase and the pending count before the arrive-on.
uint64_t token(const State& s) { return uint64_t(s.pending) | uint64_t(s.phase & 7) << 32; }

// op.aux bits.
enum : uint64_t { kDrop = 1, kExpectTx = 2, kNoComplete = 4, kParity = 8, kNoInc = 16, kRelaxed = 32 };

// The object of lane l's address operand: the CTA whose shared memory holds it (another CTA of
// the cluster for a .shared::cluster address, §9.7.13.15.13), its offset there (a generic address
// must lie in the shared window, §9.7.13.15.9) and its host bytes.
struct Object {
  exec::Cta* cta;
  uint32_t offset;
  uint8_t* bytes;
};
Object object(Warp& w, const Op& op, const Arg& a, int l) {
  const uint64_t address = w.address(a, l);
  const auto [space, offset] = mem::resolve(a.space != Space::Generic ? a.space : static_cast<Space>(op.aux2), address);
  if (space != Space::Shared)
    w.undefined(l, "mbarrier object outside shared memory (undefined, PTX §9.7.13.15.9)");
  uint8_t* bytes = w.access(Space::Shared, offset, 8, l);
  const Warp::SharedTarget t = w.shared_target(offset, l);
  return {t.cta, static_cast<uint32_t>(t.offset), bytes};
}

// racecheck's name for the object (exec::Warp::released): what threads did before an arrive-on,
// a thread whose wait sees the phase complete sees after; the CTA's rank in it, as the shadow
// may cover the cluster (a remote arrive-on, §9.7.13.15.13).
uint64_t racecheck_key(const Object& o) {
  return sanitize::sync_key(sanitize::SyncKind::Mbarrier, uint64_t{o.cta->rank} << 32 | o.offset);
}

// A transaction pending on a barrier (mbarrier::expect_completion).
struct Transaction {
  uint32_t barrier;
  std::string issuer;
  std::function<uint32_t()> land;
  uint32_t arrivals;  // the count of the arrive-on it performs when it lands
};

// The unit's state in one CTA: the shared-memory offsets that hold a valid object, the
// transactions pending on them, in issue order, and per object the waits that found its phase
// incomplete since it last changed (test_wait).
struct Objects : exec::Unit {
  explicit Objects(exec::Cta&) {}
  std::vector<uint32_t> valid;
  std::vector<Transaction> pending;
  std::vector<std::pair<uint32_t, uint64_t>> futile_waits;
  uint64_t& futile(uint32_t offset) {
    for (auto& [at, n] : futile_waits)
      if (at == offset) return n;
    return futile_waits.emplace_back(offset, 0).second;
  }
  void changed(uint32_t offset) {  // the object changed: its waiters may succeed again
    for (auto& [at, n] : futile_waits)
      if (at == offset) n = 0;
  }
};

// Failed waits on one object with nothing changing it in between, past which its waiters never
// finish: a warp spinning on it fails ~1,000 times a slice, so every other warp of the cluster
// has run ~16,000 slices (tens of millions of instructions) without an arrive-on, an expect-tx
// or a completed transaction on it, where a pipeline waits a few slices at most. The launch
// stops with a deadlock report rather than spinning forever.
constexpr uint64_t kHopelessWaits = uint64_t{1} << 24;

bool valid(exec::Cta& cta, uint32_t offset) {
  const Objects* o = cta.units.find<Objects>();
  return o && std::find(o->valid.begin(), o->valid.end(), offset) != o->valid.end();
}

// The valid object of lane l's address operand, decoded.
State load(Warp& w, const Op& op, const Arg& a, int l, Object& o) {
  o = object(w, op, a, l);
  if (!valid(*o.cta, o.offset))
    w.undefined(l, "'" + op.text + "' on shared address " + std::to_string(mem::cluster_shared_address(o.cta->rank, o.offset)) +
                  ", which holds no initialized mbarrier object (undefined, PTX §9.7.13.15)");
  uint64_t v;
  std::memcpy(&v, o.bytes, 8);
  return decode(v);
}
void store(const Object& o, const State& s) {
  const uint64_t v = encode(s);
  std::memcpy(o.bytes, &v, 8);
  o.cta->unit<Objects>().changed(o.offset);
}

void check_range(Warp& w, const Op& op, int l, const Object& o, int64_t value, int64_t low, const char* what) {
  if (value < low || value > kMaxCount)
    w.undefined(l, "'" + op.text + "': the " + what + " would be " + std::to_string(value) + ", outside [" +
                  std::to_string(low) + ", " + std::to_string(kMaxCount) + "] (undefined, PTX §9.7.13.15.2)");
}

// §9.7.13.15.6: with no arrivals and no transactions pending, the phase completes and the next
// one expects the expected arrival count.
void maybe_complete(State& s) {
  if (s.pending != 0 || s.tx != 0) return;
  s.phase = (s.phase + 1) & 7;
  s.pending = s.expected;
}

// §9.7.13.15.7: the arrive-on operation.
void arrive_on(Warp& w, const Op& op, int l, const Object& o, State& s, int64_t count) {
  check_range(w, op, l, o, s.pending - count, 0, "pending arrival count");
  s.pending -= count;
  if (o.cta->race == w.cta->race) w.released(1u << l, racecheck_key(o), op.aux & kRelaxed);  // racecheck covers both CTAs
  if ((op.aux & kNoComplete) && s.pending == 0 && s.tx == 0)
    w.undefined(l, "'" + op.text + "' completes the phase, which .noComplete forbids (undefined, PTX §9.7.13.15.13)");
  maybe_complete(s);
}

// mbarrier.init [addr], count (§9.7.13.15.9).
void init(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Object o = object(w, op, op.args[0], l);
    if (valid(*o.cta, o.offset))
      w.undefined(l, "mbarrier.init on a valid mbarrier object (undefined until mbarrier.inval, PTX §9.7.13.15.9)");
    const int64_t count = w.get<uint32_t>(op.args[1], l);
    check_range(w, op, l, o, count, 1, "expected arrival count");
    store(o, {count, count, 0, 0});
    o.cta->unit<Objects>().valid.push_back(o.offset);
  });
}

// mbarrier.inval [addr] (§9.7.13.15.10).
void inval(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Object o;
    load(w, op, op.args[0], l, o);
    auto& v = o.cta->unit<Objects>().valid;
    v.erase(std::find(v.begin(), v.end(), o.offset));
  });
}

// mbarrier.expect_tx (kSign +1) and complete_tx (kSign -1) [addr], txCount (§9.7.13.15.11-12).
template <int kSign>
void tx(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Object o;
    State s = load(w, op, op.args[0], l, o);
    const int64_t n = w.get<uint32_t>(op.args[1], l);
    check_range(w, op, l, o, s.tx + kSign * n, -kMaxCount, "tx-count");
    s.tx += kSign * n;
    if (kSign < 0) maybe_complete(s);
    store(o, s);
  });
}

// mbarrier.arrive{_drop}{.expect_tx | .noComplete} state, [addr]{, count | txCount}
// (§9.7.13.15.13-14): state receives the phase before the arrive-on.
void arrive(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Object o;
    State s = load(w, op, op.args[1], l, o);
    const uint64_t before = token(s);
    int64_t count = 1;
    if (op.aux & kExpectTx) {
      const int64_t n = w.get<uint32_t>(op.args[2], l);
      check_range(w, op, l, o, s.tx + n, -kMaxCount, "tx-count");
      s.tx += n;
    } else if (op.args.size() > 2) {
      count = w.get<uint32_t>(op.args[2], l);
      check_range(w, op, l, o, count, 1, "count");
    }
    if (op.aux & kDrop) {  // the expected count drops for this and every later phase
      check_range(w, op, l, o, s.expected - count, 0, "expected arrival count");
      s.expected -= count;
    }
    arrive_on(w, op, l, o, s, count);
    store(o, s);
    w.set<uint64_t>(op.args[0], l, before);
  });
}

// cp.async.mbarrier.arrive{.noinc} [addr] (§9.7.13.15.15): the arrive-on happens when the
// lane's earlier cp.async copies complete. ptxvm completes them now; without .noinc the pending
// count first rises by one, so the net change is none.
void cp_async_arrive(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Object o;
    State s = load(w, op, op.args[0], l, o);
    cp_async::complete_all(w, 1u << l);
    if (!(op.aux & kNoInc)) {
      check_range(w, op, l, o, s.pending + 1, 0, "pending arrival count");
      ++s.pending;
    }
    arrive_on(w, op, l, o, s, 1);
    store(o, s);
  });
}

// The transactions pending on the barrier at `offset` land, in issue order: each writes its bytes
// and completes its tx-count on the barrier (§9.7.9.25.4: complete-tx), which may complete the phase.
void land_pending(Warp& w, const Op& op, uint32_t offset, int l) {
  Objects* objects = w.cta->units.find<Objects>();
  if (!objects) return;
  std::vector<Transaction> landing;
  auto& pending = objects->pending;
  for (size_t i = 0; i < pending.size();)
    if (pending[i].barrier == offset) {
      landing.push_back(std::move(pending[i]));
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  for (Transaction& t : landing) {
    const uint32_t bytes = t.land();
    if (!valid(*w.cta, offset))
      w.undefined(l, "'" + t.issuer + "' completes on shared address " + std::to_string(w.shared_base + offset) +
                                  ", which no longer holds an initialized mbarrier object (undefined, PTX §9.7.13.15)");
    uint8_t* at = w.access(Space::Shared, w.shared_base + offset, 8, l);
    uint64_t v;
    std::memcpy(&v, at, 8);
    State s = decode(v);
    check_range(w, op, l, {w.cta, offset, at}, s.tx - bytes, -kMaxCount, "tx-count");
    check_range(w, op, l, {w.cta, offset, at}, s.pending - t.arrivals, 0, "pending arrival count");
    s.tx -= bytes;
    s.pending -= t.arrivals;
    maybe_complete(s);
    store({w.cta, offset, at}, s);
  }
}

// mbarrier.test_wait / try_wait{.parity} waitComplete, [addr], state | phaseParity
// (§9.7.13.15.16): whether the phase named is complete. Only the current phase (false) and the
// one before it (true) may be named.
void test_wait(Warp& w, const Op& op, uint32_t m) {
  bool counted = false;  // one failed wait per instruction, however many of its lanes failed
  exec::for_lanes(m, [&](int l) {
    Object o;
    land_pending(w, op, object(w, op, op.args[1], l).offset, l);
    const State s = load(w, op, op.args[1], l, o);
    bool complete;
    if (op.aux & kParity) {
      complete = (w.get<uint32_t>(op.args[2], l) & 1) != (s.phase & 1);
    } else {
      const uint32_t phase = static_cast<uint32_t>(w.get<uint64_t>(op.args[2], l) >> 32) & 7;
      if (phase != s.phase && phase != ((s.phase + 7) & 7))
        w.undefined(l, "'" + op.text + "' names a phase that is neither the current nor the one before it "
                                  "(undefined, PTX §9.7.13.15.16)");
      complete = phase != s.phase;
    }
    w.set_pred(op.args[0], l, complete);
    if (complete && o.cta->race == w.cta->race) w.acquired(1u << l, racecheck_key(o), op.aux & kRelaxed);
    if (!complete && !counted && ++o.cta->unit<Objects>().futile(o.offset) >= kHopelessWaits) {
      w.fault_lane = l;
      throw mem::GuestFault{
          mem::GuestFault::Kind::Deadlock, Space::Shared, mem::cluster_shared_address(o.cta->rank, o.offset), 8,
          "'" + op.text + "' failed " + std::to_string(kHopelessWaits) +
              " times while nothing arrived on, expected or completed bytes on its mbarrier: phase " +
              std::to_string(s.phase) + ", " + std::to_string(s.pending) + " of " + std::to_string(s.expected) +
              " arrivals pending, tx-count " + std::to_string(s.tx) +
              (s.tx < 0 ? " (more bytes completed than expected)" : "")};
    }
    counted |= !complete;
  });
}

// mbarrier.pending_count count, state (§9.7.13.15.17): the pending count the state captured.
void pending_count(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) { w.set<uint32_t>(op.args[0], l, w.get<uint64_t>(op.args[1], l) & 0xfffff); });
}

}  // namespace

void mbarrier::expect_completion(Warp& w, uint64_t barrier, int lane, std::string issuer,
                                 std::function<uint32_t()> land, uint32_t arrivals) {
  const Warp::SharedTarget t = w.shared_target(barrier, lane);
  if (arrivals && t.cta->race == w.cta->race)
    w.released(1u << lane, racecheck_key({t.cta, static_cast<uint32_t>(t.offset), nullptr}));
  t.cta->unit<Objects>().pending.push_back({static_cast<uint32_t>(t.offset), std::move(issuer), std::move(land), arrivals});
}

namespace {

// The space qualifier (op.aux2): .shared::cta and .shared::cluster addresses both resolve through
// the shared::cluster window (mem::cluster_shared_address), in which .shared::cta ones name the
// executing CTA's objects.
bool space(const isa::Bound& b, Op& op, std::string&) {
  op.aux2 = static_cast<uint64_t>(b.value("space") ? Space::Shared : Space::Generic);
  return true;
}

template <program::Handler H, uint64_t kAux = 0>
bool select(const isa::Bound& b, Op& op, std::string& why) {
  if (!space(b, op, why)) return false;
  op.fn = H;
  op.aux = kAux;
  if (const std::string* k = b.value("kind")) op.aux |= *k == ".expect_tx" ? kExpectTx : kNoComplete;
  if (b.value("noinc")) op.aux |= kNoInc;
  if (b.is("sem", ".relaxed")) op.aux |= kRelaxed;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["mbarrier.init §9.7.13.15.9"] = select<&init>;
  r["mbarrier.inval §9.7.13.15.10"] = select<&inval>;
  r["mbarrier.expect_tx §9.7.13.15.11"] = select<&tx<+1>>;
  r["mbarrier.complete_tx §9.7.13.15.12"] = select<&tx<-1>>;
  r["mbarrier.arrive §9.7.13.15.13"] = select<&arrive>;
  r["mbarrier.arrive_drop §9.7.13.15.14"] = select<&arrive, kDrop>;
  r["cp.async.mbarrier.arrive §9.7.13.15.15"] = select<&cp_async_arrive>;
  r["mbarrier.test_wait §9.7.13.15.16"] = select<&test_wait>;
  r["mbarrier.test_wait.parity §9.7.13.15.16"] = select<&test_wait, kParity>;
  r["mbarrier.try_wait §9.7.13.15.16"] = select<&test_wait>;
  r["mbarrier.try_wait.parity §9.7.13.15.16"] = select<&test_wait, kParity>;
  r["mbarrier.pending_count §9.7.13.15.17"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &pending_count;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units
