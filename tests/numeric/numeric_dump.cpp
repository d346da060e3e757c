// Runs one element conversion of the library over a file of inputs, for the Python
// reference tests (tests/numeric/ref):
//   numeric_dump DST SRC ROUND FLAGS RBITS_WIDTH IN OUT
// DST/SRC: element type names ("e2m1", "f32", "s32", ...); ROUND: "rn" ... "rs", "rni" ...;
// FLAGS: "-" or a comma list of ftz, sat, relu, satfinite. IN: records of two little-endian
// uint64 (source bits, random bits); OUT: one uint64 result per record.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "numeric/cvt_float.h"
#include "numeric/cvt_int.h"
#include "numeric/names.h"

using namespace ptxvm::numeric;

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: numeric_dump DST SRC ROUND FLAGS RBITS_WIDTH IN OUT\n");
    return 2;
  }
  const std::string flags = argv[4];
  const auto has = [&](const char* f) { return ("," + flags + ",").find(std::string(",") + f + ",") != std::string::npos; };
  const auto round = round_by_name(argv[3]);
  const auto df = format_by_name(argv[1]), sf = format_by_name(argv[2]);
  const auto di = int_type_by_name(argv[1]);
  if (!round || !sf || !(df || di)) {
    std::fprintf(stderr, "numeric_dump: unknown type or rounding\n");
    return 2;
  }
  FloatMods m;
  m.round = *round;
  m.ftz = has("ftz");
  m.sat = has("sat");
  m.relu = has("relu");
  m.satfinite = has("satfinite");
  const auto width = static_cast<uint8_t>(std::stoi(argv[5]));
  const bool integral = std::string(argv[3]).size() == 3 && std::string(argv[3]) != "rna";

  std::FILE* in = std::fopen(argv[6], "rb");
  std::FILE* out = std::fopen(argv[7], "wb");
  if (!in || !out) return 1;
  std::vector<uint64_t> rec(2 * 65536), res(65536);
  size_t n;
  while ((n = std::fread(rec.data(), 16, 65536, in)) > 0) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t a = rec[2 * i];
      m.rbits = {static_cast<uint32_t>(rec[2 * i + 1]), width};
      if (di) res[i] = cvt_float_to_int(*di, *sf, a, m.round, m.ftz);
      else if (integral) res[i] = cvt_round_integral(*df, a, m);
      else res[i] = cvt_float(*df, *sf, a, m);
    }
    std::fwrite(res.data(), 8, n, out);
  }
  std::fclose(in);
  return std::fclose(out) == 0 ? 0 : 1;
}
