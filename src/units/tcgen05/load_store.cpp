// Moves between registers and Tensor Memory (PTX §9.7.16.8, 000_70a4b524dfe259fa.txt):
// tcgen05.ld, tcgen05.st, tcgen05.wait::ld, tcgen05.wait::st.
//
// A warp moves .num repetitions of a shape (§9.7.16.2.3); thread t's register r holds the cell
// (lane, column) below, relative to taddr (the fragments of Figures 183-187, whose figures the
// text leaves out; these are the thread/register maps of CUTLASS's tcgen05 copy atoms,
// include/cute/atom/copy_traits_sm100.hpp, which real kernels use):
//   .32x32b    lane t,                          column r
//   .16x64b    lane t/4 + 8(t%2),               column 2r + (t/2)%2
//   .16x128b   lane t/4 + 8(r%2),               column 4(r/2) + t%4
//   .16x256b   lane t/4 + 8((r/2)%2),           column 8(r/4) + 2(t%4) + r%2
//   .16x32bx2  lane t%16,                       column r, plus immHalfSplitoff for t >= 16
// With .pack::16b (.unpack::16b) a register holds two 16-bit elements, the low half from (to) the
// low 16 bits of column 2c and the high half from (to) column 2c + 1, c the column above (Figure
// 193); .unpack::16b writes the upper 16 bits of each cell as zero (our choice: the ISA draws the
// unpacked cell only in the figure). Warp w of its warpgroup reaches lanes 32(w%4) .. +31 only
// (§9.7.16.8.1).
//
// tcgen05.ld.red (sm_103f, sm_110) also writes redval: the .min or .max of the thread's .num
// loaded values; for .f32 as min/max.f32 and redux.sync do (numeric::minmax: +0.0 > -0.0, .abs
// compares magnitudes and yields one, with .NaN any NaN gives the canonical NaN, without it NaNs
// are skipped unless all are NaN). The registers r hold the loaded values as tcgen05.ld's do.
#include <algorithm>
#include <bit>
#include <string>

#include "exec/engine.h"
#include "numeric/format.h"
#include "numeric/minmax.h"
#include "exec/warp.h"
#include "program/registry.h"
#include "units/tcgen05/tensor_memory.h"

