#include "outputs.h"

#include <unistd.h>

namespace ptxvm::tool {

namespace fs = std::filesystem;

fs::path output_path(const fs::path& out_dir, const std::string& name) {
  fs::path p(name);
  if (p.is_absolute()) throw OutputError("'" + name + "' is an absolute path; outputs are named inside the output directory");
  for (const fs::path& part : p)
    if (part == "..") throw OutputError("'" + name + "' contains '..'; outputs stay inside the output directory");
  if (p.filename().empty() || p.filename() == ".") throw OutputError("'" + name + "' names no file");
  // Through symlinks, as far as the path exists: it must stay under the output directory.
  std::error_code ec;
  fs::path root = fs::weakly_canonical(out_dir, ec);
  fs::path full = ec ? fs::path() : fs::weakly_canonical(out_dir / p, ec);
  // weakly_canonical leaves a dangling symlink as it is: follow it too (a few hops at most).
  std::error_code absent;  // a path that does not exist is no symlink
  for (int hop = 0; !ec && hop < 8 && fs::is_symlink(fs::symlink_status(full, absent)); ++hop) {
    fs::path target = fs::read_symlink(full, ec);
    full = fs::weakly_canonical(target.is_absolute() ? target : full.parent_path() / target, ec);
  }
  if (ec) throw OutputError("'" + name + "': cannot resolve it inside " + out_dir.string() + ": " + ec.message());
  auto [r, f] = std::mismatch(root.begin(), root.end(), full.begin(), full.end());
  if (r != root.end() || f == full.end())
    throw OutputError("'" + name + "' resolves to " + full.string() + ", outside the output directory " + root.string() +
                      " (through a symbolic link)");
  return out_dir / p;
}

StagedOutputs::~StagedOutputs() {
  std::error_code ignored;
  for (const auto& [temporary, _] : staged_) fs::remove(temporary, ignored);
}

void StagedOutputs::stage(const fs::path& path, const NpyArray& array) {
  fs::create_directories(path.parent_path());
  fs::path temporary = path;
  temporary += ".ptxvm-partial-" + std::to_string(::getpid());
  staged_.push_back({temporary, path});
  write_npy(temporary.string(), array);
}

void StagedOutputs::commit() {
  for (const auto& [temporary, path] : staged_) fs::rename(temporary, path);
  staged_.clear();
}

}  // namespace ptxvm::tool
