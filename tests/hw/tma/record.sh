#!/usr/bin/env bash
# Records every text and coordinate set of texts.inc, each in a process of its own: record.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")"
nvcc -O2 -std=c++17 -o /tmp/record_tma record_tma.cu -lcuda
rm -f "$1/tma.bin"
python3 - "$1" <<'PY'
import re, subprocess, sys
rows = [l for l in open("texts.inc") if l.startswith("{")]
for i, row in enumerate(rows):
    sets = int(re.findall(r"\}, \d+, \d+, (\d+), \{\{", row)[0])
    for s in range(sets):
        subprocess.run(["/tmp/record_tma", "tma_kernels.ptx", sys.argv[1], str(i), str(s)], check=True)
PY
