// Tensor copies through the Tensor Memory Accelerator (PTX §9.7.9.25.5, §5.5;
// 001_23fdd5978b24a3ed.txt): cp.async.bulk.tensor in .tile mode, global -> shared completing on an
// mbarrier and shared -> global on a bulk async-group, cp.reduce.async.bulk.tensor (a store that
// combines, numeric/atomic_ops.h), cp.async.bulk.prefetch.tensor, and the instructions that edit
// maps: tensormap.replace (§9.7.9.26) and tensormap.cp_fenceproxy (§9.7.13.16).
//
// The map (tensor_map.h) is read when the copy is issued; its box of ceil(box[i] /
// elementStrides[i]) elements per dimension, starting at the coordinates, lies in shared memory
// densely, innermost dimension first, each element's shared address swizzled as the map says
// (Swizzle<B,4,3> on the absolute address, as wgmma reads it, mma/descriptor.h). Elements outside
// the tensor (§5.5.3.3) load as zero, or as a NaN with the NaN fill, and are not stored. The bytes
// move at the latest moment the ISA allows, as for bulk copies (units/bulk_copy): a load when a
// thread next observes its mbarrier's phase, completing the box's bytes as its tx-count; a store
// when a wait retires its bulk group.
#include <bit>
#include <algorithm>
#include <iterator>
#include <optional>
#include <cstring>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "numeric/atomic_ops.h"
#include "program/registry.h"
#include "units/bulk_copy/bulk_copy.h"
#include "units/mbarrier/mbarrier.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::units::tma {
namespace {

using exec::Warp;
using program::Arg;
using program::Op;
using mem::Space;

// One tensor copy, its map and coordinates read at issue.
struct Box {
  TensorMap map;
  int64_t coords[5] = {};
  uint64_t shared = 0;  // the box's shared-memory offset
  Warp* warp = nullptr;
  int lane = 0;
  bool load = true;
  numeric::Combine combine = nullptr;  // cp.reduce.async.bulk.tensor: each element combined as atom does
  int64_t offsets[3] = {};             // .im2col: the offsets of the instruction's im2colInfo

  unsigned count(unsigned d) const { return (map.box[d] + map.element_strides[d] - 1) / map.element_strides[d]; }
  uint64_t elements() const {
    if (map.im2col) return uint64_t{map.pixels} * map.channels;
    uint64_t n = 1;
    for (unsigned d = 0; d < map.rank; ++d) n *= count(d);
    return n;
  }
  uint32_t bytes() const { return static_cast<uint32_t>(elements() * element_bytes(map.type)); }

  // The shared offset of box element `i` (in box order), swizzled.
  uint64_t shared_at(uint64_t i) const {
    uint64_t a = shared + i * element_bytes(map.type);
    const unsigned b = map.swizzle == Swizzle::B32 ? 1 : map.swizzle == Swizzle::B64 ? 2 : map.swizzle == Swizzle::B128 ? 3 : 0;
    return a ^ (((a >> 7) & ((1u << b) - 1)) << 4);
  }

