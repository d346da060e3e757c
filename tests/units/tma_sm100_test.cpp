// The sm_100 tensor copies (src/units/tma): .tile::gather4/.tile::scatter4 (PTX §5.5.3.4),
// .im2col::w/.im2col::w::128 (§5.5.5) with wide im2col maps, .cta_group::1/::2
// (§9.7.9.25.5.2), the 128B swizzles with 32- and 64-byte atoms (§5.5.7) and their
// tensormap.replace field (§9.7.9.26), and the packed sub-byte types (§5.5.1.1.1). No Blackwell
// GPU is at hand: every expected byte is computed here from the text (the swizzle tables of
// §5.5.7 as printed, the traversals as the sections describe them), not by ptxvm's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "harness.h"
#include "mma/descriptor.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

using units::tma::DataType;
using units::tma::Swizzle;
using units::tma::TensorMap;
using units::tma::WideMode;

constexpr uint8_t kUntouched = 0xa5;  // what the kernels fill shared memory with before a load

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>((seed = seed * 1664525u + 1013904223u) >> 24);
  return v;
}

// §5.5.7's tables: in 128-byte line `line` of shared memory, position `pos` holds the byte at
// `source` of the line's logical (unswizzled) bytes: physical unit u holds logical unit
// rows[line % rows.size()][u]; the 8-byte flip (cuda.h) swaps the halves of each 16 bytes of odd lines.
unsigned source(Swizzle s, size_t line, unsigned pos) {
  struct Pattern {
    unsigned unit;
    std::vector<std::vector<unsigned>> rows;
  };
  Pattern p = {16,
               {{0, 1, 2, 3, 4, 5, 6, 7},
                {1, 0, 3, 2, 5, 4, 7, 6},
                {2, 3, 0, 1, 6, 7, 4, 5},
                {3, 2, 1, 0, 7, 6, 5, 4},
                {4, 5, 6, 7, 0, 1, 2, 3},
                {5, 4, 7, 6, 1, 0, 3, 2},
                {6, 7, 4, 5, 2, 3, 0, 1},
                {7, 6, 5, 4, 3, 2, 1, 0}}};
  switch (s) {
  case Swizzle::None: p.rows.resize(1); break;
  case Swizzle::B32: p.rows.resize(2); break;
  case Swizzle::B64: p.rows.resize(4); break;
  case Swizzle::B128: break;
  case Swizzle::B128Atom32:
  case Swizzle::B128Atom32Flip8: p = {32, {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}}}; break;
  case Swizzle::B128Atom64: p = {64, {{0, 1}, {1, 0}}}; break;
  }
  const unsigned from = p.rows[line % p.rows.size()][pos / p.unit] * p.unit + pos % p.unit;
  return s == Swizzle::B128Atom32Flip8 && line % 2 ? from ^ 8 : from;
}
std::vector<uint8_t> swizzle(const std::vector<uint8_t>& logical, Swizzle s) {
  EXPECT_EQ(logical.size() % 128, 0u);
  std::vector<uint8_t> out(logical.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = logical[i / 128 * 128 + source(s, i / 128, i % 128)];
  return out;
}
std::vector<uint8_t> unswizzle(const std::vector<uint8_t>& physical, Swizzle s) {
  std::vector<uint8_t> out(physical.size());
  for (size_t i = 0; i < out.size(); ++i) out[i / 128 * 128 + source(s, i / 128, i % 128)] = physical[i];
  return out;
}

std::string header(const std::string& params) {
  return ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .align 64 .b8 tmap[128]" + params +
         ")\n{\n.reg .b16 %h<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n.reg .pred %p<8>;\n";
}

// A loop over the `bytes` bytes of buf, a word at a time: %r5 the word's shared address, %rd5
// its offset in buf; `body` moves the word.
std::string words(const std::string& label, unsigned bytes, const std::string& body) {
  return "mov.u32 %r3, 0;\n" + label + ":\nadd.u32 %r5, %r2, %r3;\ncvt.u64.u32 %rd5, %r3;\n" + body +
         "add.u32 %r3, %r3, 4;\nsetp.lt.u32 %p2, %r3, " + std::to_string(bytes) + ";\n@%p2 bra " + label + ";\n";
}

// One thread: buf (1024-aligned, `bytes` long) filled with 0xa5, `copy` issued (a load on bar
// completing `tx` bytes), waited for, and buf copied to out.
std::string load_kernel(const std::string& copy, unsigned tx, unsigned bytes) {
  return header(", .param .u64 out") + ".shared .align 1024 .b8 buf[" + std::to_string(bytes) +
         "];\n.shared .align 8 .b64 bar;\n"
         "ld.param.u64 %rd3, [out];\nmov.b64 %rd1, tmap;\ncvta.param.u64 %rd2, %rd1;\nmov.u32 %r2, buf;\n" +
         words("FILL", bytes, "st.shared.u32 [%r5], 0xa5a5a5a5;\n") +
         "mbarrier.init.shared.b64 [bar], 1;\nfence.proxy.async.shared::cta;\n"
         "mbarrier.arrive.expect_tx.shared.b64 _, [bar], " +
         std::to_string(tx) + ";\n" + copy +
         "\nWAIT:\nmbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n@!%p3 bra WAIT;\n" +
         words("OUT", bytes, "ld.shared.u32 %r6, [%r5];\nadd.s64 %rd6, %rd3, %rd5;\nst.global.u32 [%rd6], %r6;\n") +
         "ret;\n}\n";
}

// One thread: buf <- `bytes` from in, then `copy` (a store) issued and waited for.
std::string store_kernel(const std::string& copy, unsigned bytes) {
  return header(", .param .u64 in") + ".shared .align 1024 .b8 buf[" + std::to_string(bytes) +
         "];\nld.param.u64 %rd4, [in];\nmov.b64 %rd1, tmap;\ncvta.param.u64 %rd2, %rd1;\nmov.u32 %r2, buf;\n" +
         words("IN", bytes, "add.s64 %rd6, %rd4, %rd5;\nld.global.u32 %r6, [%rd6];\nst.shared.u32 [%r5], %r6;\n") +
         "fence.proxy.async.shared::cta;\n" + copy +
         "\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nret;\n}\n";
}

// What a launch left (a load's shared image, a store's tensor), or its error.
struct Loaded {
  std::vector<uint8_t> image;
  std::string error;
};
// Runs load_kernel(copy) over map m, its address set to a buffer holding `tensor`.
Loaded run_load(TensorMap m, const std::vector<uint8_t>& tensor, const std::string& copy, unsigned tx, unsigned bytes) {
  Harness h;
  h.load(load_kernel(copy, tx, bytes));
  m.address = h.buffer(tensor);
  const uint64_t out = h.buffer(std::vector<uint8_t>(bytes, 0));
  const auto r = h.launch("k", {1}, {1}, {arg(units::tma::encode(m)), arg(out)});
  if (!r.ok) return {{}, r.error};
  return {h.read<uint8_t>(out, bytes), ""};
}
// Runs store_kernel(copy) with shared bytes `source` over map m.
Loaded run_store(TensorMap m, const std::vector<uint8_t>& tensor, const std::vector<uint8_t>& source,
                 const std::string& copy) {
  Harness h;
  h.load(store_kernel(copy, static_cast<unsigned>(source.size())));
  m.address = h.buffer(tensor);
  const auto r = h.launch("k", {1}, {1}, {arg(units::tma::encode(m)), arg(h.buffer(source))});
  if (!r.ok) return {{}, r.error};
  return {h.read<uint8_t>(m.address, tensor.size()), ""};
}

void expect_bytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  size_t bad = 0, first = got.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " bytes differ, the first at " << first << " (got "
                     << (bad ? int(got[first]) : 0) << ", want " << (bad ? int(want[first]) : 0) << ")";
}

