// Bulk asynchronous copies (PTX §9.7.9.25.4, 001_23fdd5978b24a3ed.txt): cp.async.bulk,
// cp.reduce.async.bulk, cp.async.bulk.prefetch, and the bulk async-groups (§9.7.9.25.6)
// cp.async.bulk.commit_group and cp.async.bulk.wait_group{.read}.
//
// A bulk copy moves `size` bytes (a multiple of 16, both addresses 16-byte aligned,
// §9.7.9.25.4.1) in the async proxy. Its bytes move at the latest moment the ISA allows, source
// read and destination written together:
//   - into shared memory, completing on an mbarrier (.mbarrier::complete_tx::bytes): when a thread
//     next observes that barrier's phase (units/mbarrier/mbarrier.h), which the copy's complete-tx
//     of `size` bytes may complete;
//   - into global memory, completing on a bulk async-group (.bulk_group): when a
//     cp.async.bulk.wait_group (with or without .read) of the issuing thread retires its group, or
//     the thread exits.
// A kernel that reads the destination, or writes the source, before then sees what a GPU may show.
// A reduction combines each destination element with its source element as atom does
// (numeric/atomic_ops.h), atomically per element: other CTAs may reduce into the same global array.
// A .shared::cluster destination may be another CTA of the cluster (its mbarrier there too); a
// .multicast::cluster copy lands, with its complete-tx, at the same offsets in every CTA of its
// ctaMask.
#include <bit>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "exec/async_groups.h"
#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "numeric/atomic_ops.h"
#include "program/registry.h"
#include "units/bulk_copy/bulk_copy.h"
#include "units/mbarrier/mbarrier.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using program::Op;
using mem::Space;

// A copy or reduction in flight: where from and to, resolved and checked at issue; for a
// reduction, the combine function and the element size.
struct Copy {
  uint8_t* dst;
  const uint8_t* src;
  uint32_t size;
  numeric::Combine combine = nullptr;
  uint8_t element = 0;
  bool global = false;
  uint16_t byte_mask = 0xffff;  // .cp_mask: bit i copies byte i of every 16-byte chunk (§9.7.9.25.4.1)
  Warp::AsyncTicket ticket;     // the async check's
  void apply() const {
    ticket.retire();
    if (!combine && byte_mask != 0xffff) {
      for (uint32_t i = 0; i < size; ++i)
        if (byte_mask >> i % 16 & 1) dst[i] = src[i];
      return;
    }
    if (!combine) {
      std::memmove(dst, src, size);
      return;
    }
    for (uint32_t i = 0; i < size; i += element) numeric::combine_atomically(combine, dst + i, src + i, element, global);
  }
};

// An operation in a bulk group: whatever moves its bytes (a Copy, a tensor store).
struct Deferred {
  std::function<void()> effect;
  void apply() const { effect(); }
};

// The unit's state in one CTA: each warp's bulk async-groups.
class BulkGroups : public exec::Unit {
public:
  explicit BulkGroups(exec::Cta& cta) : warps(cta.warps.size()) {}
  void exited(Warp& w, uint32_t lanes) override { warps[w.index].complete_all(lanes); }
  std::vector<exec::AsyncGroups<Deferred>> warps;
};

// op.aux: a reduction's combine function (0: a copy); op.aux2: the destination's space, then
// kSharedSource, kMulticast, kByteMask (.cp_mask: the last operand is byteMask), then a
// reduction's element bytes from bit kElementShift.
constexpr uint64_t kSharedSource = 0x100, kMulticast = 0x200, kByteMask = 0x400, kElementShift = 16;
Space space_of(const std::string& q) { return q == ".global" ? Space::Global : Space::Shared; }

// The host bytes of [address, address + size) in `space`, after the alignment rule of §9.7.9.25.4.1.
uint8_t* operand(Warp& w, const Op& op, Space space, uint64_t address, uint32_t size, int l, const char* which) {
  if (space == Space::Shared) address = mem::shared_offset(address);
  if (address % 16)
    w.undefined(l, "'" + op.text + "': the " + which + " address " + std::to_string(address) +
                  " is not 16-byte aligned (PTX §9.7.9.25.4.1)");
  return w.access(space, address, size, l, false);
}

