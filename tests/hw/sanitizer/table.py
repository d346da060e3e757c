"""The comparison table of docs/Sanitizer.md: per planted bug, what ptxvm reports (the
'// expect:' comments the planted-bug test holds it to) beside compute-sanitizer's verdict on the
GPU (results.json, written by compare.py).
    python3 table.py > table.md
"""
import json, os, re

import compare

HERE = os.path.dirname(os.path.abspath(__file__))


def expected(name, ptx):
    if name.startswith("cuda_"):
        cu = open(os.path.join(compare.SANITIZE, "planted_cuda", "planted.cu")).read()
        body = re.search(r"void " + name[5:] + r"_bug\(.*?\n}\n", cu, re.S).group(0)
    else:
        body = open(ptx).read()
    kinds = []
    for e in re.findall(r"// expect: ([^\n]*)", body):
        for one in e.split(";"):
            if one.strip() not in kinds:
                kinds.append(one.strip())
    return kinds


def verdict(runs, kernel):
    found, failed = [], []
    for r in runs:
        if r["kernel"] != kernel:
            continue
        if r["hang"]:
            failed.append("the kernel hangs under " + r["tool"])
        elif r["errors"]:
            lines = [l[10:].strip() for l in r["report"][1:] if l.strip("= ")]
            what = re.sub(r" at \S.*?\+0x[0-9a-f]+.*", "", lines[0]).rstrip(".")
            hazards = re.search(r"\[(\d+) hazards\]", " ".join(lines[:2]))
            found.append(f"{r['tool']}: {what}" + (f" ({hazards.group(1)} hazards)" if hazards else ""))
        elif r["launch"] and r["launch"] != ["launch_ptx: ok"]:
            failed.append(f"the launch fails under {r['tool']} ({r['launch'][0].split(': ')[-1]}), no report")
    return "; ".join(dict.fromkeys(found or failed)) or "nothing"


def main():
    results = json.load(open(os.path.join(HERE, "results.json")))
    by_case = {c["case"]: c for c in results["cases"]}
    rows, tally = [], {"reports": 0, "hangs or fails": 0, "nothing": 0, "not run": 0}
    for name, ptx, bug, ok, _, checks in compare.cases():
        c = by_case.get(name)
        cs_bug = verdict(c["runs"], bug) if c else "not run (sm_100a)"
        cs_ok = verdict(c["runs"], ok) if c else "not run (sm_100a)"
        tally["not run" if not c else "nothing" if cs_bug == "nothing" else
              "hangs or fails" if cs_bug.startswith("the ") else "reports"] += 1
        rows.append(f"| `{name}` | {', '.join(checks)} | {'; '.join(expected(name, ptx))} | {cs_bug} | {cs_ok} |")
    ran = len(rows) - tally["not run"]
    print(f"ptxvm reports each of the {len(rows)} planted bugs at its line. Of the {ran} compute-sanitizer ran on, it "
          f"reports {tally['reports']}, hangs or fails without a report on {tally['hangs or fails']} and finds "
          f"nothing in {tally['nothing']} ({results['compute_sanitizer'].splitlines()[-1]}, {results['gpu']})"
          + (f"; it cannot run the {tally['not run']} sm_100a (tcgen05) cases on a Hopper GPU." if tally["not run"] else ".")
          + "\n")
    print("| case | planted | ptxvm reports | compute-sanitizer, bug | compute-sanitizer, fixed |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
