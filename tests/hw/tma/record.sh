#!/usr/bin/env bash
# Records every text and coordinate set of texts.inc, each in a process of its own, into OUTDIR/tma.bin;
# with a second argument, only the texts whose names match that regular expression:
#   record.sh OUTDIR [NAME_REGEX]
set -euo pipefail
cd "$(dirname "$0")"
nvcc -O2 -std=c++17 -o /tmp/record_tma record_tma.cu -lcuda
rm -f "$1/tma.bin"
python3 - "$1" "${2:-.}" <<'PY'
import re, subprocess, sys
rows = [l for l in open("texts.inc") if l.startswith("{")]
for i, row in enumerate(rows):
    if not re.search(sys.argv[2], row.split('"')[3]):
        continue
    sets = int(re.findall(r"\}, \d+, \d+, \d+, (\d+), \{\{", row)[0])
    for s in range(sets):
        subprocess.run(["/tmp/record_tma", "tma_kernels.ptx", sys.argv[1], str(i), str(s)], check=True)
PY
