#include "exec/warp.h"

#include <algorithm>
#include <chrono>

#include "exec/engine.h"

namespace ptxvm::exec {

using isa::SpecialReg;
using mem::GuestFault;
using mem::Space;

uint8_t* Warp::access_checked(Space space, uint64_t address, uint32_t size, int lane, bool aligned) {
  auto fail = [&](GuestFault::Kind kind, Space s, std::string detail = {}) -> uint8_t* {
    fault_lane = lane;
    throw GuestFault{kind, s, address, size, std::move(detail)};
  };
  if (aligned && size > 1 && address % size != 0) return fail(GuestFault::Kind::Misaligned, space);
  const auto [resolved, at] = mem::resolve(space, address);
  space = resolved;
  uint64_t offset = at;
  Cta* owner = cta;  // whose shared memory (a shared address may name another CTA of the cluster)
  uint8_t* p = nullptr;
  switch (space) {
  case Space::Global:
    if (offset - last_global.base >= last_global.size) find_global(offset);
    if (last_global.data && size <= last_global.size - (offset - last_global.base))
      p = last_global.data + (offset - last_global.base);
    break;
  case Space::Shared: {
    const SharedTarget t = shared_target(offset, lane);
    if (t.cta != cta && program->ops[current_pc].cta_window)
      return fail(GuestFault::Kind::OutOfBounds, space,
                  "a .shared::cta access at an address in the shared memory of CTA rank " + std::to_string(t.cta->rank) +
                      " of the cluster, not the executing CTA's (rank " + std::to_string(cta->rank) +
                      "): undefined (PTX §5.1.7); the H100 stops the kernel");
    owner = t.cta;
    offset = t.offset;
    p = owner->shared.at(offset, size);
    break;
  }
  case Space::Local:
    p = cta->local[first_thread + static_cast<uint32_t>(lane)].at(offset, size);
    if (p && offset < program->local_bytes && launch->sanitizer && launch->sanitizer->checks.memcheck)
      if (std::string outside = local_object_overrun(offset, size); !outside.empty())
        return fail(GuestFault::Kind::OutOfBounds, space, std::move(outside));
    break;
  case Space::Const: p = const_cast<mem::Buffer&>(program->constants).at(offset, size); break;
  case Space::Param: p = const_cast<mem::Buffer&>(launch->params).at(offset, size); break;
  case Space::Generic: break;
  }
  if (!p) {
    std::string what;
    switch (space) {
    case Space::Global: what = launch->global->describe(offset, size); break;
    case Space::Shared:
      what = (owner == cta ? "the CTA has " : "the CTA of rank " + std::to_string(owner->rank) + " has ") +
             std::to_string(owner->shared.bytes.size()) + " bytes of shared memory";
      break;
    case Space::Local:
      what = "a thread has " + std::to_string(cta->local[first_thread + static_cast<uint32_t>(lane)].bytes.size()) +
             " bytes of local memory";
      break;
    default: what = std::string("outside the ") + mem::to_string(space) + " window";
    }
    return fail(GuestFault::Kind::OutOfBounds, space, what);
  }
  if (checked) observe(space, owner, offset, size, lane, p);
  return p;
}

std::string Warp::local_object_overrun(uint64_t offset, uint32_t size) const {
  // The object at or before the offset; an access must lie inside it.
  const auto& objects = program->local_objects;
  auto it = std::upper_bound(objects.begin(), objects.end(), offset,
                             [](uint64_t at, const program::Program::LocalObject& o) { return at < o.offset; });
  if (it != objects.begin()) {
    const program::Program::LocalObject& o = *std::prev(it);
    const std::vector<uint32_t>& reached = launch->kernel->reached;
    const bool mine = o.function < 0 || std::binary_search(reached.begin(), reached.end(), static_cast<uint32_t>(o.function));
    if (!mine && offset < uint64_t{o.offset} + o.size)
      return "in the local variable '" + o.name + "' of function '" + program->functions[static_cast<size_t>(o.function)].name +
             "', which kernel '" + launch->kernel->name + "' never calls: outside the kernel's frame";
    if (offset + size <= uint64_t{o.offset} + o.size) return {};
    if (offset < uint64_t{o.offset} + o.size)
      return std::to_string(offset + size - o.offset - o.size) + " bytes past the end of the " + std::to_string(o.size) +
             "-byte local variable '" + o.name + "' (other variables of the thread's frame follow it)";
  }
  return "between the local variables of the thread's frame (alignment padding), in none of them";
}

void Warp::observe(Space space, Cta* owner, uint64_t offset, uint32_t size, int lane, const uint8_t* bytes) {
  using sanitize::Access;
  if (cta->init && space != Space::Const && space != Space::Param) init_access(space, owner, offset, size, lane);
  const Access a = launch->sanitizer->traits(current_pc).access;
  if (a == Access::None) return;  // a unit's own access, or the thread's local frame
  const bool write = a == Access::Write || a == Access::StrongWrite || a == Access::Atomic;
  if (async_checked && (space == Space::Shared || space == Space::Global) && !cta->cluster->async->empty())
    async_access(space, owner, offset, size, lane, write);
  if (write && owner == cta && cta->proxy && space == Space::Shared)  // a generic write, for the async proxy
    cta->proxy->write(first_thread + static_cast<uint32_t>(lane), current_pc, offset, size);
  if (!cta->race) return;
  const uint32_t thread = race_thread(lane);
  const bool strong = a == Access::StrongRead || a == Access::StrongWrite || a == Access::Atomic;
  const uint64_t location =
      sanitize::sync_key(sanitize::SyncKind::Location, uint64_t(space) << 52 ^ uint64_t{owner->rank} << 40 ^ offset);
  if (strong && a != Access::StrongWrite) cta->race->acquire(location, thread);
  // shared memory the shadow covers: the CTA's own, or another CTA's of the cluster (DSMEM)
  if (space == Space::Shared && owner->race == cta->race)
    if (auto h = cta->race->access(thread, current_pc, owner->race_byte + offset, size, a, bytes)) race_report(*h);
  if (strong && a != Access::StrongRead) cta->race->release(location, thread);
}

Warp::AsyncTicket Warp::async_open(const char* completion) {
  return {cta->cluster, cta->cluster->async->open(), completion};
}

void Warp::AsyncTicket::retire_checked() const { cluster->async->retire(id); }

void Warp::async_add(const AsyncTicket& t, int lane, Space space, uint64_t address, uint64_t size, bool source) {
  sanitize::AsyncShadow::Region r;
  r.space = space;
  r.offset = address;
  if (space == Space::Shared) {
    const SharedTarget at = shared_target(address, lane);
    r.rank = at.cta->rank;
    r.offset = at.offset;
  }
  r.size = size;
  r.source = source;
  r.ticket = t.id;
  r.cta[0] = cta->id.x, r.cta[1] = cta->id.y, r.cta[2] = cta->id.z;
  r.thread = first_thread + static_cast<uint32_t>(lane);
  r.pc = current_pc;
  r.completion = t.completion;
  t.cluster->async->add(std::move(r));
}

void Warp::async_access(Space space, Cta* owner, uint64_t offset, uint32_t size, int lane, bool write) {
  const sanitize::AsyncShadow::Region* r =
      cta->cluster->async->conflict(space, space == Space::Shared ? owner->rank : 0, offset, size, write);
  if (!r) return;
  const uint32_t id[3] = {cta->id.x, cta->id.y, cta->id.z};
  CheckReport report;
  report.check = "async";
  report.kind = r->source ? "write to the source of an asynchronous operation in flight"
                : write   ? "write before an asynchronous operation's completion"
                          : "read before an asynchronous operation's completion";
  report.site = launch->sanitizer->site(id, first_thread + static_cast<uint32_t>(lane), current_pc);
  report.other = launch->sanitizer->site(r->cta, r->thread, r->pc);
  report.space = mem::to_string(space);
  report.address = space == Space::Shared ? mem::cluster_shared_address(owner->rank, offset) : offset;
  report.size = size;
  report.detail = std::string(r->source ? "the operation may read these bytes until " : "the operation writes these bytes when ") +
                  r->completion + "; " + (r->source ? "modifying them before" : "accessing them before a thread observes that") +
                  " is undefined (PTX §9.7.9.25.1)";
  launch->sanitizer->report(std::move(report));
}

void Warp::async_uses(uint32_t exec) {
  const program::Op& op = program->ops[current_pc];
  if (op.family && op.family->mnemonic.rfind("wgmma", 0) == 0) return;  // a chain on the accumulators
  const sanitize::OpTraits& t = launch->sanitizer->traits(current_pc);
  for (const std::vector<uint32_t>* slots : {&t.reads, &t.stores, &t.addresses, &t.writes})
    for (uint32_t slot : *slots)
      if (async_register_count[slot] && exec) {
        const int lane = std::countr_zero(exec);
        check_report("async", lane, current_pc,
                     slots == &t.writes ? "register written before an asynchronous operation's completion"
                                        : "register read before an asynchronous operation's completion",
                     "the operation holds this register (its accumulators or A fragment) until a wgmma.wait_group of "
                     "the warp retires its wgmma-group; accessing it before is undefined (PTX §9.7.15.7.3)",
                     first_thread + static_cast<uint32_t>(lane), async_register_pc[slot]);
        return;
      }
}

uint32_t Warp::proxy_fenced(uint32_t thread) const { return cta->proxy ? cta->proxy->fenced(thread) : 0; }

void Warp::proxy_fence(uint32_t lanes) {
  if (!cta->proxy) return;
  for_lanes(lanes, [&](int l) { cta->proxy->fence(first_thread + static_cast<uint32_t>(l)); });
}

void Warp::async_proxy_check(int lane, uint64_t address, uint64_t size, uint32_t at_pc, uint32_t reader) {
  const SharedTarget at = shared_target(address, lane);
  if (at.cta != cta || !cta->proxy) return;
  const auto w = cta->proxy->unfenced(at.offset, size, reader);
  if (!w) return;
  const uint32_t id[3] = {cta->id.x, cta->id.y, cta->id.z};
  CheckReport report;
  report.check = "async";
  report.kind = "async-proxy read of a generic write without fence.proxy.async";
  report.site = launch->sanitizer->site(id, first_thread + static_cast<uint32_t>(lane), at_pc);
  report.other = launch->sanitizer->site(id, w->thread, w->pc);
  report.space = "shared";
  report.address = address;
  report.size = static_cast<uint32_t>(size);
  report.detail = "the operation reads shared memory through the async proxy, which a generic write changed with "
                  "no fence.proxy.async since by the writer or the issuing thread: it may read the old bytes "
                  "(PTX §9.7.9.25.2, §9.7.15.4, §9.7.13.4)";
  launch->sanitizer->report(std::move(report));
}

void Warp::init_access(Space space, Cta* owner, uint64_t offset, uint32_t size, int lane) {
  using sanitize::Access;
  const sanitize::OpTraits& t = launch->sanitizer->traits(current_pc);
  const uint32_t thread = first_thread + static_cast<uint32_t>(lane);
  const size_t at = static_cast<size_t>(lane);
  // The undefined bits of the value stored as element i (a matrix store moves other lanes'
  // fragments: any undefined fragment makes all undefined).
  auto stored = [&](size_t i, const std::vector<uint32_t>& slots) -> uint64_t {
    if (i >= slots.size()) return 0;
    if (t.cross_lane) return uninit[slots[i]] & checked_exec ? ~uint64_t{0} : 0;
    return vbits[size_t{slots[i]} * 32 + at];
  };
  if (space == Space::Global) {  // what leaves for the host: a use
    const std::vector<uint32_t>& values = t.access == Access::Atomic ? t.reads : t.stores;
    if (t.access == Access::Write || t.access == Access::StrongWrite || t.access == Access::Atomic)
      for (size_t i = 0; i < values.size(); ++i)
        if (stored(i, values)) {
          init_report(lane, vfrom[size_t{values[i]} * 32 + at], "uninitialised value stored to global memory",
                      "the value stored holds bits");
          break;
        }
    // Device memory no one wrote (Device::malloc before a copy or a store): a load carries its
    // bytes' undefinedness, as for shared memory; an atomic computes with them.
    mem::GlobalMemory& global = *launch->global;
    if (t.access == Access::Read || t.access == Access::StrongRead) {
      const size_t n = std::max<size_t>(1, t.writes.size());
      const uint32_t element = std::max<uint32_t>(1, size / static_cast<uint32_t>(n));
      for (size_t i = 0; i < t.writes.size(); ++i)
        if (global.undefined(offset + i * element, element)) {
          pending[i * 32 + at] = element >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * element)) - 1;
          pending_from = current_pc;
        }
      return;
    }
    if (t.access == Access::Atomic && global.undefined(offset, size))
      init_report(lane, current_pc, "atomic operation on uninitialised memory", "the bytes it reads hold bits");
    global.define(offset, size);
    return;
  }
  const bool local = space == Space::Local;
  // Shared memory of the cluster (§5.1.7): the shadow of the CTA that owns it.
  sanitize::InitShadow* shadow = owner->init.get();
  if (!shadow) return;
  switch (t.access) {
  case Access::Read:
  case Access::StrongRead: {
    // Each destination element's bytes (a vector load fills one register per element).
    const size_t n = std::max<size_t>(1, t.writes.size());
    const uint32_t element = std::max<uint32_t>(1, size / static_cast<uint32_t>(n));
    for (size_t i = 0; i < t.writes.size(); ++i)
      if (const uint64_t bits = shadow->undefined(local, thread, offset + i * element, element)) {
        pending[i * 32 + at] = bits;
        pending_from = current_pc;
      }
    return;
  }
  case Access::Atomic:  // it computes with the bytes
    if (shadow->undefined(local, thread, offset, size))
      init_report(lane, current_pc, "atomic operation on uninitialised memory", "the bytes it reads hold bits");
    shadow->write(local, thread, offset, size, 0);
    return;
  case Access::Write:
  case Access::StrongWrite: {
    const size_t n = std::max<size_t>(1, t.stores.size());
    const uint32_t element = std::max<uint32_t>(1, size / static_cast<uint32_t>(n));
    for (size_t i = 0; i < n; ++i)
      shadow->write(local, thread, offset + i * element, i + 1 == n ? size - static_cast<uint32_t>(i) * element : element,
                       stored(i, t.stores));
    return;
  }
  case Access::None:  // a unit's copy, an mbarrier object, a call's parameters: written
    shadow->write(local, thread, offset, size, 0);
    return;
  }
}