  // Moves the box: global -> shared (load) or shared -> global (store).
  void apply() const {
    if (map.im2col) return apply_im2col();
    const unsigned size = element_bytes(map.type);
    uint64_t index[5] = {};
    for (uint64_t i = 0, n = elements(); i < n; ++i) {
      bool inside = true;
      uint64_t global = map.address;
      for (unsigned d = 0; d < map.rank; ++d) {
        const int64_t g = coords[d] + static_cast<int64_t>(index[d] * map.element_strides[d]);
        inside = inside && g >= 0 && static_cast<uint64_t>(g) < map.dims[d];
        global += static_cast<uint64_t>(g) * (d == 0 ? size : map.strides[d - 1]);
      }
      uint8_t* smem = warp->access(Space::Shared, shared_at(i), size, lane, false);
      if (inside) {
        uint8_t* gmem = warp->access(Space::Global, global, size, lane, false);
        if (load) std::memcpy(smem, gmem, size);
        else if (combine) numeric::combine_atomically(combine, gmem, smem, size, true);
        else std::memcpy(gmem, smem, size);
        if (load && (map.type == DataType::TF32 || map.type == DataType::TF32Ftz)) to_tf32(smem);
      } else if (load) {
        fill(smem, size);
      }
      for (unsigned d = 0; d < map.rank && ++index[d] == count(d); ++d) index[d] = 0;
    }
  }
  // .im2col (§5.5.4): pixels * channels elements, a pixel's channels contiguous. The pixels are
  // filter bases in the bounding box [lower, dim - 1 + upper] of each spatial dimension, from the
  // coordinates on, W fastest, then H, D and the image N, each stepped by its traversal stride;
  // a pixel reads the element at its base plus the instruction's offsets.
  void apply_im2col() const {
    const unsigned size = element_bytes(map.type), spatial = map.rank - 2;
    int64_t base[3] = {}, n = coords[map.rank - 1];
    for (unsigned i = 0; i < spatial; ++i) base[i] = coords[1 + i];
    uint64_t i = 0;
    for (uint32_t p = 0; p < map.pixels; ++p) {
      bool pixel_inside = n >= 0 && static_cast<uint64_t>(n) < map.dims[map.rank - 1];
      uint64_t global = map.address + static_cast<uint64_t>(n) * map.strides[map.rank - 2];
      for (unsigned d = 0; d < spatial; ++d) {
        const int64_t g = base[d] + offsets[d];
        pixel_inside = pixel_inside && g >= 0 && static_cast<uint64_t>(g) < map.dims[1 + d];
        global += static_cast<uint64_t>(g) * map.strides[d];
      }
      for (uint32_t k = 0; k < map.channels; ++k, ++i) {
        const int64_t c = coords[0] + k;
        uint8_t* smem = warp->access(Space::Shared, shared_at(i), size, lane, false);
        if (pixel_inside && c >= 0 && static_cast<uint64_t>(c) < map.dims[0]) {
          std::memcpy(smem, warp->access(Space::Global, global + static_cast<uint64_t>(c) * size, size, lane, false), size);
          if (map.type == DataType::TF32 || map.type == DataType::TF32Ftz) to_tf32(smem);
        } else {
          fill(smem, size);
        }
      }
      unsigned d = 0;  // the next base: W first, carrying into H, D, then N
      for (; d < spatial; ++d) {
        base[d] += map.element_strides[1 + d];
        if (base[d] <= static_cast<int64_t>(map.dims[1 + d]) - 1 + map.upper[d]) break;
        base[d] = map.lower[d];
      }
      if (d == spatial) n += map.element_strides[map.rank - 1];
    }
  }

