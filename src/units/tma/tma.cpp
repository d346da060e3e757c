// Tensor copies through the Tensor Memory Accelerator (PTX §9.7.9.25.5, §5.5;
// 001_23fdd5978b24a3ed.txt): cp.async.bulk.tensor, global -> shared completing on an mbarrier
// and shared -> global on a bulk async-group, cp.reduce.async.bulk.tensor (a store that
// combines, numeric/atomic_ops.h), cp.async.bulk.prefetch.tensor, and the instructions that edit
// maps: tensormap.replace (§9.7.9.26) and tensormap.cp_fenceproxy (§9.7.13.16).
//
// The map (tensor_map.h) is read when the copy is issued; what the box holds and where each
// element lies in shared memory is box.h's. The bytes move at the latest moment the ISA allows,
// as for bulk copies (units/bulk_copy): a load when a thread next observes its mbarrier's phase,
// completing the box's bytes as its tx-count; a store when a wait retires its bulk group.
#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>

#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "numeric/atomic_ops.h"
#include "program/registry.h"
#include "units/bulk_copy/bulk_copy.h"
#include "units/mbarrier/mbarrier.h"
#include "units/tma/box.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::units::tma {
namespace {

using exec::Warp;
using program::Arg;
using program::Op;
using mem::Space;

// op.aux of a tensor copy: its rank (bits 0-2), Mode (bits 4-6), kMulticast for
// .multicast::cluster and kPair for .cta_group::2.
constexpr uint64_t kMulticast = 0x100, kPair = 0x200;
unsigned rank_of(const Op& op) { return static_cast<unsigned>(op.aux & 7); }
Mode mode_of(const Op& op) { return static_cast<Mode>(op.aux >> 4 & 7); }

// The maps each mode takes (§9.7.9.25.5.2): tiled ones .tile and .tile::gather4/scatter4,
// im2col ones .im2col, wide im2col ones of mode W and W128 .im2col::w and .im2col::w::128.
bool serves(const TensorMap& m, Mode mode) {
  switch (mode) {
  case Mode::Tile:
  case Mode::Rows4: return !m.im2col;
  case Mode::Im2col: return m.im2col && !m.wide;
  case Mode::Im2colW: return m.wide == WideMode::W;
  case Mode::Im2colW128: return m.wide == WideMode::W128;
  }
  return false;
}
std::string kind(const TensorMap& m) {
  return !m.im2col ? "tiled" : !m.wide ? "im2col" : m.wide == WideMode::W ? "wide im2col (W)" : "wide im2col (W128)";
}

// The map and coordinates of a [tensorMap, tensorCoords] operand for lane l, checked.
Box read_box(Warp& w, const Op& op, const Arg& tensor, bool load, int l) {
  const uint64_t address = w.address(tensor, l);
  const mem::Resolved at = mem::resolve(Space::Generic, address);
  const std::optional<TensorMap> map = decode(w.access(at.space, at.offset, 128, l, false));
  if (!map)
    w.undefined(l, "'" + op.text + "': the 128 bytes at " + std::to_string(address) +
                  " hold no tensor map (build maps with ptxvm's encoder: the manifest's tensormap argument or "
                  "units/tma/tensor_map.h)");
  if (const std::string rule = validate(*map); !rule.empty())
    w.undefined(l, "'" + op.text + "': the tensor map at " + std::to_string(address) + " is invalid: " + rule);
  Box b;
  b.map = *map;
  b.mode = mode_of(op);
  b.load = load;
  const unsigned rank = rank_of(op);
  if (b.map.rank != rank)
    w.undefined(l, "'" + op.text + "' is ." + std::to_string(rank) + "d but its tensor map has rank " +
                       std::to_string(b.map.rank) + " (PTX §9.7.9.25.5.2)");
  // interleaved packed types: nothing recorded shows what they move
  if (b.map.interleave != Interleave::None && packing(b.map.type).values != 1)
    w.undefined(l, "'" + op.text + "': not implemented: interleaved maps of packed sub-byte types (PTX §5.5.6)");
  if (!serves(b.map, b.mode))
    w.undefined(l, "'" + op.text + "': a " + kind(b.map) + " tensor map does not serve this copy's load mode " +
                       "(PTX §9.7.9.25.5.2: tiled maps serve .tile and .tile::gather4/scatter4, im2col maps .im2col, "
                       "wide im2col maps of mode W and W128 .im2col::w and .im2col::w::128)");
  if (b.mode == Mode::Rows4 && b.map.box[1] != 1)
    w.undefined(l, "'" + op.text + "': the box of a .tile::gather4/.tile::scatter4 copy is one row tall, but the map's "
                       "box has " + std::to_string(b.map.box[1]) + " rows (PTX §5.5.3.4.1)");
  // the sub-byte types' directions (§9.7.9.25.5.1 and cuda.h's swizzle lists)
  if (!load && b.map.type == DataType::U4x16Align16)
    w.undefined(l, "'" + op.text + "': 16u4_align16b (.b4x16_p64) tensors are not stored (PTX §9.7.9.25.5.1)");
  if (load && b.map.type == DataType::U6x16Align16 && b.map.swizzle == Swizzle::B128Atom64)
    w.undefined(l, "'" + op.text + "': a 16u6_align16b map swizzles 128B_atom_64B in stores only (cuda.h)");
  const Arg& coords = tensor.elems.at(0);
  for (unsigned d = 0, n = b.mode == Mode::Rows4 ? 5 : rank; d < n; ++d)
    b.coords[d] = w.get<int32_t>(coords.elems.empty() ? coords : coords.elems.at(d), l);
  if (padded(b.map.type) && b.coords[0] % 128)
    w.undefined(l, "'" + op.text + "': the first coordinate of a 16u4_align16b or 16u6_align16b tensor must be a "
                       "multiple of 128, not " + std::to_string(b.coords[0]) + " (PTX §9.7.9.25.5.1)");
  // §5.5.3.1: "the address of the bounding box must be 16-byte aligned"; an H100 stops such a
  // copy with an illegal-instruction error (tests/hw/tma). An interleaved map's coordinate counts
  // 16-byte chunks (box.h).
  const Packing p = packing(b.map.type);
  if (b.map.interleave == Interleave::None && b.coords[0] * static_cast<int64_t>(p.global_bytes) % (16 * static_cast<int64_t>(p.values)))
    w.undefined(l, "'" + op.text + "': the box starts at coordinate " + std::to_string(b.coords[0]) +
                  " of dimension 0, " + std::to_string(b.coords[0] * static_cast<int64_t>(p.global_bytes) / p.values) +
                  " bytes into a row: not 16-byte aligned (PTX §5.5.3.1)");
  b.warp = &w;
  b.lane = l;
  return b;
}

// The im2colInfo operand of the im2col modes: .im2col's offsets, .im2col::w's {wHalo, wOffset}
// (§9.7.9.25.5.2: wHalo in [0, 512), in [0, 32) for .im2col::w::128; wOffset in [0, 32)).
void read_info(Warp& w, const Op& op, const Arg& info, Box& b, int l) {
  const unsigned n = b.mode == Mode::Im2col ? b.map.rank - 2 : 2;
  for (unsigned i = 0; i < n; ++i) b.info[i] = w.get<uint16_t>(info.elems.empty() ? info : info.elems.at(i), l);
  if (b.mode == Mode::Im2col) return;
  const int64_t halo_limit = b.mode == Mode::Im2colW128 ? 32 : 512;
  if (b.info[0] >= halo_limit || b.info[1] >= 32)
    w.undefined(l, "'" + op.text + "': wHalo " + std::to_string(b.info[0]) + " and wOffset " + std::to_string(b.info[1]) +
                       " must lie in [0, " + std::to_string(halo_limit) + ") and [0, 32) (PTX §9.7.9.25.5.2)");
  const int64_t first = b.coords[1] + b.info[1], last = static_cast<int64_t>(b.map.dims[1]) - 1 + b.map.upper[0] + b.info[1];
  if (first > last)
    w.undefined(l, "'" + op.text + "': the first pixel's W, " + std::to_string(first) +
                       " with wOffset, lies right of the bounding box, which ends at " + std::to_string(last) +
                       " (PTX §5.5.5.1: only left of it)");
}

// cp.async.bulk.tensor.Nd.shared::{cta,cluster}.global.mode.mbarrier::complete_tx::bytes
//   {.multicast::cluster}{.cta_group} [dstMem], [tensorMap, tensorCoords], [mbar]{, im2colInfo}{, ctaMask}
void load(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Box b = read_box(w, op, op.args[1], true, l);
    const bool im2col = b.mode >= Mode::Im2col;
    if (im2col) read_info(w, op, op.args.at(3), b, l);
    b.shared = mem::shared_offset(w.address(op.args[0], l));
    if (b.shared % 128)
      w.undefined(l, "'" + op.text + "': the shared address must be 128-byte aligned (PTX §9.7.9.25.5.2)");
    const uint64_t barrier = mem::shared_offset(w.address(op.args[2], l));
    auto expect = [&](const Box& box, uint64_t at) {
      w.access(Space::Shared, box.shared, static_cast<uint32_t>(std::min<uint64_t>(box.bytes(), UINT32_MAX)), l, false);
      const Warp::AsyncTicket t = w.async_issue("its mbarrier's phase completes");
      w.async_region(t, l, Space::Shared, box.shared, box.bytes(), false);
      mbarrier::expect_completion(w, at, l, op.text, [box, t] {
        t.retire();
        box.apply();
        return static_cast<uint32_t>(box.tx_bytes());
      });
    };
    // .cta_group (§9.7.9.25.5.2): with ::1, the default, mbar lies in dstMem's CTA; with ::2 it
    // may lie in that CTA's peer of the CTA pair (%cluster_ctarank ^ 1) instead.
    const bool pair = op.aux & kPair;
    const Warp::SharedTarget bar = w.shared_target(barrier, l);
    if (!(op.aux & kMulticast)) {
      const Warp::SharedTarget dst = w.shared_target(b.shared, l);
      if (bar.cta != dst.cta && !(pair && bar.cta->rank == (dst.cta->rank ^ 1)))
        w.undefined(l, "'" + op.text + "': mbar lies in CTA " + std::to_string(bar.cta->rank) + ", dstMem in CTA " +
                           std::to_string(dst.cta->rank) +
                           (pair ? "; with .cta_group::2 mbar lies in dstMem's CTA or its peer (PTX §9.7.9.25.5.2)"
                                 : "; with .cta_group::1 (the default) mbar lies in dstMem's CTA (PTX §9.7.9.25.5.2)"));
      return expect(b, barrier);
    }
    // .multicast::cluster: the box at the same offset in each CTA of ctaMask. Its complete-tx goes
    // to the barrier at mbar's offset in the same CTA (.cta_group::1), or (::2) in the CTA of the
    // destination's pair whose rank has the parity of mbar's CTA.
    const uint32_t mask = w.get<uint16_t>(op.args.at(3 + im2col), l);
    exec::Cluster& cluster = *w.cta->cluster;
    if (!cluster.holds(mask))
      w.undefined(l, "'" + op.text + "': ctaMask " + std::to_string(mask) + " names a CTA outside the cluster of " +
                          std::to_string(cluster.ctas.size()) + " (undefined, PTX §9.7.9.25.5.2)");
    const uint64_t dst = w.shared_target(b.shared, l).offset;
    for (uint32_t ranks = mask; ranks; ranks &= ranks - 1) {
      const auto rank = static_cast<uint32_t>(std::countr_zero(ranks));
      const uint32_t signalled = pair ? (rank & ~1u) | (bar.cta->rank & 1) : rank;
      if (!cluster.at(signalled))
        w.undefined(l, "'" + op.text + "': CTA " + std::to_string(rank) + " of ctaMask has no peer CTA " +
                           std::to_string(signalled) + " to signal: the cluster has " + std::to_string(cluster.ctas.size()) +
                           " CTAs (.cta_group::2, PTX §9.7.9.25.5.2)");
      Box to = b;
      to.shared = mem::cluster_shared_address(rank, dst);
      expect(to, mem::cluster_shared_address(signalled, bar.offset));
    }
  });
}