void Warp::init_report(int lane, uint32_t from, const char* kind, const std::string& what) {
  const uint32_t id[3] = {cta->id.x, cta->id.y, cta->id.z};
  const uint32_t thread = first_thread + static_cast<uint32_t>(lane);
  CheckReport r;
  r.check = "initcheck";
  r.kind = kind;
  r.site = launch->sanitizer->site(id, thread, current_pc);
  if (from == kNeverWritten) {
    r.detail = what + " of a register no instruction of the thread had written, whose value PTX leaves undefined "
                      "(§5.1.1)";
    launch->sanitizer->report(std::move(r));
    return;
  }
  if (from != current_pc) r.other = launch->sanitizer->site(id, thread, from);
  r.detail = what + (from != current_pc ? " that the other instruction loaded" : std::string(" it loads")) +
             " from memory nothing had written, which PTX leaves undefined (shared and local memory: §5.1.3, "
             "§5.1.5; a device allocation before any copy or store)";
  launch->sanitizer->report(std::move(r));
}

void Warp::init_uses(uint32_t exec) {
  checked_exec = exec;
  if (!cta->init) return;
  const sanitize::OpTraits& t = launch->sanitizer->traits(current_pc);
  const program::Op& op = program->ops[current_pc];
  if (op.guard != program::kNoReg)
    if (const uint32_t lanes = pundef[op.guard] & group) {
      for_lanes(lanes, [&](int l) {
        init_report(l, current_pc, "uninitialised value used as a guard predicate", "the guard depends on bits");
      });
      pundef[op.guard] &= ~lanes;
    }
  for (uint32_t slot : t.addresses)
    if (const uint32_t lanes = uninit[slot] & exec) {
      for_lanes(lanes, [&](int l) {
        init_report(l, vfrom[size_t{slot} * 32 + static_cast<size_t>(l)], "uninitialised value used as an address",
                    "the address holds bits");
        vbits[size_t{slot} * 32 + static_cast<size_t>(l)] = 0;
      });
      uninit[slot] &= ~lanes;
    }
  // What the destinations will hold: computed from the sources before the instruction runs.
  pending.assign(t.writes.size() * 32, 0);
  pending_preds = 0;
  pending_from = current_pc;
  uint32_t lanes = 0;
  for (uint32_t slot : t.reads)
    if (const uint32_t u = uninit[slot] & exec) {
      lanes |= u;
      pending_from = vfrom[size_t{slot} * 32 + static_cast<size_t>(std::countr_zero(u))];
    }
  for (uint32_t p : t.pred_reads) lanes |= pundef[p] & exec;
  if (!lanes) return;
  pending_preds = lanes;
  auto bits = [&](size_t arg, int l) -> sanitize::Bits {
    if (arg >= op.args.size()) return {};
    const program::Arg& a = op.args[arg];
    if (a.kind == program::ArgKind::Reg)
      return {regs[size_t{a.reg} * 32 + static_cast<size_t>(l)], vbits[size_t{a.reg} * 32 + static_cast<size_t>(l)]};
    return {a.kind == program::ArgKind::Imm ? a.imm : 0, 0};
  };
  for_lanes(lanes, [&](int l) {
    if (t.rule != sanitize::Rule::Any && t.writes.size() == 1) {
      pending[static_cast<size_t>(l)] = sanitize::undefined_bits(t.rule, bits(1, l), bits(2, l), t.width);
      return;
    }
    for (size_t i = 0; i < t.writes.size(); ++i) pending[i * 32 + static_cast<size_t>(l)] = ~uint64_t{0};
  });
}

