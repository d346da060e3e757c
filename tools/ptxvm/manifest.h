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

namespace ptxvm::tool {

struct ManifestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One kernel argument: a value, or a .npy buffer (copied to the device when the launch is
// prepared) with the name it is written back to.
struct ArgSpec {
  KernelArg value;
  std::string buffer;                 // the .npy input, relative to the manifest; empty: a value
  std::optional<std::string> output;  // the output name inside the output directory
};

struct Manifest {
  std::string ptx, kernel;
  LaunchConfig config;
  std::vector<ArgSpec> args;
};

// Reads manifest text; throws ManifestError.
Manifest parse_manifest(std::string_view text);

}  // namespace ptxvm::tool
