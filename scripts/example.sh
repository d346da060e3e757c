#!/usr/bin/env bash
# Sets up ptxvm and runs it on a bundled real PTX module.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== setting up (the first run installs packages and builds ptxvm: a few minutes)"
scripts/setup.sh >/dev/null
example=examples/reduce_printf.ptx
echo "== ptxvm check $example"
build/tools/ptxvm/ptxvm check "$example" && echo "valid"
echo "== opcodes used"
build/tools/ptxvm/ptxvm opcodes "$example"
