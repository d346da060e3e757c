#!/usr/bin/env bash
# Records probe_cube_grad.cu (README: "Cube maps: the level of detail and the footprint"):
# record_cube.sh OUTDIR writes OUTDIR/cube_grad.bin.xz, and the GPU and driver to OUTDIR/cube.log.
# Needs nvcc (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 327 records (part 21:
# 4,320 lookups x 5 limits; part 22: 320 rows of at most 1,345 lookups), a second of GPU work; xz
# of about 1 MB. The probe is stopped after 150 s; the script fails if the probe reports a CUDA
# error or the file holds an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_cube_grad" probe_cube_grad.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/cube.log" || true
rm -f "$out"/cube_grad.bin*
timeout 150 "$build/probe_cube_grad" "$out/cube_grad.bin" | tee -a "$out/cube.log"
count=$(od -An -N4 -tu4 "$out/cube_grad.bin" | tr -d ' ')
if [ "$count" != 327 ]; then
  echo "cube_grad.bin: $count records, expected 327" | tee -a "$out/cube.log"
  exit 1
fi
ls -l "$out/cube_grad.bin" | tee -a "$out/cube.log"
xz -9 -f "$out/cube_grad.bin"
ls -l "$out/cube_grad.bin.xz"