void Warp::executed_elsewhere(uint32_t lanes) {
  if (!cta->init) return;
  for_lanes(lanes, [&](int l) {
    const sanitize::OpTraits& t = launch->sanitizer->traits(pc[l]);
    for (uint32_t slot : t.writes) defined(slot, 1u << l);
    for (uint32_t p : t.pred_writes) pundef[p] &= ~(1u << l);
  });
}

void Warp::settle() {
  if (cta->race)
    for (const sanitize::RaceShadow::Hazard& h : cta->race->settle()) race_report(h);
  if (!cta->init) return;
  const sanitize::OpTraits& t = launch->sanitizer->traits(current_pc);
  // A matrix load fills other lanes' registers: any undefined row makes every fragment undefined.
  if (t.cross_lane && t.access == sanitize::Access::Read &&
      std::any_of(pending.begin(), pending.end(), [](uint64_t b) { return b != 0; }))
    std::fill(pending.begin(), pending.end(), ~uint64_t{0});
  for (size_t i = 0; i < t.writes.size(); ++i) {
    const uint32_t slot = t.writes[i];
    for_lanes(checked_exec, [&](int l) {
      const size_t at = size_t{slot} * 32 + static_cast<size_t>(l);
      vbits[at] = pending[i * 32 + static_cast<size_t>(l)];
      if (vbits[at]) {
        vfrom[at] = pending_from;
        uninit[slot] |= 1u << l;
      } else {
        uninit[slot] &= ~(1u << l);
      }
    });
  }
  for (uint32_t p : t.pred_writes) pundef[p] = (pundef[p] & ~checked_exec) | (pending_preds & checked_exec);
}

