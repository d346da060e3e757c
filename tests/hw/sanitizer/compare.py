"""compute-sanitizer's verdict on every planted bug of tests/sanitize (run on a GPU).
Its initcheck tool joined the run after the first 43 cases were recorded; the eight async cases
and the two init_global ones were recorded in later runs (`compare.py OUT CASE...`) and merged
into results.json.

For each case (tests/sanitize/planted/*.ptx: kernels bug and ok; planted_cuda/planted.cu compiled
to planted.sm_90.ptx: <case>_bug and <case>_ok), runs launch_ptx under compute-sanitizer with the
tool of the check the case plants a bug for, and with the other tools too, and writes
results.json: per case, kernel and tool, the error count compute-sanitizer printed and its first
report lines. docs/Sanitizer.md tabulates it beside ptxvm's verdicts.
    python3 compare.py OUT_DIR [CASE...]
"""
import json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SANITIZE = os.path.join(HERE, "..", "..", "sanitize")
TOOLS = ["memcheck", "racecheck", "synccheck", "initcheck"]


def launch_of(lines):
    m = re.search(r"// launch: grid (\d+) block (\d+)(?: shared (\d+))?( uninitialised-out)?", lines)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), bool(m.group(4)))


def cases():
    out = []
    planted = os.path.join(SANITIZE, "planted")
    for f in sorted(os.listdir(planted)):
        if f.endswith(".ptx"):
            text = open(os.path.join(planted, f)).read()
            checks = sorted(set(re.findall(r"// expect: (\w+)", text)))
            out.append((f[:-4], os.path.join(planted, f), "bug", "ok", launch_of(text), checks))
    cu = open(os.path.join(SANITIZE, "planted_cuda", "planted.cu")).read()
    ptx = os.path.join(SANITIZE, "planted_cuda", "planted.sm_90.ptx")
    for m in re.finditer(r"(// launch: [^\n]*)\nextern \"C\" __global__ void (\w+)_bug\(.*?\n}\n", cu, re.S):
        checks = sorted(set(re.findall(r"// expect: (\w+)", m.group(0))))
        out.append(("cuda_" + m.group(2), ptx, m.group(2) + "_bug", m.group(2) + "_ok", launch_of(m.group(1)), checks))
    return out


def main(out_dir, only):
    exe = os.path.join(out_dir, "launch_ptx")
    subprocess.run(["nvcc", "-O2", "-o", exe, os.path.join(HERE, "launch_ptx.cu"), "-lcuda"], check=True)
    version = subprocess.run(["compute-sanitizer", "--version"], capture_output=True, text=True).stdout.strip()
    results = {"compute_sanitizer": version, "cases": []}
    for name, ptx, bug, ok, (grid, block, shared, uninit), checks in cases():
        if only and name not in only:
            continue
        entry = {"case": name, "planted": checks, "runs": []}
        for kernel in (bug, ok):
            for tool in TOOLS:
                cmd = ["compute-sanitizer", "--tool", tool, "--print-limit", "4", exe, ptx, kernel,
                       str(grid), str(block), str(shared)] + (["uninitialised-out"] if uninit else [])
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
                    text = p.stdout + p.stderr
                except subprocess.TimeoutExpired as e:
                    text = (e.stdout or b"").decode(errors="replace") + "\nTIMEOUT (hang)"
                m = re.search(r"ERROR SUMMARY: (\d+) error", text)
                r = re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
                errors = int(m.group(1)) if m else int(r.group(1)) + int(r.group(2)) if r else None
                lines = [l for l in text.splitlines() if l.startswith("=========") and "ERROR SUMMARY" not in l]
                entry["runs"].append({"kernel": kernel, "tool": tool, "errors": errors,
                                      "hang": "TIMEOUT" in text, "launch": [l for l in text.splitlines() if l.startswith("launch_ptx")],
                                      "report": lines[:8]})
                print(name, kernel, tool, errors, flush=True)
        results["cases"].append(entry)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
