#!/usr/bin/env bash
# Records probe_aniso_step.cu and probe_aniso_levels.cu (README: "Anisotropic steps off the axes
# and footprints on levels"): record_aniso2.sh OUTDIR writes
# OUTDIR/aniso_step.bin.xz and OUTDIR/aniso_levels.bin.xz, and the GPU and driver to
# OUTDIR/aniso2.log. Needs nvcc (CUDA 13) and an sm_90 GPU (H100/H200).
# Time (estimate, H200): under 1 minute in all: two nvcc builds of a few seconds each; 750 + 214
# records of at most 21,760 lookups each, a few seconds; xz of 6.6 + 6.7 MB, a few seconds. Each
# probe is stopped after 150 s (it should need a few seconds), so the script ends within ~6 minutes
# even if a launch hangs; it fails if a probe reports a CUDA error or an unexpected record count.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
for p in probe_aniso_step probe_aniso_levels; do
  nvcc -O2 -std=c++17 -arch=sm_90 -o "$build/$p" "$p.cu"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/aniso2.log" || true
rm -f "$out"/aniso_step.bin* "$out"/aniso_levels.bin*
timeout 150 "$build/probe_aniso_step" "$out/aniso_step.bin" | tee -a "$out/aniso2.log"
timeout 150 "$build/probe_aniso_levels" "$out/aniso_levels.bin" | tee -a "$out/aniso2.log"
ls -l "$out/aniso_step.bin" "$out/aniso_levels.bin" | tee -a "$out/aniso2.log"
xz -9 -f "$out/aniso_step.bin" "$out/aniso_levels.bin"
ls -l "$out/aniso_step.bin.xz" "$out/aniso_levels.bin.xz"
