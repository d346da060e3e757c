#include "mem/memory.h"

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>

namespace ptxvm::mem {

const char* to_string(Space s) {
  static const char* kNames[] = {"generic", "global", "shared", "local", "const", "param"};
  return kNames[static_cast<int>(s)];
}

std::string GuestFault::describe() const {
  char buf[160];
  switch (kind) {
  case Kind::OutOfBounds:
    snprintf(buf, sizeof buf, "out-of-bounds %u-byte %s access at address 0x%llx", size,
             to_string(space), static_cast<unsigned long long>(address));
    return buf + (detail.empty() ? "" : " (" + detail + ")");
  case Kind::Misaligned:
    snprintf(buf, sizeof buf, "misaligned %u-byte %s access at address 0x%llx (§5.4.5: addresses "
             "must be a multiple of the access size)", size, to_string(space),
             static_cast<unsigned long long>(address));
    return buf;
  case Kind::Trap: return "trap instruction executed" + (detail.empty() ? "" : ": " + detail);
  case Kind::Deadlock: return "deadlock: " + detail;
  case Kind::Unsupported: return "unsupported: " + detail;
  case Kind::Assert: return "device assertion failed: " + detail;
  case Kind::Invalid: return detail;
  }
  return detail;
}

uint64_t GlobalMemory::place(Allocation a, uint64_t align, uint64_t offset) {
  std::lock_guard lock(mutex_);
  const uint64_t base = (next_ + align - 1) / align * align + offset;
  const uint64_t bytes = a.size;
  allocations_.emplace(base, std::move(a));
  // A guard gap after each allocation keeps off-by-one accesses from landing in the next one.
  next_ = base + bytes + 256;
  return base;
}

uint64_t GlobalMemory::allocate(size_t bytes, size_t align, bool defined) {
  const size_t storage = (bytes ? bytes : 1) + (at_host_ ? align : 0);  // room to align the host address
  Allocation a{bytes, std::make_unique<uint8_t[]>(storage), nullptr, {}};
  std::memset(a.owned.get(), 0, storage);
  a.data = a.owned.get();
  if (at_host_) a.data += (align - reinterpret_cast<uintptr_t>(a.data) % align) % align;
  if (!defined && bytes) a.undefined[0] = bytes;
  undefined_ranges_ += a.undefined.size();
  if (at_host_) {
    uint8_t* host = a.data;
    if (map_at_host_address(a)) return reinterpret_cast<uintptr_t>(host);
  }
  return place(std::move(a), align, 0);
}

void GlobalMemory::define(uint64_t address, uint64_t size) {
  if (!undefined_ranges_.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return;
  Allocation& a = (--it)->second;
  if (a.undefined.empty() || address - it->first >= a.size) return;
  const uint64_t begin = address - it->first, end = std::min(a.size, begin + size);
  const size_t ranges = a.undefined.size();
  // Every undefined range that meets [begin, end) loses that part.
  auto r = a.undefined.upper_bound(begin);
  if (r != a.undefined.begin()) --r;
  while (r != a.undefined.end() && r->first < end) {
    const uint64_t from = r->first, to = r->second;
    if (to <= begin) {
      ++r;
      continue;
    }
    r = a.undefined.erase(r);
    if (from < begin) a.undefined[from] = begin;
    if (to > end) r = a.undefined.emplace(end, to).first, ++r;
  }
  undefined_ranges_ += a.undefined.size();
  undefined_ranges_ -= ranges;
}

bool GlobalMemory::undefined(uint64_t address, uint64_t size) const {
  if (!undefined_ranges_.load(std::memory_order_relaxed)) return false;
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  const Allocation& a = (--it)->second;
  if (a.undefined.empty() || address - it->first >= a.size) return false;
  const uint64_t begin = address - it->first, end = begin + size;
  auto r = a.undefined.upper_bound(begin);
  if (r != a.undefined.begin() && std::prev(r)->second > begin) return true;
  return r != a.undefined.end() && r->first < end;
}

uint64_t GlobalMemory::adopt(uint8_t* host, size_t bytes) {
  if (map_at_host_address(host, bytes)) return reinterpret_cast<uintptr_t>(host);
  // Elsewhere, the guest address keeps the host address's place in a 4 KiB page, so every access
  // is as aligned as it is on the host.
  constexpr uint64_t kPage = 4096;
  return place(Allocation{bytes, nullptr, host, {}}, kPage, reinterpret_cast<uintptr_t>(host) % kPage);
}

bool GlobalMemory::map_at_host_address(uint8_t* host, size_t bytes) {
  Allocation a{bytes, nullptr, host, {}};
  return map_at_host_address(a);
}

bool GlobalMemory::map_at_host_address(Allocation& a) {
  const uint64_t base = reinterpret_cast<uintptr_t>(a.data), end = base + std::max<size_t>(a.size, 1);
  if (base < kGlobalBase || end < base) return false;
  for (uint64_t window : {kSharedWindow, kLocalWindow, kConstWindow, kParamWindow})
    if (base < window + kWindowSize && window < end) return false;
  std::lock_guard lock(mutex_);
  auto after = allocations_.lower_bound(base);
  if (after != allocations_.end() && after->first < end) return false;
  if (after != allocations_.begin() && std::prev(after)->first + std::prev(after)->second.size > base) return false;
  allocations_.emplace(base, std::move(a));
  return true;
}

void GlobalMemory::free(uint64_t address) {
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(address);
  if (it == allocations_.end()) throw std::invalid_argument("free of an unknown device address");
  constexpr size_t kFreedKept = 1 << 16;  // enough to name the allocation of a use after free
  if (freed_.size() == kFreedKept) freed_.erase(freed_.begin());
  if (it->second.owned) freed_[address] = it->second.size;  // adopted ranges may be adopted again
  undefined_ranges_ -= it->second.undefined.size();
  allocations_.erase(it);
}

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

std::string GlobalMemory::describe(uint64_t address, uint32_t size) const {
  std::lock_guard lock(mutex_);
  auto named = [](uint64_t base, uint64_t bytes) {
    return "the " + std::to_string(bytes) + "-byte allocation at " + hex(base);
  };
  auto freed = freed_.upper_bound(address);
  if (freed != freed_.begin() && address - std::prev(freed)->first < std::prev(freed)->second)
    return "inside " + named(std::prev(freed)->first, std::prev(freed)->second) + ", which was freed (use after free)";
  auto after = allocations_.upper_bound(address);
  if (after != allocations_.begin()) {
    auto at = std::prev(after);
    const uint64_t end = at->first + at->second.size;
    if (address < end)
      return "its last " + std::to_string(address + size - end) + " bytes lie past the end of " +
             named(at->first, at->second.size);
    if (address - end < 4096) return std::to_string(address - end) + " bytes past the end of " + named(at->first, at->second.size);
  }
  if (after != allocations_.end() && after->first - address < 4096)
    return std::to_string(after->first - address) + " bytes before " + named(after->first, after->second.size);
  return "no allocation holds it";
}

GlobalMemory::Range GlobalMemory::lookup(uint64_t address) {
  Range r = lookup_mapped(address);
  if (r.data || !resolver_ || address < kGlobalBase) return r;
  return resolver_(address) ? lookup_mapped(address) : r;
}

GlobalMemory::Range GlobalMemory::lookup_mapped(uint64_t address) {
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return {};
  --it;
  if (address - it->first >= it->second.size) return {};
  return {it->first, it->second.size, it->second.data};
}

uint8_t* GlobalMemory::find(uint64_t address, size_t size) {
  Range r = lookup(address);
  uint64_t offset = address - r.base;
  if (!r.data || size > r.size - offset) return nullptr;
  return r.data + offset;
}

size_t GlobalMemory::allocation_count() const {
  std::lock_guard lock(mutex_);
  return allocations_.size();
}

}  // namespace ptxvm::mem
