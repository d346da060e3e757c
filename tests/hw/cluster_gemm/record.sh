#!/usr/bin/env bash
# Builds the recorder and records every launch of problem.h into OUTDIR/gemm.bin: record.sh OUTDIR
# (gemm.ptx is the committed kernel; regenerate it only when gemm.cu changes:
#  nvcc -arch=sm_90a -ptx -O2 -o gemm.ptx gemm.cu)
set -euo pipefail
out="$(mkdir -p "$1" && cd "$1" && pwd)"
cd "$(dirname "$0")"
ptxas -arch=sm_90a gemm.ptx -o /tmp/cluster_gemm.cubin
nvcc -O2 -std=c++17 -o /tmp/record_gemm record_gemm.cu -lcuda
/tmp/record_gemm gemm.ptx "$out"
