#!/usr/bin/env python3
"""Differential test of the ISA checker against ptxas.

Generates the corpus (gen_corpus, from the instruction table), adds every file of the front-end
corpus, and judges each module with the local ptxas (`ptxas -arch=<its target>`, 2 jobs) and with
the checker (isa_check). Prints the agreement on the modules ptxas accepts and on those it rejects,
overall and per family, writes the full report to OUT/report.md, and fails when ptxas is missing
or an agreement falls below its threshold.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys


def ptxas_verdict(ptxas, path):
    text = open(path, encoding="utf-8", errors="replace").read()
    m = re.search(r"^\s*\.target\s+([^\n]*)", text, re.M)
    targets = re.findall(r"sm_\w+", m.group(1)) if m else []
    arch = targets[0] if targets else "sm_75"
    # -c: compile only, so that calls to functions defined elsewhere do not fail to link
    r = subprocess.run([ptxas, "-c", "-arch=" + arch, path, "-o", os.devnull], capture_output=True, text=True)
    if r.returncode < 0:  # ptxas itself crashed: no verdict to compare with
        return "crash", f"ptxas died with signal {-r.returncode}"
    msg = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip().splitlines()[0] if r.stderr.strip() else "")
    return ("accept" if r.returncode == 0 else "reject"), msg


def checker_verdicts(checker, paths):
    out = {}
    for i in range(0, len(paths), 500):
        r = subprocess.run([checker, "--verdicts"] + paths[i:i + 500], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            f, v, msg = (line.split("\t") + ["", ""])[:3]
            out[f] = (v, msg)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--checker", required=True)
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--corpus", action="append", default=[], help="directory of extra .ptx files")
    ap.add_argument("--out", required=True)
    ap.add_argument("--min-accept", type=float, default=0.995)
    ap.add_argument("--min-reject", type=float, default=0.995)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    ptxas = shutil.which(args.ptxas)
    if not ptxas:
        print(f"FAIL: ptxas ('{args.ptxas}') not found; the differential test needs the local ptxas", file=sys.stderr)
        return 1

    gen_dir = os.path.join(args.out, "generated")
    shutil.rmtree(gen_dir, ignore_errors=True)
    os.makedirs(gen_dir)
    subprocess.run([args.gen, gen_dir], check=True, stdout=subprocess.DEVNULL)

    rows = []  # (path, family, kind)
    for line in open(os.path.join(gen_dir, "manifest.tsv")):
        name, family, section, kind, target, expected = line.rstrip("\n").split("\t")
        rows.append((os.path.join(gen_dir, name), f"{family} §{section}", kind.split(":")[0]))
    for d in args.corpus:
        for name in sorted(os.listdir(d)):
            if name.endswith(".ptx"):
                rows.append((os.path.join(d, name), "(front-end corpus)", "corpus"))

    paths = [r[0] for r in rows]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        judged = dict(zip(paths, pool.map(lambda p: ptxas_verdict(ptxas, p), paths)))
    ours = checker_verdicts(args.checker, paths)

    per_family = collections.defaultdict(lambda: [0, 0, 0, 0])  # accepted, agreed, rejected, agreed
    per_kind = collections.defaultdict(lambda: [0, 0])
    diffs = []
    crashes = []
    for path, family, kind in rows:
        theirs, their_msg = judged[path]
        if theirs == "crash":
            crashes.append((family, kind, path))
            continue
        mine, my_msg = ours.get(path, ("reject", "checker gave no verdict"))
        slot = 0 if theirs == "accept" else 2
        per_family[family][slot] += 1
        per_kind[kind][0] += 1
        if theirs == mine:
            per_family[family][slot + 1] += 1
            per_kind[kind][1] += 1
        else:
            diffs.append((family, kind, os.path.relpath(path, args.out) if path.startswith(args.out) else path,
                          theirs, their_msg, my_msg))

    acc = sum(v[0] for v in per_family.values())
    acc_ok = sum(v[1] for v in per_family.values())
    rej = sum(v[2] for v in per_family.values())
    rej_ok = sum(v[3] for v in per_family.values())
    a_rate = acc_ok / acc if acc else 1.0
    r_rate = rej_ok / rej if rej else 1.0

    with open(os.path.join(args.out, "report.md"), "w") as rep:
        rep.write(f"# ISA checker vs ptxas\n\n{len(rows)} modules: ptxas accepts {acc}, rejects {rej}, crashes on {len(crashes)}.\n\n")
        rep.write(f"- agreement on modules ptxas accepts: {acc_ok}/{acc} = {100 * a_rate:.2f}%\n")
        rep.write(f"- agreement on modules ptxas rejects: {rej_ok}/{rej} = {100 * r_rate:.2f}%\n\n")
        rep.write("| kind | modules | agree |\n|---|---|---|\n")
        for k, (n, ok) in sorted(per_kind.items()):
            rep.write(f"| {k} | {n} | {ok} |\n")
        rep.write("\n| family | ptxas accepts | agree | ptxas rejects | agree |\n|---|---|---|---|---|\n")
        for fam, (a, ao, r, ro) in sorted(per_family.items()):
            rep.write(f"| {fam} | {a} | {ao} | {r} | {ro} |\n")
        rep.write(f"\n## ptxas crashes (excluded)\n\n{len(crashes)} modules crash ptxas (segmentation fault):\n\n")
        for fam, kind, path in crashes:
            rep.write(f"- {fam} ({kind}): {os.path.relpath(path, args.out) if path.startswith(args.out) else path}\n")
        rep.write("\n## Differences\n\n| family | kind | module | ptxas | ptxas says | checker says |\n|---|---|---|---|---|---|\n")
        for d in diffs:
            rep.write("| " + " | ".join(x.replace("|", "\\|") for x in d) + " |\n")

    print(f"{len(rows)} modules; ptxas accepts {acc}, rejects {rej}, crashes on {len(crashes)}")
    print(f"agreement on accepted: {acc_ok}/{acc} = {100 * a_rate:.2f}% (threshold {100 * args.min_accept:.2f}%)")
    print(f"agreement on rejected: {rej_ok}/{rej} = {100 * r_rate:.2f}% (threshold {100 * args.min_reject:.2f}%)")
    print(f"report: {os.path.join(args.out, 'report.md')}")
    ok = a_rate >= args.min_accept and r_rate >= args.min_reject
    if not ok:
        for d in diffs[:40]:
            print("  " + " | ".join(d))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