// The box of a store or reduction [tensorMap, tensorCoords], [srcMem] (§9.7.9.25.5.2-3), checked;
// .im2col_no_offs moves the pixels an .im2col load with zero offsets would (tests/hw/tma/probes).
// An H100 stops a store or reduction whose box starts before the tensor (tests/hw/tma); ptxvm
// takes .tile::scatter4's column and rows alike.
Box store_box(Warp& w, const Op& op, int l) {
  Box b = read_box(w, op, op.args[0], false, l);
  for (unsigned d = 0, n = b.mode == Mode::Rows4 ? 5 : b.map.rank; d < n; ++d)
    if (b.coords[d] < 0)
      w.undefined(l, "'" + op.text + "': a tensor store's box starts at coordinate " + std::to_string(b.coords[d]) +
                    " (tensorCoords[" + std::to_string(d) + "]), before the tensor (tests/hw/tma: the H100 faults)");
  // an H200 stops .im2col_no_offs copies through a map whose bounding box has a corner not 0
  // (tests/hw/tma/probes: every such copy, the coordinates inside the box or not)
  if (b.mode == Mode::Im2col)
    for (unsigned i = 0; i + 2 < b.map.rank; ++i)
      if (b.map.lower[i] || b.map.upper[i])
        w.undefined(l, "'" + op.text + "': an .im2col_no_offs copy takes a map whose bounding box corners are 0, not " +
                           std::to_string(b.map.lower[i]) + " and " + std::to_string(b.map.upper[i]) +
                           " (tests/hw/tma/probes: the H200 faults)");
  b.shared = mem::shared_offset(w.address(op.args[1], l));
  if (b.shared % 128)
    w.undefined(l, "'" + op.text + "': the shared address must be 128-byte aligned (PTX §9.7.9.25.5.2)");
  w.access(Space::Shared, b.shared, static_cast<uint32_t>(std::min<uint64_t>(b.bytes(), UINT32_MAX)), l, false);
  return b;
}

