#!/usr/bin/env bash
# Records probe_aniso_stretch.cu (README: "Stretched steps: parts 29, 30"): record_aniso9.sh OUTDIR
# writes OUTDIR/aniso_stretch.bin.xz, and the GPU and driver to OUTDIR/aniso9.log. Needs nvcc
# (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 1,920 records, up to 4,225
# lookups, a second of GPU work; xz of about 16 MB. The probe is stopped after 150 s; the script
# fails if the probe reports a CUDA error or the file holds an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_aniso_stretch" probe_aniso_stretch.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso9.log" || true
rm -f "$out"/aniso_stretch.bin*
timeout 150 "$build/probe_aniso_stretch" "$out/aniso_stretch.bin" | tee -a "$out/aniso9.log"
count=$(od -An -N4 -tu4 "$out/aniso_stretch.bin" | tr -d ' ')
if [ "$count" != 1920 ]; then
  echo "aniso_stretch.bin: $count records, expected 1920" | tee -a "$out/aniso9.log"
  exit 1
fi
ls -l "$out/aniso_stretch.bin" | tee -a "$out/aniso9.log"
xz -9 -f "$out/aniso_stretch.bin"
ls -l "$out/aniso_stretch.bin.xz"
