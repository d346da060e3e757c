// tcgen05.mma shapes from the instruction descriptor; see idesc.h.
#include "isa/idesc.h"

#include <vector>

namespace ptxvm::isa {

namespace {

bool block_scaled(const Bound& b) {
  return b.is("kind", ".kind::mxf8f6f4") || b.is("kind", ".kind::mxf4") ||
         b.is("kind", ".kind::mxf4nvf4");
}

std::vector<unsigned> steps(unsigned from, unsigned to, unsigned step) {
  std::vector<unsigned> v;
  for (unsigned x = from; x <= to; x += step) v.push_back(x);
  return v;
}

std::string list(const std::vector<unsigned>& v) {
  if (v.size() > 4) { // a regular range: "8, 16, ... 256"
    return std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", ... " + std::to_string(v.back());
  }
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + std::to_string(v[i]);
  return s;
}

bool has(const std::vector<unsigned>& v, unsigned x) {
  for (unsigned y : v)
    if (y == x) return true;
  return false;
}

} // namespace

MmaShape idesc_shape(const Bound& b, uint32_t idesc) {
  MmaShape s;
  s.n = ((idesc >> 17) & 0x3f) << 3;                   // bits 17-22: N >> 3 (Tables 42-44)
  s.m = block_scaled(b) ? ((idesc >> 27) & 0x3) << 7   // Tables 43-44: bits 27-28, M >> 7
                        : ((idesc >> 24) & 0x1f) << 4; // Table 42: bits 24-28, M >> 4
  return s;
}

std::optional<std::string> check_idesc_shape(const Bound& b, uint32_t idesc) {
  MmaShape s = idesc_shape(b, idesc);
  const std::string& mn = b.family->mnemonic;
  bool ws = mn.find(".ws") != std::string::npos;
  bool sparse = mn.find(".sp") != std::string::npos;
  bool pair = b.is("cta_group", ".cta_group::2");
  bool i8 = b.is("kind", ".kind::i8");
  bool mx = block_scaled(b);

  // Table 39, row by row.
  std::vector<unsigned> ms, ns;
  if (ws) {
    ms = {32, 64, 128};
    ns = sparse ? std::vector<unsigned>{64, 128} : std::vector<unsigned>{64, 128, 256};
  } else if (!pair) {
    ms = mx ? std::vector<unsigned>{128} : std::vector<unsigned>{64, 128};
    if (i8) {
      ns = {8, 16, 24};
      for (unsigned n : steps(32, 256, 16)) ns.push_back(n);
    } else {
      ns = steps(8, 256, 8);
    }
  } else {
    ms = mx && sparse ? std::vector<unsigned>{256} : std::vector<unsigned>{128, 256};
    ns = i8 ? steps(32, 256, 32) : steps(16, 256, 16);
  }
  const std::string* kind = b.value("kind");
  std::string form = (kind ? *kind : std::string()) + " with " +
                     (pair ? ".cta_group::2" : ".cta_group::1") + (ws ? " and .ws" : "") +
                     (sparse ? ", sparse" : "");
  const char* where = " — §9.7.16.2.1 Table 39, §9.7.16.4.2 (000_70a4b524dfe259fa.txt)";
  if (!has(ms, s.m)) {
    return "idesc-shape: the instruction descriptor gives M = " + std::to_string(s.m) +
           ", not valid for " + form + " (M is " + list(ms) + ")" + where;
  }
  if (!has(ns, s.n)) {
    return "idesc-shape: the instruction descriptor gives N = " + std::to_string(s.n) +
           ", not valid for " + form + " (N is " + list(ns) + ")" + where;
  }
  return std::nullopt;
}

} // namespace ptxvm::isa
