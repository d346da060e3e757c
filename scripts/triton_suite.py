#!/usr/bin/env python3
"""Runs a Triton language test file (python/test/unit/language/test_core.py of a Triton source
tree) with the CPU device, through ptxvm's Triton backend for a target or under Triton's own
interpreter, and prints the outcome: passed, failed, skipped, and the failures grouped by their
error's first line.

    scripts/triton_suite.py TRITON_SRC --target cuda:90 [--cuda-tensors] [--workers 2] [--every N]
    scripts/triton_suite.py TRITON_SRC --interpreter

TRITON_SRC is a checkout of Triton matching the installed release (the tests import its
conftest). --every N runs every Nth test of the collection (a sample); --cuda-tensors sets
PTXVM_CUDA_TENSORS=cpu. Needs torch, triton, pytest, pytest-xdist, pytest-timeout, and the ptxvm
package (installed, or PYTHONPATH=build/python). The junit XML is kept (--xml) for a closer look.
"""
import argparse
import collections
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def environment(args) -> dict:
    env = {**os.environ, "TRITON_DEFAULT_FP_FUSION": "1"}
    if env.get("PYTHONPATH"):  # the tests run in the Triton tree
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    env.pop("PTXVM_TARGET", None)
    env.pop("TRITON_INTERPRET", None)
    if args.interpreter:
        env["TRITON_INTERPRET"] = "1"
    else:
        env["PTXVM_TARGET"] = args.target
        if args.cuda_tensors:
            env["PTXVM_CUDA_TENSORS"] = "cpu"
    return env


def collect(tests: pathlib.Path, test_file: str, env: dict) -> list:
    out = subprocess.run([sys.executable, "-m", "pytest", test_file, "--device", "cpu", "--collect-only", "-q",
                          "-p", "no:cacheprovider"], cwd=tests, env=env, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.startswith(test_file + "::")]


def failure_class(case: ET.Element) -> str:
    """The first line of a failed test's error, with numbers and quoted values masked."""
    for tag in ("failure", "error"):
        node = case.find(tag)
        if node is not None:
            text = (node.get("message") or node.text or "").strip().splitlines()
            line = text[0] if text else tag
            line = re.sub(r"0x[0-9a-f]+|\d+(\.\d+)?", "N", line)
            return re.sub(r"'[^']*'", "'…'", line)[:160]
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("triton_src", type=pathlib.Path)
    parser.add_argument("--target", default="cuda:90")
    parser.add_argument("--interpreter", action="store_true")
    parser.add_argument("--cuda-tensors", action="store_true")
    parser.add_argument("--file", default="unit/language/test_core.py")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--xml", type=pathlib.Path, default=None)
    args = parser.parse_args()
    tests = args.triton_src / "python" / "test"
    env = environment(args)
    selected = collect(tests, args.file, env)[::args.every]
    xml = args.xml or pathlib.Path(tempfile.mkdtemp()) / "results.xml"
    command = [sys.executable, "-m", "pytest", "--device", "cpu", "-q", "-p", "no:cacheprovider", "--timeout", "600",
               f"--junitxml={xml}", "--tb=no", "-n", str(args.workers)]
    subprocess.run(command + (selected if args.every > 1 else [args.file]), cwd=tests, env=env,
                   stdout=subprocess.DEVNULL)
    cases = ET.parse(xml).getroot().iter("testcase")
    counts, classes = collections.Counter(), collections.Counter()
    for case in cases:
        kind = failure_class(case)
        if kind:
            counts["failed"] += 1
            classes[kind] += 1
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    mode = "TRITON_INTERPRET=1" if args.interpreter else args.target + (" PTXVM_CUDA_TENSORS=cpu" if args.cuda_tensors else "")
    print(f"{args.file} ({mode}): {len(selected)} tests, {counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped  [xml: {xml}]")
    for kind, n in classes.most_common():
        print(f"  {n:5d}  {kind}")


if __name__ == "__main__":
    main()