void Warp::race_report(const sanitize::RaceShadow::Hazard& h) {
  // the shadow numbers threads and bytes across the CTAs it covers: the cluster's, or this CTA's own
  auto covered = [&](uint64_t k) -> const Cta& { return cta->own_race ? *cta : *cta->cluster->ctas[k]; };
  const Cta& owner = covered(h.offset / cta->shared.bytes.size());
  auto site = [&](uint32_t thread, uint32_t at) {
    const Cta& c = covered(thread / cta->threads);
    const uint32_t id[3] = {c.id.x, c.id.y, c.id.z};
    return launch->sanitizer->site(id, thread % cta->threads, at);
  };
  CheckReport r;
  r.check = "racecheck";
  r.kind = std::string(h.kind) + " hazard";
  r.site = site(h.thread, h.pc);
  r.other = site(h.other_thread, h.other_pc);
  r.space = "shared";
  // a shared::cluster address of the byte (the CTA's rank in bits 31:24, PTX §5.1.4)
  r.address = mem::cluster_shared_address(owner.rank, h.offset % cta->shared.bytes.size());
  r.size = h.size;
  r.detail = "no barrier, mbarrier phase, warp synchronisation or strong access to one location orders these "
             "accesses: a data race (PTX §8.7.1)";
  launch->sanitizer->report(std::move(r));
}

