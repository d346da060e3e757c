// Logic and shift instructions (PTX §9.7.8), 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

std::vector<Row> logic() {
  return {
      {"and", "9.7.8.1", "type .pred .b16 .b32 .b64", "d:type, a:type, a:type", "1.0 sm_20"},
      {"or", "9.7.8.2", "type .pred .b16 .b32 .b64", "d:type, a:type, a:type", "1.0 sm_20"},
      {"xor", "9.7.8.3", "type .pred .b16 .b32 .b64", "d:type, a:type, a:type", "1.0 sm_20"},
      {"not", "9.7.8.4", "type .pred .b16 .b32 .b64", "d:type, a:type", "1.0 sm_20"},
      {"cnot", "9.7.8.5", "type .b16 .b32 .b64", "d:type, a:type", "1.0 sm_20"},
      {"lop3",
       "9.7.8.6",
       "boolop? .or .and; type .b32",
       "t:type, a:type, a:type, a:type, i:.b32, p?boolop:.pred",
       "4.3 sm_50",
       {{"boolop", "8.2 sm_70"}}},
      {"shf", "9.7.8.7", "dir .l .r; mode .clamp .wrap; type .b32",
       "d:type, a:type, a:type, a:.u32", "3.1 sm_32"},
      {"shl", "9.7.8.8", "type .b16 .b32 .b64", "d:type, a:type, a:.u32", "1.0 sm_20"},
      {"shr", "9.7.8.9", "type @bits", "d:type, a:type, a:.u32", "1.0 sm_20"},
  };
}

} // namespace ptxvm::isa::rows
