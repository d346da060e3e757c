#!/usr/bin/env bash
# Regenerates docs/Coverage.md (the ISA coverage table) from the ISA table, the registered
# selectors and the hardware-compared test PTX: builds tests/coverage and runs it. Commit the
# result; the test coverage.fresh fails while the file is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || [ -f build/Makefile ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target coverage -j"${JOBS:-2}"
build/tests/coverage/coverage . > docs/Coverage.md.tmp
mv docs/Coverage.md.tmp docs/Coverage.md
echo "wrote docs/Coverage.md"
