#!/usr/bin/env bash
# Records probe_aniso_pair.cu (README: "Two samples on a level: part 26"): record_aniso7.sh OUTDIR
# writes OUTDIR/aniso_pair.bin.xz, and the GPU and driver to OUTDIR/aniso7.log. Needs nvcc
# (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 315 records of 257
# lookups, a second of GPU work; xz of about 0.3 MB. The probe is stopped after 150 s; the script
# fails if the probe reports a CUDA error or the file holds an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_aniso_pair" probe_aniso_pair.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso7.log" || true
rm -f "$out"/aniso_pair.bin*
timeout 150 "$build/probe_aniso_pair" "$out/aniso_pair.bin" | tee -a "$out/aniso7.log"
count=$(od -An -N4 -tu4 "$out/aniso_pair.bin" | tr -d ' ')
if [ "$count" != 315 ]; then
  echo "aniso_pair.bin: $count records, expected 315" | tee -a "$out/aniso7.log"
  exit 1
fi
ls -l "$out/aniso_pair.bin" | tee -a "$out/aniso7.log"
xz -9 -f "$out/aniso_pair.bin"
ls -l "$out/aniso_pair.bin.xz"
