// Data movement and conversion (PTX §9.7.9), 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {

constexpr const char* kMemTypes =
    ".b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f32 .f64";
constexpr const char* kCvtTypes =
    ".u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .bf16 .f16 .f32 .f64 .tf32 .f16x2 .bf16x2 .e4m3x2 "
    ".e5m2x2 .e2m3x2 "
    ".e3m2x2 .e2m1x2 .ue8m0x2 .e4m3x4 .e5m2x4 .e2m3x4 .e3m2x4 .e2m1x4";
const std::string kInt = ".u8,.u16,.u32,.u64,.s8,.s16,.s32,.s64";
constexpr const char* kEvict =
    ".L1::evict_normal .L1::evict_unchanged .L1::evict_first .L1::evict_last .L1::no_allocate";

// Minimums shared by ld and st (§9.7.9.8 and §9.7.9.11 "PTX ISA notes", "Target ISA notes").
std::vector<std::vector<std::string>> memory_variants(const std::string& strong) {
  return {{"sem=.weak,.relaxed," + strong + " || scope", "6.0 sm_70"},
          {"evict", "7.4 sm_70"},
          {"hint", "7.4 sm_80"},
          {"scope=.cluster", "7.8 sm_90"},
          {"ss=.shared::cta", "7.8 sm_30"},
          {"ss=.shared::cluster", "7.8 sm_90"},
          {"mmio", "8.2 sm_70"},
          {"ss=.param::func", "8.3 sm_20"},
          {"type=.b128", "8.3 sm_70"},
          {"type=.b128 && scope=.sys", "8.4 sm_70"},
          {"(vec=.v8 && type=.b32,.u32,.s32,.f32) || (vec=.v4 && type=.b64,.u64,.s64,.f64) || "
           "(vec=.v2 && type=.b128)",
           "8.8 sm_100"}};
}

std::vector<std::vector<std::string>> memory_rules(const char* strong, const char* params) {
  std::string s(strong), p(params);
  return {
      {"scope-needs-sem", "scope => sem=.relaxed," + s,
       "a scope needs .relaxed or ." + s.substr(1)},
      {"sem-needs-scope", "sem=.relaxed," + s + " => scope",
       ".relaxed and ." + s.substr(1) + " need a scope"},
      {"volatile-plain", "sem=.volatile => !cop && !evict && !hint",
       ".volatile takes no cache qualifiers"},
      {"cop-weak", "cop => !sem || sem=.weak", "cache operators apply only to weak accesses"},
      {"cop-evict", "!(cop && evict)",
       "a cache operator and an eviction priority exclude each other"},
      {"mmio-relaxed-sys", "mmio => sem=.relaxed && scope=.sys && (!ss || ss=.global)",
       ".mmio needs .relaxed.sys on .global"},
      {"b128-vec", "type=.b128 => vec!=.v4,.v8", ".b128 takes at most .v2"},
      {"ordered-spaces", "sem && sem!=.weak => ss!=.local," + p,
       ".volatile, .relaxed and ." + s.substr(1) + " do not apply to .param or .local"},
      {"v8-size", "vec=.v8 => type!=.b64,.u64,.s64,.f64,.b128", ".v8 vectors are at most 256 bits"},
      {"256-bit-global",
       "(vec=.v8 && type=.b32,.u32,.s32,.f32) || (vec=.v4 && type=.b64,.u64,.s64,.f64) || (vec=.v2 "
       "&& type=.b128) => "
       "!ss || ss=.global",
       "256-bit accesses need .global"},
      {"hints-global", "evict || hint => !ss || ss=.global",
       "eviction priorities and cache hints apply to global memory"},
      {"mmio-plain", "mmio => !hint && !evict && !cop && !vec",
       ".mmio takes no cache qualifiers or vectors"}};
}

} // namespace