  // A .tf32 tensor's f32 elements load rounded to tf32, to nearest with ties away from zero (as
  // cvt.rna.tf32.f32, §9.7.9.21), Inf and NaN unchanged (H100, tests/hw/tma).
  static void to_tf32(uint8_t* at) {
    uint32_t v;
    std::memcpy(&v, at, 4);
    if ((v & 0x7f800000u) != 0x7f800000u) v = (v + 0x1000u) & ~0x1fffu;
    std::memcpy(at, &v, 4);
  }
  // An element outside the tensor: zero, or with the NaN fill the OOB-NaN (§5.5.3.3), which an
  // H100 writes as 0x7ff7 in every 16 bits of the element (a NaN of f16, bf16, f32 and f64).
  void fill(uint8_t* to, unsigned size) const {
    const uint64_t nan = map.oob == OobFill::NanRequestZeroFma ? 0x7ff77ff77ff77ff7ull : 0;
    std::memcpy(to, &nan, size);
  }
};

// The map and coordinates of a [tensorMap, {coords}] operand for lane l.
Box read_box(Warp& w, const Op& op, const Arg& tensor, unsigned rank, int l) {
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
  if (b.map.rank != rank)
    w.undefined(l, "'" + op.text + "' is ." + std::to_string(rank) + "d but its tensor map has rank " +
                                           std::to_string(b.map.rank) + " (PTX §9.7.9.25.5.2)");
  if (b.map.interleave != Interleave::None || b.map.swizzle > Swizzle::B128)
    w.undefined(l, "'" + op.text + "': interleaved maps and the 128B-atom swizzles are not implemented yet");
  const Arg& coords = tensor.elems.at(0);
  for (unsigned d = 0; d < rank; ++d) b.coords[d] = w.get<int32_t>(coords.elems.empty() ? coords : coords.elems[d], l);
  // §5.5.3.1: "the address of the bounding box must be 16-byte aligned"; an H100 stops such a
  // copy with an illegal-instruction error (tests/hw/tma).
  if (b.coords[0] * static_cast<int64_t>(element_bytes(b.map.type)) % 16)
    w.undefined(l, "'" + op.text + "': the box starts at coordinate " + std::to_string(b.coords[0]) +
                  " of dimension 0, " + std::to_string(b.coords[0] * static_cast<int64_t>(element_bytes(b.map.type))) +
                  " bytes into a row: not 16-byte aligned (PTX §5.5.3.1)");
  b.warp = &w;
  b.lane = l;
  return b;
}

// An H100 stops a store or reduction whose box starts before the tensor (tests/hw/tma).
void check_store_start(Warp& w, const Op& op, const Box& b, int l) {
  for (unsigned d = 0; d < b.map.rank; ++d)
    if (b.coords[d] < 0)
      w.undefined(l, "'" + op.text + "': a tensor store's box starts at coordinate " + std::to_string(b.coords[d]) +
                    " of dimension " + std::to_string(d) + ", before the tensor (tests/hw/tma: the H100 faults)");
}

// op.aux of a tensor copy: its rank, and kMulticast for .multicast::cluster.
constexpr uint64_t kMulticast = 0x100;

unsigned rank_of(const isa::Bound& b) {
  const std::string* d = b.value("dim");
  return d ? static_cast<unsigned>((*d)[1] - '0') : 1;
}

// cp.async.bulk.tensor.Nd.shared::{cta,cluster}.global.tile.mbarrier::complete_tx::bytes
//   [dstMem], [tensorMap, tensorCoords], [mbar]
void load(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Box b = read_box(w, op, op.args[1], static_cast<unsigned>(op.aux & 7), l);
    if (b.map.im2col != (op.aux2 != 0))
      w.undefined(l, "'" + op.text + "': an " + (b.map.im2col ? "im2col" : "tiled") +
                                                        " tensor map with a copy in the other mode (PTX §9.7.9.25.5.2)");
    if (op.aux2)  // im2colInfo: the offsets of the spatial dimensions, 16 bits each
      for (unsigned d = 0; d + 2 < b.map.rank; ++d) {
        const Arg& info = op.args.at(3);
        b.offsets[d] = w.get<uint16_t>(info.elems.empty() ? info : info.elems.at(d), l);
      }
    b.shared = mem::shared_offset(w.address(op.args[0], l));
    if (b.shared % 128)
      w.undefined(l, "'" + op.text + "': the shared address must be 128-byte aligned (PTX §9.7.9.25.5.2)");
    const uint64_t barrier = mem::shared_offset(w.address(op.args[2], l));
    auto expect = [&](const Box& box, uint64_t at) {
      w.access(Space::Shared, box.shared, box.bytes(), l, false);  // the whole box inside shared memory
      mbarrier::expect_completion(w, at, l, op.text, [box] {
        box.apply();
        return box.bytes();
      });
    };
    if (!(op.aux & kMulticast)) return expect(b, barrier);
    // .multicast::cluster: the box and its complete-tx at the same offsets in each CTA of ctaMask
    const uint32_t mask = w.get<uint16_t>(op.args.at(3 + (op.aux2 != 0)), l);
    if (!w.cta->cluster->holds(mask))
      w.undefined(l, "'" + op.text + "': ctaMask " + std::to_string(mask) + " names a CTA outside the cluster of " +
                          std::to_string(w.cta->cluster->ctas.size()) + " (undefined, PTX §9.7.9.25.5.2)");
    const uint64_t dst = w.shared_target(b.shared, l).offset, bar = w.shared_target(barrier, l).offset;
    for (uint32_t ranks = mask; ranks; ranks &= ranks - 1) {
      const auto rank = static_cast<uint32_t>(std::countr_zero(ranks));
      Box to = b;
      to.shared = mem::cluster_shared_address(rank, dst);
      expect(to, mem::cluster_shared_address(rank, bar));
    }
  });
}

// The box of a store or reduction [tensorMap, tensorCoords], [srcMem] (§9.7.9.25.5.2-3), checked.
Box store_box(Warp& w, const Op& op, int l) {
  Box b = read_box(w, op, op.args[0], static_cast<unsigned>(op.aux), l);
  b.load = false;
  check_store_start(w, op, b, l);
  b.shared = mem::shared_offset(w.address(op.args[1], l));
  if (b.shared % 128)
    w.undefined(l, "'" + op.text + "': the shared address must be 128-byte aligned (PTX §9.7.9.25.5.2)");
  w.access(Space::Shared, b.shared, b.bytes(), l, false);
  return b;
}

// cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [tensorMap, tensorCoords], [srcMem]
void store(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    const Box b = store_box(w, op, l);
    bulk_copy::issue(w, l, [b] { b.apply(); });
  });
}

// cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp.tile.bulk_group [tensorMap, coords],
// [srcMem]: a store that combines each element with the tensor's, the element type the map's.
void reduce(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    Box b = store_box(w, op, l);
    static const char* const kTypes[] = {".u8", ".u16", ".u32", ".s32", ".u64", ".s64", ".f16", ".f32", ".f64", ".bf16"};
    const auto type = static_cast<size_t>(b.map.type);
    const std::string& red = *reinterpret_cast<const std::string*>(op.aux2);
    b.combine = type < std::size(kTypes) ? numeric::combine_for(red, kTypes[type]) : nullptr;
    if (!b.combine || b.map.type == DataType::U8 || b.map.type == DataType::U16)
      w.undefined(l, "'" + op.text + "': no " + red + " reduction of the map's element type (PTX §9.7.9.25.5.3)");
    bulk_copy::issue(w, l, [b] { b.apply(); });
  });
}

// cp.async.bulk.prefetch.tensor.Nd.L2.global.tile [tensorMap, tensorCoords]: a hint, whose map
// must still be one.
void prefetch(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) { read_box(w, op, op.args[0], static_cast<unsigned>(op.aux), l); });
}

// tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val (§9.7.9.26): one field of
// the map at addr, in global or shared memory, replaced. op.aux: the field; the enumerated fields
// take the device numbering of Table 32 (element types 8, 9, 10 are f32.ftz, f64, bf16).
enum Field : uint8_t { Address, Rank, BoxDim, GlobalDim, GlobalStride, ElementStride, ElemType, InterleaveLayout, SwizzleMode, FillMode };
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
    switch (field) {
    case Address: map->address = v; break;
    case Rank: map->rank = static_cast<uint32_t>(v) + 1; break;  // new_val is the rank less one
    case BoxDim: map->box[ord] = static_cast<uint32_t>(v); break;
    case GlobalDim: map->dims[ord] = static_cast<uint32_t>(v); break;
    case GlobalStride: map->strides[ord] = v; break;
    case ElementStride: map->element_strides[ord] = static_cast<uint32_t>(v); break;
    case ElemType: map->type = static_cast<DataType>(v == 8 ? 10 : v == 9 ? 8 : v == 10 ? 9 : v); break;
    case InterleaveLayout: map->interleave = static_cast<Interleave>(v); break;
    case SwizzleMode: map->swizzle = static_cast<Swizzle>(v); break;
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

bool tile_mode(const isa::Bound& b, std::string& why, bool im2col_too = false) {
  const std::string* mode = b.value("mode");
  if (mode && *mode != ".tile" && !(im2col_too && *mode == ".im2col")) {
    why = *mode + " tensor copies are not implemented yet";
    return false;
  }
  if (b.value("cta_group")) {
    why = ".cta_group tensor copies (sm_100 CTA pairs, tcgen05) are not implemented yet";
    return false;
  }
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["cp.async.bulk.tensor §9.7.9.25.5.2"] = [](const isa::Bound& b, Op& op, std::string& why) {
    if (!tile_mode(b, why, true)) return false;
    const std::string* dst = b.value("dst");
    const std::string* mode = b.value("mode");
    op.aux = rank_of(b) | (b.value("multicast") ? kMulticast : 0);
    op.aux2 = mode && *mode == ".im2col";
    op.fn = dst && *dst == ".global" ? &store : &load;
    return true;
  };
  r["cp.reduce.async.bulk.tensor §9.7.9.25.5.3"] = [](const isa::Bound& b, Op& op, std::string& why) {
    if (!tile_mode(b, why)) return false;
    static const std::string kOps[] = {".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor"};
    const std::string* red = b.value("op");
    const std::string* found = red ? std::find(std::begin(kOps), std::end(kOps), *red) : std::end(kOps);
    if (found == std::end(kOps)) return false;
    op.aux = rank_of(b);
    op.aux2 = reinterpret_cast<uint64_t>(found);  // the operation's name, static
    op.fn = &reduce;
    return true;
  };
  r["tensormap.replace §9.7.9.26"] = [](const isa::Bound& b, Op& op, std::string& why) {
    static const char* const kFields[] = {".global_address", ".rank", ".box_dim", ".global_dim", ".global_stride",
                                          ".element_stride", ".elemtype", ".interleave_layout", ".swizzle_mode", ".fill_mode"};
    const std::string* field = b.value("field");
    const auto found = field ? std::find(std::begin(kFields), std::end(kFields), *field) : std::end(kFields);
    if (found == std::end(kFields)) {
      why = ".swizzle_atomicity (the sm_100 128B-atom swizzles) is not implemented yet";
      return false;
    }
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
    if (!tile_mode(b, why)) return false;
    op.aux = rank_of(b);
    op.fn = &prefetch;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units::tma
