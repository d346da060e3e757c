// Asynchronous stores and reductions into a cluster's shared memory: st.async (PTX §9.7.9.12) and
// red.async (§9.7.13.7), 001_23fdd5978b24a3ed.txt. The weak/.relaxed forms write a CTA of the
// cluster and complete on its mbarrier with a complete-tx of the bytes written: as every
// mbarrier-completed operation (units/mbarrier/mbarrier.h) they land when a thread of that CTA next
// observes the barrier's phase, with the value the source register held at issue. The sm_100
// .release forms write global memory, one scalar at once (their completion is the CTA's end, and
// ptxvm's stores are visible at once).
#include <array>
#include <cstring>
#include <string>

#include "exec/engine.h"
#include "exec/warp.h"
#include "isa/types.h"
#include "numeric/atomic_ops.h"
#include "program/registry.h"
#include "units/mbarrier/mbarrier.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using program::Arg;
using program::Op;
using mem::Space;

// op.aux: the element bytes, the element count from kCountShift, kRelease for the .global forms;
// op.aux2: a red.async's combine function (0: st.async).
constexpr uint64_t kCountShift = 8, kRelease = 1u << 16;

const Arg& element(const Arg& a, uint32_t i) { return a.kind == program::ArgKind::Vector ? a.elems.at(i) : a; }

// st.async / red.async [a], b{, [mbar]}.
void store(Warp& w, const Op& op, uint32_t m) {
  const auto size = static_cast<uint32_t>(op.aux & 0xff), count = static_cast<uint32_t>((op.aux >> kCountShift) & 0xff);
  const auto combine = reinterpret_cast<numeric::Combine>(op.aux2);
  const bool red = combine != nullptr;
  const uint32_t bytes = size * count;
  exec::for_lanes(m, [&](int l) {
    std::array<uint8_t, 16> value{};
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t v = w.get<uint64_t>(element(op.args[1], i), l);
      std::memcpy(value.data() + i * size, &v, size);
    }
    const uint64_t a = w.address(op.args[0], l);
    if (op.aux & kRelease) {  // .release.{gpu,sys,cluster}.global: a store or reduction at once
      uint8_t* to = w.access(Space::Global, mem::resolve(Space::Generic, a).offset, bytes, l);
      if (red) numeric::combine_atomically(combine, to, value.data(), size, true);
      else std::memcpy(to, value.data(), bytes);
      return;
    }
    const uint64_t at = mem::shared_offset(a), barrier = mem::shared_offset(w.address(op.args[2], l));
    uint8_t* to = w.access(Space::Shared, at, bytes, l);
    const Warp::SharedTarget dst = w.shared_target(at, l), bar = w.shared_target(barrier, l);
    const char* section = red ? "§9.7.13.7" : "§9.7.9.12";
    if (dst.cta != bar.cta)
      w.undefined(l, "'" + op.text + "': the destination and the mbarrier are in different CTAs (undefined, PTX " + section + ")");
    if (red && dst.cta == w.cta)
      w.undefined(l, "'" + op.text + "': the destination is in the executing CTA; red.async reduces into another CTA of "
                                     "the cluster (undefined, PTX §9.7.13.7)");
    if (w.cta->cluster->ctas.size() < 2)
      w.undefined(l, "'" + op.text + "' in a cluster of one CTA (undefined: %cluster_nctarank must exceed 1, PTX " +
                         section + ")");
    const Warp::AsyncTicket t = w.async_issue("its mbarrier's phase completes in the destination CTA");
    w.async_region(t, l, Space::Shared, at, bytes, false);
    mbarrier::expect_completion(w, barrier, l, op.text, [to, value, bytes, size, combine, t] {
      t.retire();
      if (combine) numeric::combine_atomically(combine, to, value.data(), size, false);
      else std::memcpy(to, value.data(), bytes);
      return bytes;
    });
  });
}

uint64_t type_bytes(const std::string& t) { return isa::type_info(t)->bits / 8; }

const program::Registration registered([](program::Registry& r) {
  r["st.async §9.7.9.12"] = [](const isa::Bound& b, Op& op, std::string&) {
    const std::string* vec = b.value("vec");
    const std::string* sem = b.value("sem");
    op.aux = type_bytes(*b.value("type")) | uint64_t{vec ? uint64_t((*vec)[2] - '0') : 1} << kCountShift |
             (sem && *sem == ".release" ? kRelease : 0);
    op.fn = &store;
    return true;
  };
  r["red.async §9.7.13.7"] = [](const isa::Bound& b, Op& op, std::string& why) {
    const std::string* red = b.value("op");
    const std::string* type = b.value("type");
    op.aux2 = reinterpret_cast<uint64_t>(numeric::combine_for(red ? *red : "", type ? *type : ""));
    if (!op.aux2) {
      why = "red.async" + (red ? *red : "") + (type ? *type : "") + " has no element operation";
      return false;
    }
    const std::string* sem = b.value("sem");
    op.aux = type_bytes(*type) | uint64_t{1} << kCountShift | (sem && *sem == ".release" ? kRelease : 0);
    op.fn = &store;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units
