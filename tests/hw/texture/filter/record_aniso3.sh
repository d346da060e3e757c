#!/usr/bin/env bash
# Records probe_aniso_more.cu (README: "More anisotropic probes: parts 16-20"): record_aniso3.sh
# OUTDIR writes OUTDIR/aniso_more.bin.xz, and the GPU and driver to OUTDIR/aniso3.log. Needs nvcc
# (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute: one nvcc build of a few seconds; 62 records of at most
# 16,384 results each, a few seconds; xz of about 2 MB. The probe is stopped after 150 s (it
# should need a few seconds); the script fails if the probe reports a CUDA error or the file holds
# an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/probe_aniso_more" probe_aniso_more.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso3.log" || true
rm -f "$out"/aniso_more.bin*
timeout 150 "$build/probe_aniso_more" "$out/aniso_more.bin" | tee -a "$out/aniso3.log"
count=$(od -An -N4 -tu4 "$out/aniso_more.bin" | tr -d ' ')
if [ "$count" != 62 ]; then
  echo "aniso_more.bin: $count records, expected 62" | tee -a "$out/aniso3.log"
  exit 1
fi
ls -l "$out/aniso_more.bin" | tee -a "$out/aniso3.log"
xz -9 -f "$out/aniso_more.bin"
ls -l "$out/aniso_more.bin.xz"
