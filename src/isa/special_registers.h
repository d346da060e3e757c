// Predefined identifiers: the special registers of PTX §10 and the constant WARP_SZ (§4.5.1), as
// one table that the checker (names) and lowering (which register an operand reads) share.
#pragma once

#include <cstdint>
#include <string_view>

namespace ptxvm::isa {

// What the engine reads for a special register (exec/warp.cpp Warp::special).
enum class SpecialReg : uint8_t {
  Tid, Ntid, Laneid, Warpid, Nwarpid, Ctaid, Nctaid, Smid, Nsmid, Gridid, LanemaskEq, LanemaskLe,
  LanemaskLt, LanemaskGe, LanemaskGt, Clock, ClockHi, Clock64, Globaltimer, GlobaltimerLo,
  GlobaltimerHi, DynamicSmemSize, TotalSmemSize, AggrSmemSize, Envreg, Pm, Pm64, IsExplicitCluster,
  Clusterid, Nclusterid, ClusterCtaid, ClusterNctaid, ClusterCtarank, ClusterNctarank,
  ReservedSmemBegin, ReservedSmemEnd, ReservedSmemCap, ReservedSmemOffset, CurrentGraphExec,
  WarpSz,  // WARP_SZ: a constant (32), not a register
};

struct SpecialRegister {
  std::string_view name;     // `%tid`, or a prefix such as `%envreg` for numbered families
  std::string_view section;  // §10.x of 001_23fdd5978b24a3ed.txt
  std::string_view type;     // `.u32`, `.u64`, `.v4.u32` for registers read with .x/.y/.z
  SpecialReg id;
  uint32_t count = 0;        // numbered family: `%envreg` with count 32 is %envreg0..%envreg31
};

// The special register `name` names (e.g. `%ctaid`, `%envreg7`, `%pm3_64`), or null.
const SpecialRegister* find_special_register(std::string_view name);

}  // namespace ptxvm::isa
