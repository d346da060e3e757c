"""Runs every kernel of every given PTX module once with zeroed arguments (grid 2, block 64,
2 s watchdog) through a `ptxvm` binary built with -DPTXVM_SANITIZE=ON, and reports any
AddressSanitizer/UBSan finding or unexpected exit. Guest faults (exit 2) and modules that do not
load (exit 1) are expected: the point is that the host process never crashes.

    cmake -S . -B build-asan -G Ninja -DPTXVM_SANITIZE=ON -DPTXVM_TESTS=OFF -DPTXVM_BENCH=OFF -DPTXVM_PYTHON=OFF
    ninja -C build-asan ptxvm
    python3 scripts/sanitizer_smoke.py build-asan/tools/ptxvm/ptxvm tests/corpus/ptx/*.ptx
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ENTRY = re.compile(r'\.entry\s+([\w$]+)\s*\((.*?)\)', re.S)
PARAM = re.compile(r'\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+(?:\.ptr\s+(?:\.\w+\s+)*)?([\w$]+)(?:\[(\d+)\])?')
SCALAR = {"u64": "u64", "b64": "u64", "s64": "u64", "u32": "u32", "b32": "u32", "s32": "u32",
          "f32": "f32", "f64": "f64", "u16": "u16", "b16": "u16", "s16": "u16", "u8": "u8",
          "b8": "u8", "s8": "u8"}


def zero_args(params):
    args = []
    for p in PARAM.finditer(params):
        align, ty, _, count = p.groups()
        if count:
            bits = int(re.sub(r'\D', '', ty) or 8)
            args.append({"bytes": "00" * (int(count) * max(1, bits // 8)), "align": int(align or 1)})
        else:
            args.append({SCALAR.get(ty, "u64"): 0})
    return args


def main():
    ptxvm, files = sys.argv[1], sys.argv[2:]
    exits, findings = collections.Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        manifest = os.path.join(tmp, "launch.json")
        for f in files:
            for m in ENTRY.finditer(open(f).read()):
                with open(manifest, "w") as out:
                    json.dump({"ptx": os.path.abspath(f), "kernel": m.group(1), "grid": [2], "block": [64],
                               "threads": 1, "timeout_s": 2, "args": zero_args(m.group(2))}, out)
                try:
                    r = subprocess.run([ptxvm, "run", manifest, "--out", tmp], capture_output=True,
                                       text=True, timeout=120)
                    rc, err = r.returncode, r.stderr
                except subprocess.TimeoutExpired:
                    rc, err = "timeout", ""
                exits[rc] += 1
                if "Sanitizer" in err or "runtime error" in err or rc not in (0, 1, 2):
                    findings.append(f"{f} {m.group(1)}: exit {rc}\n{err[-3000:]}")
    print("launches by exit status:", dict(exits))
    for item in findings:
        print(item)
    print(len(findings), "findings")
    sys.exit(1 if findings else 0)


main()
