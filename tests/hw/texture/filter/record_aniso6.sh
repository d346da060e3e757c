#!/usr/bin/env bash
# Records probe_aniso_round.cu (README: "Rotated pairs on levels: part 25"): record_aniso6.sh OUTDIR
# writes OUTDIR/aniso_round.bin.xz, and the GPU and driver to OUTDIR/aniso6.log. Needs nvcc
# (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 64 records of 9,409
# lookups, a second of GPU work; xz of about 2.5 MB. The probe is stopped after 150 s; the script
# fails if the probe reports a CUDA error or the file holds an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_aniso_round" probe_aniso_round.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso6.log" || true
rm -f "$out"/aniso_round.bin*
timeout 150 "$build/probe_aniso_round" "$out/aniso_round.bin" | tee -a "$out/aniso6.log"
count=$(od -An -N4 -tu4 "$out/aniso_round.bin" | tr -d ' ')
if [ "$count" != 64 ]; then
  echo "aniso_round.bin: $count records, expected 64" | tee -a "$out/aniso6.log"
  exit 1
fi
ls -l "$out/aniso_round.bin" | tee -a "$out/aniso6.log"
xz -9 -f "$out/aniso_round.bin"
ls -l "$out/aniso_round.bin.xz"
