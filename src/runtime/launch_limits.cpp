#include "runtime/launch_limits.h"

#include <array>
#include <charconv>

namespace ptxvm::runtime {
namespace {

// Compute capabilities 7.5 to 12.x. Cluster sizes beyond 8 CTAs need a non-portable opt-in.
constexpr uint32_t kPortableClusterCtas = 8, kNonPortableClusterCtas = 16;
constexpr std::array<TargetLimits, 6> kTargets = {{
    {75, 64 * 1024, 1024, 0},
    {80, 163 * 1024, 2048, 0},
    {86, 99 * 1024, 1536, 0},  // sm_86, sm_89 (sm_87 is sm_80's)
    {90, 227 * 1024, 2048, 90},
    {100, 227 * 1024, 2048, 90},  // sm_100 ... sm_110
    {120, 99 * 1024, 1536, 90},   // sm_120, sm_121
}};

std::string dims(uint32_t x, uint32_t y, uint32_t z) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}
std::string dims(Dim3 d) { return dims(d.x, d.y, d.z); }
uint64_t count(Dim3 d) { return uint64_t{d.x} * d.y * d.z; }

}  // namespace

const TargetLimits& target_limits(const std::string& target) {
  unsigned sm = 90;
  if (target.rfind("sm_", 0) == 0) std::from_chars(target.data() + 3, target.data() + target.size(), sm);
  if (sm == 87) sm = 80;
  const TargetLimits* best = &kTargets.front();
  for (const TargetLimits& t : kTargets)
    if (t.sm <= sm) best = &t;
  return *best;
}

std::string check_launch_limits(const program::Program& program, const program::Function& kernel,
                                const LaunchConfig& c) {
  const std::string target = program.target.empty() ? "sm_90" : program.target;
  const TargetLimits& t = target_limits(target);
  const char* axis[3] = {"x", "y", "z"};
  const uint32_t grid[3] = {c.grid.x, c.grid.y, c.grid.z}, block[3] = {c.block.x, c.block.y, c.block.z};
  const uint32_t grid_max[3] = {2147483647u, 65535, 65535}, block_max[3] = {1024, 1024, 64};
  for (int i = 0; i < 3; ++i) {
    if (grid[i] < 1 || grid[i] > grid_max[i])
      return std::string("grid ") + axis[i] + " is " + std::to_string(grid[i]) + "; " + target +
             " allows 1 to " + std::to_string(grid_max[i]) + " (%nctaid." + axis[i] + ")";
    if (block[i] < 1 || block[i] > block_max[i])
      return std::string("block ") + axis[i] + " is " + std::to_string(block[i]) + "; " + target +
             " allows 1 to " + std::to_string(block_max[i]) + " (%ntid." + axis[i] + ")";
  }
  const uint64_t threads = count(c.block);
  if (threads > 1024)
    return "block " + dims(c.block) + " is " + std::to_string(threads) + " threads; a CTA of " + target +
           " holds at most 1024";
  const uint64_t shared = uint64_t{kernel.shared_bytes} + c.shared_bytes;
  if (shared > t.shared_per_cta)
    return "shared memory of " + std::to_string(shared) + " bytes (" + std::to_string(kernel.shared_bytes) +
           " static + " + std::to_string(c.shared_bytes) + " dynamic) exceeds " + target +
           "'s opt-in maximum of " + std::to_string(t.shared_per_cta) + " bytes per CTA";

  const std::string who = "kernel '" + kernel.name + "'";
  const uint32_t* n = kernel.max_ntid;
  if (n[0]) {
    const uint32_t nx = n[0], ny = n[1] ? n[1] : 1, nz = n[2] ? n[2] : 1;
    if (kernel.req_ntid && (c.block.x != nx || c.block.y != ny || c.block.z != nz))
      return who + " declares .reqntid " + dims(nx, ny, nz) + "; the launch's block is " + dims(c.block);
    if (!kernel.req_ntid && threads > uint64_t{nx} * ny * nz)
      return who + " declares .maxntid " + dims(nx, ny, nz) + " (" + std::to_string(uint64_t{nx} * ny * nz) +
             " threads); the launch's block " + dims(c.block) + " is " + std::to_string(threads);
  }
  if (kernel.min_ctas_per_sm && kernel.min_ctas_per_sm * threads > t.threads_per_sm)
    return who + " declares .minnctapersm " + std::to_string(kernel.min_ctas_per_sm) + ": " +
           std::to_string(kernel.min_ctas_per_sm) + " CTAs of " + std::to_string(threads) +
           " threads exceed the " + std::to_string(t.threads_per_sm) + " threads an SM of " + target + " holds";

  // The cluster: the launch's, or the one the kernel requires when the launch gives none.
  Dim3 cluster = c.cluster;
  const uint32_t* r = kernel.req_cluster;
  if (r[0] || r[1] || r[2]) {
    Dim3 req{std::max(r[0], 1u), std::max(r[1], 1u), std::max(r[2], 1u)};
    if (count(cluster) > 1 && (cluster.x != req.x || cluster.y != req.y || cluster.z != req.z))
      return who + " declares .reqnctapercluster " + dims(req) + "; the launch's cluster is " + dims(cluster);
    cluster = req;
  }
  if (kernel.explicit_cluster && !c.explicit_cluster && count(cluster) == 1 && !(r[0] || r[1] || r[2]))
    return who + " declares .explicitcluster: launch it with a cluster shape";
  if (cluster.x < 1 || cluster.y < 1 || cluster.z < 1)
    return "cluster " + dims(cluster) + ": each dimension must be at least 1";
  const uint64_t cluster_ctas = count(cluster);
  if (cluster_ctas > 1) {
    if (!t.clusters_from_sm) return "cluster " + dims(cluster) + ": " + target + " has no clusters (sm_90 and later)";
    if (cluster_ctas > (c.non_portable_cluster ? kNonPortableClusterCtas : kPortableClusterCtas))
      return "cluster " + dims(cluster) + " is " + std::to_string(cluster_ctas) + " CTAs; a cluster of " + target +
             " holds at most " +
             (c.non_portable_cluster ? std::to_string(kNonPortableClusterCtas) + " (the non-portable maximum)"
                                     : std::to_string(kPortableClusterCtas) +
                                           " (the portable size; 16 with the non-portable cluster size allowed)");
    if (kernel.max_cluster_rank && cluster_ctas > kernel.max_cluster_rank)
      return who + " declares .maxclusterrank " + std::to_string(kernel.max_cluster_rank) + "; the cluster " +
             dims(cluster) + " is " + std::to_string(cluster_ctas) + " CTAs";
    const uint32_t cl[3] = {cluster.x, cluster.y, cluster.z};
    for (int i = 0; i < 3; ++i)
      if (grid[i] % cl[i])
        return std::string("grid ") + axis[i] + " is " + std::to_string(grid[i]) + ", not a multiple of cluster " +
               axis[i] + " " + std::to_string(cl[i]);
  }
  return {};
}

}  // namespace ptxvm::runtime
