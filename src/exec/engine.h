// The SIMT engine: grid ▶ CTA ▶ warp ▶ lane (PTX §2, §3). CTAs run in parallel on host threads;
// the warps of a CTA interleave on one host thread so that barriers work; within a warp each
// lane has its own PC (independent thread scheduling, sm_70+) and lanes that share a PC run
// together, so a converged warp runs all 32 lanes per op.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "exec/unit.h"
#include "exec/warp.h"
#include "mem/device_heap.h"
#include "program/program.h"
#include "mem/memory.h"
#include "mma/arith.h"
#include "sanitize/async.h"
#include "sanitize/init.h"
#include "sanitize/race.h"
#include "sanitize/session.h"
#include "texture/objects.h"

namespace ptxvm::exec {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

// Where and why a launch stopped: enough to find the failing instruction in the PTX source.
struct FaultReport {
  std::string kernel;
  Dim3 cta;
  uint32_t warp = 0, lane = 0;
  uint32_t pc = 0, line = 0;
  std::string instruction;
  std::string message;
  mem::GuestFault::Kind kind = mem::GuestFault::Kind::Invalid;
  bool interrupted = false;     // Launch::cancel stopped it; `in_flight` says where the warps were
  std::vector<std::string> in_flight;  // per CTA in flight: "CTA (x, y, z): warp 0 at line 12 ..."
  std::string render(const std::string& source_name) const;
};

struct Launch {
  const program::Program* program = nullptr;
  const program::Function* kernel = nullptr;
  Dim3 grid, block;
  Dim3 cluster;                      // CTAs per cluster (§2.2.2); the grid is a multiple of it
  bool explicit_cluster = false;     // the launch or the kernel named a cluster (%is_explicit_cluster)
  uint32_t dynamic_shared = 0;
  unsigned threads = 1;              // host threads running CTAs
  mem::GlobalMemory* global = nullptr;
  mem::DeviceHeap* heap = nullptr;   // device-side malloc and free; null: calls of them fault
  const texture::Objects* textures = nullptr;  // texture, sampler and surface handles (§5.3)
  mem::Buffer params;                // the kernel's parameter buffer (§5.1.6.1)
  std::string* output = nullptr;     // printf output; appended under `output_mutex`
  mutable std::mutex output_mutex;
  uint64_t step_limit = 0;           // 0: none; else a fault after this many steps of one warp
  bool cooperative = false;          // keep every CTA resident (grid-wide synchronisation)
  std::array<uint32_t, 32> envreg{};  // %envreg0..31 (§10.27): set by the driver
  double watchdog_seconds = 0;       // 0: none; else a report when the launch runs longer
  mma::Model tensor_model = mma::Model::Sm90;  // floating-point mma/wmma arithmetic (src/mma)
  const std::atomic<bool>* cancel = nullptr;  // when it turns true, stop and report where (interrupt)
  sanitize::Session* sanitizer = nullptr;     // the checks asked for (src/sanitize); null: none
  std::atomic<uint64_t>* ctas_done = nullptr;  // when set, counts the CTAs that have finished
  // The next cluster to start (cluster_origin numbers them); clusterlaunchcontrol.try_cancel takes
  // clusters from it too (§9.7.13.17), so that a cancelled cluster never starts.
  mutable std::atomic<uint64_t> next_cluster{0};
};

struct Cluster;

struct Cta {
  Dim3 id;
  const Launch* launch = nullptr;
  Cluster* cluster = nullptr;      // the cluster it belongs to (a cluster of one without clusters)
  uint32_t rank = 0;               // %cluster_ctarank
  bool finished = false;           // every thread has exited; its shared memory is gone (§2.2.3)
  mem::Buffer shared;
  std::vector<mem::Buffer> local;  // per thread
  bool locals_empty = false;       // every buffer of `local` is empty (alloca clears it)
  std::vector<Warp> warps;
  Units units;                     // the state of the units this CTA used (exec/unit.h)
  // racecheck's clocks and shadow, when it runs: its cluster's (Cluster::race), or its own; its
  // threads and shared bytes start at race_thread and race_byte there
  sanitize::RaceShadow* race = nullptr;
  std::unique_ptr<sanitize::RaceShadow> own_race;
  uint32_t race_thread = 0;
  uint64_t race_byte = 0;
  std::unique_ptr<sanitize::InitShadow> init;  // initcheck's written bytes, when it runs
  std::unique_ptr<sanitize::ProxyShadow> proxy;  // the async check's generic writes, when it runs
  uint32_t threads = 0;
  uint32_t exited_threads = 0;
  unsigned host_thread = 0;

  // Unit U's state in this CTA, built on first use.
  template <typename U>
  U& unit() { return units.get<U>(*this); }

  // Whether the warpgroup of warp `warp` (warps 4k .. 4k+3, §9.7.15.2) is four full warps.
  bool full_warpgroup(uint32_t warp) const {
    const uint32_t first = warp / 4 * 4;
    if (first + 4 > warps.size()) return false;
    for (uint32_t i = first; i < first + 4; ++i)
      if (warps[i].alive != ~0u) return false;
    return true;
  }
};

// A cluster of CTAs (PTX §2.2.2-2.2.3): co-resident on one host thread, so that they make progress
// together and reach each other's shared memory (shared::cluster, §5.1.4) without host atomics.
struct Cluster {
  Dim3 id;                 // %clusterid
  std::vector<Cta*> ctas;  // by rank
  Units units;             // the state of cluster-scope units (the cluster barrier)
  std::unique_ptr<sanitize::AsyncShadow> async;  // the async check's regions, when it runs
  // racecheck's shadow of all its CTAs (DSMEM hazards), when it runs and the cluster has at most
  // kClusterRaceThreads threads (the clocks take threads^2 words); else each CTA has its own
  std::unique_ptr<sanitize::RaceShadow> race;
  static constexpr uint32_t kClusterRaceThreads = 2048;

  template <typename U>
  U& unit() { return units.get<U>(*this); }
  // The CTA of rank `rank`, or null outside the cluster.
  Cta* at(uint32_t rank) const { return rank < ctas.size() ? ctas[rank] : nullptr; }
  // Whether every rank of a ctaMask (bit r: rank r, §9.7.9.25.4.1) is a CTA of the cluster.
  bool holds(uint32_t mask) const { return ctas.size() >= 32 || (mask >> ctas.size()) == 0; }
};

// The launch's clusters, and the first CTA (rank 0) of cluster i of them, x fastest.
uint64_t cluster_count(const Launch& launch);
Dim3 cluster_origin(const Launch& launch, uint64_t i);

// Host bytes one resident CTA of `launch` takes: registers, shared and local memory.
uint64_t cta_footprint(const Launch& launch);

// Runs the whole grid; returns the first fault, if any.
std::optional<FaultReport> run(Launch& launch);

}  // namespace ptxvm::exec
