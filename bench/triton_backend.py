#!/usr/bin/env python3
"""The kernels of Triton's tutorials (bench/triton_tutorial_kernels.py) through ptxvm's Triton
backend beside Triton's own interpreter (TRITON_INTERPRET=1), on the same machine in one run: the
median of a few launches of each, after a warm-up launch (which compiles). Needs torch and triton;
the package from the build tree (PYTHONPATH=build/python) or installed.

    python3 bench/triton_backend.py [--target cuda:90] [--repeats 3] [--only NAME]

Each mode runs in a process of its own, since the interpreter is chosen when Triton loads.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run_mode(repeats, only):
    sys.path.insert(0, HERE)
    import triton_tutorial_kernels  # noqa: E402  (after the mode's environment is set)
    times = {}
    for name, launch in triton_tutorial_kernels.cases().items():
        if only and only not in name:
            continue
        try:
            launch()  # compiles
            samples = []
            for _ in range(repeats):
                t = time.perf_counter()
                launch()
                samples.append(time.perf_counter() - t)
            times[name] = statistics.median(samples)
        except Exception as e:  # a kernel this mode cannot run: say why
            times[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"
    print(json.dumps(times))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default="", help="the kernels whose name contains this")
    ap.add_argument("--mode", choices=["ptxvm", "interpreter"])
    args = ap.parse_args()
    if args.mode:
        return run_mode(args.repeats, args.only)
    results = {}
    for mode, env in (("ptxvm", {"PTXVM_TARGET": args.target}), ("interpreter", {"TRITON_INTERPRET": "1"})):
        e = {k: v for k, v in os.environ.items() if k not in ("PTXVM_TARGET", "TRITON_INTERPRET")}
        e.update(env)
        out = subprocess.run([sys.executable, __file__, "--mode", mode, "--repeats", str(args.repeats), "--only", args.only],
                             env=e, capture_output=True, text=True, check=True).stdout
        results[mode] = json.loads(out.strip().splitlines()[-1])
    print(f"Triton kernels, ptxvm backend ({args.target}) vs TRITON_INTERPRET=1, median of {args.repeats} launches:")
    for name in results["ptxvm"]:
        p, i = results["ptxvm"][name], results["interpreter"][name]
        shown = [f"{t * 1e3:10.1f} ms" if isinstance(t, float) else t for t in (p, i)]
        ratio = f"{i / p:7.1f}x faster" if isinstance(p, float) and isinstance(i, float) else ""
        print(f"  {name:36s} ptxvm {shown[0]}   interpreter {shown[1]}   {ratio}")


if __name__ == "__main__":
    main()
