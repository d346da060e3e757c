// Hardware-recorded instruction results (tests/hw/cvt, float, mma, wgmma, tma): per instruction
// text, the element size and the outputs for the inputs regenerated from seeds. The files are xz
// streams, decompressed with Python's lzma (the suite's only decompressor dependency).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace ptxvm::test {

struct Recorded {
  std::string insn;
  unsigned bytes = 0;
  std::vector<uint64_t> out;
};

// The PTX of one kernel of a recording's module (the header and that .entry), as a module of its
// own, so that each kernel loads, or fails to, by itself.
inline std::string kernel_module(const std::string& all, const std::string& kernel) {
  const size_t header_end = all.find(".visible .entry");
  const size_t start = all.find(".visible .entry " + kernel + "(");
  const size_t end = all.find("\n}\n", start);
  return all.substr(0, header_end) + all.substr(start, end + 3 - start);
}

// How ptxvm's output words differ from the GPU's: the count, and the first four as lines
// "word i (<group> k): GPU x, ptxvm y", where word i lies in the k-th run of `group_words` words
// (the clause left out when group_words is 0).
struct WordDiff {
  size_t bad = 0;
  std::string first;
};

inline WordDiff diff_words(const std::vector<uint32_t>& got, const std::vector<uint64_t>& gpu,
                           const char* group = "", size_t group_words = 0) {
  WordDiff d;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == uint32_t(gpu[i]) || d.bad++ >= 4) continue;
    char where[48] = "";
    if (group_words) std::snprintf(where, sizeof where, " (%s %zu)", group, i / group_words);
    char line[128];
    std::snprintf(line, sizeof line, "\n  word %zu%s: GPU %08x, ptxvm %08x", i, where, uint32_t(gpu[i]), got[i]);
    d.first += line;
  }
  return d;
}

// The bytes of the xz file at `path`.
inline std::string read_xz(const std::string& path) {
  const std::string cmd =
      "python3 -c \"import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())\" '" + path + "'";
  std::string data;
  for (int attempt = 0; attempt < 3 && data.empty(); ++attempt)  // a loaded host may fail a fork
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[1 << 16];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, p)) > 0) data.append(buf, n);
      if (pclose(p) != 0) data.clear();
    }
  return data;
}

inline std::vector<Recorded> read_records(const std::string& path) {
  const std::string data = read_xz(path);
  std::vector<Recorded> r;
  size_t pos = 0;
  auto take = [&](void* dst, size_t n) {
    if (pos + n > data.size()) return false;
    std::memcpy(dst, data.data() + pos, n);
    pos += n;
    return true;
  };
  uint16_t len;
  while (take(&len, 2)) {
    Recorded v;
    v.insn.resize(len);
    uint8_t eb;
    uint32_t n;
    if (!take(v.insn.data(), len) || !take(&eb, 1) || !take(&n, 4)) break;
    v.bytes = eb;
    v.out.resize(n);
    for (uint32_t i = 0; i < n; ++i) take(&v.out[i], eb);
    r.push_back(std::move(v));
  }
  return r;
}

// A texture filter probe's records (tests/hw/texture/filter/README.md): uint32 count; per record
// uint32 part, f32 max anisotropy, 4 f32 head, uint32 n, n f32 results.
struct ProbeRecord {
  uint32_t part = 0;
  float anisotropy = 0;
  float head[4] = {};
  std::vector<float> v;
};

// The results of a tests/hw/texture_lod probe, tests/hw/texture_lod/`file` (an xz stream: uint32
// count, then one f32 per lookup in its inputs header's order); empty if the file is not whole.
inline std::vector<float> read_lookup_results(const std::string& file) {
  const std::string data =
      read_xz((std::filesystem::path(__FILE__).parent_path() / "../hw/texture_lod" / file).string());
  uint32_t count = 0;
  if (data.size() < 4) return {};
  std::memcpy(&count, data.data(), 4);
  if (data.size() != 4 + 4 * size_t(count)) return {};
  std::vector<float> v(count);
  std::memcpy(v.data(), data.data() + 4, 4 * size_t(count));
  return v;
}

// The records of tests/hw/texture/filter/`file` (an xz stream).
inline std::vector<ProbeRecord> read_probe_records(const std::string& file) {
  const std::string data =
      read_xz((std::filesystem::path(__FILE__).parent_path() / "../hw/texture/filter" / file).string());
  std::vector<ProbeRecord> out;
  size_t at = 0;
  auto take = [&](void* p, size_t n) {
    if (n == 0) return true;
    if (at + n > data.size()) return false;
    std::memcpy(p, data.data() + at, n);
    at += n;
    return true;
  };
  uint32_t count = 0;
  if (!take(&count, 4)) return out;
  for (uint32_t i = 0; i < count; ++i) {
    ProbeRecord r;
    uint32_t n = 0;
    if (!take(&r.part, 4) || !take(&r.anisotropy, 4) || !take(r.head, 16) || !take(&n, 4)) break;
    r.v.resize(n);
    if (!take(r.v.data(), 4 * size_t(n))) break;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace ptxvm::test
