// Tensor maps (src/units/tma/tensor_map.h, PTX §5.5.8) and the rules a tensor copy checks
// (§9.7.9.25.5.2); tests/units/tma_hw_test.cpp compares the copies themselves with an H100.
#include <gtest/gtest.h>

#include "harness.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

using units::tma::TensorMap;

TensorMap good() {
  TensorMap m;
  m.type = units::tma::DataType::F32;
  m.rank = 2;
  m.address = 0x10000;
  m.dims = {100, 37, 0, 0, 0};
  m.strides = {400, 0, 0, 0};
  m.box = {32, 8, 0, 0, 0};
  m.swizzle = units::tma::Swizzle::B128;
  return m;
}

TEST(TensorMap, EncodesAndDecodesEveryField) {
  TensorMap m = good();
  m.element_strides = {1, 3, 1, 1, 1};
  m.oob = units::tma::OobFill::NanRequestZeroFma;
  m.l2 = units::tma::L2Promotion::B256;
  const auto bytes = units::tma::encode(m);
  const auto back = units::tma::decode(bytes.data());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->address, m.address);
  EXPECT_EQ(back->dims, m.dims);
  EXPECT_EQ(back->strides, m.strides);
  EXPECT_EQ(back->box, m.box);
  EXPECT_EQ(back->element_strides, m.element_strides);
  EXPECT_EQ(back->swizzle, m.swizzle);
  EXPECT_EQ(back->oob, m.oob);
  EXPECT_EQ(back->l2, m.l2);
  std::array<uint8_t, 128> garbage{};
  garbage[0] = 1;
  EXPECT_FALSE(units::tma::decode(garbage.data()));
}

TEST(TensorMap, ZeroBytesAreTheBlankMap) {  // what Triton fills with tensormap.replace
  const std::array<uint8_t, 128> zeros{};
  const auto blank = units::tma::decode(zeros.data());
  ASSERT_TRUE(blank);
  EXPECT_EQ(blank->rank, 1u);  // a zero-based field (PTX §9.7.9.26), so a 1D map needs no .rank
  EXPECT_EQ(blank->dims[0], 0u);
  EXPECT_EQ(blank->element_strides[0], 0u);
  EXPECT_NE(units::tma::validate(*blank), "");  // no size yet
}

// Each of cuTensorMapEncodeTiled's rules, broken once.
TEST(TensorMap, EveryRuleIsChecked) {
  EXPECT_EQ(units::tma::validate(good()), "");
  auto broken = [](auto change) {
    TensorMap m = good();
    change(m);
    return units::tma::validate(m);
  };
  EXPECT_NE(broken([](TensorMap& m) { m.rank = 6; }).find("rank must be 1 to 5"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.address += 8; }).find("16-byte aligned"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.dims[1] = 0; }).find("size must be 1 to 2^32"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.box[0] = 300; }).find("box size must be 1 to 256"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.element_strides[1] = 9; }).find("element stride must be 1 to 8"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.element_strides[0] = 2; }).find("dimension 0 must be 1"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.strides[0] = 408; }).find("multiple of 16 bytes"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.strides[0] = uint64_t{1} << 40; }).find("below 2^40"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.box[0] = 6; }).find("multiple of 16 bytes, not 24"), std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.swizzle = units::tma::Swizzle::B64; }).find("fit the 64-byte swizzle span"),
            std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) { m.interleave = units::tma::Interleave::B16; }).find("rank 3 or more"),
            std::string::npos);
  auto im2col = [](TensorMap& m) {
    m.im2col = true, m.rank = 4, m.dims = {64, 9, 14, 3, 0}, m.strides = {128, 1152, 16128, 0};
    m.channels = 8, m.pixels = 64, m.swizzle = units::tma::Swizzle::None;
  };
  EXPECT_EQ(broken(im2col), "");
  EXPECT_NE(broken([&](TensorMap& m) { im2col(m), m.rank = 2; }).find("rank 3 to 5"), std::string::npos);
  EXPECT_NE(broken([&](TensorMap& m) { im2col(m), m.channels = 0; }).find("channels per pixel"), std::string::npos);
  EXPECT_NE(broken([&](TensorMap& m) { im2col(m), m.pixels = 2000; }).find("pixels per column"), std::string::npos);
  EXPECT_NE(broken([&](TensorMap& m) { im2col(m), m.lower[1] = -129; }).find("corners must lie in [-128, 127]"),
            std::string::npos);
  EXPECT_NE(broken([](TensorMap& m) {
              m.type = units::tma::DataType::U32;
              m.oob = units::tma::OobFill::NanRequestZeroFma;
            }).find("floating-point type"),
            std::string::npos);
}

// A kernel that loads a box through the map in its parameter.
std::string load_kernel(const std::string& copy) {
  return kernel_ptx(".shared .align 1024 .b8 buf[2048];\n.shared .align 8 .b64 bar;\n"
                    "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 mbarrier.init.shared.b64 [bar], 1;\n"
                    "@%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 1024;\n" + copy,
                    "sm_90");
}

