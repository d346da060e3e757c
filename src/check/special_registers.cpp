#include "check/special_registers.h"

#include <charconv>

namespace ptxvm::check {
namespace {

// PTX §10 (001_23fdd5978b24a3ed.txt), one row per register or numbered family.
constexpr SpecialRegister kRegisters[] = {
    {"%tid", "10.1", ".v4.u32"},
    {"%ntid", "10.2", ".v4.u32"},
    {"%laneid", "10.3", ".u32"},
    {"%warpid", "10.4", ".u32"},
    {"%nwarpid", "10.5", ".u32"},
    {"%ctaid", "10.6", ".v4.u32"},
    {"%nctaid", "10.7", ".v4.u32"},
    {"%smid", "10.8", ".u32"},
    {"%nsmid", "10.9", ".u32"},
    {"%gridid", "10.10", ".u64"},
    {"%is_explicit_cluster", "10.11", ".pred"},
    {"%clusterid", "10.12", ".v4.u32"},
    {"%nclusterid", "10.13", ".v4.u32"},
    {"%cluster_ctaid", "10.14", ".v4.u32"},
    {"%cluster_nctaid", "10.15", ".v4.u32"},
    {"%cluster_ctarank", "10.16", ".u32"},
    {"%cluster_nctarank", "10.17", ".u32"},
    {"%lanemask_eq", "10.18", ".u32"},
    {"%lanemask_le", "10.19", ".u32"},
    {"%lanemask_lt", "10.20", ".u32"},
    {"%lanemask_ge", "10.21", ".u32"},
    {"%lanemask_gt", "10.22", ".u32"},
    {"%clock", "10.23", ".u32"},
    {"%clock_hi", "10.23", ".u32"},
    {"%clock64", "10.24", ".u64"},
    {"%pm", "10.25", ".u32", 8},
    {"%envreg", "10.27", ".b32", 32},
    {"%globaltimer", "10.28", ".u64"},
    {"%globaltimer_lo", "10.28", ".u32"},
    {"%globaltimer_hi", "10.28", ".u32"},
    {"%reserved_smem_offset_begin", "10.29", ".b32"},
    {"%reserved_smem_offset_end", "10.29", ".b32"},
    {"%reserved_smem_offset_cap", "10.29", ".b32"},
    {"%reserved_smem_offset_", "10.29", ".b32", 2},
    {"%total_smem_size", "10.30", ".u32"},
    {"%aggr_smem_size", "10.31", ".u32"},
    {"%dynamic_smem_size", "10.32", ".u32"},
    {"%current_graph_exec", "10.33", ".u64"},
    {"WARP_SZ", "4.5.1", ".u32"},
};

// %pm0_64 .. %pm7_64 (§10.26).
constexpr SpecialRegister kPm64 = {"%pm_64", "10.26", ".u64", 8};

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

}  // namespace ptxvm::check
