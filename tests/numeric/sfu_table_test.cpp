// ex2.approx's recorded tables (src/numeric/sfu/ex2_*.diff.xz, the H200's results over every
// 23-bit fraction of each sign) against what sfu_ex2 looks up in their decompressed form
// (src/numeric/sfu.cpp's DiffTable): every entry, read here by summing the stored differences.
#include <gtest/gtest.h>
#include <lzma.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "numeric/sfu.h"

namespace {

std::vector<int8_t> differences(const std::string& name) {
  std::ifstream in(std::string(PTXVM_SFU_DIR) + "/" + name, std::ios::binary);
  const std::vector<uint8_t> xz{std::istreambuf_iterator<char>(in), {}};
  std::vector<int8_t> out(size_t{1} << 23);
  uint64_t memlimit = UINT64_MAX;
  size_t in_pos = 0, out_pos = 0;
  EXPECT_EQ(lzma_stream_buffer_decode(&memlimit, 0, nullptr, xz.data(), &in_pos, xz.size(),
                                      reinterpret_cast<uint8_t*>(out.data()), &out_pos, out.size()),
            LZMA_OK)
      << name;
  return out;
}

TEST(SfuTables, Ex2LooksUpEveryRecordedEntry) {
  for (const bool negative : {false, true}) {
    const std::vector<int8_t> diff = differences(negative ? "ex2_neg.diff.xz" : "ex2_pos.diff.xz");
    uint32_t want = 0x3f800000u;  // ex2(0)
    size_t bad = 0;
    for (uint32_t f = 0; f < (1u << 23); ++f) {
      want += static_cast<uint32_t>(static_cast<int32_t>(diff[f]));
      const float x = (negative ? -1.0f : 1.0f) * static_cast<float>(f) * 0x1p-23f;  // exact
      uint32_t bits;
      std::memcpy(&bits, &x, 4);
      if (ptxvm::numeric::sfu_ex2(bits) != want && bad++ < 4)
        ADD_FAILURE() << (negative ? "-" : "+") << f << " / 2^23: " << std::hex << ptxvm::numeric::sfu_ex2(bits)
                      << ", recorded " << want;
    }
    EXPECT_EQ(bad, 0u);
  }
}

}  // namespace
