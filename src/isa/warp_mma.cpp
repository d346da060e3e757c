// Warp-level matrix multiply-accumulate (PTX §9.7.14): wmma (004_8b65a6cd58917981.txt for
// wmma.mma), mma, ldmatrix, stmatrix, movmatrix and mma.sp (001_23fdd5978b24a3ed.txt).
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {

constexpr const char* kWmmaShapes =
    "shape .m16n16k16 .m8n32k16 .m32n8k16 .m16n16k8 .m8n8k4 .m8n8k32 .m8n8k128";
constexpr const char* kOpTypes =
    ".f16 .bf16 .tf32 .f64 .e4m3 .e5m2 .e3m2 .e2m3 .e2m1 .s8 .u8 .s4 .u4 .b1";
constexpr const char* kBlockScale =
    "kind? .kind::f8f6f4 .kind::mxf4 .kind::mxf4nvf4 .kind::mxf8f6f4; block_scale? .block_scale; "
    "scale_vec? .scale_vec::1X .scale_vec::2X .scale_vec::4X; ";

// Which shape each wmma element type takes (§9.7.14.4.3 syntax blocks).
std::vector<std::vector<std::string>> wmma_shape_rules(const std::string& t,
                                                       const std::string& f16 = ".f16,") {
  return {
      {"shape-f16-int8", t + "=" + f16 + ".s8,.u8 => shape=.m16n16k16,.m8n32k16,.m32n8k16",
       "no such wmma shape for this type"},
      {"shape-bf16", t + "=.bf16 => shape=.m16n16k16,.m8n32k16,.m32n8k16",
       "no such wmma shape for .bf16"},
      {"shape-tf32", t + "=.tf32 => shape=.m16n16k8", ".tf32 wmma is .m16n16k8"},
      {"shape-f64", t + "=.f64 => shape=.m8n8k4", ".f64 wmma is .m8n8k4"},
      {"shape-sub-byte", t + "=.s4,.u4 => shape=.m8n8k32", ".s4/.u4 wmma is .m8n8k32"},
      {"shape-b1", t + "=.b1 => shape=.m8n8k128", ".b1 wmma is .m8n8k128"},
  };
}

std::vector<std::vector<std::string>> wmma_variants(const std::string& t) {
  return {{"shape=.m8n32k16,.m32n8k16", "6.1 sm_70"},
          {t + "=.s8,.u8", "6.3 sm_72"},
          {t + "=.s4,.u4,.b1", "6.3 sm_75"},
          {t + "=.bf16,.tf32,.f64 || shape=.m16n16k8,.m8n8k4", "7.0 sm_80"},
          {"ss=.shared::cta", "7.8 sm_70"}};
}

// The type pairs of mma and mma.sp (§9.7.14.5.14, §9.7.14.6.3).
std::vector<std::vector<std::string>> mma_type_rules() {
  return {
      {"ab-pair",
       "(atype=.f16 => btype=.f16) && (atype=.bf16 => btype=.bf16) && (atype=.tf32 => btype=.tf32) "
       "&& "
       "(atype=.f64 => btype=.f64) && (atype=.b1 => btype=.b1) && (atype=.s8,.u8 => btype=.s8,.u8) "
       "&& "
       "(atype=.s4,.u4 => btype=.s4,.u4) && (atype=.e4m3,.e5m2,.e3m2,.e2m3,.e2m1 => "
       "btype=.e4m3,.e5m2,.e3m2,.e2m3,.e2m1)",
       "A and B must be of one type class"},
      {"cd-f32", "atype=.bf16,.tf32 => dtype=.f32 && ctype=.f32", ".bf16/.tf32 accumulate in .f32"},
      {"cd-f64",
       "(atype=.f64 => dtype=.f64 && ctype=.f64) && (dtype=.f64 || ctype=.f64 => atype=.f64)",
       ".f64 mma is all .f64"},
      {"cd-int",
       "(atype=.s8,.u8,.s4,.u4,.b1 => dtype=.s32 && ctype=.s32) && (dtype=.s32 || ctype=.s32 => "
       "atype=.s8,.u8,.s4,.u4,.b1)",
       "integer mma accumulates in .s32"},
      {"satfinite-int", "satfinite => atype=.s8,.u8,.s4,.u4",
       ".satfinite applies to .s8/.u8/.s4/.u4 mma"},
      {"b1-op", "(atype=.b1 => bitop && popc) && (bitop || popc => atype=.b1)",
       ".b1 mma needs .xor or .and with .popc"},
      {"rnd-f64", "rnd => atype=.f64", "rounding applies to .f64 mma"},
      {"f6f4-kind", "atype=.e3m2,.e2m3,.e2m1 || btype=.e3m2,.e2m3,.e2m1 => kind",
       ".e3m2/.e2m3/.e2m1 need a .kind"},
      {"kind-types", "kind=.kind::f8f6f4,.kind::mxf8f6f4 => atype=.e4m3,.e5m2,.e3m2,.e2m3,.e2m1",
       ".kind::f8f6f4 takes fp8/fp6/fp4 operands"},
      {"mxf4-types", "kind=.kind::mxf4,.kind::mxf4nvf4 => atype=.e2m1 && btype=.e2m1",
       ".kind::mxf4* takes .e2m1 operands"},
      {"block-scale",
       "(kind=.kind::mxf4,.kind::mxf4nvf4,.kind::mxf8f6f4 => block_scale && stype && dtype=.f32 && "
       "ctype=.f32) && "
       "(block_scale || stype || scale_vec => kind=.kind::mxf4,.kind::mxf4nvf4,.kind::mxf8f6f4)",
       "block-scaled kinds need .block_scale, a scale type and .f32 D/C"},
      {"scale-vec",
       "(kind=.kind::mxf8f6f4 => scale_vec!=.scale_vec::2X,.scale_vec::4X && stype=.ue8m0) && "
       "(kind=.kind::mxf4 => scale_vec!=.scale_vec::1X,.scale_vec::4X && stype=.ue8m0) && "
       "(kind=.kind::mxf4nvf4 => scale_vec=.scale_vec::2X,.scale_vec::4X) && "
       "(stype=.ue4m3 => scale_vec=.scale_vec::4X) && (scale_vec=.scale_vec::4X => stype=.ue4m3)",
       "no such .scale_vec and scale type for this .kind"},
  };
}

} // namespace