// A 2-D u32 tensor of `cols` x `rows`, rows 16-byte aligned.
TensorMap u32_map(uint64_t cols, uint64_t rows, uint32_t box0, uint32_t box1, Swizzle s) {
  TensorMap m;
  m.type = DataType::U32;
  m.rank = 2;
  m.dims = {cols, rows, 0, 0, 0};
  m.strides = {cols * 4, 0, 0, 0};
  m.box = {box0, box1, 0, 0, 0};
  m.swizzle = s;
  return m;
}

const Swizzle kSwizzles[] = {Swizzle::None,      Swizzle::B32,        Swizzle::B64,
                             Swizzle::B128,      Swizzle::B128Atom32, Swizzle::B128Atom32Flip8,
                             Swizzle::B128Atom64};
unsigned span(Swizzle s) {
  return s == Swizzle::B32 ? 32 : s == Swizzle::B64 ? 64 : 128;
}

// .tile::gather4 (§5.5.3.4): rows row0..row3 of the box's width from col, one after another in
// shared memory, swizzled as a four-row .tile box would be; rows and columns outside the tensor
// load as zero. Every swizzle, a column range that runs off the tensor, rows before and after it.
TEST(TmaSm100, Gather4LoadsFourRowsUnderEverySwizzle) {
  const uint64_t cols = 40, rows = 20;
  const std::vector<uint8_t> tensor = random_bytes(cols * rows * 4, 7);
  for (Swizzle s : kSwizzles) {
    const uint32_t width = span(s) / 4;  // u32 columns per row: the swizzle span (128 bytes unswizzled)
    const int64_t col = 32, row[4] = {3, 19, -1, 20};
    std::vector<uint8_t> logical(std::max(4u * width * 4, 128u), kUntouched);
    for (unsigned r = 0; r < 4; ++r)
      for (unsigned k = 0; k < width; ++k)
        for (unsigned b = 0; b < 4; ++b) {
          const int64_t c = col + k;
          const bool inside = row[r] >= 0 && row[r] < int64_t(rows) && c < int64_t(cols);
          logical[(r * width + k) * 4 + b] = inside ? tensor[(row[r] * cols + c) * 4 + b] : 0;
        }
    const unsigned bytes = 4 * width * 4;
    const Loaded got = run_load(u32_map(cols, rows, width, 1, s), tensor,
                                "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes "
                                "[buf], [%rd2, {32, 3, 19, -1, 20}], [bar];",
                                bytes, static_cast<unsigned>(logical.size()));
    ASSERT_EQ(got.error, "") << int(s);
    expect_bytes(got.image, swizzle(logical, s), "gather4, swizzle " + std::to_string(int(s)));
  }
}

// The NaN fill of a floating-point map fills gather4's outside rows and columns too (§5.5.3.3):
// an H100's OOB-NaN is 0x7ff7 in every 16 bits (tests/hw/tma).
TEST(TmaSm100, Gather4FillsOutsideRowsWithTheOobNan) {
  TensorMap m = u32_map(32, 4, 32, 1, Swizzle::B128);
  m.type = DataType::F32;
  m.oob = units::tma::OobFill::NanRequestZeroFma;
  const std::vector<uint8_t> tensor = random_bytes(32 * 4 * 4, 3);
  const Loaded got = run_load(m, tensor,
                              "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes "
                              "[buf], [%rd2, {-16, 4, 2, -7, 0}], [bar];",
                              512, 512);
  ASSERT_EQ(got.error, "");
  std::vector<uint8_t> logical(512);
  const int64_t row[4] = {4, 2, -7, 0};
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned i = 0; i < 128; ++i) {
      const int64_t col = -16 + int64_t{i / 4};  // columns -16 .. 15
      logical[r * 128 + i] =
          row[r] >= 0 && row[r] < 4 && col >= 0 ? tensor[row[r] * 128 + col * 4 + i % 4] : (i % 2 ? 0x7f : 0xf7);
    }
  expect_bytes(got.image, swizzle(logical, Swizzle::B128), "gather4 NaN fill");
}