uint32_t Warp::race_thread(int l) const { return cta->race_thread + first_thread + static_cast<uint32_t>(l); }

void Warp::release_lanes(uint32_t lanes, uint64_t key, bool relaxed) {
  for_lanes(lanes, [&](int l) { cta->race->release(key, race_thread(l), relaxed); });
}

void Warp::acquire_lanes(uint32_t lanes, uint64_t key, bool relaxed) {
  for_lanes(lanes, [&](int l) { cta->race->acquire(key, race_thread(l), relaxed); });
}

void Warp::join_lanes(uint32_t lanes, bool barrier) {
  uint32_t threads[32], n = 0;
  for_lanes(lanes, [&](int l) { threads[n++] = race_thread(l); });
  cta->race->join(threads, n, barrier);
}

void Warp::sync_report(int lane, std::string kind, std::string detail) {
  if (launch->sanitizer && launch->sanitizer->checks.synccheck)
    check_report("synccheck", lane, current_pc, std::move(kind), std::move(detail));
}

void Warp::check_report(const char* check, int lane, uint32_t at_pc, std::string kind, std::string detail,
                        uint32_t other_thread, uint32_t other_pc) {
  if (!launch->sanitizer) return;
  const uint32_t id[3] = {cta->id.x, cta->id.y, cta->id.z};
  CheckReport r;
  r.check = check;
  r.kind = std::move(kind);
  r.site = launch->sanitizer->site(id, first_thread + static_cast<uint32_t>(lane), at_pc);
  if (other_thread != UINT32_MAX) r.other = launch->sanitizer->site(id, other_thread, other_pc);
  r.detail = std::move(detail);
  launch->sanitizer->report(std::move(r));
}

