// NumPy .npy files (format versions 1.0–3.0, C order) for `ptxvm run` buffers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxvm::tool {

struct NpyArray {
  std::string descr;           // dtype, e.g. "<f4", "|u1"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;
};

// Reads `path`; throws std::runtime_error saying what is wrong with the file.
NpyArray read_npy(const std::string& path);
// Writes a version 1.0 file; throws std::runtime_error on I/O failure.
void write_npy(const std::string& path, const NpyArray& array);

}  // namespace ptxvm::tool
