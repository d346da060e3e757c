#!/usr/bin/env bash
# Tests the trace library without a GPU (README.md): builds it and a fake driver
# (selftest/fake_libcuda.c), checks that the library exports the driver's symbols, and runs
# selftest/selftest.c through it, found by LD_LIBRARY_PATH, by LD_PRELOAD, with
# PTXVM_TRACE_RETURNS=0, with PTXVM_TRACE_SYNC=1 and with the fake loaded first;
# selftest/check.py checks each log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}
"$here/build.sh" "$work/trace"
mkdir -p "$work/fake"
$cc -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -fvisibility=hidden -shared -Wl,-soname,libcuda.so.1 \
    -o "$work/fake/libcuda.so.1" "$here/selftest/fake_libcuda.c"
$cc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$work/selftest" "$here/selftest/selftest.c" -ldl -lpthread

grep -v '^cudbg' "$here/../libcuda_symbols.txt" | LC_ALL=C sort > "$work/want.txt"
nm -D --defined-only "$work/trace/libcuda.so.1" | awk '{print $3}' | LC_ALL=C sort > "$work/got.txt"
diff "$work/want.txt" "$work/got.txt" > /dev/null || { echo "FAIL: exported symbols differ"; exit 1; }
echo "exports: ok ($(wc -l < "$work/got.txt") symbols)"

fake=$work/fake/libcuda.so.1
status=0
run() {  # run NAME CHECK-FLAGS -- ENV... COMMAND...
    local name=$1 flags=$2
    shift 3
    rm -f "$work/$name.log"
    if ! env PTXVM_TRACE_FILE="$work/$name.log" PTXVM_REAL_LIBCUDA="$fake" "$@"; then
        echo "FAIL: $name: the test program failed"
        status=1
        return
    fi
    python3 "$here/selftest/check.py" "$work/$name.log" "$fake" $flags || status=1
}
run library_path "" -- LD_LIBRARY_PATH="$work/trace" "$work/selftest"
run preload "" -- LD_PRELOAD="$work/trace/libcuda.so.1" "$work/selftest"
run no_returns --no-returns -- PTXVM_TRACE_RETURNS=0 LD_LIBRARY_PATH="$work/trace" "$work/selftest"
run sync "" -- PTXVM_TRACE_SYNC=1 LD_LIBRARY_PATH="$work/trace" "$work/selftest"
run loaded_first --loaded-first -- LD_PRELOAD="$fake" "$work/selftest" "$work/trace/libcuda.so.1"
[ $status = 0 ] && echo "trace_selftest: ok" || echo "trace_selftest: FAILED"
exit $status
