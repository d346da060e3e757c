#!/usr/bin/env python3
"""Front-end round trip over PTX files (the corpus criterion of the front-end issue).

For every .ptx file under the given paths: `ptxvm check` accepts it; `ptxvm print` gives a
canonical text P1; printing P1 again gives P1 exactly (a fixed point); and ptxas accepts P1
for the module's first target. ptxas must be installed: its absence is a failure, not a skip.
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def first_target(text):
    m = re.search(r"^\s*\.target\s+([A-Za-z0-9_]+)", text, re.M)
    return m.group(1) if m else None


def ptxas_args(text, target):
    # Modules with external functions or -rdc code must be compiled, not linked.
    args = ["-arch=" + target, "-o", os.devnull]
    if re.search(r"^\s*\.extern\s+\.func", text, re.M) and "vprintf" not in text:
        args.insert(0, "--compile-only")
    return args


def check_one(ptxvm, ptxas, path, tmpdir):
    text = path.read_text(errors="replace")
    r = subprocess.run([ptxvm, "check", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        return f"check rejected it:\n{r.stderr[:2000]}"
    r = subprocess.run([ptxvm, "print", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        return f"print failed:\n{r.stderr[:2000]}"
    p1 = r.stdout
    out = pathlib.Path(tmpdir) / (path.name + ".p1.ptx")
    out.write_text(p1)
    r = subprocess.run([ptxvm, "print", str(out)], capture_output=True, text=True)
    if r.returncode != 0 or r.stdout != p1:
        return "canonical print is not a fixed point" + (f":\n{r.stderr[:2000]}" if r.stderr else "")
    target = first_target(text)
    if target is None:
        return "no .target line"
    # ptxas judges the original too: a print is only required to pass where the input did.
    orig = subprocess.run([ptxas, *ptxas_args(text, target), str(path)], capture_output=True, text=True)
    if orig.returncode != 0:
        return None
    r = subprocess.run([ptxas, *ptxas_args(text, target), str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        return f"ptxas rejects the canonical print:\n{r.stderr[:2000]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxvm", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        print("FAIL: ptxas not found (install the CUDA toolkit); this test needs it")
        return 1
    files = []
    for p in args.paths:
        p = pathlib.Path(p)
        files += sorted(p.rglob("*.ptx")) if p.is_dir() else [p]
    if not files:
        print("FAIL: no .ptx files found")
        return 1
    failures = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futures = {ex.submit(check_one, args.ptxvm, ptxas, f, tmp): f for f in files}
        for fut in concurrent.futures.as_completed(futures):
            err = fut.result()
            if err:
                failures.append((futures[fut], err))
    for f, err in sorted(failures):
        print(f"FAIL {f}: {err}\n")
    print(f"{len(files) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
