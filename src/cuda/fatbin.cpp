#include "fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <cstring>
#include <vector>

namespace ptxvm::cuda {
namespace {

template <typename T>
T field(const uint8_t* p, size_t at) {
  T v;
  std::memcpy(&v, p + at, sizeof v);
  return v;
}

constexpr uint16_t kPtx = 1, kElf = 2;
constexpr uint64_t kLz4 = 0x2000, kZstd = 0x8000;

// An entry's payload, decompressed; empty on a corrupt one.
std::string payload(const uint8_t* entry) {
  const uint32_t header = field<uint32_t>(entry, 4);
  const uint64_t size = field<uint64_t>(entry, 8), flags = field<uint64_t>(entry, 40);
  const uint32_t compressed = field<uint32_t>(entry, 16);
  const uint64_t plain = field<uint64_t>(entry, 56);
  const char* data = reinterpret_cast<const char*>(entry + header);
  std::string out;
  if (flags & kZstd) {
    out.resize(plain);
    const size_t n = ZSTD_decompress(out.data(), out.size(), data, compressed);
    if (ZSTD_isError(n)) return {};
    out.resize(n);
  } else if (flags & kLz4) {
    out.resize(plain);
    const int n = LZ4_decompress_safe(data, out.data(), static_cast<int>(compressed), static_cast<int>(plain));
    if (n < 0) return {};
    out.resize(static_cast<size_t>(n));
  } else {
    out.assign(data, size);
  }
  out.resize(strnlen(out.data(), out.size()));  // PTX is NUL-terminated and padded
  return out;
}

}  // namespace

std::string fatbin_ptx(const void* image, unsigned arch, std::string& why) {
  const uint8_t* p = static_cast<const uint8_t*>(image);
  if (field<uint32_t>(p, 0) == kFatbinWrapperMagic) p = field<const uint8_t*>(p, 8);
  if (!p || field<uint32_t>(p, 0) != kFatbinMagic) {
    why = "not a fat binary";
    return {};
  }
  const uint8_t* best = nullptr;
  unsigned best_arch = 0;
  bool machine_code = false;
  const uint8_t *entry = p + field<uint16_t>(p, 6), *end = entry + field<uint64_t>(p, 8);
  for (; entry < end; entry += field<uint32_t>(entry, 4) + field<uint64_t>(entry, 8)) {
    const uint16_t kind = field<uint16_t>(entry, 0);
    const unsigned entry_arch = field<uint32_t>(entry, 28);
    machine_code |= kind == kElf;
    if (kind == kPtx && entry_arch <= arch && entry_arch >= best_arch) best = entry, best_arch = entry_arch;
  }
  if (!best) {
    why = machine_code ? "the fat binary holds machine code only, which ptxvm cannot run: rebuild with "
                         "-gencode arch=compute_" + std::to_string(arch) + ",code=compute_" + std::to_string(arch)
                       : "the fat binary holds no PTX for sm_" + std::to_string(arch) + " or older";
    return {};
  }
  std::string ptx = payload(best);
  if (ptx.empty()) why = "a compressed PTX entry of the fat binary does not decompress";
  return ptx;
}

}  // namespace ptxvm::cuda
