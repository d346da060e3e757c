#!/usr/bin/env bash
# Records the real driver's calls for several kinds of CUDA programs, on a machine with a GPU
# (README.md): trace.sh OUTDIR writes OUTDIR/<program>.trace, <program>.log (its output),
# runs.txt, environment.txt and summary.md. Programs whose Python package is missing are skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" && out=$(cd "$1" && pwd) || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/build.sh" "$work/lib" || exit 1

# The driver this machine's loader finds, unless given.
if [ -z "${PTXVM_REAL_LIBCUDA:-}" ]; then
    PTXVM_REAL_LIBCUDA=$(python3 -c '
import ctypes
ctypes.CDLL("libcuda.so.1")
print(next(l.split()[-1] for l in open("/proc/self/maps") if "/libcuda.so" in l))' 2>/dev/null ||
        ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
fi
[ -n "$PTXVM_REAL_LIBCUDA" ] || { echo "trace.sh: no libcuda.so.1 found" >&2; exit 1; }
export PTXVM_REAL_LIBCUDA=$(readlink -f "$PTXVM_REAL_LIBCUDA")

{
    echo "real driver: $PTXVM_REAL_LIBCUDA"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -n 2
    python3 -m pip list 2>/dev/null | grep -iE '^(torch|triton|cupy\S*|numba\S*|cuda-\S+) '
} > "$out/environment.txt" 2>&1

# Fresh caches, so that compilers run as on a first use; each line written at once, so that a
# program that crashes or is stopped keeps its log.
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=$work/cupy TRITON_CACHE_DIR=$work/triton NUMBA_CACHE_DIR=$work/numba
export PTXVM_TRACE_SYNC=1
cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
export CUDA_HOME=${CUDA_HOME:-$cuda_home}  # where numba-cuda looks for NVVM
: > "$out/runs.txt"

# trace NAME COMMAND...: runs COMMAND with the trace library first on LD_LIBRARY_PATH; where that
# logs no call (a binary whose RPATH finds the real driver first), again with LD_PRELOAD.
trace() {
    local name=$1 how=LD_LIBRARY_PATH status lines
    shift
    local lib_path=$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    rm -f "$out/$name.trace"
    PTXVM_TRACE_FILE=$out/$name.trace LD_LIBRARY_PATH=$lib_path timeout 60 "$@" > "$out/$name.log" 2>&1
    status=$?
    if [ $status != 77 ] && ! grep -q '^[0-9]' "$out/$name.trace" 2>/dev/null; then
        how=LD_PRELOAD
        rm -f "$out/$name.trace"
        PTXVM_TRACE_FILE=$out/$name.trace LD_LIBRARY_PATH=$lib_path LD_PRELOAD=$work/lib/libcuda.so.1 \
            timeout 60 "$@" > "$out/$name.log" 2>&1
        status=$?
    fi
    echo "$name $status $how" >> "$out/runs.txt"
    lines=$(grep -s -c '^[0-9]' "$out/$name.trace")
    echo "$name: exit status $status, library found by $how, ${lines:-0} lines logged"
}

for cudart in static shared; do
    rpath=()
    [ $cudart = shared ] && rpath=(-Xlinker -rpath -Xlinker "$cuda_home/lib64")  # finds libcudart.so
    if nvcc -O2 -arch=sm_90 -cudart $cudart "${rpath[@]}" -o "$work/vecadd_$cudart" "$here/programs/vecadd.cu" \
        > "$out/vecadd_$cudart.build.log" 2>&1; then
        trace "vecadd_$cudart" "$work/vecadd_$cudart"
    else
        echo "vecadd_$cudart build-failed -" >> "$out/runs.txt"
    fi
done
for program in cupy torch triton numba cuda_python; do
    trace "$program" python3 "$here/programs/${program}_prog.py"
done

python3 "$here/summarize.py" "$out" > "$out/summary.md"
echo "summary: $out/summary.md"
