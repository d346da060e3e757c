// 5th-generation TensorCore instructions (PTX §9.7.16 as numbered in 000_70a4b524dfe259fa.txt,
// which stands over 001_… and the 003_… digest for tcgen05).
//
// M and N of tcgen05.mma live in the instruction descriptor (a register, §9.7.16.4.2 Table 39):
// they are checked when the instruction executes, not here.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {

// "Supported on sm_100a, sm_101a (sm_110a) and, from PTX ISA 8.8, sm_100f/sm_110f or higher in
// the family" — the Target ISA notes of nearly every tcgen05 instruction.
constexpr const char* kTcgen05 = "8.6 sm_100a sm_110a sm_100f sm_110f";
constexpr const char* kArchOnly = "8.6 sm_100a sm_110a";
constexpr const char* kCtaGroup = "cta_group .cta_group::1 .cta_group::2";
constexpr const char* kKinds = "kind .kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8 "
                               ".kind::mxf8f6f4 .kind::mxf4 .kind::mxf4nvf4";
constexpr const char* kLdShapes =
    "shape .16x64b .16x128b .16x256b .32x32b .16x32bx2; num .x1 .x2 .x4 .x8 .x16 .x32 .x64 .x128";

std::vector<std::vector<std::string>> mma_rules() {
  return {
      {"block-scale-kind",
       "(kind=.kind::mxf8f6f4,.kind::mxf4,.kind::mxf4nvf4 => block_scale) && (block_scale => "
       "kind=.kind::mxf8f6f4,.kind::mxf4,.kind::mxf4nvf4)",
       ".block_scale goes exactly with .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4"},
      {"scale-vec-kind",
       "(scale_vec=.scale_vec::1X => kind=.kind::mxf8f6f4) && (scale_vec=.scale_vec::2X => "
       "kind=.kind::mxf4,.kind::mxf4nvf4) && "
       "(scale_vec=.scale_vec::4X,.block16 => kind=.kind::mxf4nvf4) && (scale_vec=.block32 => "
       "kind=.kind::mxf8f6f4,.kind::mxf4)",
       "no such scale vector size for this .kind", "9.7.16.10.7.1"},
      {"mxf4nvf4-scale", "kind=.kind::mxf4nvf4 => scale_vec",
       ".kind::mxf4nvf4 needs a scale vector size"},
      {"ashift-collector", "ashift => collector!=.collector::a::fill,.collector::a::use",
       ".ashift cannot fill or use the A collector buffer"},
      // The syntax shows `.kind::i8.ashift`; ptxas 13.0 refuses it ("Illegal modifier '.ashift'").
      {"ashift-float", "ashift => kind!=.kind::i8", ".ashift applies to the floating-point kinds"},
  };
}

std::vector<std::vector<std::string>> mma_variants(bool sparse) {
  std::vector<std::vector<std::string>> v = {
      {"kind=.kind::mxf4nvf4", "8.7 sm_100a sm_110a sm_100f sm_110f"},
      {"scale_vec=.scale_vec::1X,.scale_vec::2X,.scale_vec::4X", kArchOnly,
       "the .scale_vec::NX forms"},
      {"scale_vec=.block16,.block32", "8.8 sm_100f sm_110f"},
      {"kind=.kind::i8", kArchOnly, "not the family targets"}};
  if (sparse)
    v.push_back({"kind=.kind::mxf4,.kind::mxf4nvf4", kArchOnly, "not the family targets"});
  return v;
}

std::string ws_collectors() {
  std::string s = "collector?";
  for (const char* b : {"b0", "b1", "b2", "b3"})
    for (const char* op : {"fill", "use", "lastuse", "discard"})
      s += std::string(" .collector::") + b + "::" + op;
  return s;
}

} // namespace

