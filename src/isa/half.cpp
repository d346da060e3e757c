// Half-precision (PTX §9.7.4) and mixed-precision (§9.7.5) floating point,
// 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {
// add/sub/mul: add{.rnd}{.ftz}{.sat}.f16[x2], add{.rnd}.bf16[x2].
Row arith(const char* m, const char* sec) {
  return {m,
          sec,
          "rnd? .rn*; ftz? .ftz; sat? .sat; type .f16 .f16x2 .bf16 .bf16x2",
          "d:type, a:type, a:type",
          "4.2 sm_53",
          {{"type=.bf16,.bf16x2", "7.8 sm_90"}},
          {{"bf16-plain", "type=.bf16,.bf16x2 => !ftz && !sat",
            ".ftz and .sat do not apply to .bf16 types"}}};
}
Row minmax(const char* m, const char* sec) {
  return {
      m,
      sec,
      "ftz? .ftz; nan? .NaN; xorsign? .xorsign; abs? .abs; type .f16 .f16x2 .bf16 .bf16x2",
      "d:type, a:type, a:type",
      "7.0 sm_80",
      {{"xorsign", "7.2 sm_86"}},
      {{"bf16-no-ftz", "type=.bf16,.bf16x2 => !ftz", ".ftz does not apply to .bf16 types"},
       {"xorsign-abs", "(xorsign => abs) && (abs => xorsign)", ".xorsign and .abs go together"}}};
}
Row negabs(const char* m, const char* sec, const char* since) {
  return {m,
          sec,
          "ftz? .ftz; type .f16 .f16x2 .bf16 .bf16x2",
          "d:type, a:type",
          since,
          {{"type=.bf16,.bf16x2", "7.0 sm_80"}},
          {{"bf16-no-ftz", "type=.bf16,.bf16x2 => !ftz", ".ftz does not apply to .bf16 types"}}};
}
Row mixed(const char* m, const char* sec) {
  return {m, sec, "rnd? .rn .rz .rm .rp; sat? .sat; dtype .f32; atype .f16 .bf16",
          "d:dtype, a:atype, a:dtype", "8.6 sm_100"};
}
} // namespace

std::vector<Row> half() {
  return {
      arith("add", "9.7.4.1"),
      arith("sub", "9.7.4.2"),
      arith("mul", "9.7.4.3"),
      {"fma",
       "9.7.4.4",
       "rnd .rn; ftz? .ftz; sat? .sat; oob? .oob; relu? .relu; type .f16 .f16x2 .bf16 .bf16x2",
       "d:type, a:type, a:type, a:type",
       "4.2 sm_53",
       {{"relu || type=.bf16,.bf16x2", "7.0 sm_80"}, {"oob", "8.1 sm_90"}},
       {{"bf16-no-ftz-sat", "type=.bf16,.bf16x2 => !ftz && !sat",
         ".ftz and .sat do not apply to .bf16 types"},
        {"relu-no-sat", "relu => !sat", ".relu and .sat exclude each other"},
        {"oob-plain", "oob => !ftz && !sat", ".oob takes no .ftz or .sat"}}},
      negabs("neg", "9.7.4.5", "6.0 sm_53"),
      negabs("abs", "9.7.4.6", "6.5 sm_53"),
      minmax("min", "9.7.4.7"),
      minmax("max", "9.7.4.8"),
      {"tanh",
       "9.7.4.9",
       "approx .approx; type .f16 .f16x2 .bf16 .bf16x2",
       "d:type, a:type",
       "7.0 sm_75",
       {{"type=.bf16,.bf16x2", "7.8 sm_90"}}},
      {"ex2",
       "9.7.4.10",
       "approx .approx; ftz? .ftz; type .f16 .f16x2 .bf16 .bf16x2",
       "d:type, a:type",
       "7.0 sm_75",
       {{"type=.bf16,.bf16x2", "7.8 sm_90"}},
       {{"ftz-bf16", "(ftz => type=.bf16,.bf16x2) && (type=.bf16,.bf16x2 => ftz)",
         "ex2.approx takes .ftz exactly with .bf16 and .bf16x2"}}},
      mixed("add", "9.7.5.1"),
      mixed("sub", "9.7.5.2"),
      // The syntax lists {.ftz}; ptxas 13.0 refuses it ("Illegal modifier '.ftz'"), and so do we.
      {"fma", "9.7.5.3", "rnd .rn .rz .rm .rp; sat? .sat; dtype .f32; atype .f16 .bf16",
       "d:dtype, a:atype, a:atype, a:dtype", "8.6 sm_100"},
  };
}

} // namespace ptxvm::isa::rows
