// Replays tests/hw/shared_window (recorded on an H200): what a kernel sees of its shared window —
// the reserved shared-memory registers (§10.29), %total_smem_size, %dynamic_smem_size,
// %aggr_smem_size, %cluster_ctarank and the shared addresses of a variable and of the dynamic
// array — per CTA, without a cluster and in clusters of 2 and 4, with and without dynamic shared
// memory: every word as the GPU's (but word 11 of each CTA's, a read of var[0] racing with its
// writes, which the recorder left in by mistake). The GPU's loads from the reserved KiB read zeros; ptxvm
// reports them (undefined, §10.29).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

std::string hw_file(const char* name, const char* dir = "shared_window") {
  return (std::filesystem::path(__FILE__).parent_path() / "../hw" / dir / name).string();
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The unsigned number after `"key": ` in a records.json line.
unsigned field(const std::string& line, const std::string& key) {
  return static_cast<unsigned>(std::stoul(line.substr(line.find("\"" + key + "\": ") + key.size() + 4)));
}

TEST(SharedWindowHardware, TheKernelSeesTheH100sWindow) {  // §5.1.7, §10.29-10.31
  const std::string ptx = read_text(hw_file("shared_window.ptx"));
  std::istringstream records(read_text(hw_file("records.json")));
  size_t launches = 0;
  for (std::string line; std::getline(records, line);) {
    if (line.find("\"launch\": \"reserved_load\"") != std::string::npos) {
      if (field(line, "address") >= 0x400) continue;  // past the kernel's shared memory: the GPU faults too
      Harness h;
      h.load(ptx);
      const uint64_t out = h.buffer(std::vector<uint32_t>(32, 0));
      const LaunchResult r = h.launch("reserved_load", {1}, {32}, {arg(out), arg(field(line, "address"))});
      EXPECT_FALSE(r.ok) << "a load from the reserved KiB is undefined (§10.29); the H200 read "
                         << field(line, "word");
      EXPECT_NE(r.error.find("reserves"), std::string::npos) << r.error;
      continue;
    }
    std::vector<uint32_t> gpu;
    std::istringstream words(line.substr(line.find("\"words\": [") + 10));
    for (std::string w; std::getline(words, w, ',');) gpu.push_back(static_cast<uint32_t>(std::stoul(w)));
    ASSERT_EQ(field(line, "result"), 0u) << line;
    Harness h;
    h.load(ptx);
    const uint32_t grid = field(line, "grid"), cluster = field(line, "cluster");
    const uint64_t out = h.buffer(std::vector<uint32_t>(grid * 12, 0xdeadbeefu));
    LaunchConfig c;
    c.grid = {grid};
    c.block = {32};
    if (cluster) {
      c.cluster = {cluster};
      c.explicit_cluster = true;
    }
    c.shared_bytes = field(line, "dynamic");
    const LaunchResult r = h.module->launch("window", c, {arg(out)});
    ASSERT_TRUE(r.ok) << r.error;
    std::vector<uint32_t> got = h.read<uint32_t>(out, grid * 12);
    for (uint32_t cta = 0; cta < grid; ++cta) got[cta * 12 + 11] = gpu[cta * 12 + 11];  // a racy read: not compared
    EXPECT_EQ(got, gpu) << line;
    ++launches;
  }
  EXPECT_EQ(launches, 4u);
}

// tests/hw/shared_layout: a module of four kernels and a device function with a variable of its
// own; each kernel lays out only what it reaches, as ptxas does (§5.1.7).
TEST(SharedWindowHardware, EachKernelLaysOutItsOwnVariables) {
  const std::string ptx = read_text(hw_file("shared_layout.ptx", "shared_layout"));
  std::istringstream records(read_text(hw_file("records.json", "shared_layout")));
  size_t launches = 0;
  for (std::string line; std::getline(records, line);) {
    const size_t k = line.find("\"kernel\": \"") + 11;
    const std::string kernel = line.substr(k, line.find('"', k) - k);
    std::vector<uint32_t> gpu;
    std::istringstream words(line.substr(line.find("\"words\": [") + 10));
    for (std::string w; std::getline(words, w, ',');) gpu.push_back(static_cast<uint32_t>(std::stoul(w)));
    Harness h;
    h.load(ptx);
    const uint64_t out = h.buffer(std::vector<uint32_t>(7, 0xdeadbeefu));
    LaunchConfig c;
    c.grid = {1};
    c.block = {32};
    c.shared_bytes = field(line, "dynamic");
    const LaunchResult r = h.module->launch(kernel, c, {arg(out)});
    ++launches;
    if (field(line, "result") != 0) {  // k4 stores past its dynamic bytes: the GPU faults
      EXPECT_FALSE(r.ok) << line;
      continue;
    }
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(h.read<uint32_t>(out, 7), gpu) << line;
  }
  EXPECT_EQ(launches, 14u);
}

}  // namespace
}  // namespace ptxvm::test