std::vector<Row> data_movement() {
  const std::string ld_axes =
      std::string("sem? .weak .volatile .relaxed .acquire; mmio? .mmio; scope? @scope; "
                  "ss? .const .global .local .param .param::entry .param::func .shared "
                  ".shared::cta .shared::cluster; "
                  "cop? .ca .cg .cs .lu .cv; evict? ") +
      kEvict +
      "; hint? .L2::cache_hint; prefetch? .L2::64B .L2::128B .L2::256B; vec? .v2 .v4 .v8; type " +
      kMemTypes;
  const std::string st_axes =
      std::string("sem? .weak .volatile .relaxed .release; mmio? .mmio; scope? @scope; "
                  "ss? .global .local .param .param::func .shared .shared::cta .shared::cluster; "
                  "cop? .wb .cg .cs .wt; evict? ") +
      kEvict + "; hint? .L2::cache_hint; vec? .v2 .v4 .v8; type " + kMemTypes;
  auto ld_variants = memory_variants(".acquire");
  ld_variants.push_back({"prefetch", "7.4 sm_75"});
  ld_variants.push_back({"ss=.param::entry", "8.3 sm_20"});
  ld_variants.push_back({"prefetch=.L2::256B", "7.4 sm_80"});
  auto ld_rules = memory_rules(".acquire", ".param,.param::entry,.param::func");
  ld_rules.push_back({"256-bit-volatile", "sem=.volatile => !(vec=.v2 && type=.b128)",
                      "256-bit loads are not .volatile"});
  ld_rules.push_back({"prefetch-plain",
                      "prefetch => sem!=.volatile && !mmio && (!ss || ss=.global)",
                      "a prefetch size applies to global loads"});
  return {
      {"mov", "9.7.9.3", "type .pred @bits .f32 .f64", "d:type, a&:type", "1.0 sm_20"},
      {"mov",
       "9.7.9.4",
       "type .b16 .b32 .b64 .b128",
       "e:type, e&:type",
       "1.0 sm_20",
       {{"type=.b128", "8.3 sm_70"}}},
      {"shfl",
       "9.7.9.5",
       "mode .up .down .bfly .idx; type .b32",
       "t:.b32, a:.b32, a:.b32, a:.b32",
       "3.0 sm_30",
       {},
       {},
       Spec::Manual,
       "6.4 sm_70",
       "shfl.sync"},
      {"shfl.sync", "9.7.9.6", "mode .up .down .bfly .idx; type .b32",
       "t:.b32, a:.b32, a:.b32, a:.b32, a:.b32", "6.0 sm_30"},
      {"prmt", "9.7.9.7", "type .b32; mode? .f4e .b4e .rc8 .ecl .ecr .rc16",
       "d:.b32, a:.b32, a:.b32, a:.b32", "2.0 sm_20"},
      {"ld", "9.7.9.8", ld_axes, "x:~type, m, a?hint:.b64", "1.0 sm_20", ld_variants, ld_rules},
      {"ld.global.nc",
       "9.7.9.9",
       std::string("cop? .ca .cg .cs; evict? ") + kEvict +
           "; hint? .L2::cache_hint; prefetch? .L2::64B .L2::128B .L2::256B; vec? .v2 .v4 .v8; "
           "type " +
           kMemTypes,
       "x:~type, m, a?hint:.b64",
       "3.1 sm_32",
       {{"evict", "7.4 sm_70"},
        {"prefetch", "7.4 sm_75"},
        {"hint || prefetch=.L2::256B", "7.4 sm_80"},
        {"type=.b128", "8.3 sm_70"},
        {"vec=.v8 || (vec=.v4 && type=.b64,.u64,.s64,.f64)", "8.8 sm_100"}},
       {{"cop-evict", "!(cop && evict)",
         "a cache operator and an eviction priority exclude each other"},
        {"v8-32bit", "vec=.v8 => type=.b32,.u32,.s32,.f32", ".v8 needs a 32-bit type"},
        {"b128-scalar", "type=.b128 => !vec", ".b128 loads are scalar"}}},
      {"ldu",
       "9.7.9.10",
       std::string("ss? .global; vec? .v2 .v4; type ") + kMemTypes,
       "x:~type, m",
       "2.0 sm_20",
       {{"type=.b128", "8.3 sm_70"}},
       {{"128-bit", "(vec=.v4 => type!=.b64,.u64,.s64,.f64,.b128) && (vec=.v2 => type!=.b128)",
         "vectors are at most 128 bits"}}},
      {"st", "9.7.9.11", st_axes, "m, x:~type, a?hint:.b64", "1.0 sm_20",
       memory_variants(".release"), memory_rules(".release", ".param,.param::func")},
      {"st.async",
       "9.7.9.12",
       "mmio? .mmio; sem? .weak .release; scope? .cluster .gpu .sys; ss? .shared::cluster .global; "
       "completion? .mbarrier::complete_tx::bytes; vec? .v2 .v4; type .b8 .b16 .b32 .b64 .u8 .u16 "
       ".u32 .u64 .s8 .s16 .s32 .s64 .f32 .f64",
       "m, x:type, m?completion",
       "8.1 sm_90",
       {{"mmio || sem=.release || ss=.global || scope=.gpu,.sys", "8.7 sm_100"}},
       {{"release-global",
         "(sem=.release || mmio || ss=.global) => sem=.release && ss=.global && !completion && "
         "!vec",
         "the .release form stores one scalar to .global without an mbarrier"},
        {"weak-no-scope", "!(sem && scope=.cluster)", ".cluster scope is written without a .sem"},
        {"mmio-scope", "mmio => scope", ".mmio needs a scope"},
        {"weak-cluster", "sem!=.release => completion && ss!=.global && scope!=.gpu,.sys",
         "the weak form needs .shared::cluster and .mbarrier::complete_tx::bytes"},
        {"weak-types", "sem!=.release => type!=.b8,.b16,.u8,.u16,.s8,.s16",
         "the weak form stores 32- or 64-bit values"},
        {"128-bit", "vec=.v4 => type=.b32,.u32,.s32,.f32", "vectors are at most 128 bits"}}},
      {"st.bulk", "9.7.9.13", "weak? .weak; ss? .shared::cta", "m, a:.b64, i:=0", "8.6 sm_100"},
      {"multimem.ld_reduce",
       "9.7.9.14",
       "sem? .weak .relaxed .acquire; scope? @scope; ss? .global; op .min .max .add .and .or .xor; "
       "acc? .acc::f32 .acc::f16; vec? .v2 .v4 .v8; "
       "type .b32 .b64 .u32 .u64 .s32 .s64 .f16 .f16x2 .bf16 .bf16x2 .f32 .f64 .e5m2 .e5m2x2 "
       ".e5m2x4 .e4m3 .e4m3x2 .e4m3x4",
       "x:type, m",
       "8.1 sm_90",
       {{"acc=.acc::f32", "8.2 sm_90"},
        {"type=.e5m2,.e5m2x2,.e5m2x4,.e4m3,.e4m3x2,.e4m3x4 || acc=.acc::f16",
         "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"}},
       {{"sem-scope", "(sem && sem!=.weak => scope) && (scope => sem && sem!=.weak)",
         "a strong .sem and a .scope go together"},
        {"acc-types",
         "(acc => op=.add) && (acc=.acc::f32 => type=.f16,.f16x2,.bf16,.bf16x2) && "
         "(acc=.acc::f16 => type=.e5m2,.e5m2x2,.e5m2x4,.e4m3,.e4m3x2,.e4m3x4)",
         ".acc::f32 goes with .add of half types, .acc::f16 with .add of fp8 types"},
        {"half-vector", "type=.f16,.bf16,.e5m2,.e4m3 => vec",
         "scalar .f16/.bf16/.e5m2/.e4m3 reductions are written as vectors"},
        {"int-ops", "type=.b32,.b64,.u32,.u64,.s32,.s64 => !vec && !acc",
         "integer multimem.ld_reduce takes no vector or accumulator precision"},
        {"bit-ops", "(type=.b32,.b64 => op=.and,.or,.xor) && (op=.and,.or,.xor => type=.b32,.b64)",
         "bit-size types take .and, .or, .xor, and only they"}}},
      {"multimem.st",
       "9.7.9.14",
       "sem? .weak .relaxed .release; scope? @scope; ss? .global; vec? .v2 .v4 .v8; "
       "type .b32 .b64 .u32 .u64 .s32 .s64 .f16 .f16x2 .bf16 .bf16x2 .f32 .f64 .e5m2 .e5m2x2 "
       ".e5m2x4 .e4m3 .e4m3x2 .e4m3x4",
       "m, x:type",
       "8.1 sm_90",
       {{"type=.e5m2,.e5m2x2,.e5m2x4,.e4m3,.e4m3x2,.e4m3x4",
         "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"}},
       {{"sem-scope", "(sem && sem!=.weak => scope) && (scope => sem && sem!=.weak)",
         "a strong .sem and a .scope go together"}}},
      {"multimem.red",
       "9.7.9.14",
       "sem? .relaxed .release; scope? @scope; ss? .global; op .min .max .add .and .or .xor; vec? "
       ".v2 .v4 .v8; "
       "type .b32 .b64 .u32 .u64 .s32 .s64 .f16 .f16x2 .bf16 .bf16x2 .f32 .f64",
       "m, x:type",
       "8.1 sm_90",
       {},
       {{"float-add", "type=.f16,.f16x2,.bf16,.bf16x2,.f32,.f64 => op=.add",
         "floating-point multimem.red supports .add"},
        {"v8-half", "vec=.v8 => type=.f16,.bf16", ".v8 needs .f16 or .bf16"},
        {"add-s64", "op=.add => type!=.s64", "no .add.s64"},
        {"int-ops",
         "type=.b32,.b64,.u32,.u64,.s32,.s64 => !vec && ((op=.and,.or,.xor => type=.b32,.b64) && "
         "(type=.b32,.b64 => op=.and,.or,.xor))",
         "integer multimem.red takes no vector; .and/.or/.xor go with .b32/.b64"},
        {"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      {"prefetch",
       "9.7.9.15",
       "space? .global .local .const .param; level .L1 .L2 .L2::evict_last .L2::evict_normal "
       ".tensormap",
       "m",
       "2.0 sm_20",
       {{"level=.L2::evict_last,.L2::evict_normal", "7.4 sm_80"},
        {"level=.tensormap", "8.0 sm_90"}},
       {{"evict-global", "level=.L2::evict_last,.L2::evict_normal => space=.global",
         "eviction-priority prefetch needs .global"},
        {"tensormap-space", "level=.tensormap => space!=.global,.local",
         "prefetch.tensormap takes .const or .param"},
        {"level-space", "level=.L1,.L2 => space!=.const,.param",
         "data prefetch takes .global or .local"}}},
      {"prefetchu", "9.7.9.15", "level .L1", "m", "2.0 sm_20"},
      {"applypriority", "9.7.9.16", "space? .global; level .L2::evict_normal", "m, i:=128",
       "7.4 sm_80"},
      {"discard", "9.7.9.17", "space? .global; level .L2", "m, i:=128", "7.4 sm_80"},
      {"createpolicy.range", "9.7.9.18",
       "space? .global; primary .L2::evict_last .L2::evict_normal .L2::evict_first "
       ".L2::evict_unchanged; "
       "secondary? .L2::evict_first .L2::evict_unchanged; type .b64",
       "d:.b64, m, a:.u32, a:.u32", "7.4 sm_80"},
      {"createpolicy.fractional", "9.7.9.18",
       "primary .L2::evict_last .L2::evict_normal .L2::evict_first .L2::evict_unchanged; "
       "secondary? .L2::evict_first .L2::evict_unchanged; type .b64",
       "d:.b64, a?:.f32", "7.4 sm_80"},
      {"createpolicy.cvt", "9.7.9.18", "level .L2; type .b64", "d:.b64, a:.b64", "7.4 sm_80"},
      {"isspacep",
       "9.7.9.19",
       "space .const .global .local .shared .shared::cta .shared::cluster .param .param::entry",
       "d:.pred, a:*",
       "2.0 sm_20",
       {{"space=.param,.param::entry", "7.7 sm_70"},
        {"space=.shared::cta", "7.8 sm_30"},
        {"space=.shared::cluster", "7.8 sm_90"},
        {"space=.param::entry", "8.3 sm_70"}}},
      {"cvta",
       "9.7.9.20",
       "to? .to; space .const .global .local .shared .shared::cta .shared::cluster .param "
       ".param::entry; size .u32 .u64",
       "d:size, a&:size",
       "2.0 sm_20",
       {{"space=.param,.param::entry", "7.7 sm_70"},
        {"space=.shared::cta", "7.8 sm_30"},
        {"space=.shared::cluster", "7.8 sm_90"},
        {"space=.param::entry", "8.3 sm_70"}},
       {},
       Spec::Manual,
       "",
       "",
       "size"},
      {"cvt",
       "9.7.9.21",
       std::string("irnd? .rni .rzi .rmi .rpi; frnd? .rn .rz .rm .rp .rna .rs; ftz? .ftz; sat? "
                   ".sat; relu? .relu; "
                   "satfinite? .satfinite; dtype ") +
           kCvtTypes + "; atype " + kCvtTypes,
       "d:~dtype, e:~atype, a?[atype=.f32 && "
       "dtype=.f16x2,.bf16x2,.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2,.ue8m0x2]:.f32, "
       "a?[frnd=.rs]:.b32",
       "1.0 sm_20",
       {{"relu || dtype=.f16x2,.bf16x2,.bf16,.tf32", "7.0 sm_80"},
        {"(dtype=.bf16 && atype!=.f32) || (atype=.bf16 && dtype!=.f32)", "7.8 sm_90"},
        {"dtype=.tf32 && frnd=.rn,.rz", "7.8 sm_90"},
        {"dtype=.e4m3x2,.e5m2x2 || atype=.e4m3x2,.e5m2x2", "7.8 sm_89"},
        {"satfinite && dtype=.f16,.bf16,.f16x2,.bf16x2,.tf32", "8.1 sm_80"},
        {"dtype=.tf32 && frnd=.rn,.rz && satfinite", "8.6 sm_100"},
        {"dtype=.e2m1x2,.e2m3x2,.e3m2x2,.ue8m0x2 || atype=.e2m1x2,.e2m3x2,.e3m2x2,.ue8m0x2",
         "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"},
        {"frnd=.rs", "8.7 sm_100a sm_110a"}},
       {{"int-to-int", "dtype=" + kInt + " && atype=" + kInt + " => !irnd && !frnd",
         "integer-to-integer conversions take no rounding modifier"},
        {"float-to-int", "dtype=" + kInt + " && atype=.f16,.bf16,.f32,.f64 => irnd",
         "float-to-integer conversions need an integer rounding modifier (.rni .rzi .rmi .rpi)"},
        {"int-to-float", "dtype=.f16,.bf16,.f32,.f64 && atype=" + kInt + " => frnd=.rn,.rz,.rm,.rp",
         "integer-to-float conversions need a rounding modifier (.rn .rz .rm .rp)"},
        {"narrowing",
         "(dtype=.f16,.bf16,.f16x2,.bf16x2,.tf32 && atype=.f32,.f64) || (dtype=.f32 && atype=.f64) "
         "=> frnd",
         "narrowing float conversions need a rounding modifier"},
        {"irnd-use",
         "irnd => atype=.f16,.bf16,.f32,.f64 && (dtype=" + kInt +
             " || (dtype=.f16 && atype=.f16) || (dtype=.bf16 && atype=.bf16) || (dtype=.f32 && "
             "atype=.f32) || (dtype=.f64 && atype=.f64))",
         "integer rounding applies to float-to-integer and same-size float rounding"},
        {"packed-f16",
         "dtype=.f16x2,.bf16x2 => atype=.f32,.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2,.ue8m0x2",
         ".f16x2/.bf16x2 results convert from .f32 pairs or packed narrow floats"},
        {"fp8-dst",
         "dtype=.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2 => frnd=.rn && satfinite && "
         "atype=.f32,.f16x2",
         "narrow float results need .rn.satfinite from .f32 (or .f16x2 for fp8)"},
        {"x4-dst",
         "dtype=.e4m3x4,.e5m2x4,.e2m1x4,.e2m3x4,.e3m2x4 => frnd=.rs && satfinite && atype=.f32",
         "four-element narrow results need .rs.satfinite from .f32"},
        {"rs-use",
         "frnd=.rs => dtype=.f16x2,.bf16x2,.e4m3x4,.e5m2x4,.e2m1x4,.e2m3x4,.e3m2x4 && atype=.f32",
         ".rs applies to .f16x2/.bf16x2 and x4 results from .f32"},
        {"tf32", "dtype=.tf32 => atype=.f32 && frnd=.rna,.rn,.rz",
         "cvt to .tf32 takes .f32 with .rna, .rn or .rz"},
        {"rna-tf32", "frnd=.rna => dtype=.tf32", ".rna applies only to .tf32 results"},
        {"relu-use",
         "relu => "
         "dtype=.f16,.bf16,.f16x2,.bf16x2,.tf32,.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2,.e4m3x4,."
         "e5m2x4,.e2m1x4,.e2m3x4,.e3m2x4",
         ".relu applies to half and narrow float results"},
        {"one-rounding", "!(irnd && frnd)", "one rounding modifier at most"},
        {"satfinite-ftz", "satfinite => !ftz", ".satfinite and .ftz exclude each other"},
        {"relu-source",
         "relu => atype=.f32,.f16x2,.bf16x2,.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2,.ue8m0x2",
         ".relu applies to conversions from .f32 and packed types"},
        {"satfinite-rounding", "satfinite && dtype!=.ue8m0x2 => frnd!=.rm,.rp",
         ".satfinite rounds to nearest or toward zero"},
        {"widening", "(dtype=.f32,.f64 && atype=.f16) || (dtype=.f64 && atype=.f32) => !frnd",
         "widening float conversions are exact and take no rounding modifier"},
        {"relu-frnd", "relu => !irnd && !ftz && frnd!=.rna",
         ".relu goes with .rn/.rz/.rs rounding and without .ftz"},
        {"same-size-float",
         "(dtype=.f16 && atype=.f16) || (dtype=.bf16 && atype=.bf16) || (dtype=.f32 && atype=.f32) "
         "|| "
         "(dtype=.f64 && atype=.f64) => !frnd",
         "same-size float conversions round to integers (.rni .rzi .rmi .rpi), not .rn etc."},
        {"satfinite-source", "satfinite => atype=.f32,.f16x2,.bf16x2",
         ".satfinite converts from .f32 or packed halves"},
        {"sat-bf16",
         "sat => dtype=.u8,.u16,.u32,.u64,.s8,.s16,.s32,.s64,.f16,.f32,.f64 && "
         "atype=.u8,.u16,.u32,.u64,.s8,.s16,.s32,.s64,.f16,.f32,.f64",
         ".sat applies to the standard integer and float conversions (not .bf16 or packed types)"},
        {"relu-sat", "relu => !sat", ".relu and .sat exclude each other"},
        {"ftz-standard",
         "ftz => dtype=.f16,.bf16,.f32,.f64,.u8,.u16,.u32,.u64,.s8,.s16,.s32,.s64 && "
         "atype=.f16,.bf16,.f32,.f64,.u8,.u16,.u32,.u64,.s8,.s16,.s32,.s64",
         ".ftz applies to the standard conversions"},
        {"satfinite-use",
         "satfinite => !sat && "
         "dtype=.f16,.bf16,.f16x2,.bf16x2,.tf32,.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2,.ue8m0x2,."
         "e4m3x4,.e5m2x4,.e2m1x4,.e2m3x4,.e3m2x4",
         ".satfinite applies to half and narrow float results, without .sat"},
        {"ue8m0", "dtype=.ue8m0x2 => frnd=.rz,.rp && atype=.f32,.bf16x2",
         ".ue8m0x2 results take .rz or .rp from .f32 or .bf16x2"},
        {"packed-src", "atype=.f16x2,.bf16x2 => dtype=.e4m3x2,.e5m2x2,.ue8m0x2",
         "packed half sources convert to fp8 pairs"},
        {"narrow-src",
         "atype=.e4m3x2,.e5m2x2,.e2m1x2,.e2m3x2,.e3m2x2 => dtype=.f16x2 && frnd=.rn && !satfinite",
         "narrow float sources convert to .f16x2 with .rn"},
        {"ue8m0-src", "atype=.ue8m0x2 => dtype=.bf16x2 && frnd=.rn",
         ".ue8m0x2 converts to .bf16x2 with .rn"},
        {"x4-src", "atype!=.e4m3x4,.e5m2x4,.e2m1x4,.e2m3x4,.e3m2x4,.tf32",
         "x4 and .tf32 types are results only"},
        {"f64-ftz", "ftz => dtype=.f32 || atype=.f32",
         ".ftz applies to conversions with a .f32 operand"}}},
      {"cvt.pack",
       "9.7.9.22",
       "sat .sat; ctype .u16 .s16 .u2 .s2 .u4 .s4 .u8 .s8; abtype .s32; c? .b32",
       "d:*, a:.s32, a:.s32, a?c:.b32",
       "6.5 sm_72",
       {{"ctype=.u2,.s2,.u4,.s4", "6.5 sm_75"}},
       {{"c-for-narrow", "(ctype=.u16,.s16 => !c) && (ctype!=.u16,.s16 => c)",
         ".u16/.s16 pack two values; narrower types take a .b32 c operand"}}},
      {"mapa", "9.7.9.23", "space? .shared::cluster; type .u32 .u64", "d:type, a:type, a:.u32",
       "7.8 sm_90"},
      {"getctarank", "9.7.9.24", "space? .shared::cluster; type .u32 .u64", "d:.u32, a:type",
       "7.8 sm_90"},
      {"cp.async",
       "9.7.9.25.3.1",
       "cop .ca .cg; dst .shared .shared::cta; src .global; hint? .L2::cache_hint; prefetch? "
       ".L2::64B .L2::128B .L2::256B",
       "m, m, i?[cop=.ca]:=4|8|16, i?[cop=.cg]:=16, a?:.u32|.pred, a?hint:.b64",
       "7.0 sm_80",
       {{"hint || prefetch", "7.4 sm_80"}}},
      {"cp.async.commit_group", "9.7.9.25.3.2", "", "", "7.0 sm_80"},
      {"cp.async.wait_group", "9.7.9.25.3.3", "", "i", "7.0 sm_80"},
      {"cp.async.wait_all", "9.7.9.25.3.3", "", "", "7.0 sm_80"},
      {"cp.async.bulk",
       "9.7.9.25.4.1",
       "dst .shared::cta .shared::cluster .global; src .global .shared::cta; "
       "completion .mbarrier::complete_tx::bytes .bulk_group; multicast? .multicast::cluster; "
       "hint? .L2::cache_hint; mask? .cp_mask",
       "m, m, a:.u32, m?[dst!=.global], a?multicast:.b16, a?hint:.b64, a?mask:.b16",
       "8.0 sm_90",
       {{"dst=.shared::cta", "8.6 sm_90"}, {"mask", "8.6 sm_100"}},
       {{"direction",
         "(dst=.global => src=.shared::cta && completion=.bulk_group) && "
         "(dst!=.global => completion=.mbarrier::complete_tx::bytes) && (dst=.shared::cta => "
         "src=.global)",
         "no such copy direction: global->shared::cta/cluster and shared::cta->shared::cluster "
         "complete on an "
         "mbarrier; shared::cta->global on a bulk group"},
        {"multicast-cluster", "multicast => dst=.shared::cluster && src=.global",
         ".multicast::cluster copies global->shared::cluster"},
        {"mask-global", "mask => dst=.global", ".cp_mask applies to shared::cta->global copies"}}},
      {"cp.reduce.async.bulk",
       "9.7.9.25.4.2",
       "dst .shared::cluster .global; src .shared::cta; completion .mbarrier::complete_tx::bytes "
       ".bulk_group; "
       "hint? .L2::cache_hint; op .and .or .xor .add .inc .dec .min .max; noftz? .noftz; "
       "type .f16 .bf16 .b32 .u32 .s32 .b64 .u64 .s64 .f32 .f64",
       "m, m, a:.u32, m?[dst=.shared::cluster], a?hint:.b64",
       "8.0 sm_90",
       {},
       {{"direction",
         "(dst=.global => completion=.bulk_group) && (dst=.shared::cluster => "
         "completion=.mbarrier::complete_tx::bytes && !hint)",
         "shared::cta->shared::cluster completes on an mbarrier, shared::cta->global on a bulk "
         "group"},
        {"cluster-types", "dst=.shared::cluster => type=.b32,.u32,.s32,.b64,.u64",
         "shared::cluster reductions take 32/64-bit integers"},
        {"noftz-half", "(noftz => type=.f16,.bf16 && op=.add) && (type=.f16,.bf16 => noftz)",
         ".f16/.bf16 reductions are .add.noftz"},
        {"bit-ops", "op=.and,.or,.xor => type=.b32,.b64", ".and/.or/.xor need .b32 or .b64"},
        {"inc-dec", "op=.inc,.dec => type=.u32", ".inc/.dec need .u32"},
        {"float-add", "type=.f32,.f64 => op=.add", ".f32/.f64 reductions are .add"},
        {"arith-types", "op=.add,.min,.max => type!=.b32,.b64",
         "arithmetic reductions take typed integers, not .b32/.b64"},
        {"cluster-u64", "dst=.shared::cluster && type=.u64 => op=.add",
         "shared::cluster .u64 reductions are .add"}}},
      {"cp.async.bulk.prefetch", "9.7.9.25.4.3", "level .L2; src .global; hint? .L2::cache_hint",
       "m, a:.u32, a?hint:.b64", "8.0 sm_90"},
      {"cp.async.bulk.tensor",
       "9.7.9.25.5.2",
       "dim .1d .2d .3d .4d .5d; dst .shared::cta .shared::cluster .global; src .global "
       ".shared::cta; "
       "mode? .tile .tile::gather4 .tile::scatter4 .im2col .im2col::w .im2col::w::128 "
       ".im2col_no_offs; "
       "completion .mbarrier::complete_tx::bytes .bulk_group; multicast? .multicast::cluster; "
       "cta_group? .cta_group::1 .cta_group::2; hint? .L2::cache_hint",
       "m, m, z?, z?, z?, z?",
       "8.0 sm_90",
       {{"dst=.shared::cta || mode=.tile::gather4,.tile::scatter4,.im2col::w,.im2col::w::128 || "
         "cta_group",
         "8.6 sm_90"},
        {"mode=.tile::scatter4,.im2col::w::128 || cta_group",
         "8.6 sm_100a sm_110a sm_100f sm_110f"},
        {"dst=.shared::cluster && mode=.tile::gather4,.im2col::w",
         "8.6 sm_100a sm_110a sm_100f sm_110f"},
        {"dst=.shared::cta && mode=.tile::gather4,.im2col::w", "8.6 sm_100"}},
       {{"direction",
         "(dst=.global => src=.shared::cta && completion=.bulk_group) && "
         "(dst!=.global => src=.global && completion=.mbarrier::complete_tx::bytes)",
         "tensor copies go global->shared (mbarrier) or shared::cta->global (bulk group)"},
        {"store-modes",
         "dst=.global => mode!=.tile::gather4,.im2col,.im2col::w,.im2col::w::128 && !cta_group && "
         "!multicast",
         "shared::cta->global tensor copies take .tile, .tile::scatter4 or .im2col_no_offs"},
        {"load-modes", "dst!=.global => mode!=.tile::scatter4,.im2col_no_offs",
         ".tile::scatter4 and .im2col_no_offs are store modes"},
        {"multicast-cluster", "multicast => dst=.shared::cluster",
         ".multicast::cluster needs .shared::cluster"},
        {"im2col-dims",
         "mode=.im2col,.im2col::w,.im2col::w::128,.im2col_no_offs => dim=.3d,.4d,.5d",
         "im2col modes need 3 to 5 dimensions"},
        {"gather-2d", "mode=.tile::gather4,.tile::scatter4 => dim=.2d",
         ".tile::gather4/.tile::scatter4 need .2d"}}},
      {"cp.reduce.async.bulk.tensor",
       "9.7.9.25.5.3",
       "dim .1d .2d .3d .4d .5d; dst .global; src .shared::cta; op .add .min .max .inc .dec .and "
       ".or .xor; "
       "mode? .tile .im2col_no_offs; completion .bulk_group; hint? .L2::cache_hint",
       "m, m, a?:.b64",
       "8.0 sm_90",
       {},
       {{"im2col-dims", "mode=.im2col_no_offs => dim=.3d,.4d,.5d",
         ".im2col_no_offs needs 3 to 5 dimensions"}}},
      {"cp.async.bulk.prefetch.tensor",
       "9.7.9.25.5.4",
       "dim .1d .2d .3d .4d .5d; level .L2; src .global; mode? .tile .tile::gather4 .im2col "
       ".im2col::w .im2col::w::128; "
       "hint? .L2::cache_hint",
       "m, z?, a?:.b64",
       "8.0 sm_90",
       {{"mode=.tile::gather4,.im2col::w,.im2col::w::128", "8.6 sm_100a sm_110a sm_100f sm_110f"}},
       {{"im2col-dims", "mode=.im2col,.im2col::w,.im2col::w::128 => dim=.3d,.4d,.5d",
         "im2col modes need 3 to 5 dimensions"},
        {"gather-2d", "mode=.tile::gather4 => dim=.2d", ".tile::gather4 needs .2d"}}},
      {"cp.async.bulk.commit_group", "9.7.9.25.6.1", "", "", "8.0 sm_90"},
      {"cp.async.bulk.wait_group", "9.7.9.25.6.2", "read? .read", "i", "8.0 sm_90"},
      {"tensormap.replace",
       "9.7.9.26",
       "mode .tile; field .global_address .rank .box_dim .global_dim .global_stride "
       ".element_stride .elemtype "
       ".interleave_layout .swizzle_mode .swizzle_atomicity .fill_mode; ss? .global .shared::cta; "
       "size .b1024; type .b32 .b64",
       "m, i?[field=.box_dim,.global_dim,.global_stride,.element_stride], a:type",
       "8.3 sm_90a sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f",
       {{"field=.swizzle_atomicity", "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"}},
       {{"field-type",
         "(field=.global_address,.global_stride => type=.b64) && "
         "(field!=.global_address,.global_stride => type=.b32)",
         ".global_address and .global_stride are .b64; the other fields .b32"}}},
  };
}

} // namespace ptxvm::isa::rows
