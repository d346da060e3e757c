// Texture (PTX §9.7.10) and surface (§9.7.11) instructions, 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

std::vector<Row> texture() {
  return {
      {"tex",
       "9.7.10.3",
       "mip? .base .level .grad; geom .1d .2d .3d .a1d .a2d .cube .acube .2dms .a2dms; vec .v4 "
       ".v2; "
       "dtype .u32 .s32 .f16 .f32 .f16x2; ctype .s32 .f32",
       "z, m, z?, z?, z?, z?",
       "1.0 sm_20",
       {{"dtype=.f16,.f16x2", "4.2 sm_53"},
        {"geom=.2dms,.a2dms", "3.2 sm_30"},
        {"mip", "3.1 sm_20"}},
       {{"v2-f16x2", "(vec=.v2 => dtype=.f16x2) && (dtype=.f16x2 => vec=.v2)",
         ".f16x2 results are .v2; others .v4"},
        {"cube-f32", "geom=.cube,.acube => ctype=.f32", ".cube and .acube need .f32 coordinates"},
        {"ms-s32", "geom=.2dms,.a2dms => ctype=.s32 && !mip",
         "multisample textures need .s32 coordinates"}}},
      {"tld4",
       "9.7.10.4",
       "comp .r .g .b .a; geom .2d .a2d .cube .acube; vec .v4; dtype .u32 .s32 .f32; ctype .f32",
       "z, m, z?, z?",
       "2.2 sm_20",
       {{"geom=.a2d,.cube,.acube", "4.3 sm_30"}}},
      {"txq",
       "9.7.10.5",
       "level? .level; query .width .height .depth .channel_data_type .channel_order "
       ".normalized_coords .array_size "
       ".num_mipmap_levels .num_samples .force_unnormalized_coords .filter_mode .addr_mode_0 "
       ".addr_mode_1 .addr_mode_2; type .b32",
       "d:.b32, m, a?level:.s32",
       "1.5 sm_20",
       {{"level", "4.3 sm_30"}},
       {{"level-queries", "level => query=.width,.height,.depth",
         "txq.level queries .width, .height or .depth"}}},
      {"istypep", "9.7.10.6", "type .texref .samplerref .surfref", "d:.pred, s", "4.0 sm_30"},
      {"suld.b", "9.7.11.1",
       "geom .1d .2d .3d .a1d .a2d; cop? .ca .cg .cs .cv; vec? .v2 .v4; type .b8 .b16 .b32 .b64; "
       "clamp .trap .clamp .zero",
       "x:~type, m", "1.5 sm_20"},
      {"sust.b", "9.7.11.2",
       "geom .1d .2d .3d .a1d .a2d; cop? .wb .cg .cs .wt; vec? .v2 .v4; type .b8 .b16 .b32 .b64; "
       "clamp .trap .clamp .zero",
       "m, x:~type", "1.5 sm_20"},
      // ptxas (CUDA 13) also takes the array geometries §9.7.11.2 leaves out of sust.p's syntax.
      {"sust.p", "9.7.11.2", "geom .1d .2d .3d .a1d .a2d; vec? .v2 .v4; type .b32; clamp .trap .clamp .zero",
       "m, x:type", "2.0 sm_20"},
      {"sured.b",
       "9.7.11.3",
       "op .add .min .max .and .or; geom .1d .2d .3d; type .u32 .u64 .s32 .b32 .s64; clamp .trap "
       ".clamp .zero",
       "m, a:type",
       "2.0 sm_20",
       {{"type=.u64,.s64 && op=.min,.max", "8.1 sm_50"}}},
      {"sured.p",
       "9.7.11.3",
       "op .add .min .max .and .or; geom .1d .2d .3d; type .b32 .b64; clamp .trap .clamp .zero",
       "m, a:type",
       "2.0 sm_20",
       {{"type=.b64 && op=.min,.max", "8.1 sm_50"}}},
      {"suq", "9.7.11.4",
       "query .width .height .depth .channel_data_type .channel_order .array_size .memory_layout; "
       "type .b32",
       "d:.b32, m", "1.5 sm_20"},
  };
}

} // namespace ptxvm::isa::rows