Warp::SharedTarget Warp::shared_target(uint64_t address, int lane) {
  if (address - shared_base < shared_size) return {cta, address - shared_base};
  const Cluster& cluster = *cta->cluster;
  Cta* target = address >> 32 ? nullptr : cluster.at(mem::rank_of(address));
  const uint64_t place = address & mem::kCtaSharedMask;
  if (!target || place < mem::kSharedReserved) {
    fault_lane = lane;
    throw GuestFault{GuestFault::Kind::OutOfBounds, Space::Shared, address, 0,
                     target ? "in the first KiB of the shared window, which the system reserves (user shared memory "
                              "starts at 0x400): undefined to access (PTX §10.29); an H100 reads zeros there"
                            : "outside the shared::cluster window (a cluster of " + std::to_string(cluster.ctas.size()) +
                                  " CTAs: ranks in bits 31:24)"};
  }
  if (target->finished)
    undefined(lane, "shared::cluster access to CTA rank " + std::to_string(target->rank) +
                        ", which has exited (undefined: a CTA's shared memory lives until it exits, PTX §2.2.2)");
  return {target, place - mem::kSharedReserved};
}

void Warp::find_global(uint64_t address) {
  if (address - other_global.base < other_global.size) std::swap(last_global, other_global);
  else other_global = std::exchange(last_global, launch->global->lookup(address));
}

