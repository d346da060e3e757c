"""Runs every launch of launches.py on ptxvm and compares its outputs, bit for
bit, with the outputs recorded on a GPU (recorded.npz, made by record.py), and
again with every check of the sanitizer, which must report nothing.

The ptxvm binary comes from the PTXVM environment variable (CMake passes
$<TARGET_FILE:ptxvm>). A launch that ptxvm cannot load or run fails.
"""
import hashlib, json, os, subprocess, sys
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launches

LAUNCHES = {l.name: l for l in launches.all_launches()}
RECORDED = np.load(os.path.join(launches.HERE, "recorded.npz"))


def recorded(key):
    assert key in RECORDED.files, f"no recording for {key}: rerun record.py on a GPU"
    return RECORDED[key]


def diagnostics(stderr):
    """ptxvm's error messages, each once, without their source positions."""
    msgs = []
    for line in stderr.decode(errors="replace").splitlines():
        msg = line.split(" error: ", 1)[1] if " error: " in line else line.strip()
        if line.strip() and (" error: " in line or not line.startswith(("\t", " "))) and msg not in msgs:
            msgs.append(msg)
    return "; ".join(msgs)


@pytest.mark.parametrize("name", sorted(LAUNCHES))
def test_launch(name, tmp_path):
    launch = LAUNCHES[name]
    ptx_path = os.path.join(launches.PTX_DIR, launch.ptx)
    with open(ptx_path, "rb") as f:
        assert hashlib.sha256(f.read()).digest() == recorded("ptx/" + launch.ptx).tobytes(), \
            f"{launch.ptx} changed since the recording: rerun record.py"
    assert launch.input_digest() == recorded(name + "/inputs").tobytes().hex(), \
        "inputs differ from the recorded ones"
    manifest = tmp_path / "launch.json"
    manifest.write_text(json.dumps(launch.manifest(ptx_path, str(tmp_path))))
    # Once as it is, once with every check of the sanitizer (docs/Sanitizer.md): a correct kernel
    # gets no report (one with undefined PTX the report it names), and the checks change no bit.
    for checks in ([], ["--check=all"]):
        out_dir = tmp_path / ("out-checked" if checks else "out")
        p = subprocess.run([os.environ["PTXVM"], "run", str(manifest), "--out", str(out_dir), *checks],
                           capture_output=True, timeout=600)
        if checks and launch.undefined:
            assert p.returncode == 2 and launch.undefined in p.stderr.decode(), \
                f"ptxvm run {' '.join(checks)} did not report {launch.undefined!r}: {diagnostics(p.stderr)}"
        else:
            assert p.returncode == 0, f"ptxvm run {' '.join(checks)} failed ({p.returncode}): {diagnostics(p.stderr)}"
        compare_outputs(name, launch, p.stdout, out_dir)


def compare_outputs(name, launch, stdout, out_dir):
    want_stdout = recorded(name + "/stdout").tobytes() if launch.printf else b""
    got, want = stdout.decode(errors="replace").splitlines(), want_stdout.decode().splitlines()
    first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
    assert stdout == want_stdout, (f"printf output differs from the GPU at line {first + 1}: "
                                   f"ptxvm {got[first:first + 1]!r} GPU {want[first:first + 1]!r}")
    for buf, _ in launch.outputs():
        got = np.load(out_dir / f"{buf}.npy")
        want = recorded(f"{name}/{buf}")
        assert got.dtype == want.dtype and got.shape == want.shape
        g = got.reshape(-1).view(np.uint8).reshape(got.size, -1)
        w = want.reshape(-1).view(np.uint8).reshape(want.size, -1)
        differ = np.flatnonzero((g != w).any(axis=1))
        assert differ.size == 0, (
            f"{buf}: {differ.size} of {got.size} elements differ from the GPU; first at {differ[0]}: "
            f"ptxvm {got.reshape(-1)[differ[0]]!r} GPU {want.reshape(-1)[differ[0]]!r}")
