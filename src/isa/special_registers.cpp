#include "isa/special_registers.h"

#include <charconv>

namespace ptxvm::isa {
namespace {

// PTX §10 (001_23fdd5978b24a3ed.txt), one row per register or numbered family.
constexpr SpecialRegister kRegisters[] = {
    {"%tid", "10.1", ".v4.u32", SpecialReg::Tid},
    {"%ntid", "10.2", ".v4.u32", SpecialReg::Ntid},
    {"%laneid", "10.3", ".u32", SpecialReg::Laneid},
    {"%warpid", "10.4", ".u32", SpecialReg::Warpid},
    {"%nwarpid", "10.5", ".u32", SpecialReg::Nwarpid},
    {"%ctaid", "10.6", ".v4.u32", SpecialReg::Ctaid},
    {"%nctaid", "10.7", ".v4.u32", SpecialReg::Nctaid},
    {"%smid", "10.8", ".u32", SpecialReg::Smid},
    {"%nsmid", "10.9", ".u32", SpecialReg::Nsmid},
    {"%gridid", "10.10", ".u64", SpecialReg::Gridid},
    {"%is_explicit_cluster", "10.11", ".pred", SpecialReg::IsExplicitCluster},
    {"%clusterid", "10.12", ".v4.u32", SpecialReg::Clusterid},
    {"%nclusterid", "10.13", ".v4.u32", SpecialReg::Nclusterid},
    {"%cluster_ctaid", "10.14", ".v4.u32", SpecialReg::ClusterCtaid},
    {"%cluster_nctaid", "10.15", ".v4.u32", SpecialReg::ClusterNctaid},
    {"%cluster_ctarank", "10.16", ".u32", SpecialReg::ClusterCtarank},
    {"%cluster_nctarank", "10.17", ".u32", SpecialReg::ClusterNctarank},
    {"%lanemask_eq", "10.18", ".u32", SpecialReg::LanemaskEq},
    {"%lanemask_le", "10.19", ".u32", SpecialReg::LanemaskLe},
    {"%lanemask_lt", "10.20", ".u32", SpecialReg::LanemaskLt},
    {"%lanemask_ge", "10.21", ".u32", SpecialReg::LanemaskGe},
    {"%lanemask_gt", "10.22", ".u32", SpecialReg::LanemaskGt},
    {"%clock", "10.23", ".u32", SpecialReg::Clock},
    {"%clock_hi", "10.23", ".u32", SpecialReg::ClockHi},
    {"%clock64", "10.24", ".u64", SpecialReg::Clock64},
    {"%pm", "10.25", ".u32", SpecialReg::Pm, 8},
    {"%envreg", "10.27", ".b32", SpecialReg::Envreg, 32},
    {"%globaltimer", "10.28", ".u64", SpecialReg::Globaltimer},
    {"%globaltimer_lo", "10.28", ".u32", SpecialReg::GlobaltimerLo},
    {"%globaltimer_hi", "10.28", ".u32", SpecialReg::GlobaltimerHi},
    {"%reserved_smem_offset_begin", "10.29", ".b32", SpecialReg::ReservedSmemBegin},
    {"%reserved_smem_offset_end", "10.29", ".b32", SpecialReg::ReservedSmemEnd},
    {"%reserved_smem_offset_cap", "10.29", ".b32", SpecialReg::ReservedSmemCap},
    {"%reserved_smem_offset_", "10.29", ".b32", SpecialReg::ReservedSmemOffset, 2},
    {"%total_smem_size", "10.30", ".u32", SpecialReg::TotalSmemSize},
    {"%aggr_smem_size", "10.31", ".u32", SpecialReg::AggrSmemSize},
    {"%dynamic_smem_size", "10.32", ".u32", SpecialReg::DynamicSmemSize},
    {"%current_graph_exec", "10.33", ".u64", SpecialReg::CurrentGraphExec},
    {"WARP_SZ", "4.5.1", ".u32", SpecialReg::WarpSz},
};

// %pm0_64 .. %pm7_64 (§10.26).
constexpr SpecialRegister kPm64 = {"%pm_64", "10.26", ".u64", SpecialReg::Pm64, 8};

bool parse_index(std::string_view digits, uint32_t count) {
  uint32_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return ec == std::errc() && end == digits.data() + digits.size() && v < count &&
         (digits.size() == 1 || digits[0] != '0');
}

}  // namespace

const SpecialRegister* find_special_register(std::string_view name) {
  for (const SpecialRegister& r : kRegisters) {
    if (r.count == 0) {
      if (name == r.name) return &r;
    } else if (name.size() > r.name.size() && name.substr(0, r.name.size()) == r.name &&
               parse_index(name.substr(r.name.size()), r.count)) {
      return &r;
    }
  }
  if (name.size() > 6 && name.substr(0, 3) == "%pm" && name.substr(name.size() - 3) == "_64" &&
      parse_index(name.substr(3, name.size() - 6), kPm64.count))
    return &kPm64;
  return nullptr;
}

}  // namespace ptxvm::isa
