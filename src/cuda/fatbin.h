// Fat binaries as nvcc embeds them (docs/driver/CudartPrivateInterface.md §4): the wrapper
// (__fatBinC_Wrapper_t, magic 0x466243B1) around containers (magic 0xBA55ED50) of entries, each
// PTX or machine code for one architecture, optionally LZ4- or zstd-compressed.
#pragma once

#include <cstdint>
#include <string>

namespace ptxvm::cuda {

constexpr uint32_t kFatbinWrapperMagic = 0x466243B1, kFatbinMagic = 0xBA55ED50;

// The PTX of `image` (a wrapper or a container) for the newest virtual architecture up to
// `arch` (90 for sm_90), decompressed; empty with `why` set when there is none.
std::string fatbin_ptx(const void* image, unsigned arch, std::string& why);

}  // namespace ptxvm::cuda
