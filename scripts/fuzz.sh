#!/usr/bin/env bash
# Builds the parser fuzz target with clang (libFuzzer + ASan + UBSan) and runs it for a bounded
# time, seeded with the PTX corpus. Usage: scripts/fuzz.sh [SECONDS]  (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPTXVM_FUZZ=ON -DPTXVM_BENCH=OFF >/dev/null
cmake --build build-fuzz --target parse_fuzzer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
# Seeds: the small corpus files (large ones slow every iteration down).
find tests/corpus/ptx tests/front/data tests/front/malformed -name '*.ptx' -size -64k \
  -exec cp {} "$work/corpus/" \;
build-fuzz/tests/front/fuzz/parse_fuzzer "$work/corpus" -max_total_time="$seconds" \
  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/" 2>&1 | tail -15
