#!/usr/bin/env bash
# Builds the trace library: build.sh DIR makes DIR/libcuda.so.1 (README.md). -Bsymbolic: the
# library's own tables point at its own entry points even where a loaded object exports the same names.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
python3 "$here/gen_thunks.py" "$here/../libcuda_symbols.txt" > "$1/thunks.S"
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -fPIC -fvisibility=hidden -shared -Wl,-soname,libcuda.so.1 -Wl,-Bsymbolic \
    -Wl,-z,noexecstack -o "$1/libcuda.so.1" "$here/trace.c" "$here/entry.S" "$1/thunks.S" -ldl -lpthread
ln -sf libcuda.so.1 "$1/libcuda.so"  # for programs that open or link libcuda.so (numba, Triton)
