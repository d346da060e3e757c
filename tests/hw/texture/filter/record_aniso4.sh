#!/usr/bin/env bash
# Records probe_aniso_oblique.cu (README: "Oblique footprints: part 23"): record_aniso4.sh OUTDIR
# writes OUTDIR/aniso_oblique.bin.xz, and the GPU and driver to OUTDIR/aniso4.log. Needs nvcc
# (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 47 records of 37,249
# lookups, a second of GPU work; xz of about 7 MB. The probe is stopped after 150 s; the script
# fails if the probe reports a CUDA error or the file holds an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_aniso_oblique" probe_aniso_oblique.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso4.log" || true
rm -f "$out"/aniso_oblique.bin*
timeout 150 "$build/probe_aniso_oblique" "$out/aniso_oblique.bin" | tee -a "$out/aniso4.log"
count=$(od -An -N4 -tu4 "$out/aniso_oblique.bin" | tr -d ' ')
if [ "$count" != 47 ]; then
  echo "aniso_oblique.bin: $count records, expected 47" | tee -a "$out/aniso4.log"
  exit 1
fi
ls -l "$out/aniso_oblique.bin" | tee -a "$out/aniso4.log"
xz -9 -f "$out/aniso_oblique.bin"
ls -l "$out/aniso_oblique.bin.xz"
