#!/usr/bin/env bash
# Builds the benchmarks (Release, -DPTXVM_BENCH=ON) in build-bench/ and runs them: the engine
# benchmark, which ends with a summary of ratios measured in the same run, then the front end's,
# then the drop-in driver's.
# What the figures mean: bench/README.md. Arguments go to both (Google Benchmark flags, e.g.
# --benchmark_filter=Saxpy). BUILD=dir picks another build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-bench}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTXVM_BENCH=ON >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target engine_bench parse_bench
"$BUILD"/bench/engine_bench "$@"
"$BUILD"/bench/parse_bench "$@"
# the drop-in driver's benchmark, where the driver is built (it needs the CUDA toolkit's cuda.h)
if cmake --build "$BUILD" -j"$(nproc)" --target driver_bench >/dev/null 2>&1; then "$BUILD"/bench/driver_bench; fi
