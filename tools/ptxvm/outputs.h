// Where `ptxvm run` writes its outputs: names resolved inside the output directory (never
// absolute, never `..`, never through a symlink leading out), each written to a temporary file
// beside its place and renamed only once all are written, so that a failed or interrupted launch
// leaves no half-written .npy.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "npy.h"

namespace ptxvm::tool {

struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `name` inside `out_dir`, or OutputError saying why it would leave it.
std::filesystem::path output_path(const std::filesystem::path& out_dir, const std::string& name);

class StagedOutputs {
public:
  ~StagedOutputs();  // removes what was staged and not committed
  // Writes `array` to a temporary file beside `path`; throws on I/O failure.
  void stage(const std::filesystem::path& path, const NpyArray& array);
  // Renames every staged file into place.
  void commit();

private:
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> staged_;  // temporary, final
};

}  // namespace ptxvm::tool