Warp::Span Warp::span(Space space, uint32_t mask, const uint64_t (&addr)[32], uint32_t size) {
  if (checked || !power_of_two(size) || !mask) return {};
  // The region the first lane's address falls in: shared memory (directly or through the generic
  // window, §6.4.1.1) or a device allocation, for a generic address one wholly below the windows.
  const uint64_t first = addr[std::countr_zero(mask)];
  Span s;
  uint64_t extent;
  if (space == Space::Shared || (space == Space::Generic && first - mem::kSharedWindow < mem::kWindowSize)) {
    s = {shared_data, space == Space::Shared ? shared_base : mem::kSharedWindow + shared_base};
    extent = shared_size;
  } else if (space == Space::Global || (space == Space::Generic && first < mem::kParamWindow)) {
    if (first - last_global.base >= last_global.size) find_global(first);
    if (space == Space::Generic && last_global.size > mem::kParamWindow - last_global.base) return {};
    s = {last_global.data, last_global.base};
    extent = last_global.size;
  } else {
    return {};
  }
  if (!s.data || extent < size) return {};
  // Every lane's offset into the region (lanes outside `mask` count as `first`): their OR, in a
  // loop that vectorises, bounds them all (no offset exceeds the OR of all of them); only when
  // it does not fit (a region whose size is not a power of two, accessed near its end) the
  // largest offset decides. The OR of the addresses gives the alignment.
  const uint64_t* a = addr;
  uint64_t masked[32];
  if (mask != ~0u) {
    for (int lane = 0; lane < 32; ++lane) masked[lane] = mask & kLaneBit[lane] ? addr[lane] : first;
    a = masked;
  }
  const uint64_t limit = extent - size;
  uint64_t any = 0, bits = 0;
  for (int lane = 0; lane < 32; ++lane) {
    bits |= a[lane];
    any |= a[lane] - s.base;
  }
  if (bits & (size - 1)) return {};
  if (any > limit) {
    uint64_t largest = 0;
    for (int lane = 0; lane < 32; ++lane) largest = std::max(largest, a[lane] - s.base);
    if (largest > limit) return {};
  }
  return s;
}

uint64_t Warp::special(const program::Arg& a, int lane) const {
  const Launch& l = *launch;
  uint32_t thread = first_thread + static_cast<uint32_t>(lane);
  auto pick = [&](Dim3 d) -> uint64_t {
    switch (a.component) {
    case 0: return d.x;
    case 1: return d.y;
    case 2: return d.z;
    default: return 0;
    }
  };
  uint32_t bit = 1u << lane;
  switch (static_cast<SpecialReg>(a.reg)) {
  case SpecialReg::Tid:
    return pick({thread % l.block.x, thread / l.block.x % l.block.y, thread / (l.block.x * l.block.y)});
  case SpecialReg::Ntid: return pick(l.block);
  case SpecialReg::Laneid: return static_cast<uint64_t>(lane);
  case SpecialReg::Warpid: return index;
  case SpecialReg::Nwarpid: return cta->warps.size();
  case SpecialReg::Ctaid: return pick(cta->id);
  case SpecialReg::Nctaid: return pick(l.grid);
  case SpecialReg::Smid: return cta->host_thread;
  case SpecialReg::Nsmid: return l.threads;
  case SpecialReg::Gridid: return 1;
  case SpecialReg::LanemaskEq: return bit;
  case SpecialReg::LanemaskLe: return bit | (bit - 1);
  case SpecialReg::LanemaskLt: return bit - 1;
  case SpecialReg::LanemaskGe: return ~(bit - 1) & 0xffffffffu;
  case SpecialReg::LanemaskGt: return ~(bit | (bit - 1)) & 0xffffffffu;
  case SpecialReg::Clock: return static_cast<uint32_t>(steps);
  case SpecialReg::ClockHi: return static_cast<uint32_t>(steps >> 32);
  case SpecialReg::Clock64: return steps;
  case SpecialReg::Globaltimer:
  case SpecialReg::GlobaltimerLo:
  case SpecialReg::GlobaltimerHi: {
    uint64_t ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
    auto r = static_cast<SpecialReg>(a.reg);
    return r == SpecialReg::GlobaltimerLo ? (ns & 0xffffffffu)
           : r == SpecialReg::GlobaltimerHi ? (ns >> 32) : ns;
  }
  case SpecialReg::DynamicSmemSize: return l.dynamic_shared;
  case SpecialReg::TotalSmemSize: return (cta->shared.bytes.size() + 127) / 128 * 128;  // as an H100 (tests/hw/cluster)
  case SpecialReg::AggrSmemSize: return cta->shared.bytes.size() + mem::kSharedReserved;  // the reserved KiB too
  // The system's reserved shared memory (§10.29) as an H100 reports it (tests/hw/shared_window).
  case SpecialReg::ReservedSmemBegin: return 0;
  case SpecialReg::ReservedSmemEnd: return 0x120;
  case SpecialReg::ReservedSmemCap: return mem::kSharedReserved;
  case SpecialReg::ReservedSmemOffset: return 0;
  // Clusters (§10.11-§10.17): a launch without one runs each CTA as a cluster of one.
  case SpecialReg::IsExplicitCluster: return l.explicit_cluster;
  case SpecialReg::Clusterid: return pick(cta->cluster->id);
  case SpecialReg::Nclusterid: return pick({l.grid.x / l.cluster.x, l.grid.y / l.cluster.y, l.grid.z / l.cluster.z});
  case SpecialReg::ClusterCtaid: return pick({cta->id.x % l.cluster.x, cta->id.y % l.cluster.y, cta->id.z % l.cluster.z});
  case SpecialReg::ClusterNctaid: return pick(l.cluster);
  case SpecialReg::ClusterCtarank: return cta->rank;
  case SpecialReg::ClusterNctarank: return l.cluster.count();
  case SpecialReg::Envreg: return l.envreg[a.imm & 31];
  default: return 0;  // %pm*: 0 on this device
  }
}

