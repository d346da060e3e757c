#include "npy.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ptxvm::tool {

namespace {
[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw std::runtime_error(path + ": not a usable .npy file: " + why);
}
}  // namespace

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) bad(path, "missing the \\x93NUMPY magic");
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, header_at;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8;
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) bad(path, "truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    header_at = 12;
  } else {
    bad(path, "unknown format version " + std::to_string(major));
  }
  if (header_at + header_len > bytes.size()) bad(path, "truncated header");
  std::string header = bytes.substr(header_at, header_len);
  std::smatch m;
  NpyArray a;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']+)')"))) bad(path, "no descr");
  a.descr = m[1];
  if (std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*True)")))
    bad(path, "Fortran-ordered arrays are not supported; save a C-ordered copy");
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) bad(path, "no shape");
  std::string dims = m[1];
  uint64_t count = 1;
  std::regex num(R"(\d+)");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), num); it != std::sregex_iterator(); ++it) {
    a.shape.push_back(std::stoull(it->str()));
    count *= a.shape.back();
  }
  std::smatch sz;
  std::string d = a.descr;
  if (!std::regex_match(d, sz, std::regex(R"([<|>=]?[a-zA-Z](\d+))"))) bad(path, "unsupported dtype " + d);
  if (d[0] == '>') bad(path, "big-endian arrays are not supported");
  uint64_t item = std::stoull(sz[1]);
  size_t data_at = header_at + header_len;
  if (bytes.size() - data_at != count * item)
    bad(path, "expected " + std::to_string(count * item) + " data bytes, found " +
                  std::to_string(bytes.size() - data_at));
  a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_at), bytes.end());
  return a;
}

void write_npy(const std::string& path, const NpyArray& a) {
  std::ostringstream h;
  h << "{'descr': '" << a.descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < a.shape.size(); ++i) h << a.shape[i] << (a.shape.size() == 1 || i + 1 < a.shape.size() ? "," : "");
  h << "), }";
  std::string header = h.str();
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  char le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(le, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(a.data.data()), static_cast<std::streamsize>(a.data.size()));
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace ptxvm::tool
