#!/usr/bin/env bash
# Records bitdiff logs on a GPU (docs/BitDiff.md): builds the interposer and each CUDA program with
# NVIDIA's own shared runtime (nvcc -cudart shared), runs each program twice with the interposer
# preloaded, and compares the two runs: a program whose copies differ between them is not
# deterministic on the GPU, and its log is no reference.
#
#   tools/bitdiff/record_on_gpu.sh OUTDIR SOURCE.cu...
#
# Writes OUTDIR/run1/NAME.log and OUTDIR/run2/NAME.log (with NAME.out, the program's output),
# OUTDIR/gpu.txt (the GPU and CUDA versions) and OUTDIR/compare.txt (run 1 against run 2).
# NVCC_FLAGS (default -arch=sm_90) and CUDA (default /usr/local/cuda) may be set.
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,11p' "$0"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
cuda=${CUDA:-/usr/local/cuda}
build=$(mktemp -d)  # the interposer and the programs
trap 'rm -rf "$build"' EXIT
mkdir -p "$out/run1" "$out/run2"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$cuda/bin/nvcc" --version | tail -2; } > "$out/gpu.txt" 2>&1
g++ -std=c++17 -O2 -fPIC -shared -o "$build/libptxvm_bitdiff.so" "$here/bitdiff.cpp" -I"$cuda/include" -ldl || exit 1
# the programs build in parallel
printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} sh -c \
  'n=$(basename "$1" .cu); "$2/bin/nvcc" ${NVCC_FLAGS:--arch=sm_90} -cudart shared -o "$3/$n" "$1" > "$3/$n.nvcc" 2>&1 || echo "$n: does not build"' \
  sh {} "$cuda" "$build"
for source in "$@"; do
  n=$(basename "$source" .cu)
  [ -x "$build/$n" ] || continue
  for run in run1 run2; do
    LD_LIBRARY_PATH="$cuda/lib64" LD_PRELOAD="$build/libptxvm_bitdiff.so" BITDIFF_LOG="$out/$run/$n.log" \
      timeout 120 "$build/$n" > "$out/$run/$n.out" 2>&1 < /dev/null
    echo "$n $run: exit status $?, $(grep -c PASS "$out/$run/$n.out") PASS, $(grep -vc '^#' "$out/$run/$n.log" 2>/dev/null) copies"
  done
done
python3 "$here/compare.py" "$out/run1" "$out/run2" > "$out/compare.txt"
cat "$out/compare.txt"
