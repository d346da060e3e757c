// NumPy .npy files (format versions 1.0–3.0, C order) for `ptxvm run` buffers.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxvm::tool {

struct NpyArray {
  std::string descr;           // dtype, e.g. "<f4", "|u1"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;
};

// A file that is not a usable .npy array; the message names it and says why.
struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The array in `bytes`, the contents of the file `name`; throws NpyError. The header's shape
// must account for exactly the data bytes that follow it.
NpyArray parse_npy(const std::string& bytes, const std::string& name);
// Writes a version 1.0 file; throws std::runtime_error on I/O failure.
void write_npy(const std::string& path, const NpyArray& array);

}  // namespace ptxvm::tool