// cp.async.bulk.dst.src.completion [dstMem], [srcMem], size{, [mbar]}{, ctaMask}{, policy}
void bulk_copy(Warp& w, const Op& op, uint32_t m) {
  const Space dst_space = static_cast<Space>(op.aux2 & 0xff);
  const Space src_space = op.aux2 & kSharedSource ? Space::Shared : Space::Global;
  // The operands as the async check names them: shared addresses for shared memory.
  auto named = [](Space space, uint64_t address) { return space == Space::Shared ? mem::shared_offset(address) : address; };
  exec::for_lanes(m, [&](int l) {
    const uint32_t size = w.get<uint32_t>(op.args[2], l);
    if (size % 16)
      w.undefined(l, "'" + op.text + "': size " + std::to_string(size) + " is not a multiple of 16 (PTX §9.7.9.25.4.1)");
    const uint64_t dst = named(dst_space, w.address(op.args[0], l)), src = named(src_space, w.address(op.args[1], l));
    if (src_space == Space::Shared)  // the async proxy reads it
      w.async_proxy_read(l, src, size, w.current_pc, w.proxy_fenced(w.first_thread + static_cast<uint32_t>(l)));
    Copy c;
    c.dst = operand(w, op, dst_space, dst, size, l, "destination");
    c.src = operand(w, op, src_space, src, size, l, "source");
    c.size = size;
    if (op.aux2 & kByteMask) c.byte_mask = w.get<uint16_t>(op.args.back(), l);
    if (op.aux) {  // cp.reduce.async.bulk
      c.combine = reinterpret_cast<numeric::Combine>(op.aux);
      c.element = static_cast<uint8_t>(op.aux2 >> kElementShift);
      c.global = dst_space == Space::Global;
    }
    // One ticket per destination: its bytes, and the source it reads when it lands.
    auto ticket = [&](Copy& copy, uint64_t to, const char* completion) {
      copy.ticket = w.async_issue(completion);
      w.async_region(copy.ticket, l, src_space, src, size, true);
      w.async_region(copy.ticket, l, dst_space, to, size, false);
    };
    if (dst_space == Space::Global) {
      ticket(c, dst, "a cp.async.bulk.wait_group of the issuing thread retires its bulk async-group");
      bulk_copy::issue(w, l, [c] { c.apply(); });
      return;
    }
    const uint64_t barrier = mem::shared_offset(w.address(op.args[3], l));
    if (barrier % 8)
      w.undefined(l, "'" + op.text + "': the mbarrier operand is not an 8-byte aligned shared address (PTX §9.7.13.15.1)");
    constexpr const char* kPhase = "its mbarrier's phase completes";
    auto expect = [&](const Copy& copy, uint64_t at) {
      mbarrier::expect_completion(w, at, l, op.text, [copy] {
        copy.apply();
        return copy.size;
      });
    };
    if (!(op.aux2 & kMulticast)) {
      ticket(c, dst, kPhase);
      return expect(c, barrier);
    }
    // .multicast::cluster: the same offsets of the destination and the mbarrier in each CTA of ctaMask
    const uint32_t mask = w.get<uint16_t>(op.args[4], l);
    if (!w.cta->cluster->holds(mask))
      w.undefined(l, "'" + op.text + "': ctaMask " + std::to_string(mask) + " names a CTA outside the cluster of " +
                          std::to_string(w.cta->cluster->ctas.size()) + " (undefined, PTX §9.7.9.25.4.1)");
    for (uint32_t ranks = mask; ranks; ranks &= ranks - 1) {
      const auto rank = static_cast<uint32_t>(std::countr_zero(ranks));
      Copy to = c;
      to.dst = operand(w, op, Space::Shared, mem::with_rank(dst, rank), size, l, "destination");
      ticket(to, mem::with_rank(dst, rank), kPhase);
      expect(to, mem::with_rank(barrier, rank));
    }
  });
}

// cp.async.bulk.prefetch.L2.global [srcMem], size{, policy}: a hint; the range must still be
// valid global memory, 16-byte aligned, a multiple of 16 bytes.
void prefetch(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    const uint32_t size = w.get<uint32_t>(op.args[1], l);
    const uint64_t src = w.address(op.args[0], l);
    if (size % 16)
      w.undefined(l, "'" + op.text + "': size " + std::to_string(size) + " is not a multiple of 16 (PTX §9.7.9.25.4.3)");
    operand(w, op, Space::Global, src, size, l, "source");
  });
}

// cp.async.bulk.commit_group: the lane's uncommitted bulk copies become its newest bulk group.
void commit_group(Warp& w, const Op&, uint32_t m) { w.cta->unit<BulkGroups>().warps[w.index].commit(m); }

// cp.async.bulk.wait_group{.read} N: all but the N newest bulk groups complete (with .read the
// sources need only have been read; ptxvm completes the copies whole, which includes that).
void wait_group(Warp& w, const Op& op, uint32_t m) {
  if (BulkGroups* g = w.cta->units.find<BulkGroups>()) g->warps[w.index].wait(m, static_cast<uint32_t>(op.aux));
}

}  // namespace

void bulk_copy::issue(Warp& w, int lane, std::function<void()> effect) {
  w.cta->unit<BulkGroups>().warps[w.index].issue(lane, {std::move(effect)});
}

namespace {

const program::Registration registered([](program::Registry& r) {
  r["cp.async.bulk §9.7.9.25.4.1"] = [](const isa::Bound& b, Op& op, std::string& why) {
    const std::string* dst = b.value("dst");
    const std::string* src = b.value("src");
    op.aux2 = static_cast<uint64_t>(space_of(dst ? *dst : ".global")) | (src && *src == ".shared::cta" ? kSharedSource : 0) |
              (b.value("multicast") ? kMulticast : 0) | (b.value("mask") ? kByteMask : 0);
    op.fn = &bulk_copy;
    return true;
  };
  r["cp.reduce.async.bulk §9.7.9.25.4.2"] = [](const isa::Bound& b, Op& op, std::string& why) {
    const std::string* dst = b.value("dst");
    const std::string* red = b.value("op");
    const std::string* type = b.value("type");
    op.aux = reinterpret_cast<uint64_t>(numeric::combine_for(red ? *red : "", type ? *type : "", true));
    if (!op.aux) {
      why = "cp.reduce.async.bulk" + (red ? *red : "") + (type ? *type : "") + " has no element operation";
      return false;
    }
    const std::string t = *type;
    const uint64_t bytes = t == ".f16" || t == ".bf16" ? 2 : t == ".b64" || t == ".u64" || t == ".s64" || t == ".f64" ? 8 : 4;
    op.aux2 = static_cast<uint64_t>(space_of(dst ? *dst : ".global")) | kSharedSource | bytes << kElementShift;
    op.fn = &bulk_copy;
    return true;
  };
  r["cp.async.bulk.prefetch §9.7.9.25.4.3"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &prefetch;
    return true;
  };
  r["cp.async.bulk.commit_group §9.7.9.25.6.1"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &commit_group;
    return true;
  };
  r["cp.async.bulk.wait_group §9.7.9.25.6.2"] = [](const isa::Bound&, Op& op, std::string&) {
    op.aux = op.args[0].imm;
    op.fn = &wait_group;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units