// .tile::scatter4: the four shared rows stored to rows row0..row3 from col; what lies outside
// the tensor is not stored.
TEST(TmaSm100, Scatter4StoresFourRows) {
  for (Swizzle s : {Swizzle::None, Swizzle::B128, Swizzle::B128Atom32Flip8, Swizzle::B128Atom64}) {
    const uint64_t cols = 48, rows = 10;
    const std::vector<uint8_t> tensor = random_bytes(cols * rows * 4, 11), source = random_bytes(512, 12);
    const Loaded got = run_store(u32_map(cols, rows, 32, 1, s), tensor, source,
                                 "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group "
                                 "[%rd2, {16, 9, 0, 10, 5}], [buf];");
    ASSERT_EQ(got.error, "") << int(s);
    std::vector<uint8_t> want = tensor;
    const std::vector<uint8_t> logical = unswizzle(source, s);
    const int64_t row[4] = {9, 0, 10, 5};
    for (unsigned r = 0; r < 4; ++r)
      for (unsigned k = 0; k < 32; ++k)
        if (row[r] < int64_t(rows) && 16 + k < cols)
          for (unsigned b = 0; b < 4; ++b) want[(row[r] * cols + 16 + k) * 4 + b] = logical[(r * 32 + k) * 4 + b];
    expect_bytes(got.image, want, "scatter4, swizzle " + std::to_string(int(s)));
  }
}

// The 128B-atom swizzles in .tile loads of several 128-byte lines, from a box start that is not
// at the 1024-byte pattern boundary of the shared buffer (the pattern follows the address).
TEST(TmaSm100, TileLoadsUnderTheAtomSwizzles) {
  const uint64_t cols = 64, rows = 16;
  const std::vector<uint8_t> tensor = random_bytes(cols * rows * 4, 21);
  for (Swizzle s : {Swizzle::B128Atom32, Swizzle::B128Atom32Flip8, Swizzle::B128Atom64}) {
    const Loaded got = run_load(u32_map(cols, rows, 32, 8, s), tensor,
                                "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                                "[buf+384], [%rd2, {16, 9}], [bar];",
                                1024, 2048);
    ASSERT_EQ(got.error, "") << int(s);
    std::vector<uint8_t> logical(2048, kUntouched);
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned k = 0; k < 32; ++k)
        for (unsigned b = 0; b < 4; ++b) {
          const uint64_t row = 9 + r, col = 16 + k;
          logical[384 + (r * 32 + k) * 4 + b] = row < rows && col < cols ? tensor[(row * cols + col) * 4 + b] : 0;
        }
    expect_bytes(got.image, swizzle(logical, s), "tile, swizzle " + std::to_string(int(s)));
  }
}

// What the TMA writes under 128B swizzling with 32-byte atoms is what tcgen05 reads from an
// MN-major operand of descriptor swizzle mode 1 (mma/descriptor.h): element (mn, k) of a K x MN
// tensor, MN contiguous, at the address the descriptor's layout gives it.
TEST(TmaSm100, Atom32LoadsAreWhatTcgen05Reads) {
  const uint64_t mn = 32, k = 8;
  const std::vector<uint8_t> tensor = random_bytes(mn * k * 4, 5);
  const Loaded got = run_load(u32_map(mn, k, 32, 8, Swizzle::B128Atom32), tensor,
                              "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                              "[buf], [%rd2, {0, 0}], [bar];",
                              1024, 1024);
  ASSERT_EQ(got.error, "");
  mma::MatrixDescriptor d;
  d.stride = 512;  // the next 4 K rows
  d.swizzle = mma::Swizzle::B128Atom32;
  for (unsigned i = 0; i < mn; ++i)
    for (unsigned j = 0; j < k; ++j) {
      const uint64_t at = mma::element_bit_address(d, false, 32, i, j) / 8;
      for (unsigned b = 0; b < 4; ++b) ASSERT_EQ(got.image[at + b], tensor[(j * mn + i) * 4 + b]) << i << ", " << j;
    }
}

// A wide im2col map (cuTensorMapEncodeIm2colWide) over an NHWC tensor of u32 channels.
TensorMap wide_map(WideMode mode, uint64_t c, uint64_t w, uint64_t h, uint64_t n, int32_t lower, int32_t upper) {
  TensorMap m;
  m.type = DataType::U32;
  m.rank = 4;
  m.dims = {c, w, h, n, 0};
  m.strides = {c * 4, c * 4 * w, c * 4 * w * h, 0};
  m.im2col = true;
  m.wide = mode;
  m.lower[0] = lower;
  m.upper[0] = upper;
  m.channels = static_cast<uint32_t>(c);
  m.swizzle = Swizzle::B128;
  return m;
}

// The pixels of an .im2col::w(::128) copy in traversal order, written from §5.5.5: W from its
// coordinate + wOffset through the box [lower + wOffset, W - 1 + upper + wOffset] by the
// traversal stride; each next image (N + 1) from the box's left end.
std::vector<std::pair<int64_t, int64_t>> w_pixels(int64_t w0, int64_t n0, int64_t lo, int64_t hi, int64_t stride,
                                                  size_t count) {
  std::vector<std::pair<int64_t, int64_t>> seq;
  for (int64_t n = n0, w = w0; seq.size() < count; ++n, w = lo)
    for (; w <= hi && seq.size() < count; w += stride) seq.push_back({w, n});
  return seq;
}

// The pixels' channels c0 .. c0 + c - 1 (u32) of a C x W x H x N tensor, row h.
std::vector<uint8_t> pixel_image(const std::vector<std::pair<int64_t, int64_t>>& pixels,
                                 const std::vector<uint8_t>& tensor, int64_t c0, uint64_t c, uint64_t w, int64_t h,
                                 uint64_t hs, uint64_t n) {
  std::vector<uint8_t> image;
  for (auto [x, img] : pixels)
    for (uint64_t i = 0; i < c; ++i)
      for (unsigned b = 0; b < 4; ++b) {
        const int64_t ch = c0 + int64_t(i);
        const bool inside =
            x >= 0 && x < int64_t(w) && h >= 0 && h < int64_t(hs) && img >= 0 && img < int64_t(n) && ch < int64_t(c);
        image.push_back(inside ? tensor[(((img * hs + h) * w + x) * c + ch) * 4 + b] : 0);
      }
  return image;
}

