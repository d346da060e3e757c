#!/usr/bin/env python3
"""Checks the log that selftest.c wrote through the trace library (trace_selftest.sh).

    check.py LOG REAL_PATH [--no-returns] [--loaded-first]

--no-returns: the run had PTXVM_TRACE_RETURNS=0, so only the functions trace.c defines log their
results; --loaded-first: the fake driver was loaded before the trace library.
"""
import re
import sys

IN_C = {"cuInit", "cuDriverGetVersion", "cuGetProcAddress", "cuGetProcAddress_v2", "cuGetExportTable"}
CALL = re.compile(r"(\d+) (\d+) (\d+) (\S+)(.*)")

# What the main thread logs, in order; "call=@" stands for the call's sequence number.
MAIN = [
    "cuInit flags=0", "cuInit -> 0 call=@", "cuInit flags=1", "cuInit -> 1 call=@",
    "cuDriverGetVersion", "cuDriverGetVersion -> 0 call=@ version=13000",
    "cuLaunchKernel", "cuLaunchKernel", "cuLaunchKernel -> 1 call=@",
    "cuCtxSetLimit", "cuProfilerStart", "cuProfilerStop", "cuProfilerStop -> 3 call=@",
    "cuCtxGetLimit", "cuCtxGetFlags",
    "cuGetProcAddress_v2 symbol=cuLaunchKernel version=12000 flags=0",
    "cuGetProcAddress_v2 -> 0 call=@ fn=cuLaunchKernel status=0",
    "cuLaunchKernel",
    "cuGetProcAddress_v2 symbol=cuSecret version=12000 flags=2",
    "cuGetProcAddress_v2 -> 0 call=@ fn=unexported status=0",
    "cuGetProcAddress_v2 symbol=cuNothing version=12000 flags=0",
    "cuGetProcAddress_v2 -> 0 call=@ fn=null status=1",
    "cuGetProcAddress_v2 symbol=cuInit version=14000 flags=0", "cuGetProcAddress_v2 -> 1 call=@",
    "cuGetProcAddress symbol=cuGetProcAddress version=13000 flags=0",
    "cuGetProcAddress -> 0 call=@ fn=cuGetProcAddress_v2",
    "cuGetProcAddress_v2 symbol=cuInit version=13000 flags=0", "cuGetProcAddress_v2 -> 0 call=@ fn=cuInit",
    "cuInit flags=0", "cuInit -> 0 call=@",
    "cuGetExportTable uuid=6bd5fb6c5bf4e74a8987d93912fd9df9", "cuGetExportTable -> 0 call=@ size=104",
    "cuGetExportTable uuid=c693336e1121df11a8c368f355d89593", "cuGetExportTable -> 0 call=@ slot0=address",
    "cuGetExportTable uuid=00000000000000000000000000000000", "cuGetExportTable -> 1 call=@",
    "cuLaunchHostFunc", "cuInit flags=1", "cuInit -> 1 call=@", "cuLaunchKernel", "cuLaunchKernel -> 1 call=@",
    "cuLaunchHostFunc -> 700 call=@",
] + ["cuLaunchHostFunc"] * 40 + [f"cuLaunchHostFunc -> {d} call=@" for d in range(32, 0, -1)] + [
    "cuStreamAddCallback",
    "cuDriverGetVersion", "cuDriverGetVersion -> 0 call=@ version=13000",  # at the fake's teardown
]
CHILD = ["cuInit flags=0", "cuInit -> 0 call=@", "cuLaunchKernel"]
THREAD = (["cuLaunchKernel"] * 99 + ["cuLaunchKernel", "cuLaunchKernel -> 1 call=@"]) * 100


def main():
    log, real = sys.argv[1], sys.argv[2]
    returns, loaded_first = "--no-returns" not in sys.argv, "--loaded-first" in sys.argv
    errors = []
    headers, lines = {}, {}  # pid: header; (pid, tid): [body]
    seqs, calls = {}, {}  # pid: [seq]; (pid, seq): (tid, name, is a call)
    for text in open(log).read().splitlines():
        if text.startswith("# pid "):
            pid = int(text.split()[2])
            if pid in headers:
                errors.append(f"a second header for {pid}")
            headers[pid] = text
            continue
        m = CALL.fullmatch(text)
        if not m:
            errors.append(f"malformed line {text!r}")
            continue
        seq, pid, tid, name, rest = int(m[1]), int(m[2]), int(m[3]), m[4], m[5]
        if pid not in headers:
            errors.append(f"line before its process's header: {text!r}")
        seqs.setdefault(pid, []).append(seq)
        calls[pid, seq] = (tid, name, not rest.startswith(" -> "))
        ref = re.search(r" call=(\d+)", rest)
        if ref:
            if calls.get((pid, int(ref[1]))) != (tid, name, True):
                errors.append(f"{text!r} names no earlier call of {name} in its thread")
            rest = rest.replace(ref[0], " call=@")
        lines.setdefault((pid, tid), []).append(name + rest)
    for pid, s in seqs.items():
        if s != list(range(s[0], s[0] + len(s))):
            errors.append(f"process {pid}: sequence numbers not consecutive in log order")
    for pid, header in headers.items():
        if f" real {real}" not in header or ("loaded-before-trace" in header) != loaded_first:
            errors.append(f"header {header!r}")

    def expect(what, want, got):
        if not returns:
            want = [w for w in want if " -> " not in w or w.split()[0] in IN_C]
        if got != want:
            at = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
            errors.append(f"{what}: line {at}: want {want[at:at + 1]}, got {got[at:at + 1]} "
                          f"({len(want)} lines wanted, {len(got)} logged)")

    threads = list(lines)
    mains = [k for k in threads if k[0] == k[1]]
    if len(headers) != 2 or len(mains) != 2 or len(threads) != 6:
        errors.append(f"want 2 processes, the parent with 4 threads besides its main one; got {sorted(lines)}")
    else:
        parent, child = sorted(mains, key=lambda k: -len(lines[k]))
        expect("main thread", MAIN, lines[parent])
        expect("forked child", CHILD, lines[child])
        for k in threads:
            if k not in mains:
                expect(f"thread {k[1]}", THREAD, lines[k])
    for e in errors[:20]:
        print("FAIL:", e)
    print(f"{log}: {'FAIL' if errors else 'ok'} ({sum(map(len, lines.values()))} lines)")
    return 1 if errors else 0


sys.exit(main())
