// Comparison and selection (PTX §9.7.6) and half-precision comparison (§9.7.7),
// 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {
constexpr const char* kCmp =
    "cmp .eq .ne .lt .le .gt .ge .lo .ls .hi .hs .equ .neu .ltu .leu .gtu .geu .num .nan; ";
constexpr const char* kHalfCmp =
    "cmp .eq .ne .lt .le .gt .ge .equ .neu .ltu .leu .gtu .geu .num .nan; ";
constexpr const char* kBool = "boolop? .and .or .xor; ";

std::string axes(const char* cmp, const char* rest) {
  return std::string(cmp) + kBool + rest;
}

// The comparison operators each source type allows (§9.7.6.1, "operators for ... types").
std::vector<std::vector<std::string>> cmp_rules(const std::string& t) {
  return {{"float-cmp", t + "=.f32,.f64 => cmp!=.lo,.ls,.hi,.hs",
           "floating-point comparisons take no unsigned operators (.lo .ls .hi .hs)"},
          {"int-cmp", t + "!=.f32,.f64 => cmp=.eq,.ne,.lt,.le,.gt,.ge,.lo,.ls,.hi,.hs",
           "integer comparisons take no unordered operators (.equ .. .nan)"},
          {"bit-cmp", t + "=.b16,.b32,.b64 => cmp=.eq,.ne",
           "bit-size comparisons allow only .eq and .ne"},
          {"signed-cmp", t + "=.s16,.s32,.s64 => cmp!=.lo,.ls,.hi,.hs",
           "signed comparisons take no unsigned operators (.lo .ls .hi .hs)"},
          {"ftz-f32", "ftz => " + t + "=.f32", ".ftz applies only to .f32 comparisons"}};
}
} // namespace

std::vector<Row> compare() {
  const std::string set_axes = axes(kCmp, "ftz? .ftz; dtype .u32 .s32 .f32; stype @bits .f32 .f64");
  const std::string setp_axes = axes(kCmp, "ftz? .ftz; type @bits .f32 .f64");
  const std::string hset_axes =
      axes(kHalfCmp, "ftz? .ftz; dtype .u16 .s16 .u32 .s32 .f16 .bf16 .f16x2 .bf16x2; "
                     "stype @bits .f16 .f32 .f64 .bf16 .f16x2 .bf16x2");
  const std::string hsetp_axes = axes(kHalfCmp, "ftz? .ftz; type .f16 .f16x2 .bf16 .bf16x2");
  return {
      {"set",
       "9.7.6.1",
       set_axes,
       "d:dtype, a:stype, a:stype, p?boolop:.pred",
       "1.0 sm_20",
       {},
       cmp_rules("stype")},
      {"setp",
       "9.7.6.2",
       setp_axes,
       "t:.pred, a:type, a:type, p?boolop:.pred",
       "1.0 sm_20",
       {},
       cmp_rules("type")},
      {"selp", "9.7.6.3", "type @bits .f32 .f64", "d:type, a:type, a:type, p:.pred", "1.0 sm_20"},
      {"slct",
       "9.7.6.4",
       "ftz? .ftz; dtype @bits .f32 .f64; ctype .s32 .f32",
       "d:dtype, a:dtype, a:dtype, a:ctype",
       "1.0 sm_20",
       {},
       {{"ftz-f32", "ftz => ctype=.f32", ".ftz applies only when c is .f32"}}},
      {"set",
       "9.7.7.1",
       hset_axes,
       "d:dtype, a:stype, a:stype, p?boolop:.pred",
       "4.2 sm_53",
       {{"dtype=.bf16,.bf16x2 || stype=.bf16,.bf16x2", "7.8 sm_90"}},
       {{"x2-pair", "(dtype=.f16x2 => stype=.f16x2) && (dtype=.bf16x2 => stype=.bf16x2)",
         "a packed destination needs the same packed source type"},
        {"x2-dest",
         "(stype=.f16x2 => dtype=.f16x2,.u32,.s32) && (stype=.bf16x2 => dtype=.bf16x2,.u32,.s32)",
         "packed sources give a packed, .u32 or .s32 result"},
        {"int-dest", "dtype=.u16,.s16,.u32,.s32 => stype=.f16,.bf16,.f16x2,.bf16x2",
         "an integer result of a half-precision set needs a .f16/.bf16 source"},
        {"half-dest", "dtype=.f16,.bf16 => stype!=.f16x2,.bf16x2,.bf16",
         "a scalar half result takes a scalar non-bf16 source"},
        {"bf16-no-ftz", "ftz => dtype!=.bf16,.bf16x2 && stype=.f16,.f16x2,.f32",
         ".ftz applies to .f16/.f32 sources, not .bf16"},
        {"int-cmp",
         "stype=.b16,.b32,.b64,.u16,.u32,.u64,.s16,.s32,.s64 => cmp=.eq,.ne,.lt,.le,.gt,.ge",
         "integer comparisons take no unordered operators"}}},
      {"setp",
       "9.7.7.2",
       hsetp_axes,
       "t:.pred, a:type, a:type, p?boolop:.pred",
       "4.2 sm_53",
       {{"type=.bf16,.bf16x2", "7.8 sm_90"}},
       {{"bf16-no-ftz", "type=.bf16,.bf16x2 => !ftz", ".ftz does not apply to .bf16 types"}}},
  };
}

} // namespace ptxvm::isa::rows
