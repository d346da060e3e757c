#!/usr/bin/env bash
# Sets up ptxvm, then runs two real nvcc-compiled kernels on the CPU with `ptxvm run`.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== setting up (the first run installs packages and builds ptxvm: a few minutes)"
scripts/setup.sh >/dev/null
ex=examples/saxpy
python3 $ex/make_inputs.py
echo "== ptxvm check $ex/saxpy.ptx"
build/tools/ptxvm/ptxvm check $ex/saxpy.ptx && echo "valid"
echo "== ptxvm run $ex/saxpy.json"
build/tools/ptxvm/ptxvm run $ex/saxpy.json
echo "== ptxvm run $ex/block_sum.json"
build/tools/ptxvm/ptxvm run $ex/block_sum.json
python3 $ex/check.py