// .im2col::w (§5.5.5): pixelsPerColumn pixels of one row of W (H fixed), wrapping into the next
// images, then wHalo halo pixels; wOffset shifts the start and the box; a traversal stride of 2.
TEST(TmaSm100, Im2colWLoadsARowOfWAndItsHalo) {
  const uint64_t c = 16, w = 10, h = 3, n = 3;
  const std::vector<uint8_t> tensor = random_bytes(c * w * h * n * 4, 31);
  struct Case {
    int64_t c0, w0, h0, n0, halo, offset;
  } cases[] = {{0, -1, 1, 0, 2, 1}, {4, 4, 2, 2, 0, 0}, {0, -3, 3, 0, 1, 0}};  // channels past C; N, H outside
  for (const Case& k : cases) {
    TensorMap m = wide_map(WideMode::W, c, w, h, n, -1, 0);
    m.pixels = 12;
    m.element_strides = {1, 2, 1, 1, 1};
    const auto pixels = w_pixels(k.w0 + k.offset, k.n0, -1 + k.offset, int64_t(w) - 1 + k.offset, 2, 12 + k.halo);
    std::vector<uint8_t> logical = pixel_image(pixels, tensor, k.c0, c, w, k.h0, h, n);
    logical.resize(2048, kUntouched);
    const std::string copy =
        "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes [buf], [%rd2, {" +
        std::to_string(k.c0) + ", " + std::to_string(k.w0) + ", " + std::to_string(k.h0) + ", " + std::to_string(k.n0) +
        "}], [bar], {" + std::to_string(k.halo) + ", " + std::to_string(k.offset) + "};";
    const Loaded got = run_load(m, tensor, copy, static_cast<unsigned>((12 + k.halo) * c * 4), 2048);
    ASSERT_EQ(got.error, "") << copy;
    expect_bytes(got.image, swizzle(logical, Swizzle::B128), copy);
  }
}

// .im2col::w::128: 128 pixels in four groups of 32, each followed by the wHalo pixels after it.
TEST(TmaSm100, Im2colW128LoadsFourGroupsWithHalos) {
  const uint64_t c = 4, w = 40, h = 2, n = 6;
  const std::vector<uint8_t> tensor = random_bytes(c * w * h * n * 4, 41);
  TensorMap m = wide_map(WideMode::W128, c, w, h, n, -2, 1);
  m.swizzle = Swizzle::B128Atom32;
  const int64_t halo = 5, offset = 3;
  const auto line = w_pixels(0 + offset, 1, -2 + offset, int64_t(w) + offset, 1, 128 + halo);
  std::vector<std::pair<int64_t, int64_t>> rows;
  for (unsigned g = 0; g < 4; ++g) rows.insert(rows.end(), line.begin() + 32 * g, line.begin() + 32 * g + 32 + halo);
  std::vector<uint8_t> logical = pixel_image(rows, tensor, 0, c, w, 1, h, n);
  const unsigned bytes = static_cast<unsigned>(logical.size());
  logical.resize(2432, kUntouched);
  const Loaded got = run_load(m, tensor,
                              "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes "
                              "[buf], [%rd2, {0, 0, 1, 1}], [bar], {5, 3};",
                              bytes, 2432);
  ASSERT_EQ(got.error, "");
  expect_bytes(got.image, swizzle(logical, Swizzle::B128Atom32), "im2col::w::128");
}

// The packed sub-byte types (§5.5.1.1.1, cuda.h): dimensions count 4- or 6-bit values, packed in
// global memory; 16u4_align8b lands as it is, 16u4_align16b and 16u6_align16b put each 16
// values' 8 (12) bytes at the start of 16 bytes, the rest of them untouched.
TEST(TmaSm100, PackedTypesLoadPadded) {
  struct Case {
    DataType type;
    unsigned global;  // bytes per 16 values in global memory
    Swizzle swizzle;
  } cases[] = {{DataType::U4x16Align8, 8, Swizzle::None},   {DataType::U4x16Align8, 8, Swizzle::B128Atom32Flip8},
               {DataType::U4x16Align16, 8, Swizzle::B128},  {DataType::U4x16Align16, 8, Swizzle::B128Atom32},
               {DataType::U6x16Align16, 12, Swizzle::None}, {DataType::U6x16Align16, 12, Swizzle::B128Atom32}};
  for (const Case& k : cases) {
    const bool dense = k.type == DataType::U4x16Align8;
    const uint64_t values = 256, rows = 3, row_bytes = values / 16 * k.global;  // 128 or 192 bytes
    const std::vector<uint8_t> tensor = random_bytes(row_bytes * rows, 51);
    TensorMap m;
    m.type = k.type;
    m.rank = 2;
    m.dims = {values, rows, 0, 0, 0};
    m.strides = {row_bytes, 0, 0, 0};
    m.box = {dense ? 256u : 128u, 2, 0, 0, 0};  // 128 bytes of shared memory per row
    m.swizzle = k.swizzle;
    const uint64_t first = dense ? 1 : 2;  // rows 1 and 2 (the flip shows in odd lines), or 2 and 3 (outside)
    std::vector<uint8_t> logical(256, kUntouched);
    for (unsigned r = 0; r < 2; ++r)
      for (unsigned chunk = 0; chunk < (dense ? 16 : 8); ++chunk)
        for (unsigned b = 0; b < k.global; ++b) {
          const uint64_t row = first + r,
                         at = (dense ? 0 : 128 / 16 * k.global) + chunk * k.global + b;  // column 0 or 128
          logical[r * 128 + chunk * (dense ? 8 : 16) + b] = row < rows ? tensor[row * row_bytes + at] : 0;
        }
    const std::string copy =
        std::string("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {") +
        (dense ? "0, 1" : "128, 2") + "}], [bar];";
    // the tx-count is the packed bytes (2 rows of 8 chunks), not the padded ones (box.h)
    const Loaded got = run_load(m, tensor, copy, dense ? 256 : 2 * 8 * k.global, 256);
    ASSERT_EQ(got.error, "") << int(k.type);
    expect_bytes(got.image, swizzle(logical, k.swizzle),
                 "type " + std::to_string(int(k.type)) + ", swizzle " + std::to_string(int(k.swizzle)));
  }
  // 16u4_align8b runs off its tensor a byte (two values) at a time: of values 224 .. 255 of rows
  // 250 values long, bytes 125 .. 127 load as zero.
  TensorMap m;
  m.type = DataType::U4x16Align8;
  m.rank = 2;
  m.dims = {250, 2, 0, 0, 0};
  m.strides = {128, 0, 0, 0};
  m.box = {32, 2, 0, 0, 0};
  const std::vector<uint8_t> tensor = random_bytes(256, 52);
  std::vector<uint8_t> want(128, kUntouched);
  for (unsigned r = 0; r < 2; ++r)
    for (unsigned b = 0; b < 16; ++b) want[r * 16 + b] = 112 + b < 125 ? tensor[r * 128 + 112 + b] : 0;
  const Loaded got = run_load(
      m, tensor,
      "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {224, 0}], [bar];",
      32, 128);
  ASSERT_EQ(got.error, "");
  expect_bytes(got.image, want, "16u4_align8b past the tensor");
}

