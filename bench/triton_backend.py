#!/usr/bin/env python3
"""Triton kernels through ptxvm's Triton backend beside Triton's own interpreter
(TRITON_INTERPRET=1), on the same machine in one run: the median of a few launches of each, after
a warm-up launch (which compiles). Needs torch and triton; the package from the build tree
(PYTHONPATH=build/python) or installed.

    python3 bench/triton_backend.py [--target cuda:90]

Each mode runs in a process of its own, since the interpreter is chosen when Triton loads.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

KERNELS = """
import torch, triton, triton.language as tl

@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)

@triton.jit
def softmax(out, inp, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(inp + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * N + rn[None, :]), acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)

def cases():
    x, y = torch.rand(98432), torch.rand(98432)
    out = torch.empty_like(x)
    s_in = torch.randn(1823, 781)
    s_out = torch.empty_like(s_in)
    a, b = torch.randn(256, 256).half(), torch.randn(256, 256).half()
    c = torch.empty(256, 256)
    return {
        "vector add 98432": lambda: add[(triton.cdiv(98432, 1024),)](x, y, out, 98432, BLOCK=1024),
        "softmax 1823x781": lambda: softmax[(1823,)](s_out, s_in, 781, BLOCK=1024),
        "matmul 256^3 f16": lambda: matmul[(4, 4)](a, b, c, 256, 256, 256, BM=64, BN=64, BK=32),
    }
"""


def run_mode(repeats):
    import importlib.util
    import tempfile
    with tempfile.TemporaryDirectory() as d:  # @triton.jit reads its source from a file
        path = os.path.join(d, "bench_kernels.py")
        with open(path, "w") as f:
            f.write(KERNELS)
        spec = importlib.util.spec_from_file_location("bench_kernels", path)
        kernels = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kernels)
        launches = kernels.cases()
    times = {}
    for name, launch in launches.items():
        launch()  # compiles
        samples = []
        for _ in range(repeats):
            t = time.perf_counter()
            launch()
            samples.append(time.perf_counter() - t)
        times[name] = statistics.median(samples)
    print(json.dumps(times))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--mode", choices=["ptxvm", "interpreter"])
    args = ap.parse_args()
    if args.mode:
        return run_mode(args.repeats)
    results = {}
    for mode, env in (("ptxvm", {"PTXVM_TARGET": args.target}), ("interpreter", {"TRITON_INTERPRET": "1"})):
        e = {k: v for k, v in os.environ.items() if k not in ("PTXVM_TARGET", "TRITON_INTERPRET")}
        e.update(env)
        out = subprocess.run([sys.executable, __file__, "--mode", mode, "--repeats", str(args.repeats)], env=e,
                             capture_output=True, text=True, check=True).stdout
        results[mode] = json.loads(out.strip().splitlines()[-1])
    print(f"Triton kernels, ptxvm backend ({args.target}) vs TRITON_INTERPRET=1, median of {args.repeats} launches:")
    for name in results["ptxvm"]:
        p, i = results["ptxvm"][name], results["interpreter"][name]
        print(f"  {name:20s} ptxvm {p * 1e3:9.2f} ms   interpreter {i * 1e3:9.2f} ms   {i / p:6.1f}x faster")


if __name__ == "__main__":
    main()
