#!/usr/bin/env bash
# Builds a fuzz target with clang (libFuzzer + ASan + UBSan) and runs it for a bounded time,
# seeded from the repository. Usage: scripts/fuzz.sh [SECONDS] [parse|manifest|execute]
#   parse     the PTX front end, seeded with the PTX corpus (default, 60 s)
#   manifest  launch manifests and .npy headers, seeded with the documented manifests and
#             small .npy files (tests/tools/fuzz)
#   execute   the executor and the sanitizer: modules that load are launched with every check
#             (tests/exec/fuzz), seeded with the kernels of the suite and the planted bugs
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
target=${2:-parse}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPTXVM_FUZZ=ON -DPTXVM_BENCH=OFF -DPTXVM_PYTHON=OFF >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
case "$target" in
  parse)
    cmake --build build-fuzz --target parse_fuzzer
    fuzzer=build-fuzz/tests/front/fuzz/parse_fuzzer
    # Seeds: the small corpus files (large ones slow every iteration down).
    find tests/corpus/ptx tests/front/data tests/front/malformed -name '*.ptx' -size -64k \
      -exec cp {} "$work/corpus/" \;
    ;;
  manifest)
    cmake --build build-fuzz --target manifest_fuzzer
    fuzzer=build-fuzz/tests/tools/fuzz/manifest_fuzzer
    # Seeds: "0" + each documented manifest, "1" + a few small .npy files.
    python3 - "$work/corpus" <<'PY'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
doc = pathlib.Path("docs/LaunchManifest.md").read_text()
for i, block in enumerate(re.findall(r"```json\n(.*?)```", doc, re.S)):
    (out / f"manifest{i}").write_bytes(b"0" + block.encode())
import io, numpy as np
for i, a in enumerate([np.zeros(4, np.uint32), np.ones((2, 3), np.float16), np.array(7, np.int64)]):
    buf = io.BytesIO()
    np.save(buf, a)
    (out / f"npy{i}").write_bytes(b"1" + buf.getvalue())
PY
    ;;
  execute)
    cmake --build build-fuzz --target execute_fuzzer
    fuzzer=build-fuzz/tests/exec/fuzz/execute_fuzzer
    find tests/kernels/ptx tests/sanitize examples -name '*.ptx' -size -64k -exec cp {} "$work/corpus/" \;
    ;;
  *) echo "usage: scripts/fuzz.sh [SECONDS] [parse|manifest|execute]" >&2; exit 1 ;;
esac
"$fuzzer" "$work/corpus" -max_total_time="$seconds" \
  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/" 2>&1 | tail -15
