// `ptxvm run LAUNCH.json [--out DIR] [--timeout SECONDS] [--max-input-mb N]`: one kernel
// launch described by a manifest (docs/LaunchManifest.md; `-` reads it from standard input).
// Exit status: 0 success, 1 invalid manifest, input or PTX, 2 guest fault or timeout, 3 internal
// error, 128 + the signal when SIGINT or SIGTERM stopped it.
#pragma once

namespace ptxvm::tool {

int run_manifest(int argc, char** argv);

}  // namespace ptxvm::tool