void Warp::specials(const program::Arg& a, uint64_t (&v)[32]) const {
  const Launch& l = *launch;
  switch (static_cast<SpecialReg>(a.reg)) {
  case SpecialReg::Tid: {  // consecutive threads: x counts up, carrying into y, then z
    uint32_t t = first_thread, x = t, y = 0, z = 0;
    if (t >= l.block.x) x = t % l.block.x, y = t / l.block.x % l.block.y, z = t / (l.block.x * l.block.y);
    if (x + 32 <= l.block.x) {  // the common case: no carry within the warp
      const uint64_t same = a.component == 1 ? y : a.component == 2 ? z : 0;
      for (int lane = 0; lane < 32; ++lane) v[lane] = a.component == 0 ? x + static_cast<uint32_t>(lane) : same;
      return;
    }
    for (int lane = 0; lane < 32; ++lane) {
      v[lane] = a.component == 0 ? x : a.component == 1 ? y : a.component == 2 ? z : 0;
      if (++x == l.block.x) {
        x = 0;
        if (++y == l.block.y) y = 0, ++z;
      }
    }
    return;
  }
  case SpecialReg::Laneid:
  case SpecialReg::LanemaskEq:
  case SpecialReg::LanemaskLe:
  case SpecialReg::LanemaskLt:
  case SpecialReg::LanemaskGe:
  case SpecialReg::LanemaskGt:
  case SpecialReg::Globaltimer:  // a clock read per lane, as special() gives it
  case SpecialReg::GlobaltimerLo:
  case SpecialReg::GlobaltimerHi:
    for (int lane = 0; lane < 32; ++lane) v[lane] = special(a, lane);
    return;
  default: {  // the same for every lane of the warp
    const uint64_t x = special(a, 0);
    for (int lane = 0; lane < 32; ++lane) v[lane] = x;
  }
  }
}

uint64_t Warp::value_of(const program::Arg& a, int lane) {
  switch (a.kind) {
  case program::ArgKind::Address: return address(a, lane);
  case program::ArgKind::Function: return a.imm;  // the function's address
  default: return 0;
  }
}

}  // namespace ptxvm::exec
