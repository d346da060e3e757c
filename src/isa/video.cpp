// Video instructions (PTX §9.7.18), 001_23fdd5978b24a3ed.txt. Byte and half-word selectors
// (`a.b0`, `d.h1`) are operand components, checked by the parser.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {
constexpr const char* kScalar =
    "dtype .u32 .s32; atype .u32 .s32; btype .u32 .s32; sat? .sat; op2? .add .min .max";
constexpr const char* kSimd =
    "dtype .u32 .s32; atype .u32 .s32; btype .u32 .s32; sat? .sat; add? .add";
constexpr const char* kSet =
    "atype .u32 .s32; btype .u32 .s32; cmp .eq .ne .lt .le .gt .ge; add? .add";
Row scalar(const char* m) {
  return {m, "9.7.18.1.1", kScalar, "d:*, a:*, a:*, a?+op2:*", "2.0 sm_20"};
}
Row shift(const char* m) {
  return {m, "9.7.18.1.2",
          "dtype .u32 .s32; atype .u32 .s32; btype .u32; sat? .sat; mode .clamp .wrap; op2? .add "
          ".min .max",
          "d:*, a:*, a:*, a?+op2:*", "2.0 sm_20"};
}
Row simd(const char* m, const char* sec) {
  return {m,
          sec,
          kSimd,
          "d:*, a:*, a:*, a:*",
          "3.0 sm_30",
          {},
          {{"sat-or-add", "!(sat && add)", ".sat and .add exclude each other"}}};
}
} // namespace

std::vector<Row> video() {
  return {
      scalar("vadd"),
      scalar("vsub"),
      scalar("vabsdiff"),
      scalar("vmin"),
      scalar("vmax"),
      shift("vshl"),
      shift("vshr"),
      {"vmad", "9.7.18.1.3",
       "dtype .u32 .s32; atype .u32 .s32; btype .u32 .s32; po? .po; sat? .sat; scale? .shr7 .shr15",
       "d:*, a-:*, a-:*, a-:*", "2.0 sm_20"},
      {"vset", "9.7.18.1.4",
       "atype .u32 .s32; btype .u32 .s32; cmp .eq .ne .lt .le .gt .ge; op2? .add .min .max",
       "d:*, a:*, a:*, a?+op2:*", "2.0 sm_20"},
      simd("vadd2", "9.7.18.2.1"),
      simd("vsub2", "9.7.18.2.1"),
      simd("vavrg2", "9.7.18.2.1"),
      simd("vabsdiff2", "9.7.18.2.1"),
      simd("vmin2", "9.7.18.2.1"),
      simd("vmax2", "9.7.18.2.1"),
      {"vset2", "9.7.18.2.2", kSet, "d:*, a:*, a:*, a:*", "3.0 sm_30"},
      simd("vadd4", "9.7.18.2.3"),
      simd("vsub4", "9.7.18.2.3"),
      simd("vavrg4", "9.7.18.2.3"),
      simd("vabsdiff4", "9.7.18.2.3"),
      simd("vmin4", "9.7.18.2.3"),
      simd("vmax4", "9.7.18.2.3"),
      {"vset4", "9.7.18.2.4", kSet, "d:*, a:*, a:*, a:*", "3.0 sm_30"},
  };
}

} // namespace ptxvm::isa::rows