std::vector<Row> tcgen05() {
  const std::string mma_axes = std::string(kCtaGroup) + "; " + kKinds +
                               "; block_scale? .block_scale; scale_vec? .scale_vec::1X "
                               ".scale_vec::2X .scale_vec::4X .block16 .block32; "
                               "ashift? .ashift; collector? .collector::a::fill .collector::a::use "
                               ".collector::a::lastuse .collector::a::discard";
  const std::string ws_axes = std::string(kCtaGroup) +
                              "; kind .kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8; " +
                              ws_collectors();
  const std::vector<std::vector<std::string>> ws_rules = {
      {"ws-cta-group-1", "cta_group=.cta_group::1", ".ws takes only .cta_group::1"}};
  const std::vector<std::vector<std::string>> ws_variants = {
      {"kind=.kind::i8", kArchOnly, "not the family targets"}};
  return {
      {"tcgen05.alloc",
       "9.7.16.7.1",
       std::string(kCtaGroup) + "; sync .sync; aligned .aligned; ss? .shared::cta; type .b32",
       "m, a:.u32",
       kTcgen05,
       {},
       {},
       Spec::Tcgen05},
      {"tcgen05.dealloc",
       "9.7.16.7.1",
       std::string(kCtaGroup) + "; sync .sync; aligned .aligned; type .b32",
       "a:.b32, a:.u32",
       kTcgen05,
       {},
       {},
       Spec::Tcgen05},
      {"tcgen05.relinquish_alloc_permit",
       "9.7.16.7.1",
       std::string(kCtaGroup) + "; sync .sync; aligned .aligned",
       "",
       kTcgen05,
       {},
       {},
       Spec::Tcgen05},
      {"tcgen05.ld",
       "9.7.16.8.3",
       std::string("sync .sync; aligned .aligned; ") + kLdShapes + "; pack? .pack::16b; type .b32",
       "v*, m, i?[shape=.16x32bx2]",
       kTcgen05,
       {},
       {{"num-limit", "(shape=.16x128b => num!=.x128) && (shape=.16x256b => num!=.x64,.x128)",
         ".16x128b goes up to .x64 and .16x256b up to .x32"}},
       Spec::Tcgen05},
      {"tcgen05.ld.red",
       "9.7.16.8.3",
       "sync .sync; aligned .aligned; shape .32x32b .16x32bx2; num .x1 .x2 .x4 .x8 .x16 .x32 .x64 "
       ".x128; op .min .max; "
       "abs? .abs; nan? .NaN; type .f32 .u32 .s32",
       "v*, d:type, m, i?[shape=.16x32bx2]",
       "8.8 sm_110a sm_110f sm_103f",
       {},
       {{"abs-nan-f32", "abs || nan => type=.f32", ".abs and .NaN apply to .f32"},
        {"red-num", "num!=.x1", "with .red, .num must be at least .x2"}},
       Spec::Tcgen05},
      {"tcgen05.st",
       "9.7.16.8.4",
       std::string("sync .sync; aligned .aligned; ") + kLdShapes +
           "; unpack? .unpack::16b; type .b32",
       "m, i?[shape=.16x32bx2], v*",
       kTcgen05,
       {},
       {{"num-limit", "(shape=.16x128b => num!=.x128) && (shape=.16x256b => num!=.x64,.x128)",
         ".16x128b goes up to .x64 and .16x256b up to .x32"}},
       Spec::Tcgen05},
      {"tcgen05.wait::ld",
       "9.7.16.8.5",
       "sync .sync; aligned .aligned",
       "",
       kTcgen05,
       {},
       {},
       Spec::Tcgen05},
      {"tcgen05.wait::st",
       "9.7.16.8.5",
       "sync .sync; aligned .aligned",
       "",
       kTcgen05,
       {},
       {},
       Spec::Tcgen05},
      {"tcgen05.cp",
       "9.7.16.9.2",
       std::string(kCtaGroup) + "; shape .128x256b .4x256b .128x128b .64x128b .32x128b; "
                                "multicast? .warpx2::02_13 .warpx2::01_23 .warpx4; dst_fmt? "
                                ".b8x16; src_fmt? .b6x16_p32 .b4x16_p64",
       "m, a:.b64",
       kTcgen05,
       {},
       {{"shape-multicast",
         "(shape=.64x128b => multicast=.warpx2::02_13,.warpx2::01_23) && (shape=.32x128b => "
         "multicast=.warpx4) && "
         "(shape=.128x256b,.4x256b,.128x128b => !multicast)",
         ".64x128b needs .warpx2::02_13 or .warpx2::01_23, .32x128b needs .warpx4, other shapes no "
         "multicast"},
        {"fmt-pair", "(dst_fmt => src_fmt) && (src_fmt => dst_fmt)",
         "decompression names both formats"}},
       Spec::Tcgen05},
      // Architecture-specific only: sm_100a, sm_101a (sm_110a), sm_103a — no family targets.
      {"tcgen05.shift",
       "9.7.16.9.3",
       std::string(kCtaGroup) + "; dir .down",
       "m",
       "8.6 sm_100a sm_110a sm_103a",
       {},
       {},
       Spec::Tcgen05},
      {"tcgen05.mma", "9.7.16.10.9.1", mma_axes, "m, z, a:.b64, a:.b32, z, z?+block_scale, z?+block_scale", kTcgen05,
       mma_variants(false), mma_rules(), Spec::Tcgen05},
      {"tcgen05.mma.sp", "9.7.16.10.9.2", mma_axes, "m, z, a:.b64, m, a:.b32, z, z?+block_scale, z?+block_scale", kTcgen05,
       mma_variants(true), mma_rules(), Spec::Tcgen05},
      {"tcgen05.mma.ws", "9.7.16.10.9.3", ws_axes, "m, z, a:.b64, a:.b32, z, a?:.b64", kTcgen05,
       ws_variants, ws_rules, Spec::Tcgen05},
      {"tcgen05.mma.ws.sp", "9.7.16.10.9.4", ws_axes, "m, z, a:.b64, m, a:.b32, z, a?:.b64",
       kTcgen05, ws_variants, ws_rules, Spec::Tcgen05},
      {"tcgen05.fence::before_thread_sync", "9.7.16.11.1", "", "", kTcgen05, {}, {}, Spec::Tcgen05},
      {"tcgen05.fence::after_thread_sync", "9.7.16.11.1", "", "", kTcgen05, {}, {}, Spec::Tcgen05},
      {"tcgen05.commit",
       "9.7.16.12.1",
       std::string(kCtaGroup) + "; completion .mbarrier::arrive::one; ss? .shared::cluster; "
                                "multicast? .multicast::cluster; type .b64",
       "m, a?multicast:.b16",
       kTcgen05,
       {},
       {},
       Spec::Tcgen05},
  };
}

} // namespace ptxvm::isa::rows