TEST(Tma, CopiesCheckTheirMapAndCoordinates) {  // §9.7.9.25.5.2, §5.5.3.1
  struct Case {
    const char* copy;
    bool junk_map;
    const char* report;
  } cases[] = {
      {"@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd_in, {0, 0}], [bar];\n",
       true, "hold no tensor map"},
      {"@%p1 cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd_in, {0, 0, 0}], [bar];\n",
       false, "is .3d but its tensor map has rank 2"},
      {"@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd_in, {3, 0}], [bar];\n",
       false, "not 16-byte aligned (PTX §5.5.3.1)"},
      {"@%p1 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd_in, {-4, 0}], [buf];\n", false,
       "before the tensor"},
      {"@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf+64], [%rd_in, {0, 0}], [bar];\n",
       false, "128-byte aligned"},
  };
  for (const Case& c : cases) {
    Harness h;
    h.load(load_kernel(c.copy));
    TensorMap m = good();
    m.address = h.buffer(std::vector<uint32_t>(100 * 37, 1));
    const auto bytes = units::tma::encode(m);
    const uint64_t map = h.buffer(c.junk_map ? std::vector<uint8_t>(128, 7) : std::vector<uint8_t>(bytes.begin(), bytes.end()));
    auto r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(map)});
    ASSERT_FALSE(r.ok) << c.copy;
    EXPECT_NE(r.error.find(c.report), std::string::npos) << r.error;
  }
}

// The async check follows a tensor store's destination, the tensor's bytes its box covers, until a
// wait retires its bulk group (§9.7.9.25.5.2): a read of them before is a report, after none.
TEST(Tma, TheAsyncCheckFollowsAStoresGlobalBox) {
  for (const bool wait_first : {false, true}) {
    const std::string read = "@%p1 ld.global.u32 %r5, [%rd_out+132];\n";  // row 1, column 1 of the box
    Harness h;
    h.load(kernel_ptx(".shared .align 1024 .b8 buf[1024];\n"
                      "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, buf;\n"
                      "add.u32 %r3, %r3, %r2;\nst.shared.u32 [%r3], %r1;\nfence.proxy.async.shared::cta;\nbar.sync 0;\n"
                      "@%p1 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd_in, {0, 0}], [buf];\n"
                      "@%p1 cp.async.bulk.commit_group;\n" +
                          std::string(wait_first ? "" : read) + "@%p1 cp.async.bulk.wait_group 0;\n" +
                          (wait_first ? read : ""),
                      "sm_90"));
    const uint64_t tensor = h.buffer(std::vector<uint32_t>(32 * 8, 0));
    TensorMap m;
    m.type = units::tma::DataType::F32;
    m.rank = 2;
    m.address = tensor;
    m.dims = {32, 8, 0, 0, 0};
    m.strides = {128, 0, 0, 0};
    m.box = {32, 8, 0, 0, 0};
    const auto bytes = units::tma::encode(m);
    const uint64_t map = h.buffer(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    LaunchConfig c;
    c.grid = {1};
    c.block = {256};
    c.checks = *Checks::parse("async", nullptr);
    const LaunchResult r = h.module->launch("k", c, {arg(tensor), arg(map)});
    ASSERT_TRUE(r.ok) << r.error;
    if (wait_first) {
      EXPECT_TRUE(r.reports.empty());
      EXPECT_EQ(h.read<uint32_t>(tensor, 256)[33], 33u);
      continue;
    }
    ASSERT_EQ(r.reports.size(), 1u);
    EXPECT_EQ(r.reports[0].check, "async");
    EXPECT_NE(r.reports[0].render("k").find("cp.async.bulk.wait_group"), std::string::npos) << r.reports[0].render("k");
  }
}

// tensormap.replace edits a map in shared or global memory a field at a time (§9.7.9.26);
// tensormap.cp_fenceproxy copies one from shared to global memory (§9.7.13.16).
TEST(Tma, ReplaceEditsAMapAndCpFenceproxyCopiesIt) {
  Harness h;
  h.load(kernel_ptx(".shared .align 128 .b8 map[128];\n"
                    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, map;\nshl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\n"
                    "mul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd_in, %rd1;\nld.global.u32 %r5, [%rd2];\n"
                    "st.shared.u32 [%r4], %r5;\nbar.sync 0;\nsetp.eq.u32 %p1, %r1, 0;\n"
                    "@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [map], 1, 4;\n"
                    "@%p1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [map], %rd_out;\n"
                    "@%p1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [map], 2;\n"
                    "@%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [map], 2, 6;\n"
                    "@%p1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [map], 1, 14848;\n"
                    "@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [map], 2, 2;\n"
                    "@%p1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [map], 10;\n"
                    "@%p1 tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [map], 1;\n"
                    "@%p1 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd_out], [map], 128;\n"
                    "@%p1 tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd_out], 2;\n",
                    "sm_90a"));
  TensorMap m = good();
  const auto bytes = units::tma::encode(m);
  const uint64_t in = h.buffer(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  const uint64_t out = h.buffer(std::vector<uint8_t>(128, 0));
  ASSERT_TRUE(h.launch("k", {1}, {32}, {arg(out), arg(in)}).ok);
  const auto got = units::tma::decode(h.read<uint8_t>(out, 128).data());
  ASSERT_TRUE(got);
  EXPECT_EQ(got->address, out);
  EXPECT_EQ(got->rank, 3u);
  EXPECT_EQ(got->box[1], 4u);
  EXPECT_EQ(got->box[2], 2u);
  EXPECT_EQ(got->dims[2], 6u);
  EXPECT_EQ(got->strides[1], 14848u);
  EXPECT_EQ(got->type, units::tma::DataType::BF16);  // Table 32's 10
  EXPECT_EQ(got->oob, units::tma::OobFill::NanRequestZeroFma);
  EXPECT_EQ(got->swizzle, units::tma::Swizzle::B64);
}

}  // namespace
}  // namespace ptxvm::test
