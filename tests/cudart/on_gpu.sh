#!/usr/bin/env bash
# Checks the programs' expectations on a GPU: builds each programs/*.cu with NVIDIA's own runtime
# (nvcc's default, static libcudart) and runs it there; every one must print PASS, as it does over
# ptxvm. Usage (on a machine with an sm_90 GPU and CUDA 13): tests/cudart/on_gpu.sh [NAME ...]
set -uo pipefail
cd "$(dirname "$0")/programs"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
names=("$@")
[ ${#names[@]} -eq 0 ] && names=($(ls *.cu | sed 's/\.cu$//'))
failed=0
for n in "${names[@]}"; do
  if ! nvcc -arch=sm_90 -o "$build/$n" "$n.cu" 2> "$build/$n.log"; then
    echo "$n: does not build"; tail -3 "$build/$n.log"; failed=1; continue
  fi
  out=$(timeout 120 "$build/$n" 2>&1)
  if echo "$out" | grep -q PASS && ! echo "$out" | grep -q FAIL; then echo "$n: PASS"; else
    echo "$n: FAIL"; echo "$out" | tail -5; failed=1; fi
done
exit $failed