std::vector<Row> warp_mma() {
  const std::string wmma_load_axes =
      std::string("frag .a .b .c; sync .sync; aligned .aligned; layout .row .col; ") + kWmmaShapes +
      "; ss? .global .shared .shared::cta; type .f16 .s8 .u8 .f32 .s32 .bf16 .tf32 .f64 .s4 .u4 "
      ".b1";
  auto load_rules = wmma_shape_rules("type");
  load_rules.push_back({"frag-types",
                        "(frag=.c => type=.f16,.f32,.s32,.f64) && (frag=.a,.b => type!=.f32,.s32)",
                        "accumulator fragments are .f16/.f32/.s32/.f64; A and B the input types"});
  load_rules.push_back({"c-shape",
                        "frag=.c && type=.f32 => shape=.m16n16k16,.m8n32k16,.m32n8k16,.m16n16k8",
                        "no such shape for a .f32 accumulator"});
  load_rules.push_back(
      {"c-s32-shape",
       "frag=.c && type=.s32 => shape=.m16n16k16,.m8n32k16,.m32n8k16,.m8n8k32,.m8n8k128",
       "no such shape for a .s32 accumulator"});
  load_rules.push_back({"sub-byte-layout",
                        "type=.s4,.u4,.b1 => (frag=.a => layout=.row) && (frag=.b => layout=.col)",
                        "sub-byte A is .row and B is .col"});
  const std::string wmma_store_axes =
      std::string("frag .d; sync .sync; aligned .aligned; layout .row .col; ") + kWmmaShapes +
      "; ss? .global .shared .shared::cta; type .f16 .f32 .s32 .f64";
  const std::string wmma_mma_axes =
      std::string("op? .xor .and; popc? .popc; sync .sync; aligned .aligned; alayout .row .col; "
                  "blayout .row .col; ") +
      kWmmaShapes +
      "; rnd? .rn .rz .rm .rp; dtype .f16 .f32 .s32 .f64; atype? .s8 .u8 .bf16 .tf32 .f64 .s4 .u4 "
      ".b1; "
      "btype? .s8 .u8 .bf16 .tf32 .f64 .s4 .u4 .b1; ctype .f16 .f32 .s32 .f64; satfinite? "
      ".satfinite";
  auto mma_rules = wmma_shape_rules("atype", "");
  mma_rules.push_back(
      {"f16-shape",
       "!atype => shape=.m16n16k16,.m8n32k16,.m32n8k16 && dtype=.f16,.f32 && ctype=.f16,.f32",
       ".f16 wmma.mma is .m16n16k16/.m8n32k16/.m32n8k16 with .f16/.f32 D and C"});
  mma_rules.push_back({"ab-pair",
                       "(atype => btype) && (btype => atype) && (atype=.bf16 => btype=.bf16) && "
                       "(atype=.tf32 => btype=.tf32) && "
                       "(atype=.f64 => btype=.f64) && (atype=.b1 => btype=.b1) && (atype=.s8 => "
                       "btype=.s8) && (atype=.u8 => btype=.u8) && "
                       "(atype=.s4 => btype=.s4) && (atype=.u4 => btype=.u4)",
                       "A and B have one type"});
  mma_rules.push_back({"cd-types",
                       "(atype=.s8,.u8,.s4,.u4,.b1 => dtype=.s32 && ctype=.s32) && "
                       "(atype=.bf16,.tf32 => dtype=.f32 && ctype=.f32) && "
                       "(atype=.f64 => dtype=.f64 && ctype=.f64) && (dtype=.s32,.f64 => atype)",
                       "no such D and C types for these inputs"});
  mma_rules.push_back({"b1-op", "(atype=.b1 => op && popc) && (op || popc => atype=.b1)",
                       ".b1 wmma.mma needs .xor or .and with .popc"});
  mma_rules.push_back({"sub-byte-layout", "atype=.s4,.u4,.b1 => alayout=.row && blayout=.col",
                       "sub-byte wmma.mma is .row.col"});
  mma_rules.push_back({"rnd-f64", "rnd => atype=.f64", "rounding applies to .f64 wmma.mma"});
  mma_rules.push_back(
      {"satfinite-int", "satfinite => atype=.s8,.u8,.s4,.u4",
       ".satfinite applies to integer wmma.mma (removed for floating point in PTX ISA 6.5)"});

  const std::string mma_axes =
      std::string("sync .sync; aligned .aligned; shape .m8n8k4 .m16n8k4 .m16n8k8 .m16n8k16 "
                  ".m16n8k32 .m16n8k64 .m8n8k16 .m8n8k32 "
                  ".m8n8k128 .m16n8k128 .m16n8k256; alayout .row .col; blayout .row .col; ") +
      kBlockScale + "satfinite? .satfinite; dtype .f16 .f32 .f64 .s32; atype " + kOpTypes +
      "; btype " + kOpTypes +
      "; ctype .f16 .f32 .f64 .s32; stype? .ue8m0 .ue4m3; bitop? .xor .and; popc? .popc; rnd? .rn "
      ".rz .rm .rp";
  auto mma_shape_rules = mma_type_rules();
  mma_shape_rules.push_back(
      {"shape-type",
       "(atype=.f16 => shape=.m8n8k4,.m16n8k8,.m16n8k16) && (atype=.bf16 => "
       "shape=.m16n8k8,.m16n8k16) && "
       "(atype=.tf32 => shape=.m16n8k4,.m16n8k8) && (atype=.f64 => "
       "shape=.m8n8k4,.m16n8k4,.m16n8k8,.m16n8k16) && "
       "(atype=.s8,.u8 => shape=.m8n8k16,.m16n8k16,.m16n8k32) && (atype=.s4,.u4 => "
       "shape=.m8n8k32,.m16n8k32,.m16n8k64) && "
       "(atype=.b1 => shape=.m8n8k128,.m16n8k128,.m16n8k256) && "
       "(atype=.e4m3,.e5m2,.e3m2,.e2m3,.e2m1 && !kind => shape=.m16n8k16,.m16n8k32) && "
       "(kind=.kind::f8f6f4,.kind::mxf8f6f4 => shape=.m16n8k32) && "
       "(kind=.kind::mxf4,.kind::mxf4nvf4 => shape=.m16n8k64)",
       "no such mma shape for this type (§9.7.14.5.14 lists each type's shapes)"});
  mma_shape_rules.push_back({"layout",
                             "!(shape=.m8n8k4 && atype=.f16) => alayout=.row && blayout=.col",
                             "only .m8n8k4 with .f16 takes other layouts than .row.col"});
  mma_shape_rules.push_back({"f16-cd", "atype=.f16 && shape!=.m8n8k4 => (dtype=.f16 => ctype=.f16)",
                             "an .f16 D needs an .f16 C"});
  std::vector<std::vector<std::string>> mma_variants = {
      {"atype=.f16 && shape=.m16n8k8", "6.5 sm_75"},
      {"atype=.s8,.u8 && shape=.m8n8k16", "6.5 sm_75"},
      {"atype=.s4,.u4 && shape=.m8n8k32", "6.5 sm_75"},
      {"atype=.b1 && shape=.m8n8k128", "7.0 sm_75"},
      {"(atype=.f64 && shape=.m8n8k4) || (atype=.f16 && shape=.m16n8k16) || atype=.bf16,.tf32",
       "7.0 sm_80"},
      {"(atype=.s8,.u8,.s4,.u4,.b1) && shape!=.m8n8k16,.m8n8k32,.m8n8k128", "7.0 sm_80"},
      {"bitop=.and", "7.1 sm_80"},
      {"atype=.f64 && shape!=.m8n8k4", "7.8 sm_90"},
      {"atype=.e4m3,.e5m2", "8.4 sm_89"},
      {"atype=.e4m3,.e5m2 && (shape=.m16n8k16 || dtype=.f16)", "8.7 sm_89"},
      {"atype=.e3m2,.e2m3,.e2m1 || btype=.e3m2,.e2m3,.e2m1 || kind", "8.7 sm_120a sm_120f"}};
  const std::string sp_axes =
      std::string("sync .sync; aligned .aligned; shape .m16n8k8 .m16n8k16 .m16n8k32 .m16n8k64 "
                  ".m16n8k128; alayout .row; blayout .col; ") +
      kBlockScale + "satfinite? .satfinite; dtype .f16 .f32 .f64 .s32; atype " + kOpTypes +
      "; btype " + kOpTypes + "; ctype .f16 .f32 .f64 .s32; stype? .ue8m0 .ue4m3";
  auto sp_rules = mma_type_rules();
  std::erase_if(sp_rules,
                [](const auto& r) { return r[0] == "b1-op" || r[0] == "rnd-f64"; }); // no .b1, .rnd
  sp_rules.push_back({"sp-types", "atype!=.f64,.b1", "mma.sp takes no .f64 or .b1 operands"});
  sp_rules.push_back({"shape-type",
                      "(atype=.f16,.bf16 => shape=.m16n8k16,.m16n8k32) && (atype=.tf32 => "
                      "shape=.m16n8k8,.m16n8k16) && "
                      "(atype=.s8,.u8 => shape=.m16n8k32,.m16n8k64) && (atype=.s4,.u4 => "
                      "shape=.m16n8k64,.m16n8k128) && "
                      "(atype=.e4m3,.e5m2,.e3m2,.e2m3,.e2m1 && kind!=.kind::mxf4,.kind::mxf4nvf4 "
                      "=> shape=.m16n8k64) && "
                      "(kind=.kind::mxf4,.kind::mxf4nvf4 => shape=.m16n8k128)",
                      "no such mma.sp shape for this type (§9.7.14.6.3)"});
  std::vector<std::vector<std::string>> sp_variants = {
      {"atype=.e4m3,.e5m2", "8.4 sm_89"},
      {"atype=.e4m3,.e5m2 && dtype=.f16", "8.7 sm_120a sm_120f"},
      {"atype=.e3m2,.e2m3,.e2m1 || btype=.e3m2,.e2m3,.e2m1 || kind", "8.7 sm_120a sm_120f"}};
  auto sp_plain_rules = sp_rules;
  std::erase_if(sp_plain_rules, [](const auto& r) {
    return r[0] == "mxf4-types" || r[0] == "scale-vec" || r[0] == "block-scale";
  });
  sp_plain_rules.push_back(
      {"block-scale-ordered",
       "!block_scale && !stype && !scale_vec && kind!=.kind::mxf4,.kind::mxf4nvf4,.kind::mxf8f6f4",
       "block-scaled mma.sp is written mma.sp::ordered_metadata"});
  const std::string sp_ops =
      "v*, v*, v*, v*, a:.b32, i, x?block_scale:*, e?block_scale, x?block_scale:*, e?block_scale";

  return {
      {"wmma.load", "9.7.14.4.3", wmma_load_axes, "v*, m, a?:.u32", "6.0 sm_70",
       wmma_variants("type"), load_rules},
      {"wmma.store",
       "9.7.14.4.4",
       wmma_store_axes,
       "m, v*, a?:.u32",
       "6.0 sm_70",
       {{"shape=.m8n32k16,.m32n8k16", "6.1 sm_70"},
        {"type=.s32", "6.3 sm_72"},
        {"shape=.m8n8k32,.m8n8k128", "6.3 sm_75"},
        {"type=.f64 || shape=.m16n16k8,.m8n8k4", "7.0 sm_80"},
        {"ss=.shared::cta", "7.8 sm_70"}},
       {{"shape-type",
         "(type=.f16 => shape=.m16n16k16,.m8n32k16,.m32n8k16) && (type=.f64 => shape=.m8n8k4) && "
         "(type=.f32 => shape!=.m8n8k4,.m8n8k32,.m8n8k128) && (type=.s32 => "
         "shape=.m16n16k16,.m8n32k16,.m32n8k16,.m8n8k32,.m8n8k128)",
         "no such wmma.store shape for this type"}}},
      {"wmma.mma",
       "9.7.14.4.5",
       wmma_mma_axes,
       "v*, v*, v*, v*",
       "6.0 sm_70",
       {{"shape=.m8n32k16,.m32n8k16", "6.1 sm_70"},
        {"atype=.s8,.u8", "6.3 sm_72"},
        {"atype=.s4,.u4,.b1", "6.3 sm_75"},
        {"atype=.bf16,.tf32,.f64", "7.0 sm_80"},
        {"op=.and", "7.1 sm_80"}},
       mma_rules,
       Spec::Wmma},
      {"mma", "9.7.14.5.14", mma_axes,
       "v*, v*, v*, v*, x?block_scale:*, e?block_scale, x?block_scale:*, e?block_scale",
       "6.4 sm_70", mma_variants, mma_shape_rules},
      {"ldmatrix",
       "9.7.14.5.15",
       "sync .sync; aligned .aligned; shape .m8n8 .m16n16 .m8n16; num .x1 .x2 .x4; trans? .trans; "
       "ss? .shared .shared::cta; "
       "type .b16 .b8 .b8x16; src_fmt? .b6x16_p32 .b4x16_p64",
       "v*, m",
       "6.5 sm_75",
       {{"ss=.shared::cta", "7.8 sm_75"},
        {"shape=.m16n16,.m8n16 || type=.b8,.b8x16 || src_fmt",
         "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"}},
       {{"m8n8-b16", "shape=.m8n8 => type=.b16 && !src_fmt", ".m8n8 loads .b16"},
        {"fmt-pair", "(type=.b8x16 => src_fmt) && (src_fmt => type=.b8x16)",
         ".b8x16 goes with a source format"},
        {"m8n16-form", "shape=.m8n16 => type=.b8x16 && !trans",
         ".m8n16 loads .b8x16 without .trans"},
        {"m16n16-form", "shape=.m16n16 => trans && type=.b8,.b8x16 && num!=.x4",
         ".m16n16 loads .x1/.x2 of .b8 or .b8x16 with .trans"}}},
      {"stmatrix",
       "9.7.14.5.16",
       "sync .sync; aligned .aligned; shape .m8n8 .m16n8; num .x1 .x2 .x4; trans? .trans; ss? "
       ".shared .shared::cta; type .b16 .b8",
       "m, v*",
       "7.8 sm_90",
       {{"shape=.m16n8 || type=.b8", "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"}},
       {{"shape-type", "(shape=.m8n8 => type=.b16) && (shape=.m16n8 => type=.b8 && trans)",
         "no such stmatrix shape and type"}}},
      {"movmatrix", "9.7.14.5.17",
       "sync .sync; aligned .aligned; shape .m8n8; trans .trans; type .b16", "d:.b32, a:.b32",
       "7.8 sm_75"},
      {"mma.sp", "9.7.14.6.3", sp_axes, sp_ops, "7.1 sm_80", sp_variants, sp_plain_rules},
      {"mma.sp::ordered_metadata", "9.7.14.6.3", sp_axes, sp_ops, "8.5 sm_80", sp_variants,
       sp_rules},
  };
}

} // namespace ptxvm::isa::rows
