#include "npy.h"

#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

namespace ptxvm::tool {

namespace {

[[noreturn]] void bad(const std::string& name, const std::string& why) {
  throw NpyError(name + ": not a usable .npy file: " + why);
}

// Real headers are a few hundred bytes (NumPy itself reads at most 10000 by default).
constexpr size_t kMaxHeader = 65536;

// The text after `'key':` in the header dict, or npos.
size_t value_at(const std::string& header, const std::string& key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return at;
  at = header.find_first_not_of(" ", at + key.size() + 2);
  if (at == std::string::npos || header[at] != ':') return std::string::npos;
  return header.find_first_not_of(" ", at + 1);
}

// A decimal count that fits in 64 bits, or nullopt.
std::optional<uint64_t> decimal(std::string_view s) {
  uint64_t v;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string t = "(";
  for (size_t i = 0; i < shape.size(); ++i) t += (i ? ", " : "") + std::to_string(shape[i]);
  return t + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

NpyArray parse_npy(const std::string& bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) bad(name, "missing the \\x93NUMPY magic");
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t header_len = 0, header_at;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8;
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) bad(name, "truncated header");
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    header_at = 12;
  } else {
    bad(name, "unknown format version " + std::to_string(major));
  }
  if (header_len > kMaxHeader) bad(name, "a header of " + std::to_string(header_len) + " bytes (at most 65536)");
  if (header_at + header_len > bytes.size()) bad(name, "truncated header");
  const std::string header = bytes.substr(header_at, header_len);
  NpyArray a;
  size_t at = value_at(header, "descr");
  size_t close = at == std::string::npos || header[at] != '\'' ? at : header.find('\'', at + 1);
  if (close == std::string::npos || close == at) bad(name, "no 'descr' in the header");
  a.descr = header.substr(at + 1, close - at - 1);
  at = value_at(header, "fortran_order");
  if (at != std::string::npos && header.compare(at, 4, "True") == 0)
    bad(name, "Fortran-ordered arrays are not supported; save a C-ordered copy");
  at = value_at(header, "shape");
  close = at == std::string::npos || header[at] != '(' ? std::string::npos : header.find(')', at);
  if (close == std::string::npos) bad(name, "no 'shape' in the header");
  std::string_view dims(header.data() + at + 1, close - at - 1);
  while (!dims.empty()) {
    size_t comma = std::min(dims.find(','), dims.size());
    std::string_view d = dims.substr(0, comma);
    d.remove_prefix(std::min(d.find_first_not_of(' '), d.size()));
    d = d.substr(0, d.find_last_not_of(' ') + 1);
    dims.remove_prefix(std::min(comma + 1, dims.size()));
    if (d.empty() && dims.find_first_not_of(' ') == std::string_view::npos) break;  // `(4,)`
    auto n = decimal(d);
    if (!n) bad(name, "shape entry '" + std::string(d) + "' is not a count");
    a.shape.push_back(*n);
  }
  // The dtype: an optional byte order, a kind letter, the item size in bytes.
  std::string_view d = a.descr;
  if (!d.empty() && d[0] == '>') bad(name, "big-endian arrays are not supported");
  if (!d.empty() && (d[0] == '<' || d[0] == '|' || d[0] == '=')) d.remove_prefix(1);
  auto item = d.size() >= 2 && std::isalpha(static_cast<unsigned char>(d[0])) ? decimal(d.substr(1)) : std::nullopt;
  if (!item || *item == 0) bad(name, "unsupported dtype '" + a.descr + "'");
  // The size the shape claims, checked before anything is allocated for it.
  const uint64_t data_bytes = bytes.size() - header_at - header_len;
  uint64_t claimed = *item;
  bool overflow = false;
  for (uint64_t n : a.shape) overflow |= __builtin_mul_overflow(claimed, n, &claimed);
  if (overflow || claimed != data_bytes)
    bad(name, "the header's shape " + shape_text(a.shape) + " of '" + a.descr + "' needs " +
                  (overflow ? std::string("more than 2^64") : std::to_string(claimed)) +
                  " data bytes; the file holds " + std::to_string(data_bytes));
  a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header_at + header_len), bytes.end());
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
