// A launch manifest (docs/LaunchManifest.md, schema docs/launch-manifest.schema.json) read into
// a launch request. Every error names the key path (`args[2].s32`), what it expects and what
// it got; unknown keys get a "did you mean".
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ptxvm/ptxvm.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::tool {

struct ManifestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One kernel argument: a value, a .npy buffer (copied to the device when the launch is
// prepared) with the name it is written back to, or a tensor map over such a buffer (PTX §5.5.8:
// the 128-byte map, built as cuTensorMapEncodeTiled builds it, its address the buffer's plus
// `offset`). The same .npy name in several arguments is one allocation.
// A texture or surface object over a .npy buffer (PTX §5.3; CUDA's texture objects): the
// resource's shape and format come from the array, the address from the buffer, the handle from
// the device when the launch is prepared.
struct TextureSpec {
  bool surface = false;
  TextureResource resource;          // all but the address
  TextureSampler sampler;
  std::vector<std::string> mipmaps;  // .npy files of levels 1, 2, ... (a mipmapped array)
};

struct ArgSpec {
  KernelArg value;
  std::string buffer;                 // the .npy input, relative to the manifest; empty: a value
  std::optional<std::string> output;  // the output name inside the output directory
  std::optional<units::tma::TensorMap> tensormap;  // the map's fields but its address
  uint64_t offset = 0;                // bytes into the buffer where the tensor starts
  std::optional<TextureSpec> texture;  // a texture or surface object over the buffer
};

struct Manifest {
  std::string ptx, kernel;
  LaunchConfig config;
  std::vector<ArgSpec> args;
};

// Reads manifest text; throws ManifestError.
Manifest parse_manifest(std::string_view text);

}  // namespace ptxvm::tool
