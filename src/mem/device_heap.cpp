#include "mem/device_heap.h"

#include <algorithm>

namespace ptxvm::mem {

uint64_t DeviceHeap::allocate(GlobalMemory& global, uint64_t bytes) {
  const uint64_t counted = (std::max<uint64_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  std::lock_guard lock(mutex_);
  if (counted > limit_ - std::min(used_, limit_)) return 0;
  // exactly the bytes asked for, so that an access past them is reported (as compute-sanitizer
  // does); their contents are undefined until written
  const uint64_t address = global.allocate(std::max<uint64_t>(bytes, 1), kAlignment, /*defined=*/false);
  blocks_.emplace(address, counted);
  used_ += counted;
  return address;
}

bool DeviceHeap::release(GlobalMemory& global, uint64_t address) {
  if (address == 0) return true;  // free(NULL) does nothing
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(address);
  if (it == blocks_.end()) return false;
  used_ -= it->second;
  blocks_.erase(it);
  global.free(address);
  return true;
}

bool DeviceHeap::owns(uint64_t address) const {
  std::lock_guard lock(mutex_);
  return blocks_.count(address) != 0;
}

uint64_t DeviceHeap::limit() const {
  std::lock_guard lock(mutex_);
  return limit_;
}

void DeviceHeap::set_limit(uint64_t bytes) {
  std::lock_guard lock(mutex_);
  limit_ = bytes;
}

uint64_t DeviceHeap::used() const {
  std::lock_guard lock(mutex_);
  return used_;
}

}  // namespace ptxvm::mem
