// The files `ptxvm run` reads (manifest, PTX, .npy): regular files within a size limit, or
// standard input for `-`, so that a directory, a device, a FIFO or a huge file gets a clear
// message rather than a hang or an allocation failure.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ptxvm::tool {

// A file that cannot be used as an input; the message names the path.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr uint64_t kDefaultMaxInputBytes = uint64_t{2} << 30;  // 2 GiB; `--max-input-mb`

// The bytes of `path` (`-`: standard input); throws InputError.
std::string read_input(const std::string& path, uint64_t max_bytes);

}  // namespace ptxvm::tool
