#!/bin/sh
# Compiles planted.cu to the PTX the planted-bug test runs (nvcc 13.0); -lineinfo keeps the .loc
# lines that reports name.
set -e
cd "$(dirname "$0")"
nvcc -ptx -arch=sm_90 -lineinfo -o planted.sm_90.ptx planted.cu
