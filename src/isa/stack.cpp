// Stack manipulation (PTX §9.7.17), 000_70a4b524dfe259fa.txt and 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

std::vector<Row> stack() {
  return {
      {"stacksave", "9.7.17.1", "type .u32 .u64", "d:type", "7.3 sm_52"},
      {"stackrestore", "9.7.17.2", "type .u32 .u64", "a:type", "7.3 sm_52"},
      {"alloca", "9.7.17.3", "type .u32 .u64", "d:type, a:type, i?:*", "7.3 sm_52"},
  };
}

} // namespace ptxvm::isa::rows
