// The guest address space (PTX §5.1 state spaces, §6.4.1.1 generic addressing —
// 001_23fdd5978b24a3ed.txt). Guest code never sees a host pointer: every access names a state
// space and a guest address, and is bounds- and alignment-checked here. A violation raises a
// GuestFault, which the engine turns into a report; the host process is never touched.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ptxvm::mem {

enum class Space : uint8_t { Generic, Global, Shared, Local, Const, Param };
const char* to_string(Space s);

// Generic addresses (64-bit) are global addresses, except for these windows, which map the
// per-CTA shared memory, per-thread local memory, the module's constant bank and the kernel's
// parameters (§6.4.1.1: windows are implementation defined).
inline constexpr uint64_t kSharedWindow = 0x0000'7e00'0000'0000ull;
inline constexpr uint64_t kLocalWindow = 0x0000'7d00'0000'0000ull;
inline constexpr uint64_t kConstWindow = 0x0000'7c00'0000'0000ull;
inline constexpr uint64_t kParamWindow = 0x0000'7b00'0000'0000ull;
inline constexpr uint64_t kWindowSize = 0x0000'0100'0000'0000ull;
// Global allocations live above this address, so 0 and small integers never alias memory.
inline constexpr uint64_t kGlobalBase = 0x0000'0001'0000'0000ull;

// Where an address of `space` points: a generic one (§6.4.1.1) becomes the state space whose
// window holds it, with its offset there, or a global address; any other stays as it is.
struct Resolved {
  Space space;
  uint64_t offset;
};
inline Resolved resolve(Space space, uint64_t address) {
  if (space != Space::Generic) return {space, address};
  for (auto [window, s] : {std::pair{kSharedWindow, Space::Shared}, std::pair{kLocalWindow, Space::Local},
                           std::pair{kConstWindow, Space::Const}, std::pair{kParamWindow, Space::Param}})
    if (address - window < kWindowSize) return {s, address - window};
  return {Space::Global, address};
}

// Shared addresses (§5.1.7) as the H100 forms them (tests/hw/cluster/README.md): bits 31:24 the
// rank in its cluster of the CTA whose shared memory holds the byte, bits 23:0 the byte's place in
// that CTA's shared window, whose first KiB is the system's (user shared memory starts at
// kSharedReserved). A CTA's own addresses carry its own rank, so that every shared::cta address
// is also that CTA's shared::cluster address; without a cluster the rank is 0. A generic address
// in the shared window is the window plus the shared address.
inline constexpr unsigned kClusterRankShift = 24;
inline constexpr uint64_t kCtaSharedMask = (uint64_t{1} << kClusterRankShift) - 1;
inline constexpr uint64_t kSharedReserved = 0x400;
// The address of byte `offset` of user shared memory in the CTA of rank `rank`.
inline uint64_t cluster_shared_address(uint32_t rank, uint64_t offset) {
  return uint64_t{rank & 0xff} << kClusterRankShift | ((kSharedReserved + offset) & kCtaSharedMask);
}
// The same place in the shared memory of the CTA of rank `rank` (mapa's arithmetic: the rank
// field replaced, §9.7.9.23).
inline uint64_t with_rank(uint64_t address, uint32_t rank) {
  return uint64_t{rank & 0xff} << kClusterRankShift | (address & kCtaSharedMask);
}
// The rank field of a shared address (getctarank, §9.7.9.24).
inline uint32_t rank_of(uint64_t address) { return static_cast<uint32_t>(address >> kClusterRankShift) & 0xff; }

// A .shared-qualified operand's offset in the CTA's shared memory: a shared address as it is, or
// (a shared variable named in the operand) a generic address in the shared window.
inline uint64_t shared_offset(uint64_t address) {
  const Resolved r = resolve(Space::Generic, address);
  return r.space == Space::Shared ? r.offset : address;
}