// A 16u6_align16b store is .b6p2x16 (§5.5.1.1.1): 16 shared bytes whose low 6 bits are the values,
// packed into 12 global bytes (values v0..v3 make v0 | v1 << 6 | v2 << 12 | v3 << 18, 3 bytes
// little-endian); 16u4_align8b stores its bytes as they are.
TEST(TmaSm100, PackedTypesStore) {
  for (Swizzle s : {Swizzle::None, Swizzle::B128Atom64}) {
    TensorMap m;
    m.type = DataType::U6x16Align16;
    m.rank = 2;
    m.dims = {256, 2, 0, 0, 0};
    m.strides = {192, 0, 0, 0};
    m.box = {128, 2, 0, 0, 0};
    m.swizzle = s;
    const std::vector<uint8_t> tensor = random_bytes(384, 61), source = random_bytes(256, 62);  // high bits set too
    const Loaded got = run_store(m, tensor, source,
                                 "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {128, 1}], [buf];");
    ASSERT_EQ(got.error, "");
    std::vector<uint8_t> want = tensor;
    const std::vector<uint8_t> logical = unswizzle(source, s);
    for (unsigned quad = 0; quad < 32; ++quad) {  // row 1's values 128..255; row 2 is outside
      uint32_t v = 0;
      for (unsigned i = 0; i < 4; ++i) v |= uint32_t{logical[quad * 4 + i] & 0x3fu} << (6 * i);
      for (unsigned b = 0; b < 3; ++b) want[192 + 96 + quad * 3 + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    expect_bytes(got.image, want, "16u6_align16b store, swizzle " + std::to_string(int(s)));
  }
  TensorMap m = u32_map(64, 2, 64, 1, Swizzle::None);
  m.type = DataType::U4x16Align8;
  m.dims = {128, 2, 0, 0, 0};
  m.strides = {64, 0, 0, 0};
  const std::vector<uint8_t> tensor = random_bytes(128, 71), source = random_bytes(128, 72);
  const Loaded got = run_store(m, tensor, source,
                               "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {64, 1}], [buf];");
  ASSERT_EQ(got.error, "");
  std::vector<uint8_t> want = tensor;
  for (unsigned b = 0; b < 32; ++b) want[64 + 32 + b] = source[b];
  expect_bytes(got.image, want, "16u4_align8b store");
}

// One cluster launch of `ctas` CTAs running `body` (after the map, out and a barrier and 1024-byte
// buf are set up: %r1 the rank, %rd2 the map, %rd3 out + rank * 1040); buf is dumped to out, then
// a word: whether this CTA's barrier completed phase 0.
Loaded run_cluster(unsigned ctas, const TensorMap& map, const std::vector<uint8_t>& tensor, const std::string& body) {
  const std::string ptx =
      header(", .param .u64 out") +
      ".shared .align 1024 .b8 buf[1024];\n.shared .align 8 .b64 bar;\n"
      "ld.param.u64 %rd3, [out];\nmov.u32 %r1, %cluster_ctarank;\nmul.wide.u32 %rd7, %r1, 1040;\nadd.s64 %rd3, %rd3, %rd7;\n"
      "mov.b64 %rd1, tmap;\ncvta.param.u64 %rd2, %rd1;\nmov.u32 %r2, buf;\n" +
      words("FILL", 1024, "st.shared.u32 [%r5], 0xa5a5a5a5;\n") +
      "mbarrier.init.shared.b64 [bar], 1;\nfence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\n" +
      body + "barrier.cluster.arrive;\nbarrier.cluster.wait;\n" +
      words("OUT", 1024, "ld.shared.u32 %r6, [%r5];\nadd.s64 %rd6, %rd3, %rd5;\nst.global.u32 [%rd6], %r6;\n") +
      "mbarrier.test_wait.parity.shared.b64 %p4, [bar], 0;\nselp.u32 %r7, 1, 0, %p4;\nst.global.u32 [%rd3+1024], %r7;\nret;\n}\n";
  Harness h;
  h.load(ptx);
  TensorMap m = map;
  m.address = h.buffer(tensor);
  const uint64_t out = h.buffer(std::vector<uint8_t>(1040 * ctas, 0));
  LaunchConfig c;
  c.grid = {ctas};
  c.block = {1};
  c.cluster = {ctas};
  c.threads = 1;
  c.step_limit = 10'000'000;
  const auto r = h.module->launch("k", c, {arg(units::tma::encode(m)), arg(out)});
  if (!r.ok) return {{}, r.error};
  return {h.read<uint8_t>(out, 1040 * ctas), ""};
}

// The rows of a 2-D u32 box of 32 x `rows` at (0, row) in 128B swizzle, as shared memory holds it.
std::vector<uint8_t> box_image(const std::vector<uint8_t>& tensor, uint64_t row, unsigned rows) {
  std::vector<uint8_t> logical(1024, kUntouched);
  for (unsigned i = 0; i < rows * 128; ++i) logical[i] = tensor[row * 128 + i];
  return swizzle(logical, Swizzle::B128);
}

// .cta_group::2 (§9.7.9.25.5.2): each CTA of a pair loads into its own shared memory, both
// completing on the even CTA's barrier (CUTLASS's 2-SM loads); with .cta_group::1, the default,
// a barrier in the peer CTA is undefined.
TEST(TmaSm100, CtaGroup2CompletesOnThePeerBarrier) {
  const std::vector<uint8_t> tensor = random_bytes(32 * 16 * 4, 81);
  const TensorMap m = u32_map(32, 16, 32, 4, Swizzle::B128);
  const std::string body =
      "setp.eq.u32 %p1, %r1, 0;\n@%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 1024;\n"
      "barrier.cluster.arrive;\nbarrier.cluster.wait;\nmov.u32 %r8, bar;\nmapa.shared::cluster.u32 %r9, %r8, 0;\n"
      "shl.b32 %r10, %r1, 2;\n"
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [buf], [%rd2, {0, %r10}], [%r9];\n"
      "@!%p1 bra DONE;\nWAIT:\nmbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n@!%p3 bra WAIT;\nDONE:\n";
  const Loaded got = run_cluster(2, m, tensor, body);
  ASSERT_EQ(got.error, "");
  for (unsigned rank = 0; rank < 2; ++rank) {
    expect_bytes({got.image.begin() + rank * 1040, got.image.begin() + rank * 1040 + 1024},
                 box_image(tensor, 4 * rank, 4), "rank " + std::to_string(rank));
    EXPECT_EQ(got.image[rank * 1040 + 1024], rank == 0 ? 1 : 0) << rank;
  }
  std::string one = body;
  one.replace(one.find(".cta_group::2"), 13, ".cta_group::1");
  EXPECT_NE(run_cluster(2, m, tensor, one).error.find("with .cta_group::1 (the default) mbar lies in dstMem's CTA"),
            std::string::npos);
  // In a cluster of 4, CTA 0's barrier is no barrier of the pair of CTAs 2 and 3.
  const std::string error = run_cluster(4, m, tensor, body).error;
  EXPECT_NE(error.find("mbar lies in CTA 0, dstMem in CTA "), std::string::npos) << error;
  EXPECT_NE(error.find("; with .cta_group::2 mbar lies in dstMem's CTA or its peer (PTX §9.7.9.25.5.2)"),
            std::string::npos)
      << error;
}

// .multicast::cluster with .cta_group::2: the box lands in every CTA of ctaMask, and the signal
// of destination r goes to the CTA of r's pair with the parity of mbar's CTA (mbar's offset).
TEST(TmaSm100, CtaGroup2MulticastSignalsThePairsCtaOfMbarsParity) {
  const std::vector<uint8_t> tensor = random_bytes(32 * 16 * 4, 91);
  const TensorMap m = u32_map(32, 16, 32, 4, Swizzle::B128);
  for (unsigned parity = 0; parity < 2; ++parity) {
    const std::string p = std::to_string(parity);
    const std::string body =
        "and.b32 %r11, %r1, 1;\nsetp.eq.u32 %p1, %r11, " + p +
        ";\n@%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 1024;\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\nsetp.eq.u32 %p5, %r1, 0;\nmov.u32 %r8, bar;\n"
        "mapa.shared::cluster.u32 %r9, %r8, " +
        p +
        ";\nmov.u16 %h1, 15;\n"
        "@%p5 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 "
        "[buf], [%rd2, {0, 8}], [%r9], %h1;\n"
        "@!%p1 bra DONE;\nWAIT:\nmbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n@!%p3 bra WAIT;\nDONE:\n";
    const Loaded got = run_cluster(4, m, tensor, body);
    ASSERT_EQ(got.error, "") << parity;
    for (unsigned rank = 0; rank < 4; ++rank) {
      expect_bytes({got.image.begin() + rank * 1040, got.image.begin() + rank * 1040 + 1024}, box_image(tensor, 8, 4),
                   "parity " + p + ", rank " + std::to_string(rank));
      EXPECT_EQ(got.image[rank * 1040 + 1024], rank % 2 == parity ? 1 : 0) << parity << ", " << rank;
    }
  }
  // In a cluster of 3, CTA 2's pair has no odd CTA to signal.
  const std::string body =
      "barrier.cluster.arrive;\nbarrier.cluster.wait;\nsetp.eq.u32 %p5, %r1, 0;\nmov.u32 %r8, bar;\n"
      "mapa.shared::cluster.u32 %r9, %r8, 1;\nmov.u16 %h1, 7;\n"
      "@%p5 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 "
      "[buf], [%rd2, {0, 8}], [%r9], %h1;\n";
  EXPECT_NE(run_cluster(3, m, tensor, body).error.find("CTA 2 of ctaMask has no peer CTA 3 to signal"),
            std::string::npos);
}

// Each copy rule of the sm_100 forms, broken once: the report names it.
TEST(TmaSm100, CopiesCheckTheirModeAndOperands) {
  const std::vector<uint8_t> tensor(64 * 64 * 4, 1);
  const TensorMap tiled = u32_map(64, 16, 32, 1, Swizzle::B128);
  const std::string gather =
      "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [buf], ";
  TensorMap tall = tiled;
  tall.box[1] = 2;
  TensorMap w = wide_map(WideMode::W, 16, 10, 3, 3, -1, 0);
  w.pixels = 8;
  const std::string wcopy = "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes [buf], ";
  TensorMap w128 = w;
  w128.wide = WideMode::W128;
  const std::string w128copy =
      "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes [buf], ";
  TensorMap u4 = tiled, u6 = tiled;
  u4.type = DataType::U4x16Align16, u4.dims = {256, 4, 0, 0, 0}, u4.strides = {128, 0, 0, 0},
  u4.box = {128, 1, 0, 0, 0};
  u6.type = DataType::U6x16Align16, u6.dims = {256, 4, 0, 0, 0}, u6.strides = {192, 0, 0, 0},
  u6.box = {128, 1, 0, 0, 0};
  u6.swizzle = Swizzle::B128Atom64;
  struct Case {
    const TensorMap& map;
    std::string copy;
    bool store;
    const char* report;
  } cases[] = {
      {tall, gather + "[%rd2, {0, 1, 2, 3, 4}], [bar];", false, "one row tall, but the map's box has 2 rows"},
      {w, gather + "[%rd2, {0, 1, 2, 3, 4}], [bar];", false, "is .2d but its tensor map has rank 4"},
      {tiled, "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd2, {0, 1, 2, 3, 4}];", false, ""},
      {tall, "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd2, {0, 1, 2, 3, 4}];", false,
       "one row tall"},
      {tiled, gather + "[%rd2, {3, 1, 2, 3, 4}], [bar];", false, "not 16-byte aligned (PTX §5.5.3.1)"},
      {tiled, "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%rd2, {0, 1, -2, 3, 4}], [buf];",
       true, "starts at coordinate -2 (tensorCoords[2]), before the tensor"},
      {w, w128copy + "[%rd2, {0, 0, 1, 0}], [bar], {0, 0};", false, "a wide im2col (W) tensor map does not serve"},
      {w,
       "cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes [buf], [%rd2, {0, 0, 1, 0}], [bar], {0, 0};",
       false, "a wide im2col (W) tensor map does not serve"},
      {w, wcopy + "[%rd2, {0, 0, 1, 0}], [bar], {512, 0};", false,
       "wHalo 512 and wOffset 0 must lie in [0, 512) and [0, 32)"},
      {w, wcopy + "[%rd2, {0, 0, 1, 0}], [bar], {0, 32};", false, "must lie in [0, 512) and [0, 32)"},
      {w128, w128copy + "[%rd2, {0, 0, 1, 0}], [bar], {32, 0};", false,
       "wHalo 32 and wOffset 0 must lie in [0, 32) and [0, 32)"},
      {w, wcopy + "[%rd2, {0, 10, 1, 0}], [bar], {0, 0};", false,
       "the first pixel's W, 10 with wOffset, lies right of the bounding box"},
      {w, "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w [%rd2, {0, 10, 1, 0}], {0, 1};", false,
       "the first pixel's W, 11 with wOffset"},
      {u4, "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {0, 0}], [buf];", true,
       "16u4_align16b (.b4x16_p64) tensors are not stored"},
      {u6, "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {0, 0}], [bar];",
       false, "swizzles 128B_atom_64B in stores only"},
      {u4,
       "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {64, 0}], [bar];",
       false, "must be a multiple of 128, not 64"},
  };
  for (const Case& c : cases) {
    std::string error;
    if (c.store) {
      error = run_store(c.map, tensor, std::vector<uint8_t>(1024, 0), c.copy).error;
    } else {
      Harness h;
      h.load(load_kernel(c.copy, 0, 1024));
      TensorMap m = c.map;
      m.address = h.buffer(tensor);
      const auto r = h.launch("k", {1}, {1}, {arg(units::tma::encode(m)), arg(h.buffer(std::vector<uint8_t>(1024)))});
      error = r.error;
      if (!*c.report) {
        EXPECT_TRUE(r.ok) << r.error;
      }
    }
    if (*c.report) {
      EXPECT_NE(error.find(c.report), std::string::npos) << c.copy << "\n" << error;
    }
  }
}

// cuTensorMapEncodeIm2colWide's rules, the packed types' and the atom swizzles', each broken once.
TEST(TmaSm100, EveryNewMapRuleIsChecked) {
  auto broken = [](TensorMap m, auto change) {
    change(m);
    return units::tma::validate(m);
  };
  const TensorMap w = [] {
    TensorMap m = wide_map(WideMode::W, 16, 10, 3, 3, -1, 0);
    m.pixels = 8;
    return m;
  }();
  EXPECT_EQ(units::tma::validate(w), "");
  auto has = [](const std::string& s, const char* part) { return s.find(part) != std::string::npos; };
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.rank = 2; }), "needs rank 3 to 5"));
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.im2col = false; }), "a wide im2col map is an im2col map"));
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.channels = 300; }), "channels per pixel must be 1 to 256"));
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.pixels = 0; }), "pixels per column must be 1 to 1024"));
  EXPECT_EQ(broken(w, [](TensorMap& m) { m.wide = WideMode::W128, m.pixels = 0; }), "");  // ignored in W128
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.lower[0] = -40000; }), "W corners must lie in [-32768, 32767]"));
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.lower[0] = 5, m.upper[0] = -5; }), "must not be empty"));
  EXPECT_EQ(broken(w, [](TensorMap& m) { m.lower[0] = 5, m.upper[0] = -4; }), "");  // one W: a non-zero area
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.interleave = units::tma::Interleave::B16; }),
                  "takes no interleave (PTX §5.5.6)"));
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.swizzle = Swizzle::None; }),
                  "takes the 64B, 128B or 128B_atom_32B swizzle only"));
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.swizzle = Swizzle::B128Atom64; }), "128B_atom_32B swizzle only"));
  EXPECT_EQ(broken(w, [](TensorMap& m) { m.swizzle = Swizzle::B64; }), "");  // 16 u32 channels: 64 bytes fit
  EXPECT_EQ(broken(w, [](TensorMap& m) { m.channels = 32; }), "");
  EXPECT_TRUE(has(broken(w, [](TensorMap& m) { m.channels = 32, m.swizzle = Swizzle::B64; }),
                  "(128 bytes) must fit the 64-byte swizzle span"));

  TensorMap t = u32_map(64, 16, 32, 8, Swizzle::B128Atom32);
  EXPECT_EQ(units::tma::validate(t), "");
  for (Swizzle s : {Swizzle::B128Atom32, Swizzle::B128Atom32Flip8, Swizzle::B128Atom64})
    EXPECT_TRUE(has(broken(t, [s](TensorMap& m) { m.swizzle = s, m.box[0] = 64; }),
                    "(256 bytes) must fit the 128-byte swizzle span"));
  EXPECT_TRUE(has(broken(t, [](TensorMap& m) { m.pending_atomicity = 1, m.swizzle = Swizzle::B64, m.box[0] = 16; }),
                  "pairs with the 128B swizzle mode only (PTX §5.5.7 Table 14)"));

  TensorMap p;  // 16u4_align16b, 2 x 256 values
  p.type = DataType::U4x16Align16, p.rank = 2, p.address = 0x10000;
  p.dims = {256, 2, 0, 0, 0}, p.strides = {128, 0, 0, 0}, p.box = {128, 2, 0, 0, 0};
  EXPECT_EQ(units::tma::validate(p), "");
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.address += 16; }), "the global address must be 32-byte aligned"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.dims[0] = 200; }),
                  "a 16u4_align16b tensor's size must be a multiple of 128 values"));
  EXPECT_TRUE(
      has(broken(p, [](TensorMap& m) { m.strides[0] = 144; }), "the global stride must be a multiple of 32 bytes"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.box[0] = 64; }), "a 16u4_align16b box must be 128 values wide"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.swizzle = Swizzle::B128Atom64; }),
                  "16u4_align16b takes the none, 128B or 128B_atom_32B swizzle only"));
  EXPECT_TRUE(
      has(broken(p, [](TensorMap& m) { m.type = DataType::U6x16Align16, m.swizzle = Swizzle::B128Atom32Flip8; }),
          "16u6_align16b takes the none, 128B, 128B_atom_32B or 128B_atom_64B swizzle only"));
  EXPECT_EQ(broken(p,
                   [](TensorMap& m) {
                     m.type = DataType::U6x16Align16, m.strides[0] = 192, m.swizzle = Swizzle::B128Atom64;
                   }),
            "");
  EXPECT_TRUE(has(broken(p,
                         [](TensorMap& m) {
                           m.type = DataType::U6x16Align16, m.strides[0] = 192, m.rank = 3, m.dims[2] = 1, m.box[2] = 1,
                           m.strides[1] = 384, m.interleave = units::tma::Interleave::B16;
                         }),
                  "16u6_align16b takes no interleave"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.oob = units::tma::OobFill::NanRequestZeroFma; }),
                  "NaN out-of-bounds fill needs a floating-point type"));
  EXPECT_TRUE(has(broken(p,
                         [](TensorMap& m) {
                           m.im2col = true, m.rank = 3, m.dims[2] = 2, m.strides[1] = 256, m.channels = 64,
                           m.pixels = 4;
                         }),
                  "channels per pixel must be 128 for 16u4_align16b"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.type = DataType::U4x16Align8, m.dims[0] = 255; }),
                  "a 16u4_align8b tensor's size must be a multiple of 2 values"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.type = DataType::U4x16Align8, m.box[0] = 16; }),
                  "the box's inner dimension must span a multiple of 16 bytes, not 8"));
  EXPECT_TRUE(has(broken(p, [](TensorMap& m) { m.type = DataType::U4x16Align8, m.box[0] = 31; }), "not 15.5"));
  EXPECT_EQ(
      broken(p,
             [](TensorMap& m) { m.type = DataType::U4x16Align8, m.address += 16, m.strides[0] = 144, m.box[0] = 32; }),
      "");
}