// Issues a store or reduction into the lane's bulk async-group; the async check follows its
// source until then.
void issue_store(Warp& w, int l, const Box& b) {
  const Warp::AsyncTicket t =
      w.async_issue("a cp.async.bulk.wait_group(.read) of the issuing thread retires its bulk async-group");
  w.async_region(t, l, Space::Shared, b.shared, b.bytes(), true);
  if (w.async_checked)  // the destination: the tensor's bytes the box covers
    for (const auto& [address, bytes] : b.global_extents()) w.async_region(t, l, Space::Global, address, bytes, false);
  w.async_proxy_read(l, b.shared, b.bytes(), w.current_pc, w.proxy_fenced(w.first_thread + static_cast<uint32_t>(l)));
  bulk_copy::issue(w, l, [b, t] {
    t.retire();
    b.apply();
  });
}

// cp.async.bulk.tensor.Nd.global.shared::cta.{tile,tile::scatter4,im2col_no_offs}.bulk_group [tensorMap, tensorCoords], [srcMem]
void store(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    const Box b = store_box(w, op, l);
    issue_store(w, l, b);
  });
}

// cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp.tile.bulk_group [tensorMap, coords],
// [srcMem]: a store that combines each element with the tensor's, the element type the map's
// (no sub-byte type, §9.7.9.25.5.1).
void reduce(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Box b = store_box(w, op, l);
    static const char* const kTypes[] = {".u8", ".u16", ".u32", ".s32", ".u64", ".s64", ".f16", ".f32", ".f64", ".bf16"};
    const auto type = static_cast<size_t>(b.map.type);
    const std::string& red = *reinterpret_cast<const std::string*>(op.aux2);
    b.combine = type < std::size(kTypes) ? numeric::combine_for(red, kTypes[type], true) : nullptr;
    if (!b.combine || b.map.type == DataType::U8 || b.map.type == DataType::U16)
      w.undefined(l, "'" + op.text + "': no " + red + " reduction of the map's element type (PTX §9.7.9.25.5.3)");
    issue_store(w, l, b);
  });
}

