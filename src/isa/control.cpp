// Control flow (PTX §9.7.12), 001_23fdd5978b24a3ed.txt. `{}` and `@p` are syntax, not rows.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

std::vector<Row> control() {
  return {
      {"bra", "9.7.12.3", "uni? .uni", "l", "1.0 sm_20"},
      {"brx.idx", "9.7.12.4", "uni? .uni", "a:.u32, l", "6.0 sm_30"},
      // call (ret), func, (params)[, flist|fproto]: the argument lists are checked against the
      // prototype by src/check.
      {"call", "9.7.12.5", "uni? .uni", "e, e?, e?, e?", "1.0 sm_20"},
      {"ret", "9.7.12.6", "uni? .uni", "", "1.0 sm_20"},
      {"exit", "9.7.12.7", "", "", "1.0 sm_20"},
  };
}

} // namespace ptxvm::isa::rows
