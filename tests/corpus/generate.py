#!/usr/bin/env python3
"""Regenerate tests/corpus/ptx/ from tests/corpus/cuda/*.cu and tests/corpus/triton/*.py.

Developer tool (not run by CI). Needs nvcc (CUDA 13.0) and `pip install triton`.
Deterministic: the set of builds is a pure function of the sorted source list and
the `// corpus-*:` header lines of each .cu file. Sources are compiled from a
copy under /tmp/ptxvm_corpus_src/ so that no path of the checkout leaks into
the PTX debug info (debug builds still name the CUDA headers under
/usr/local/cuda and Triton's own modules under its site-packages).

Header lines understood in a .cu file (all optional):
  // corpus-archs: sm_80 sm_90a ...   plain builds (default: auto:4)
  // corpus-archs: auto:N             N archs taken round-robin from the ring below
  // corpus-min: sm_80                lowest arch the kernel needs (filters the ring)
  // corpus-ring: sm_90a sm_100a      replace the ring for this file
  // corpus-G: auto | none | sm_..    -G builds (default: auto = one arch)
  // corpus-lineinfo: auto | none | sm_..   -lineinfo builds (default: auto = one arch)
  // corpus-flags: -rdc=true ...      extra nvcc flags for every build of this file

Usage: python3 tests/corpus/generate.py [--jobs 2] [--only cuda|triton] [NAME...]
"""
import argparse, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
CUDA_DIR = os.path.join(HERE, "cuda")
TRITON_DIR = os.path.join(HERE, "triton")
PTX_DIR = os.path.join(HERE, "ptx")
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
# nvcc writes the absolute path of the source into .file directives (-G and
# -lineinfo builds); sources are compiled from a copy at this fixed path so
# that the PTX does not depend on where the checkout lives.
FIXED_SRC_DIR = "/tmp/ptxvm_corpus_src/cuda"

# Generic arch ring (every target nvcc 13.0 accepts for PTX), in the order the
# automatic selection walks it.
RING = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120",
        "sm_87", "sm_90a", "sm_103", "sm_100a", "sm_110", "sm_120a", "sm_88",
        "sm_121", "sm_103a", "sm_100f", "sm_110a", "sm_120f", "sm_121a"]


def arch_num(a):
    return int(re.match(r"sm_(\d+)", a).group(1))


def parse_header(path):
    h = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*//\s*corpus-([A-Za-z]+):\s*(.*?)\s*$", line)
            if m:
                h[m.group(1)] = m.group(2)
    return h


def pick(ring, start, n):
    return [ring[(start + i) % len(ring)] for i in range(min(n, len(ring)))]


def cuda_jobs(names):
    jobs = []
    files = sorted(f for f in os.listdir(CUDA_DIR) if f.endswith(".cu"))
    for idx, fn in enumerate(files):
        stem = fn[:-3]
        if names and stem not in names:
            continue
        h = parse_header(os.path.join(CUDA_DIR, fn))
        ring = h.get("ring", "").split() or RING
        if "min" in h:
            lo = arch_num(h["min"])
            ring = [a for a in ring if arch_num(a) >= lo]
        start = (idx * 5) % len(ring)
        spec = h.get("archs", "auto:4")
        n_auto = 0
        if spec.startswith("auto"):
            n_auto = int(spec.split(":")[1]) if ":" in spec else 4
            plain = pick(ring, start, n_auto)
        else:
            plain = spec.split()
        extra = ring[(start + n_auto) % len(ring):] + ring[:(start + n_auto) % len(ring)]
        def variant(key, off):
            v = h.get(key, "auto")
            if v == "none":
                return []
            if v == "auto":
                return [extra[off % len(extra)]]
            return v.split()
        flags = h.get("flags", "").split()
        for a in plain:
            jobs.append((stem, fn, a, "", flags))
        for a in variant("G", 0):
            jobs.append((stem, fn, a, "G", flags))
        for a in variant("lineinfo", 1):
            jobs.append((stem, fn, a, "lineinfo", flags))
    return jobs


def run_cuda(job):
    stem, fn, arch, kind, flags = job
    suffix = "." + kind if kind else ""
    out = os.path.join(PTX_DIR, f"{stem}.{arch}{suffix}.ptx")
    cmd = [NVCC, "-ptx", f"-arch={arch}", "-std=c++17"] + flags
    if kind == "G":
        cmd.append("-G")
    elif kind == "lineinfo":
        cmd.append("-lineinfo")
    cmd += [fn, "-o", out]
    p = subprocess.run(cmd, cwd=FIXED_SRC_DIR, capture_output=True, text=True)
    if p.returncode != 0:
        return f"FAIL {os.path.basename(out)}: {' '.join(cmd)}\n{p.stderr}"
    return None


TRITON_TARGETS = [80, 90, 100]


def run_triton(py, cc):
    env = dict(os.environ)
    # Triton's bundled ptxas may be newer than the local CUDA and would make
    # Triton emit a .version the local ptxas rejects; pin the local one.
    ptxas = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
    env["TRITON_PTXAS_PATH"] = ptxas
    env["TRITON_PTXAS_BLACKWELL_PATH"] = ptxas
    env["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="corpus_triton_")
    try:
        p = subprocess.run([sys.executable, os.path.join(HERE, "triton_build.py"),
                            os.path.join(TRITON_DIR, py), str(cc), PTX_DIR],
                           env=env, capture_output=True, text=True)
    finally:
        shutil.rmtree(env["TRITON_CACHE_DIR"], ignore_errors=True)
    if p.returncode != 0:
        return f"FAIL triton {py} cuda{cc}:\n{p.stdout}\n{p.stderr[-3000:]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", choices=["cuda", "triton"])
    ap.add_argument("--list", action="store_true", help="print the build list only")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    os.makedirs(PTX_DIR, exist_ok=True)
    jobs = cuda_jobs(set(args.names)) if args.only != "triton" else []
    tjobs = []
    if args.only != "cuda":
        for py in sorted(os.listdir(TRITON_DIR)):
            if py.endswith(".py") and (not args.names or py[:-3] in args.names):
                tjobs += [(py, cc) for cc in TRITON_TARGETS]
    if args.list:
        for j in jobs:
            print(j[0], j[2], j[3] or "plain", " ".join(j[4]))
        for j in tjobs:
            print(j[0], f"cuda{j[1]}")
        return 0
    # Remove stale outputs: everything on a full run, else the selected .cu stems.
    stems = {j[0] for j in jobs}
    for f in os.listdir(PTX_DIR):
        if not f.endswith(".ptx"):
            continue
        if (not args.names and args.only is None) or f.split(".")[0] in stems:
            os.remove(os.path.join(PTX_DIR, f))
    if jobs:
        shutil.rmtree(FIXED_SRC_DIR, ignore_errors=True)
        shutil.copytree(CUDA_DIR, FIXED_SRC_DIR)
    errors = []
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r in ex.map(run_cuda, jobs):
            if r:
                errors.append(r)
                print(r, file=sys.stderr)
        for r in ex.map(lambda j: run_triton(*j), tjobs):
            if r:
                errors.append(r)
                print(r, file=sys.stderr)
    print(f"cuda builds: {len(jobs)}, triton builds: {len(tjobs)}, failures: {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
