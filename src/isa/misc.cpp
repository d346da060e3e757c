// Miscellaneous instructions (PTX §9.7.19), 000_70a4b524dfe259fa.txt and 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

std::vector<Row> misc() {
  return {
      {"brkpt", "9.7.19.1", "", "", "1.0 sm_20"},
      {"nanosleep", "9.7.19.2", "type .u32", "a:.u32", "6.3 sm_70"},
      {"pmevent", "9.7.19.3", "mask? .mask", "i", "1.4 sm_20", {{"mask", "3.0 sm_20"}}},
      {"trap", "9.7.19.4", "", "", "1.0 sm_20"},
      {"setmaxnreg",
       "9.7.19.5",
       "action .inc .dec; sync .sync; aligned .aligned; type .u32",
       "i",
       "8.0 sm_90a sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f",
       {},
       {},
       Spec::Tcgen05},
  };
}

} // namespace ptxvm::isa::rows