struct GuestFault {
  enum class Kind : uint8_t { OutOfBounds, Misaligned, Trap, Deadlock, Unsupported, Assert, Invalid };
  Kind kind;
  Space space = Space::Generic;
  uint64_t address = 0;
  uint32_t size = 0;
  std::string detail;
  std::string describe() const;
};

// Device (global) memory: allocations in a 64-bit guest range, each a host buffer.
class GlobalMemory {
public:
  // `defined`: initcheck takes the bytes as written (else as undefined until something writes them).
  uint64_t allocate(size_t bytes, size_t align = 256, bool defined = true);
  // From now on allocate() places each allocation at the host address of its storage where it
  // can (CUDA's unified addressing, for the drop-in driver: a module's variables are then host
  // memory too, as __managed__ ones must be).
  void place_at_host_addresses() { at_host_ = true; }
  // Maps `bytes` of host memory at `host` as an allocation, without copying (the model of
  // cuMemHostRegister): guest accesses read and write it in place. The guest address is the host
  // address where that range is free. The caller keeps the memory alive until it frees the
  // returned address.
  uint64_t adopt(uint8_t* host, size_t bytes);
  void free(uint64_t address);  // throws std::invalid_argument for an unknown address
  // Host memory the program vouches for, found when a kernel first reaches it: called (outside
  // the lock, possibly from several host threads at once) with an address no allocation holds, it
  // may adopt() the memory that holds it and says whether it did; the lookup then tries again.
  using Resolver = std::function<bool(uint64_t address)>;
  void set_resolver(Resolver resolver) { resolver_ = std::move(resolver); }
  // Host pointer for [address, address+size) inside one allocation, or nullptr.
  uint8_t* find(uint64_t address, size_t size);
  // The allocation holding `address`: its base, size and host data (data null when none).
  struct Range {
    uint64_t base = 0, size = 0;
    uint8_t* data = nullptr;
  };
  Range lookup(uint64_t address);
  size_t allocation_count() const;
  // Where [address, address + size) lies, for a fault report: past the end or before the start
  // of the nearest allocation, in one freed earlier, or nowhere near one.
  std::string describe(uint64_t address, uint32_t size) const;
  // initcheck: [address, address + size) is written (a host copy, a guest store); whether any of
  // its bytes is still undefined (outside every allocation: none).
  void define(uint64_t address, uint64_t size);
  bool undefined(uint64_t address, uint64_t size) const;

private:
  struct Allocation {
    uint64_t size;
    std::unique_ptr<uint8_t[]> owned;  // null for adopted host memory
    uint8_t* data;
    std::map<uint64_t, uint64_t> undefined;  // initcheck: offset -> end of the ranges no one wrote
  };
  uint64_t place(Allocation a, uint64_t align, uint64_t offset);
  Range lookup_mapped(uint64_t address);
  // Maps `bytes` of host memory at `host` at its own address (the guest address is the host
  // address, as CUDA's unified addressing has it); false, mapping nothing, when that range is
  // below kGlobalBase, meets a state-space window or overlaps an allocation.
  bool map_at_host_address(uint8_t* host, size_t bytes);
  bool map_at_host_address(Allocation& a);  // a.data's bytes, keeping what `a` owns when mapped
  bool at_host_ = false;
  Resolver resolver_;
  mutable std::mutex mutex_;
  // initcheck's undefined ranges in all allocations: none (the common case once the host has
  // copied its inputs) answers define() and undefined() without the lock
  std::atomic<size_t> undefined_ranges_{0};
  std::map<uint64_t, Allocation> allocations_;  // by base address
  std::map<uint64_t, uint64_t> freed_;          // base -> size of freed allocations (never reused)
  uint64_t next_ = kGlobalBase;
};

// A flat buffer of one state space instance (a CTA's shared memory, a thread's local memory,
// the constant bank, the parameter buffer).
struct Buffer {
  std::vector<uint8_t> bytes;
  uint8_t* at(uint64_t offset, size_t size) {
    return offset <= bytes.size() && size <= bytes.size() - offset ? bytes.data() + offset : nullptr;
  }
};

}  // namespace ptxvm::mem
