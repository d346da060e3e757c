// tcgen05.cp (PTX §9.7.16.9.2, 000_70a4b524dfe259fa.txt): an asynchronous copy from shared memory
// into Tensor Memory, landing with the mma operations it is pipelined with (tensor_memory.h).
//
// The source is rows of 16-byte chunks under the shared-memory descriptor: chunk c of row r is the
// element (r, c) of a K-major operand of 128-bit elements (§9.7.16.3.3 with T = 1: rows in groups
// of 8 SBO apart, chunks LBO apart or inside the swizzle atom). Row r lands in lane taddr + r,
// chunk c in columns 4c .. 4c + 3 from taddr's. The shapes (§9.7.16.2.3; where rows go as
// CUTLASS's SM100_UTCCP copy traits say, cute/atom/copy_traits_sm100.hpp): .128x256b (128 rows,
// 2 chunks), .4x256b (4 rows, 2 chunks, row r to lane taddr + 32r: one lane per sub-partition,
// the lane .shift leaves stale), .128x128b (128 rows, 1 chunk), .64x128b with
// .warpx2::02_13 (rows 0-31 to the lanes of warps 0 and 2, rows 32-63 to warps 1 and 3) or
// .warpx2::01_23 (rows 0-31 to warps 0 and 1, 32-63 to warps 2 and 3), .32x128b with .warpx4 (the
// 32 rows to all four warps' lanes). With .b8x16.b6x16_p32 / .b4x16_p64 each 16-byte chunk holds
// 16 packed elements and is unpacked to 16 bytes (§9.7.16.9.1, mma::unpack_b8x16).
// .cta_group::2 copies in both CTAs of the pair, each from its own shared memory.
//
// tcgen05.shift.down (§9.7.16.9.3) is the copy inside Tensor Memory that goes with it, over the
// 32 lanes from taddr's (aligned to 32) and the 8 columns (256 bits) from taddr's: "shifting of
// 32-byte elements downwards across all the rows, except the last, by one row" — lane r takes
// lane r + 1's cells for r < 31, lane 31 keeps its own (the direction NVIDIA's CuTe DSL documents,
// as observed on a B200, for tcgen05.mma's .ashift, which the ISA words the same way).
#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "exec/warp.h"
#include "mma/descriptor.h"
#include "mma/types.h"
#include "program/registry.h"
#include "units/tcgen05/tensor_memory.h"

