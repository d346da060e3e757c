#!/usr/bin/env bash
# Builds the C++ test suites with AddressSanitizer and UndefinedBehaviorSanitizer (GCC,
# -DPTXVM_SANITIZE=ON, in build-asan) and runs them once: guest code must never make the host
# touch memory it does not own. CI runs it after the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
suites=(exec/exec_tests sem/sem_tests units/unit_tests sanitize/sanitize_tests program/program_tests)
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTXVM_SANITIZE=ON -DPTXVM_BENCH=OFF \
  -DPTXVM_PYTHON=OFF >/dev/null
cmake --build build-asan --target "${suites[@]##*/}"
for s in "${suites[@]}"; do
  echo "-- $s"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 "build-asan/tests/$s" --gtest_brief=1
done
