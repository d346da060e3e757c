#include "exec/warp.h"

#include <algorithm>
#include <chrono>

#include "exec/engine.h"

namespace ptxvm::exec {

using lower::SpecialReg;
using mem::GuestFault;
using mem::Space;

uint8_t* Warp::access_checked(Space space, uint64_t address, uint32_t size, int lane, bool aligned) {
  auto fail = [&](GuestFault::Kind kind, Space s, std::string detail = {}) -> uint8_t* {
    fault_lane = lane;
    throw GuestFault{kind, s, address, size, std::move(detail)};
  };
  if (aligned && size > 1 && address % size != 0) return fail(GuestFault::Kind::Misaligned, space);
  uint64_t offset = address;
  if (space == Space::Generic) {  // §6.4.1.1: windows select the state space
    space = Space::Global;
    for (auto [window, s] : {std::pair{mem::kSharedWindow, Space::Shared},
                             std::pair{mem::kLocalWindow, Space::Local},
                             std::pair{mem::kConstWindow, Space::Const},
                             std::pair{mem::kParamWindow, Space::Param}}) {
      if (address >= window && address - window < mem::kWindowSize) {
        space = s;
        offset = address - window;
      }
    }
  }
  uint8_t* p = nullptr;
  switch (space) {
  case Space::Global:
    if (offset - last_global.base >= last_global.size) last_global = launch->global->lookup(offset);
    if (last_global.data && size <= last_global.size - (offset - last_global.base))
      p = last_global.data + (offset - last_global.base);
    break;
  case Space::Shared: p = cta->shared.at(offset, size); break;
  case Space::Local: p = cta->local[first_thread + static_cast<uint32_t>(lane)].at(offset, size); break;
  case Space::Const: p = const_cast<mem::Buffer&>(program->constants).at(offset, size); break;
  case Space::Param: p = const_cast<mem::Buffer&>(launch->params).at(offset, size); break;
  case Space::Generic: break;
  }
  if (!p) {
    std::string what = space == Space::Global ? "no allocation holds it"
                                              : std::string("outside the ") + mem::to_string(space) +
                                                    " window";
    return fail(GuestFault::Kind::OutOfBounds, space, what);
  }
  return p;
}

bool Warp::in_one_allocation(Space space, uint32_t mask, const uint64_t (&addr)[32], uint32_t size) {
  if ((space != Space::Global && space != Space::Generic) || !std::has_single_bit(size) || !mask) return false;
  uint64_t first = addr[std::countr_zero(mask)];
  if (first - last_global.base >= last_global.size) {
    if (space == Space::Generic && first >= mem::kParamWindow) return false;  // maybe a window (§6.4.1.1)
    last_global = launch->global->lookup(first);
  }
  const uint64_t window = space == Space::Generic ? mem::kParamWindow : ~uint64_t{0};
  if (!last_global.data || last_global.size < size || last_global.base > window ||
      last_global.size > window - last_global.base)  // all of it below the windows, for a generic access
    return false;
  // Every lane's offset into the allocation (lanes outside `mask` count as `first`), the
  // largest in four independent chains, and the OR of the addresses for alignment.
  uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, bits = 0;
  const uint64_t base = last_global.base;
  auto offset = [&](int lane) {
    const uint64_t a = mask & kLaneBit[lane] ? addr[lane] : first;
    bits |= a;
    return a - base;
  };
  for (int lane = 0; lane < 32; lane += 4) {
    w0 = std::max(w0, offset(lane));
    w1 = std::max(w1, offset(lane + 1));
    w2 = std::max(w2, offset(lane + 2));
    w3 = std::max(w3, offset(lane + 3));
  }
  return std::max(std::max(w0, w1), std::max(w2, w3)) <= last_global.size - size && (bits & (size - 1)) == 0;
}

uint64_t Warp::special(const lower::Arg& a, int lane) const {
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
  case SpecialReg::TotalSmemSize:
  case SpecialReg::AggrSmemSize: return cta->shared.bytes.size();
  // A grid is one implicit 1x1x1 cluster per CTA until clusters land (§10.12–§10.17).
  case SpecialReg::IsExplicitCluster: return 0;
  case SpecialReg::Clusterid: return pick(cta->id);
  case SpecialReg::Nclusterid: return pick(l.grid);
  case SpecialReg::ClusterCtaid: return 0;
  case SpecialReg::ClusterNctaid: return a.component < 3 ? 1 : 0;
  case SpecialReg::ClusterCtarank: return 0;
  case SpecialReg::ClusterNctarank: return 1;
  case SpecialReg::Envreg: return l.envreg[a.imm & 31];
  default: return 0;  // %pm*, reserved shared-memory offsets: 0 on this device
  }
}

void Warp::specials(const lower::Arg& a, uint64_t (&v)[32]) const {
  const Launch& l = *launch;
  switch (static_cast<SpecialReg>(a.reg)) {
  case SpecialReg::Tid: {  // consecutive threads: x counts up, carrying into y, then z
    uint32_t t = first_thread, x = t % l.block.x, y = t / l.block.x % l.block.y, z = t / (l.block.x * l.block.y);
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

uint64_t Warp::value_of(const lower::Arg& a, int lane) {
  switch (a.kind) {
  case lower::ArgKind::Address: return address(a, lane);
  case lower::ArgKind::Function: return a.imm;  // the function's address
  default: return 0;
  }
}

}  // namespace ptxvm::exec
