// Warpgroup matrix multiply-accumulate (PTX §9.7.15): wgmma.mma_async (001_23fdd5978b24a3ed.txt),
// wgmma.mma_async.sp (002_fd7b654cd2816116.txt), wgmma.fence/commit_group/wait_group.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {

// `.m64nNkK` for N = 8, 16, ..., 256 and each K of the family.
std::string shapes(std::initializer_list<int> ks) {
  std::string s = "shape";
  for (int k : ks)
    for (int n = 8; n <= 256; n += 8) s += " .m64n" + std::to_string(n) + "k" + std::to_string(k);
  return s;
}

// The N values of the integer and single-bit shapes: 8, 16, 24, then multiples of 16.
std::string int_shapes(int k) {
  std::string s;
  for (int n : {8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256})
    s +=
        (s.empty() ? "" : ",") + std::string(".m64n") + std::to_string(n) + "k" + std::to_string(k);
  return s;
}

std::string k_shapes(int k) {
  std::string s;
  for (int n = 8; n <= 256; n += 8)
    s +=
        (s.empty() ? "" : ",") + std::string(".m64n") + std::to_string(n) + "k" + std::to_string(k);
  return s;
}

// Shape, type and accumulator pairs (§9.7.15.5.2 syntax blocks; §9.7.15.6.3 for .sp with K
// doubled).
std::vector<std::vector<std::string>> wgmma_rules(int scale) {
  auto k = [&](int base) { return k_shapes(base * scale); };
  return {
      {"ab-pair",
       "(atype=.f16 => btype=.f16) && (atype=.bf16 => btype=.bf16) && (atype=.tf32 => btype=.tf32) "
       "&& "
       "(atype=.e4m3,.e5m2 => btype=.e4m3,.e5m2) && (atype=.s8,.u8 => btype=.s8,.u8) && (atype=.b1 "
       "=> btype=.b1)",
       "A and B must be of one type class"},
      {"shape-type",
       "(atype=.f16,.bf16 => shape=" + k(16) + ") && (atype=.tf32 => shape=" + k(8) +
           ") && "
           "(atype=.e4m3,.e5m2 => shape=" +
           k(32) + ") && (atype=.s8,.u8 => shape=" + int_shapes(32 * scale) + ")" +
           (scale == 1 ? " && (atype=.b1 => shape=" + int_shapes(256) + ")" : ""),
       "no such wgmma shape for this type"},
      {"d-type",
       "(atype=.f16,.e4m3,.e5m2 => dtype=.f16,.f32) && (atype=.bf16,.tf32 => dtype=.f32) && "
       "(atype=.s8,.u8,.b1 => dtype=.s32) && (dtype=.s32 => atype=.s8,.u8,.b1)",
       "no such accumulator type for these inputs"},
      {"satfinite-int", "satfinite => atype=.s8,.u8", ".satfinite applies to integer wgmma"},
      {"b1-op", "(atype=.b1 => op && popc) && (op || popc => atype=.b1)",
       ".b1 wgmma needs .and.popc"},
  };
}

} // namespace

std::vector<Row> wgmma() {
  const std::string types = ".f16 .bf16 .tf32 .e4m3 .e5m2 .s8 .u8 .b1";
  const std::string axes = "sync .sync; aligned .aligned; " + shapes({8, 16, 32, 256}) +
                           "; satfinite? .satfinite; dtype .f16 .f32 .s32; atype " + types +
                           "; btype " + types + "; op? .and; popc? .popc";
  const std::string sp_axes = "sync .sync; aligned .aligned; " + shapes({16, 32, 64}) +
                              "; satfinite? .satfinite; dtype .f16 .f32 .s32; atype " + types +
                              "; btype " + types + "; op? .and; popc? .popc";
  auto sp_rules = wgmma_rules(2);
  sp_rules.push_back({"sp-no-b1", "atype!=.b1", "wgmma.mma_async.sp takes no .b1 operands"});
  const char* arch = "sm_90a"; // wgmma is sm_90a only (§9.7.15.5.2 Target ISA notes)
  return {
      {"wgmma.mma_async",
       "9.7.15.5.2",
       axes,
       "v*, e, a:.b64, a:*, i?, i?, i?, i?",
       std::string("8.0 ") + arch,
       {{"atype=.s8,.u8 && btype=.s8,.u8 && !(atype=.s8 && btype=.s8) && !(atype=.u8 && btype=.u8)",
         "8.4 sm_90a"}},
       wgmma_rules(1)},
      {"wgmma.mma_async.sp",
       "9.7.15.6.3",
       sp_axes,
       "v*, e, a:.b64, a:.b32, i, a:*, i?, i?, i?, i?",
       std::string("8.2 ") + arch,
       {},
       sp_rules,
       Spec::WgmmaSp},
      {"wgmma.fence", "9.7.15.7.1", "sync .sync; aligned .aligned", "", std::string("8.0 ") + arch},
      {"wgmma.commit_group", "9.7.15.7.2", "sync .sync; aligned .aligned", "",
       std::string("8.0 ") + arch},
      {"wgmma.wait_group", "9.7.15.7.3", "sync .sync; aligned .aligned", "i",
       std::string("8.0 ") + arch},
  };
}

} // namespace ptxvm::isa::rows
