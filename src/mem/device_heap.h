// The device-side heap of CUDA's malloc and free (CUDA C++ Programming Guide, "Dynamic Global
// Memory Allocation and Operations"), which PTX reaches as calls of the extern functions malloc and
// free. Each block is an allocation of global memory of its own, so an access past its end is
// reported as any other; the heap's size (cudaLimitMallocHeapSize, 8 MiB unless set) bounds the
// bytes live at once, and malloc answers 0 past it, as on the GPU. Blocks outlive the launch that
// made them, until a free (in any later launch) or the device's end.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "mem/memory.h"

namespace ptxvm::mem {

class DeviceHeap {
public:
  static constexpr uint64_t kDefaultLimit = uint64_t{8} << 20;
  static constexpr uint64_t kAlignment = 16;  // "The allocated memory will be aligned on a 16-byte boundary"

  // A block of `bytes` (at least 1) in `global`, or 0 when the heap has no room left.
  uint64_t allocate(GlobalMemory& global, uint64_t bytes);
  // Frees a block allocate() returned; 0 does nothing; false for any other address (a block freed
  // twice, or never the heap's: undefined behaviour, which the caller reports).
  bool release(GlobalMemory& global, uint64_t address);
  bool owns(uint64_t address) const;  // a live block's address
  uint64_t limit() const;
  void set_limit(uint64_t bytes);
  uint64_t used() const;

private:
  mutable std::mutex mutex_;
  uint64_t limit_ = kDefaultLimit;
  uint64_t used_ = 0;
  std::map<uint64_t, uint64_t> blocks_;  // address -> bytes counted against the limit
};

}  // namespace ptxvm::mem