// cp.async.bulk.prefetch.tensor.Nd.L2.global.mode [tensorMap, tensorCoords]{, im2colInfo}: a
// hint, whose map and operands must still be a copy's.
void prefetch(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Box b = read_box(w, op, op.args[0], true, l);
    if (b.mode >= Mode::Im2col) read_info(w, op, op.args.at(1), b, l);
  });
}

// tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val (§9.7.9.26): one field of
// the map at addr, in global or shared memory, replaced. op.aux: the field; the enumerated fields
// take the device numbering of Table 32 (element types 8, 9, 10 are f32.ftz, f64, bf16).
enum Field : uint8_t {
  Address, Rank, BoxDim, GlobalDim, GlobalStride, ElementStride,
  ElemType, InterleaveLayout, SwizzleMode, SwizzleAtomicity, FillMode
};

// Table 32's .swizzle_mode (0 none, 1 32B, 2 64B, 3 128B) and .swizzle_atomicity (0 16B, 1 32B,
// 2 32B + 8B flip, 3 64B) make one CUDA swizzle: the 128B mode with atomicity a is 128B (a = 0),
// 128B_atom_32B, 128B_atom_32B_flip_8B or 128B_atom_64B; the other modes pair with 16B only
// (§5.5.7 Table 14), another atomicity staying pending (TensorMap::pending_atomicity).
void set_swizzle(TensorMap& m, unsigned mode, unsigned atomicity) {
  m.swizzle = static_cast<Swizzle>(mode == 3 ? 3 + atomicity : mode);
  m.pending_atomicity = static_cast<uint8_t>(mode == 3 ? 0 : atomicity);
}
unsigned swizzle_mode(const TensorMap& m) { return std::min(static_cast<unsigned>(m.swizzle), 3u); }
unsigned swizzle_atomicity(const TensorMap& m) {
  return m.swizzle >= Swizzle::B128 ? static_cast<unsigned>(m.swizzle) - 3 : m.pending_atomicity;
}

