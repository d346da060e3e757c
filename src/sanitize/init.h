// initcheck's state for one CTA: the undefined bits of every byte of shared memory and of each
// thread's local memory (PTX leaves both undefined until written, §5.1.3, §5.1.5). A load carries
// them into the registers it fills (Warp keeps undefined bits per register and lane), copies and
// bitwise operations carry them on (sanitize/definedness.h), a store back to memory; their use as
// an address, a guard or a value stored to global memory is the report, not the copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptxvm::sanitize {

class InitShadow {
public:
  InitShadow(uint64_t shared_bytes, uint32_t threads, uint64_t local_bytes)
      : shared_(shared_bytes, 0xff), local_(uint64_t{threads} * local_bytes, 0xff), local_bytes_(local_bytes) {}

  // The undefined bits of the `size` bytes at `offset` (little-endian, at most 8 bytes; a wider
  // element is all undefined when any of its bits is): of shared memory, or of thread `thread`'s
  // local memory (`local`).
  uint64_t undefined(bool local, uint32_t thread, uint64_t offset, uint32_t size) const {
    const uint8_t* b = bytes(local, thread, offset, size);
    if (!b) return 0;
    uint64_t bits = 0;
    if (size > 8) return std::any_of(b, b + size, [](uint8_t x) { return x != 0; }) ? ~uint64_t{0} : 0;
    for (uint32_t i = 0; i < size; ++i) bits |= uint64_t{b[i]} << (8 * i);
    return bits;
  }
  // The bytes are written with a value whose undefined bits are `bits` (all of a wider element's
  // bytes when `bits` is not 0).
  void write(bool local, uint32_t thread, uint64_t offset, uint32_t size, uint64_t bits) {
    uint8_t* b = const_cast<uint8_t*>(bytes(local, thread, offset, size));
    if (!b) return;
    for (uint32_t i = 0; i < size; ++i) b[i] = size > 8 ? (bits ? 0xff : 0) : static_cast<uint8_t>(bits >> (8 * i));
  }

private:
  const uint8_t* bytes(bool local, uint32_t thread, uint64_t offset, uint32_t size) const {
    const uint64_t extent = local ? local_bytes_ : shared_.size();
    if (offset > extent || size > extent - offset) return nullptr;  // memcheck's to report
    return local ? local_.data() + uint64_t{thread} * local_bytes_ + offset : shared_.data() + offset;
  }
  std::vector<uint8_t> shared_, local_;  // per byte, its undefined bits
  uint64_t local_bytes_;
};

}  // namespace ptxvm::sanitize