namespace ptxvm::units::tcgen05 {
namespace {

using exec::Warp;
using program::Arg;
using program::Op;

enum class Shape : uint8_t { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };

enum class Reduction : uint8_t { None, Min, Max };
enum class RedType : uint8_t { F32, U32, S32 };

// op.aux: the shape, .num, whether it packs (unpacks), and ld.red's reduction.
struct Movement {
  Shape shape;
  unsigned regs;  // registers per thread
  bool pack;
  Reduction red = Reduction::None;
  RedType type = RedType::U32;
  bool abs = false, nan = false;
};
uint64_t encode(const Movement& m) {
  return static_cast<uint64_t>(m.shape) | uint64_t{m.regs} << 8 | uint64_t{m.pack} << 32 |
         uint64_t(m.red) << 40 | uint64_t(m.type) << 42 | uint64_t{m.abs} << 44 | uint64_t{m.nan} << 45;
}
Movement decode(uint64_t aux) {
  Movement m{static_cast<Shape>(aux & 0xff), static_cast<unsigned>((aux >> 8) & 0xffffff), ((aux >> 32) & 1) != 0};
  m.red = static_cast<Reduction>((aux >> 40) & 3), m.type = static_cast<RedType>((aux >> 42) & 3);
  m.abs = ((aux >> 44) & 1) != 0, m.nan = ((aux >> 45) & 1) != 0;
  return m;
}

// ld.red's fold of one more loaded value into acc.
uint32_t reduce(const Movement& mv, uint32_t acc, uint32_t x) {
  const bool max = mv.red == Reduction::Max;
  switch (mv.type) {
  case RedType::F32:
    return static_cast<uint32_t>(numeric::minmax(numeric::kF32, max, acc, mv.abs ? x & 0x7fffffffu : x,
                                                 mv.nan ? numeric::kNan : 0));
  case RedType::S32: {
    const int32_t a = static_cast<int32_t>(acc), b = static_cast<int32_t>(x);
    return static_cast<uint32_t>(max ? std::max(a, b) : std::min(a, b));
  }
  case RedType::U32: return max ? std::max(acc, x) : std::min(acc, x);
  }
  return acc;
}

struct Cell {
  unsigned lane, column;
};

// Thread t's register r, relative to taddr (the table above), before packing.
Cell place(Shape s, unsigned t, unsigned r, unsigned split) {
  switch (s) {
  case Shape::S32x32b: return {t, r};
  case Shape::S16x64b: return {t / 4 + 8 * (t % 2), 2 * r + (t / 2) % 2};
  case Shape::S16x128b: return {t / 4 + 8 * (r % 2), 4 * (r / 2) + t % 4};
  case Shape::S16x256b: return {t / 4 + 8 * ((r / 2) % 2), 8 * (r / 4) + 2 * (t % 4) + r % 2};
  case Shape::S16x32bx2: return {t % 16, r + (t >= 16 ? split : 0)};
  }
  return {};
}

// Checks the collective access and returns taddr (operand `at`); `split` gets immHalfSplitoff.
uint32_t start(Warp& w, const Op& op, uint32_t m, const Movement& mv, size_t at, unsigned& split) {
  check_aligned(w, op, m, "9.7.16.8.3");
  const uint32_t taddr = static_cast<uint32_t>(uniform(w, op, m, op.args[at], "taddr", "9.7.16.8.3"));
  // immHalfSplitoff follows taddr in ld, precedes the registers in st
  split = mv.shape == Shape::S16x32bx2 ? static_cast<unsigned>(op.args[op.args[at + 1].kind == program::ArgKind::Imm ? at + 1 : 1].imm) : 0;
  const unsigned quarter = 32 * (w.index % 4), lanes = mv.shape == Shape::S32x32b ? 32 : 16;
  const int l = std::countr_zero(m);
  if (lane_of(taddr) < quarter || lane_of(taddr) + lanes > quarter + 32)
    w.undefined(l, "'" + op.text + "': warp " + std::to_string(w.index) + " is warp " + std::to_string(w.index % 4) +
                       " of its warpgroup and reaches Tensor Memory lanes " + std::to_string(quarter) + ".." +
                       std::to_string(quarter + 31) + " only, but taddr names lanes " +
                       std::to_string(lane_of(taddr)) + ".." + std::to_string(lane_of(taddr) + lanes - 1) +
                       " (§9.7.16.8.1)");
  const TensorMemory& t = w.cta->unit<TensorMemory>();
  const unsigned width = mv.pack ? 2 : 1;
  for (unsigned th = 0; th < 32; ++th)
    for (unsigned r = 0; r < mv.regs; ++r) {
      const Cell c = place(mv.shape, th, r, split / width);
      t.check_allocated(w, l, op, lane_of(taddr) + c.lane, 1, column_of(taddr) + c.column * width, width);
    }
  return taddr;
}

// tcgen05.ld.sync.aligned.shape.num{.pack::16b}.b32 r, [taddr]{, immHalfSplitoff}, or
// tcgen05.ld.red.sync.aligned.shape.num.redOp{.abs}{.NaN}.type r, redval, [taddr]{, immHalfSplitoff}
void ld(Warp& w, const Op& op, uint32_t m) {
  const Movement mv = decode(op.aux);
  const bool red = mv.red != Reduction::None;
  unsigned split;
  const uint32_t taddr = start(w, op, m, mv, red ? 2 : 1, split);
  TensorMemory& t = w.cta->unit<TensorMemory>();
  const std::vector<Arg>& regs = op.args[0].elems;
  bool clean = true;  // the tcgen05 check: one report per instruction
  auto read = [&](unsigned th, unsigned lane, unsigned column) {
    if (t.shadow && clean) clean = t.check_read(w, static_cast<int>(th), w.current_pc, lane, column, "the cell tcgen05.ld reads");
    if (t.shadow) t.loads(w, static_cast<int>(th), w.current_pc, lane, column);
    return t.cell(lane, column);
  };
  for (unsigned th = 0; th < 32; ++th)
    for (unsigned r = 0; r < mv.regs; ++r) {
      if (regs[r].kind != program::ArgKind::Reg) continue;
      uint32_t value;
      if (mv.pack) {
        const Cell c = place(mv.shape, th, r, split / 2);
        const unsigned lane = lane_of(taddr) + c.lane, column = column_of(taddr) + 2 * c.column;
        value = (read(th, lane, column) & 0xffff) | (read(th, lane, column + 1) & 0xffff) << 16;
      } else {
        const Cell c = place(mv.shape, th, r, split);
        value = read(th, lane_of(taddr) + c.lane, column_of(taddr) + c.column);
      }
      w.slot(regs[r].reg, static_cast<int>(th)) = value;
    }
  if (!red || op.args[1].kind != program::ArgKind::Reg) return;
  for (unsigned th = 0; th < 32; ++th) {
    auto value = [&](unsigned r) {
      const Cell c = place(mv.shape, th, r, split);
      return t.cell(lane_of(taddr) + c.lane, column_of(taddr) + c.column);
    };
    const uint32_t first = mv.type == RedType::F32 && mv.abs ? value(0) & 0x7fffffffu : value(0);
    uint32_t acc = reduce(mv, first, first);  // a NaN enters canonical
    for (unsigned r = 1; r < mv.regs; ++r) acc = reduce(mv, acc, value(r));
    w.slot(op.args[1].reg, static_cast<int>(th)) = acc;
  }
}

// tcgen05.st.sync.aligned.shape.num{.unpack::16b}.b32 [taddr]{, immHalfSplitoff}, r
void st(Warp& w, const Op& op, uint32_t m) {
  const Movement mv = decode(op.aux);
  unsigned split;
  const uint32_t taddr = start(w, op, m, mv, 0, split);
  TensorMemory& t = w.cta->unit<TensorMemory>();
  const std::vector<Arg>& regs = op.args.back().elems;
  bool clean = true;  // the tcgen05 check: one report per instruction
  for (unsigned th = 0; th < 32; ++th)
    for (unsigned r = 0; r < mv.regs; ++r) {
      const uint32_t value = w.get<uint32_t>(regs[r], static_cast<int>(th));
      auto store = [&](unsigned lane, unsigned column, uint32_t v) {
        if (t.shadow && clean) clean = t.check_overwrite(w, static_cast<int>(th), w.current_pc, lane, column);
        if (t.shadow)
          clean &= t.order(w, static_cast<int>(th), TensorMemory::issue_of(w, static_cast<int>(th), false), lane, column,
                           true, clean);
        t.stores.push_back({w.index, static_cast<uint16_t>(lane), static_cast<uint16_t>(column), v});
        t.will_write(TensorMemory::kStore, w.first_thread + th, w.current_pc, lane, column);
      };
      if (mv.pack) {
        const Cell c = place(mv.shape, th, r, split / 2);
        const unsigned lane = lane_of(taddr) + c.lane, column = column_of(taddr) + 2 * c.column;
        store(lane, column, value & 0xffff);
        store(lane, column + 1, value >> 16);
      } else {
        const Cell c = place(mv.shape, th, r, split);
        store(lane_of(taddr) + c.lane, column_of(taddr) + c.column, value);
      }
    }
}

// tcgen05.wait::ld: the loads wrote their registers when issued (tensor_memory.h); the tcgen05
// check lets their cells be written again.
void wait_ld(Warp& w, const Op& op, uint32_t m) {
  check_aligned(w, op, m, "9.7.16.8.5");
  w.cta->unit<TensorMemory>().waited_for_loads(w);
}

// tcgen05.wait::st: the warp's stores land.
void wait_st(Warp& w, const Op& op, uint32_t m) {
  check_aligned(w, op, m, "9.7.16.8.5");
  if (TensorMemory* t = w.cta->units.find<TensorMemory>()) t->land_stores(w.index);
}

bool select(const isa::Bound& b, Op& op, std::string& why, bool load) {
  const std::string& shape = *b.value("shape");
  const unsigned num = static_cast<unsigned>(std::stoul(b.value("num")->substr(2)));
  Movement mv{};
  unsigned per = 1;
  if (shape == ".32x32b") mv.shape = Shape::S32x32b;
  else if (shape == ".16x64b") mv.shape = Shape::S16x64b;
  else if (shape == ".16x128b") mv.shape = Shape::S16x128b, per = 2;
  else if (shape == ".16x256b") mv.shape = Shape::S16x256b, per = 4;
  else mv.shape = Shape::S16x32bx2;
  mv.regs = per * num;  // Table 47
  mv.pack = b.value(load ? "pack" : "unpack") != nullptr;
  if (const std::string* o = b.value("op")) {  // ld.red
    mv.red = *o == ".max" ? Reduction::Max : Reduction::Min;
    const std::string& type = *b.value("type");
    mv.type = type == ".f32" ? RedType::F32 : type == ".s32" ? RedType::S32 : RedType::U32;
    mv.abs = b.value("abs") != nullptr, mv.nan = b.value("nan") != nullptr;
  }
  const Arg& v = load ? op.args[0] : op.args.back();
  if (v.kind != program::ArgKind::Vector || v.elems.size() != mv.regs) {
    why = "the register vector has " + std::to_string(v.elems.size()) + " elements; " + shape + " " +
          *b.value("num") + " takes " + std::to_string(mv.regs) + " (Table 47, §9.7.16.8.3)";
    return false;
  }
  op.fn = load ? &ld : &st;
  op.aux = encode(mv);
  if (!load) op.cross_lane = 1u << (op.args.size() - 1);  // every thread's registers, read by the warp's store
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["tcgen05.ld §9.7.16.8.3"] = [](const isa::Bound& b, Op& op, std::string& why) { return select(b, op, why, true); };
  r["tcgen05.ld.red §9.7.16.8.3"] = [](const isa::Bound& b, Op& op, std::string& why) {
    return select(b, op, why, true);
  };
  r["tcgen05.st §9.7.16.8.4"] = [](const isa::Bound& b, Op& op, std::string& why) { return select(b, op, why, false); };
  r["tcgen05.wait::ld §9.7.16.8.5"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &wait_ld;
    return true;
  };
  r["tcgen05.wait::st §9.7.16.8.5"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &wait_st;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units::tcgen05
