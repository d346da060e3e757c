// Hardware-recorded instruction results (tests/hw/cvt, tests/hw/float): per instruction text, the
// element size and the outputs for the inputs regenerated from seeds. The files are xz
// streams, decompressed with Python's lzma (the suite's only decompressor dependency).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
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

inline std::vector<Recorded> read_records(const std::string& path) {
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

}  // namespace ptxvm::test
