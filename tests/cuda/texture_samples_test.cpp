// CUDA-samples-style texture and surface kernels (tests/hw/texture/samples: bilinear resize,
// volume ray marching, a layered texture, a surface round trip) through ptxvm's libcuda.so.1 —
// arrays, cuMemcpy3D, texture and surface objects — against the words an H200 produced.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "../hw/texture/samples/samples.h"
#include "../sem/hw_records.h"
#include "primary_context.h"

namespace {

namespace samples = ptxvm_hw_texture_samples;

std::string dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/texture/samples").string(); }

TEST(TextureSamples, MatchTheH200) {
  CUcontext ctx;
  ASSERT_NO_FATAL_FAILURE(ptxvm::test::use_primary_context(&ctx));
  std::vector<samples::Output> outs;
  try {
    outs = samples::run_samples(dir() + "/samples.ptx");
  } catch (const samples::Failure& f) {
    FAIL() << f.what;
  }
  std::map<std::string, std::vector<uint64_t>> recorded;
  for (const ptxvm::test::Recorded& r : ptxvm::test::read_records(dir() + "/samples.bin.xz")) recorded[r.insn] = r.out;
  ASSERT_EQ(outs.size(), recorded.size());
  for (const samples::Output& o : outs) {
    const std::vector<uint64_t>& want = recorded.at(o.name);
    ASSERT_EQ(o.words.size(), want.size()) << o.name;
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += o.words[i] != want[i];
    EXPECT_EQ(bad, 0u) << o.name << ": " << bad << " of " << want.size() << " words differ";
  }
}

}  // namespace
