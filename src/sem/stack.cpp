// Stack manipulation, PTX §9.7.17 (000_70a4b524dfe259fa.txt, 001_23fdd5978b24a3ed.txt):
// stacksave, stackrestore, alloca.
//
// Lowering gives every function a fixed frame in [0, local_bytes) of each thread's local
// memory. The alloca stack lies above it: the thread's local buffer ends at the stack pointer,
// alloca grows the buffer (zero-filled) and returns the aligned start of the new block, and
// stackrestore shrinks it again, so an access to freed stack memory faults as out of bounds.
// The stack grows towards higher addresses (the ISA's "grows down" describes its own
// implementation; only the pairing stacksave / alloca / stackrestore is observable). Memory
// allocated by alloca is released by stackrestore, by ret from the allocating function (the
// call records the stack pointer and ret restores it, control.cpp; §9.7.17.3) or when the
// thread ends.
#include "exec/engine.h"
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using mem::GuestFault;

// The most local memory (frames and stack) a thread may have: alloca beyond it faults as a
// stack overflow (§9.7.17.3 leaves an overflowing alloca undefined).
constexpr uint64_t kMaxLocalBytes = uint64_t{1} << 20;
// alloca's guaranteed minimum alignment and default immAlign (§9.7.17.3).
constexpr uint64_t kFrameAlign = 8;

std::vector<uint8_t>& stack_of(Warp& w, int lane) {
  return w.cta->local[w.first_thread + static_cast<uint32_t>(lane)].bytes;
}

[[noreturn]] void fail(Warp& w, int lane, uint64_t address, const std::string& what) {
  w.fault_lane = lane;
  throw GuestFault{GuestFault::Kind::Invalid, mem::Space::Local, address, 0, what};
}

// stacksave.type d (§9.7.17.1): d = stackptr, a local address.
template <typename T>
void stacksave(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.set<T>(op.args[0], l, static_cast<T>(stack_of(w, l).size())); });
}

// stackrestore.type a (§9.7.17.2): stackptr = a, which must be a value stacksave returned
// while the stack was at least as deep.
template <typename T>
void stackrestore(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    uint64_t a = w.get<T>(op.args[0], l);
    std::vector<uint8_t>& s = stack_of(w, l);
    if (a < w.program->local_bytes || a > s.size())
      fail(w, l, a, "stackrestore to local address " + std::to_string(a) + ", outside the alloca stack [" +
                        std::to_string(w.program->local_bytes) + ", " + std::to_string(s.size()) + "]");
    s.resize(a);
  });
}

// alloca.type ptr, size{, immAlign} (§9.7.17.3); op.aux: max(immAlign, frame_align).
template <typename T>
void alloca_op(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    uint64_t size = w.get<T>(op.args[1], l);
    std::vector<uint8_t>& s = stack_of(w, l);
    uint64_t ptr = (s.size() + op.aux - 1) / op.aux * op.aux;
    if (ptr + size > kMaxLocalBytes)
      fail(w, l, ptr, "alloca of " + std::to_string(size) + " bytes overflows the " +
                          std::to_string(kMaxLocalBytes) + "-byte local memory of a thread");
    s.resize(ptr + size);
    w.cta->locals_empty = false;
    w.set<T>(op.args[0], l, static_cast<T>(ptr));
  });
}

template <program::Handler H32, program::Handler H64>
program::Handler by_size(const isa::Bound& b) {
  return axis(b, "type") == ".u32" ? H32 : H64;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["stacksave §9.7.17.1"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.fn = by_size<&stacksave<uint32_t>, &stacksave<uint64_t>>(b);
    return true;
  };
  r["stackrestore §9.7.17.2"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.fn = by_size<&stackrestore<uint32_t>, &stackrestore<uint64_t>>(b);
    return true;
  };
  r["alloca §9.7.17.3"] = [](const isa::Bound& b, Op& op, std::string& why) {
    uint64_t align = kFrameAlign;
    if (op.args.size() > 2) {
      const program::Arg& a = op.args[2];
      // immAlign: a power of two no larger than 2^23.
      if (a.kind != program::ArgKind::Imm || a.imm == 0 || (a.imm & (a.imm - 1)) || a.imm > (uint64_t{1} << 23))
        return unsupported(why, "immAlign must be a power of two constant up to 2^23");
      align = std::max(align, a.imm);
    }
    op.aux = align;
    op.fn = by_size<&alloca_op<uint32_t>, &alloca_op<uint64_t>>(b);
    return true;
  };
});

}  // namespace ptxvm::sem