// Wide maps, the pending atomicity and the packed types survive the encoding.
TEST(TmaSm100, TheEncodingKeepsTheNewFields) {
  TensorMap m = wide_map(WideMode::W128, 16, 10, 3, 3, -300, 200);
  m.pending_atomicity = 2;
  m.type = DataType::U6x16Align16;
  const auto back = units::tma::decode(units::tma::encode(m).data());
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->im2col);
  EXPECT_EQ(back->wide, WideMode::W128);
  EXPECT_EQ(back->lower[0], -300);
  EXPECT_EQ(back->upper[0], 200);
  EXPECT_EQ(back->pending_atomicity, 2);
  EXPECT_EQ(back->type, DataType::U6x16Align16);
  m.wide.reset();
  EXPECT_FALSE(units::tma::decode(units::tma::encode(m).data())->wide);
}

// tensormap.replace .swizzle_atomicity and .swizzle_mode (§9.7.9.26 Table 32) make one swizzle
// whichever comes first (§5.5.7 Table 14): Table 32's 128B mode with atomicity 1, 2, 3 is cuda.h's
// 128B_atom_32B, _32B_flip_8B, _64B; an atomicity on another mode waits for the 128B mode.
TEST(TmaSm100, ReplaceCombinesSwizzleModeAndAtomicity) {
  struct Case {
    std::vector<std::pair<const char*, int>> steps;
    Swizzle swizzle;
    uint8_t pending;
  } cases[] = {
      {{{"swizzle_atomicity", 1}, {"swizzle_mode", 3}}, Swizzle::B128Atom32, 0},
      {{{"swizzle_mode", 3}, {"swizzle_atomicity", 2}}, Swizzle::B128Atom32Flip8, 0},
      {{{"swizzle_mode", 3}, {"swizzle_atomicity", 3}, {"swizzle_mode", 2}}, Swizzle::B64, 3},
      {{{"swizzle_mode", 3}, {"swizzle_atomicity", 3}, {"swizzle_mode", 2}, {"swizzle_mode", 3}},
       Swizzle::B128Atom64,
       0},
      {{{"swizzle_atomicity", 3}, {"swizzle_atomicity", 0}, {"swizzle_mode", 1}}, Swizzle::B32, 0},
      {{{"elemtype", 15}, {"swizzle_mode", 3}, {"swizzle_atomicity", 0}}, Swizzle::B128, 0},
  };
  for (const Case& c : cases) {
    std::string body;
    for (auto [field, v] : c.steps)
      body +=
          std::string("tensormap.replace.tile.") + field + ".global.b1024.b32 [%rd_out], " + std::to_string(v) + ";\n";
    Harness h;
    h.load(kernel_ptx(body, "sm_100a"));
    const auto blank = units::tma::encode(u32_map(64, 16, 8, 8, Swizzle::None));
    const uint64_t out = h.buffer(std::vector<uint8_t>(blank.begin(), blank.end()));
    ASSERT_TRUE(h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})}).ok) << body;
    const auto got = units::tma::decode(h.read<uint8_t>(out, 128).data());
    ASSERT_TRUE(got);
    EXPECT_EQ(got->swizzle, c.swizzle) << body;
    EXPECT_EQ(got->pending_atomicity, c.pending) << body;
  }
  // PTX 8.8's 96B swizzle mode (new_val 4, sm_103a) is not implemented.
  Harness h;
  std::string ptx = kernel_ptx("tensormap.replace.tile.elemtype.global.b1024.b32 [%rd_out], 14;\n"
                               "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd_out], 4;\n",
                               "sm_103a");
  ptx.replace(ptx.find("8.7"), 3, "8.8");
  h.load(ptx);
  const auto blank = units::tma::encode(u32_map(64, 16, 8, 8, Swizzle::None));
  const uint64_t out = h.buffer(std::vector<uint8_t>(blank.begin(), blank.end()));
  const auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})});
  EXPECT_NE(r.error.find("unsupported: the 96B swizzle mode (sm_103a) is not implemented yet"), std::string::npos)
      << r.error;
  EXPECT_EQ(units::tma::decode(h.read<uint8_t>(out, 128).data())->type, DataType::U4x16Align16);  // Table 32's 14
}

}  // namespace
}  // namespace ptxvm::test