void replace(Warp& w, const Op& op, uint32_t m) {
  const auto field = static_cast<Field>(op.aux);
  const bool ordinal = field >= BoxDim && field <= ElementStride;
  exec::for_lanes(m, [&](int l) {
    const uint64_t address = w.address(op.args[0], l);
    mem::Resolved at = mem::resolve(Space::Generic, address);
    if (op.aux2 && at.space != static_cast<Space>(op.aux2)) at = {static_cast<Space>(op.aux2), address};
    if (at.space != Space::Global && at.space != Space::Shared)
      w.undefined(l, "'" + op.text + "': a tensor map is replaced in global or shared memory (PTX §9.7.9.26)");
    uint8_t* bytes = w.access(at.space, at.offset, 128, l, false);
    std::optional<TensorMap> map = decode(bytes);
    if (!map) w.undefined(l, "'" + op.text + "': the 128 bytes at " + std::to_string(address) + " hold no tensor map");
    const uint64_t v = w.get<uint64_t>(op.args[ordinal ? 2 : 1], l);
    const uint64_t ord = ordinal ? op.args[1].imm : 0;
    if (ordinal && ord >= (field == GlobalStride ? 4u : 5u))
      w.undefined(l, "'" + op.text + "': ordinal " + std::to_string(ord) + " is beyond the map's dimensions");
    if (field == SwizzleMode && v == 4)
      w.undefined(l, "'" + op.text + "': unsupported: the 96B swizzle mode (sm_103a) is not implemented yet");
    static const uint64_t kValues[] = {16, 3, 4, 4, 2};  // Table 32's values of .elemtype .. .fill_mode
    if (field >= ElemType && v >= kValues[field - ElemType])
      w.undefined(l, "'" + op.text + "': new_val " + std::to_string(v) +
                         " is none of the field's values (PTX §9.7.9.26 Table 32)");
    switch (field) {
    case Address: map->address = v; break;
    case Rank: map->rank = static_cast<uint32_t>(v) + 1; break;  // new_val is the rank less one
    case BoxDim: map->box[ord] = static_cast<uint32_t>(v); break;
    case GlobalDim: map->dims[ord] = static_cast<uint32_t>(v); break;
    case GlobalStride: map->strides[ord] = v; break;
    case ElementStride: map->element_strides[ord] = static_cast<uint32_t>(v); break;
    case ElemType: map->type = static_cast<DataType>(v == 8 ? 10 : v == 9 ? 8 : v == 10 ? 9 : v); break;
    case InterleaveLayout: map->interleave = static_cast<Interleave>(v); break;
    case SwizzleMode: set_swizzle(*map, static_cast<unsigned>(v), swizzle_atomicity(*map)); break;
    case SwizzleAtomicity: set_swizzle(*map, swizzle_mode(*map), static_cast<unsigned>(v)); break;
    case FillMode: map->oob = static_cast<OobFill>(v); break;
    }
    const auto out = encode(*map);
    std::memcpy(bytes, out.data(), out.size());
  });
}

// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
// [dst], [src], 128 (§9.7.13.16): the map copied from shared to global memory, fenced for the
// tensor-map proxy (ptxvm's accesses are all one proxy: the copy is the whole effect).
void cp_fenceproxy(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    if (op.args[2].imm != 128)
      w.undefined(l, "'" + op.text + "': the size must be 128, a tensor map's (PTX §9.7.13.16)");
    const uint8_t* src = w.access(Space::Shared, mem::shared_offset(w.address(op.args[1], l)), 128, l, false);
    uint8_t* dst = w.access(Space::Global, mem::resolve(Space::Generic, w.address(op.args[0], l)).offset, 128, l, false);
    std::memmove(dst, src, 128);
  });
}

// The Mode of a tensor copy's .load_mode, or nullopt (with `why`) for one ptxvm does not run.
std::optional<Mode> mode(const isa::Bound& b, std::string& why) {
  const std::string* m = b.value("mode");
  if (!m || *m == ".tile") return Mode::Tile;
  if (*m == ".tile::gather4" || *m == ".tile::scatter4") return Mode::Rows4;
  // .im2col_no_offs (stores and reductions): the .im2col traversal, its offsets zero (Box::info)
  if (*m == ".im2col" || *m == ".im2col_no_offs") return Mode::Im2col;
  if (*m == ".im2col::w") return Mode::Im2colW;
  if (*m == ".im2col::w::128") return Mode::Im2colW128;
  why = *m + " tensor copies are not implemented yet";
  return std::nullopt;
}

// op.aux of a copy in mode `m`.
uint64_t aux(const isa::Bound& b, Mode m) {
  const std::string* d = b.value("dim");
  return (d ? static_cast<uint64_t>((*d)[1] - '0') : 1) | static_cast<uint64_t>(m) << 4 |
         (b.value("multicast") ? kMulticast : 0) | (b.is("cta_group", ".cta_group::2") ? kPair : 0);
}

const program::Registration registered([](program::Registry& r) {
  r["cp.async.bulk.tensor §9.7.9.25.5.2"] = [](const isa::Bound& b, Op& op, std::string& why) {
    const std::optional<Mode> m = mode(b, why);
    if (!m) return false;
    const std::string* dst = b.value("dst");
    op.aux = aux(b, *m);
    op.fn = dst && *dst == ".global" ? &store : &load;
    return true;
  };
  r["cp.reduce.async.bulk.tensor §9.7.9.25.5.3"] = [](const isa::Bound& b, Op& op, std::string& why) {
    const std::optional<Mode> m = mode(b, why);
    if (!m) return false;
    static const std::string kOps[] = {".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor"};
    const std::string* red = b.value("op");
    const std::string* found = red ? std::find(std::begin(kOps), std::end(kOps), *red) : std::end(kOps);
    if (found == std::end(kOps)) return false;
    op.aux = aux(b, *m);
    op.aux2 = reinterpret_cast<uint64_t>(found);  // the operation's name, static
    op.fn = &reduce;
    return true;
  };
  r["tensormap.replace §9.7.9.26"] = [](const isa::Bound& b, Op& op, std::string&) {
    static const char* const kFields[] = {".global_address", ".rank",         ".box_dim",         ".global_dim",
                                          ".global_stride",  ".element_stride", ".elemtype",      ".interleave_layout",
                                          ".swizzle_mode",   ".swizzle_atomicity", ".fill_mode"};
    const std::string* field = b.value("field");
    const auto found = field ? std::find(std::begin(kFields), std::end(kFields), *field) : std::end(kFields);
    if (found == std::end(kFields)) return false;
    const std::string* ss = b.value("ss");
    op.aux = static_cast<uint64_t>(found - std::begin(kFields));
    op.aux2 = ss ? static_cast<uint64_t>(*ss == ".global" ? Space::Global : Space::Shared) : 0;
    op.fn = &replace;
    return true;
  };
  r["tensormap.cp_fenceproxy §9.7.13.16"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &cp_fenceproxy;
    return true;
  };
  r["cp.async.bulk.prefetch.tensor §9.7.9.25.5.4"] = [](const isa::Bound& b, Op& op, std::string& why) {
    const std::optional<Mode> m = mode(b, why);
    if (!m) return false;
    op.aux = aux(b, *m);
    op.fn = &prefetch;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units::tma
