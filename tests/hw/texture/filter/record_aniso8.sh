#!/usr/bin/env bash
# Records probe_aniso_random.cu (README: "Random pairs on levels: parts 27, 28"): record_aniso8.sh OUTDIR
# writes OUTDIR/aniso_random.bin.xz, and the GPU and driver to OUTDIR/aniso8.log. Needs nvcc
# (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 504 records, up to 4,225
# lookups, a second of GPU work; xz of about 4 MB. The probe is stopped after 150 s; the script
# fails if the probe reports a CUDA error or the file holds an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_aniso_random" probe_aniso_random.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso8.log" || true
rm -f "$out"/aniso_random.bin*
timeout 150 "$build/probe_aniso_random" "$out/aniso_random.bin" | tee -a "$out/aniso8.log"
count=$(od -An -N4 -tu4 "$out/aniso_random.bin" | tr -d ' ')
if [ "$count" != 504 ]; then
  echo "aniso_random.bin: $count records, expected 504" | tee -a "$out/aniso8.log"
  exit 1
fi
ls -l "$out/aniso_random.bin" | tee -a "$out/aniso8.log"
xz -9 -f "$out/aniso_random.bin"
ls -l "$out/aniso_random.bin.xz"
