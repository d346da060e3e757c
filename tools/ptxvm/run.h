// `ptxvm run LAUNCH.json [--out DIR]`: one kernel launch described by a manifest (see
// docs/LaunchManifest.md). Exit status: 0 success, 1 invalid manifest or PTX, 2 guest fault,
// 3 internal error.
#pragma once

namespace ptxvm::tool {

int run_manifest(int argc, char** argv);

}  // namespace ptxvm::tool
