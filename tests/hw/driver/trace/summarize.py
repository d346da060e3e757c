#!/usr/bin/env python3
"""Summarises the logs trace.sh wrote (README.md): per program, the driver functions called in
first-call order with their counts and failures, the cuGetProcAddress requests and the
cuGetExportTable UUIDs.

    python3 summarize.py OUTDIR > OUTDIR/summary.md

Reads OUTDIR/runs.txt (lines "name exit-status how-the-library-was-found"), OUTDIR/<name>.trace
and, if there, OUTDIR/environment.txt.
"""
import ast
import collections
import os
import re
import sys

LINE = re.compile(r"(\d+) (\d+) (\d+) (\S+)(.*)")


def table_names():
    """UUID (hex of the 16 bytes) -> name, from ../export_tables.py's TABLES."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "export_tables.py")
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "TABLES":
            return {uuid: name for name, uuid in ast.literal_eval(node.value).items()}
    return {}


def fields(rest):
    """' -> 0 call=5 fn=x' -> ('0', {'call': '5', 'fn': 'x'}); ' symbol=x' -> (None, {...})."""
    rc = None
    if rest.startswith(" -> "):
        rc, _, rest = rest[4:].partition(" ")
    return rc, dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)


def summarize(name, status, how, path, tables, out):
    out.append(f"## {name}\n")
    if status == "build-failed":
        out.append(f"The build failed ({name}.build.log).\n")
        return
    if status == "77":
        out.append(f"Skipped: its Python package is not installed ({name}.log).\n")
        return
    if not os.path.exists(path):
        out.append(f"Exit status {status}; no log.\n")
        return
    headers, calls, order = [], collections.Counter(), []
    failures = collections.defaultdict(collections.Counter)
    requests, answers, exports = [], {}, []
    facts = []
    for text in open(path).read().splitlines():
        if text.startswith("# "):
            headers.append(text[2:])
            continue
        m = LINE.fullmatch(text)
        if not m:
            continue
        seq, pid, fn, (rc, kv) = m[1], m[2], m[4], fields(m[5])
        if rc is None:
            if fn not in calls:
                order.append(fn)
            calls[fn] += 1
            if fn.startswith("cuGetProcAddress"):
                requests.append(((pid, seq), fn, kv.get("symbol"), kv.get("version"), kv.get("flags")))
            elif fn == "cuGetExportTable":
                exports.append(((pid, seq), kv.get("uuid")))
            elif fn == "cuInit":
                facts.append(f"cuInit flags {kv.get('flags')}")
            continue
        answers[pid, kv.get("call")] = (rc, kv)
        if rc != "0":
            failures[fn][rc] += 1
        if fn == "cuDriverGetVersion" and "version" in kv:
            facts.append(f"driver version {kv['version']}")
    out.append(f"Exit status {status}; library found by {how}; {sum(calls.values())} calls"
               + "".join(f"; {f}" for f in dict.fromkeys(facts)) + ".\n")
    for h in headers:
        out.append(f"- {h}")
    out.append("")
    if not calls:
        return

    out += ["### Functions, in first-call order\n", "| # | function | calls | failed (result: count) |",
            "|---|---|---|---|"]
    for i, fn in enumerate(order, 1):
        failed = ", ".join(f"{rc}: {n}" for rc, n in sorted(failures[fn].items()))
        out.append(f"| {i} | {fn} | {calls[fn]} | {failed} |")
    out.append("")

    if requests:
        out += ["### cuGetProcAddress requests, in first-request order\n",
                "| # | via | symbol | version | flags | result | function | status | times |",
                "|---|---|---|---|---|---|---|---|---|"]
        seen = collections.OrderedDict()
        for key, via, symbol, version, flags in requests:
            rc, kv = answers.get(key, ("?", {}))
            row = (via, symbol or '""', version, flags, rc, kv.get("fn", ""), kv.get("status", ""))
            seen[row] = seen.get(row, 0) + 1
        for i, (row, n) in enumerate(seen.items(), 1):
            out.append(f"| {i} | " + " | ".join(row) + f" | {n} |")
        out.append("")

    if exports:
        out += ["### Export tables requested\n", "| # | UUID | table | result | slot 0 |", "|---|---|---|---|---|"]
        for i, (key, uuid) in enumerate(exports, 1):
            rc, kv = answers.get(key, ("?", {}))
            slot0 = kv.get("size", "address" if "slot0" in kv else "")
            out.append(f"| {i} | {uuid} | {tables.get(uuid, 'unknown')} | {rc} | {slot0} |")
        out.append("")


def main():
    outdir = sys.argv[1]
    tables = table_names()
    out = ["# Driver calls of real programs, recorded through the trace library\n",
           "Made by tests/hw/driver/trace/trace.sh; each section is one program's log "
           "(`<name>.trace`). Counts include every process of the program.\n"]
    env = os.path.join(outdir, "environment.txt")
    if os.path.exists(env):
        out += ["```", open(env).read().rstrip(), "```", ""]
    for run in open(os.path.join(outdir, "runs.txt")).read().splitlines():
        name, status, how = run.split(maxsplit=2)
        summarize(name, status, how, os.path.join(outdir, name + ".trace"), tables, out)
    print("\n".join(out))


main()
