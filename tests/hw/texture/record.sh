#!/usr/bin/env bash
# Records every case of cases.h into OUTDIR/texture.bin, the recorder's log into OUTDIR/texture.log:
# record.sh OUTDIR. A launch the GPU stops leaves the CUDA context unusable, so the recorder then
# prints "next N" and exits; it is started again at case N.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
nvcc -O2 -std=c++17 -o /tmp/record_texture record_texture.cu -lcuda
rm -f "$out/texture.bin" "$out/texture.log"
next=0
while [ -n "$next" ]; do
  next=$(timeout 300 /tmp/record_texture texture_kernels.ptx "$out" "$next" | tee -a "$out/texture.log" | sed -n 's/^next //p')
done
grep -c "" "$out/texture.log" | sed 's/$/ log lines/'
grep -E "FAULT|refused" "$out/texture.log" || true