namespace ptxvm::units::tcgen05 {
namespace {

using exec::Warp;
using program::Op;

// op.aux: the shape as rows, chunks per row, and where the rows go.
enum class Spread : uint8_t { None, Quarters, Pairs02_13, Pairs01_23, All4 };
struct CopyShape {
  unsigned rows, chunks;
  Spread spread;
  unsigned packed_bits;  // 8, or 6 / 4 when decompressing
  unsigned group;
};

// The lanes (offsets from taddr's lane) that row r of the copy writes.
std::vector<unsigned> lanes_of(const CopyShape& s, unsigned r) {
  switch (s.spread) {
  case Spread::None: return {r};
  case Spread::Quarters: return {32 * r};
  case Spread::Pairs02_13: return {r % 32 + 32 * (r / 32), r % 32 + 32 * (r / 32 + 2)};
  case Spread::Pairs01_23: return {r % 32 + 64 * (r / 32), r % 32 + 64 * (r / 32) + 32};
  case Spread::All4: return {r, r + 32, r + 64, r + 96};
  }
  return {};
}

void cp(Warp& w, const Op& op, uint32_t m) {
  const CopyShape& s = *reinterpret_cast<const CopyShape*>(op.aux);
  exec::for_lanes(m, [&](int l) {
    TensorMemory& t = w.cta->unit<TensorMemory>();
    t.check_cta_group(w, l, op, s.group);
    const uint32_t taddr = static_cast<uint32_t>(w.address(op.args[0], l));
    const uint64_t desc = w.get<uint64_t>(op.args[1], l);
    mma::MatrixDescriptor d;
    if (auto bad = mma::decode_tcgen05_descriptor(desc, d)) w.undefined(l, "'" + op.text + "': " + *bad);
    if (d.absolute_leading)
      w.undefined(l, "'" + op.text + "': unsupported: the absolute leading-dimension mode (descriptor bit 52), which "
                                     "§9.7.16.3.1.2 describes for tcgen05.mma's 48-byte rows of K only");
    if (d.swizzle == mma::Swizzle::B128Atom32)  // rows of 128-bit elements are K-major
      w.undefined(l, "'" + op.text + "': 128-byte swizzling with 32-byte atomicity is for MN-major matrices only "
                                     "(§9.7.16.10.6 Table 53)");
    exec::Cta* ctas[2] = {w.cta, s.group == 2 ? &peer(w, l, op) : nullptr};
    for (exec::Cta* c : ctas) {
      if (!c) continue;
      const std::vector<unsigned> last = lanes_of(s, s.rows - 1);
      c->unit<TensorMemory>().check_allocated(w, l, op, lane_of(taddr), last.back() + 1, column_of(taddr), 4 * s.chunks);
    }
    Warp* issuer = &w;
    const uint32_t pc = w.current_pc, epoch = w.proxy_fenced(w.first_thread + static_cast<uint32_t>(l));
    const TensorMemory::Issue issue = t.shadow ? TensorMemory::issue_of(w, l, true) : TensorMemory::Issue{};
    const uint64_t seq = t.issue([s, d, taddr, ctas0 = ctas[0], ctas1 = ctas[1], issuer, l, &op, pc, epoch, issue] {
      for (exec::Cta* c : {ctas0, ctas1}) {
        if (!c) continue;
        TensorMemory& tm = c->unit<TensorMemory>();
        bool ordered = true;  // the tcgen05 check: one report of its order per CTA
        const auto& shared = c->shared.bytes;
        for (unsigned r = 0; r < s.rows; ++r)
          for (unsigned k = 0; k < s.chunks; ++k) {
            // a shared address (mem::cluster_shared_address): less the reserved KiB
            const uint64_t address = mma::element_bit_address(d, true, 128, r, k) / 8;
            const uint64_t at = address - mem::kSharedReserved;
            if (at + 16 > shared.size())
              issuer->undefined(l, "'" + op.text + "' reads shared address " + std::to_string(address) +
                                       " through its descriptor, outside the CTA's " + std::to_string(shared.size()) +
                                       " bytes of shared memory from 0x400 (§9.7.16.9.2)");
            if (c == issuer->cta)  // the async proxy reads it (§9.7.16.6.5)
              issuer->async_proxy_read(l, issuer->shared_base + at, 16, pc, epoch);
            const std::array<uint8_t, 16> bytes = mma::unpack_b8x16(&shared[at], s.packed_bits);
            for (unsigned lane : lanes_of(s, r)) {
              std::memcpy(&tm.cell(lane_of(taddr) + lane, column_of(taddr) + 4 * k), bytes.data(), 16);
              if (tm.shadow)
                for (unsigned column = 0; column < 4; ++column)
                  ordered &= tm.order(*issuer, l, issue, lane_of(taddr) + lane, column_of(taddr) + 4 * k + column, true,
                                      ordered);
            }
          }
      }
    });
    if (t.shadow)  // the tcgen05 check: the cells it writes (the peer CTA's, of another queue, only as written)
      for (exec::Cta* c : ctas)
        if (c)
          for (unsigned r = 0; r < s.rows; ++r)
            for (unsigned lane : lanes_of(s, r))
              for (unsigned column = 0; column < 4 * s.chunks; ++column)
                c->unit<TensorMemory>().will_write(c == w.cta ? seq : 0, w.first_thread + static_cast<uint32_t>(l),
                                                   w.current_pc, lane_of(taddr) + lane, column_of(taddr) + column);
  });
}

void shift(Warp& w, const Op& op, uint32_t m) {
  const unsigned group = static_cast<unsigned>(op.aux);
  exec::for_lanes(m, [&](int l) {
    TensorMemory& t = w.cta->unit<TensorMemory>();
    t.check_cta_group(w, l, op, group);
    const uint32_t taddr = static_cast<uint32_t>(w.address(op.args[0], l));
    if (lane_of(taddr) % 32)
      w.undefined(l, "'" + op.text + "': taddr names lane " + std::to_string(lane_of(taddr)) +
                         ", which is not aligned to 32 (§9.7.16.9.3)");
    exec::Cta* ctas[2] = {w.cta, group == 2 ? &peer(w, l, op) : nullptr};
    for (exec::Cta* c : ctas)
      if (c) c->unit<TensorMemory>().check_allocated(w, l, op, lane_of(taddr), 32, column_of(taddr), 8);
    Warp* issuer = &w;
    const uint32_t pc = w.current_pc;
    const TensorMemory::Issue issue = t.shadow ? TensorMemory::issue_of(w, l, true) : TensorMemory::Issue{};
    const uint64_t seq = t.issue([taddr, ctas0 = ctas[0], ctas1 = ctas[1], issuer, l, pc, issue] {
      for (exec::Cta* c : {ctas0, ctas1}) {
        if (!c) continue;
        TensorMemory& tm = c->unit<TensorMemory>();
        bool clean = true;  // the tcgen05 check: the cells it moves, once per operation
        for (unsigned r = 0; r < 31; ++r)
          for (unsigned k = 0; k < 8; ++k) {
            if (tm.shadow && clean)
              clean = tm.check_read(*issuer, l, pc, lane_of(taddr) + r + 1, column_of(taddr) + k,
                                    "a cell tcgen05.shift moves", &issue);
            tm.cell(lane_of(taddr) + r, column_of(taddr) + k) = tm.cell(lane_of(taddr) + r + 1, column_of(taddr) + k);
            if (tm.shadow) clean &= tm.order(*issuer, l, issue, lane_of(taddr) + r, column_of(taddr) + k, true, clean);
          }
      }
    });
    if (t.shadow)  // the tcgen05 check: the cells it writes (the peer CTA's, of another queue, only as written)
      for (exec::Cta* c : ctas)
        if (c)
          for (unsigned r = 0; r < 31; ++r)
            for (unsigned k = 0; k < 8; ++k)
              c->unit<TensorMemory>().will_write(c == w.cta ? seq : 0, w.first_thread + static_cast<uint32_t>(l), pc,
                                                 lane_of(taddr) + r, column_of(taddr) + k);
  });
}

bool select(const isa::Bound& b, Op& op, std::string&) {
  const std::string& shape = *b.value("shape");
  CopyShape s{128, 2, Spread::None, 8, b.is("cta_group", ".cta_group::2") ? 2u : 1u};
  if (shape == ".4x256b") s.rows = 4, s.spread = Spread::Quarters;
  else if (shape == ".128x128b") s.chunks = 1;
  else if (shape == ".64x128b") s.rows = 64, s.chunks = 1, s.spread = b.is("multicast", ".warpx2::02_13") ? Spread::Pairs02_13 : Spread::Pairs01_23;
  else if (shape == ".32x128b") s.rows = 32, s.chunks = 1, s.spread = Spread::All4;
  if (const std::string* f = b.value("src_fmt")) s.packed_bits = *f == ".b6x16_p32" ? 6 : 4;
  op.aux = reinterpret_cast<uint64_t>(program::keep(s));
  op.fn = &cp;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["tcgen05.cp §9.7.16.9.2"] = select;
  r["tcgen05.shift §9.7.16.9.3"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.fn = &shift;
    op.aux = b.is("cta_group", ".cta_group::2") ? 2 : 1;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units::tcgen05
