"""`ptxvm run` against careless and hostile launches (issue 22): each check covers the exit
status, the message, and that nothing was written outside --out (nor a partial file inside)."""
import json
import os
import re
import signal
import subprocess
import time

import numpy as np
import pytest

PTXVM = os.environ["PTXVM"]

KERNELS = r"""
.version 8.7
.target sm_90
.address_size 64
.visible .entry copy(.param .u64 out, .param .u32 v)
{
  .reg .b32 %r1;
  .reg .b64 %rd1;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [v];
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry spin(.param .u64 out, .param .u32 v)
.reqntid 64
{
  .reg .b32 %r1;
LOOP:
  add.s32 %r1, %r1, 1;
  bra.uni LOOP;
}
"""


@pytest.fixture
def tmp(tmp_path):
    (tmp_path / "k.ptx").write_text(KERNELS)
    np.save(tmp_path / "o.npy", np.zeros(4, np.uint32))
    return tmp_path


def files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def manifest(**over):
    m = {"ptx": "k.ptx", "kernel": "copy", "grid": [1], "block": [1],
         "args": [{"buffer": "o.npy", "output": "r.npy"}, {"u32": 7}]}
    m.update(over)
    return m


def run(tmp, m, *extra, **kw):
    """Runs `m` with --out tmp/out; asserts that only tmp/out may have changed."""
    before = files(tmp)
    path = tmp / "launch.json"
    path.write_text(m if isinstance(m, str) else json.dumps(m))
    before = files(tmp)
    r = subprocess.run([PTXVM, "run", str(path), "--out", str(tmp / "out"), *extra],
                       capture_output=True, text=True, **kw)
    after = [f for f in files(tmp) if not f.startswith("out")]
    assert after == [f for f in before if not f.startswith("out")]
    assert not [f for f in files(tmp) if "partial" in f]
    return r


def refused(tmp, m, message, *extra):
    r = run(tmp, m, *extra)
    assert r.returncode == 1, r.stderr
    assert message in r.stderr, r.stderr
    assert "json.exception" not in r.stderr and "internal error" not in r.stderr
    assert not (tmp / "out" / "r.npy").exists()


# ---- outputs stay inside --out
@pytest.mark.parametrize("name,message", [
    ("/tmp/abs.npy", "args[0].output: '/tmp/abs.npy' is an absolute path"),
    ("../r.npy", "args[0].output: '../r.npy' contains '..'"),
    ("a/../../r.npy", "contains '..'"),
    ("esc/r.npy", "args[0].output: 'esc/r.npy' resolves to"),
    ("link.npy", "args[0].output: 'link.npy' resolves to"),
])
def test_output_names_stay_inside_out(tmp, name, message):
    (tmp / "out").mkdir()
    (tmp / "elsewhere").mkdir()
    (tmp / "out" / "esc").symlink_to(tmp / "elsewhere")  # a symlink escape
    (tmp / "out" / "link.npy").symlink_to(tmp / "elsewhere" / "victim.npy")
    m = manifest(args=[{"buffer": "o.npy", "output": name}, {"u32": 7}])
    refused(tmp, m, message)
    assert list((tmp / "elsewhere").iterdir()) == []


def test_output_written_whole_and_duplicates_refused(tmp):
    r = run(tmp, manifest(args=[{"buffer": "o.npy", "output": "sub/r.npy"}, {"u32": 7}]))
    assert r.returncode == 0, r.stderr
    assert list(np.load(tmp / "out" / "sub" / "r.npy")) == [7, 0, 0, 0]
    m = manifest(kernel="spin", args=[{"buffer": "o.npy", "output": "r.npy"}, {"buffer": "o.npy", "output": "r.npy"}])
    refused(tmp, m, "args[1].output: 'r.npy' is also args[0]'s output")


# ---- launch limits, named with the value and the target
@pytest.mark.parametrize("over,message", [
    ({"grid": [1, 65536]}, "grid y is 65536; sm_90 allows 1 to 65535 (%nctaid.y)"),
    ({"block": [1, 1, 65]}, "block z is 65; sm_90 allows 1 to 64 (%ntid.z)"),
    ({"block": [64, 32]}, "block (64, 32, 1) is 2048 threads; a CTA of sm_90 holds at most 1024"),
    ({"shared_bytes": 300000}, "shared memory of 300000 bytes (0 static + 300000 dynamic) exceeds sm_90's opt-in maximum of 232448 bytes per CTA"),
    ({"kernel": "spin", "block": [32]}, "kernel 'spin' declares .reqntid (64, 1, 1); the launch's block is (32, 1, 1)"),
    ({"grid": [16], "cluster": [16]}, "cluster (16, 1, 1) is 16 CTAs; a cluster of sm_90 holds at most 8"),
])
def test_launch_limits(tmp, over, message):
    refused(tmp, manifest(**over), message)


# ---- the manifest schema
@pytest.mark.parametrize("over,message", [
    ({"shared_byte": 0}, "unknown key 'shared_byte'; did you mean 'shared_bytes'?"),
    ({"args": [{"buffer": "o.npy", "outptu": "r.npy"}, {"u32": 7}]}, "args[0]: unknown key 'outptu'; did you mean 'output'?"),
    ({"args": [{"buffer": "o.npy"}, {"s32": 3000000000}]}, "args[1].s32: expected an integer from -2147483648 to 2147483647, got 3000000000"),
    ({"args": [{"buffer": "o.npy"}, {"u32": "7"}]}, 'args[1].u32: expected an integer from 0 to 4294967295, got "7" (a string)'),
    ({"args": [{"buffer": "o.npy"}, {"u32": 1.5}]}, "args[1].u32: expected an integer from 0 to 4294967295, got 1.5"),
    ({"args": [{"buffer": "o.npy"}, {"u32": 1, "f32": 2}]}, "args[1]: both 'f32' and 'u32'; an argument has one kind"),
    ({"args": [{"buffer": "o.npy"}, {"f16": "0xzz"}]}, 'args[1].f16: expected a 16-bit pattern such as "0x3c00" or 15360, got "0xzz" (a string)'),
    ({"args": [{"buffer": "o.npy"}, {"bytes": "abc"}]}, "args[1].bytes: expected an even number of hex digits"),
    ({"grid": [1, "2"]}, 'grid[1]: expected an integer from 1 to 4294967295, got "2" (a string)'),
    ({"grid": {"x": 1}}, "grid: expected an array of 1 to 3 positive integers, got an object"),
    ({"cooperative": "yes"}, 'cooperative: expected true or false, got "yes" (a string)'),
    ({"timeout_s": -1}, "timeout_s: expected a positive number of seconds, got -1"),
    ({"threads": 0}, "threads: expected an integer from 1 to 1024, got 0"),
])
def test_schema_errors_name_the_key_path(tmp, over, message):
    refused(tmp, manifest(**over), message)


def test_invalid_json_gives_a_position(tmp):
    refused(tmp, '{"ptx": "k.ptx",\n  "grid": [1,, 2]}', "not valid JSON at line 2, column 14")
    refused(tmp, '{"ptx": "k.ptx", "shared_bytes": 1e400}', "not valid JSON: a number is out of range")  # found by fuzzing


# ---- input files
def test_inputs_must_be_regular_files(tmp):
    (tmp / "dir.npy").mkdir()
    os.mkfifo(tmp / "fifo.ptx")
    refused(tmp, manifest(ptx="fifo.ptx"), "fifo.ptx: is a FIFO, not a regular file")
    refused(tmp, manifest(args=[{"buffer": "dir.npy"}, {"u32": 1}]), "dir.npy: is a directory, not a regular file")
    refused(tmp, manifest(ptx="/dev/zero"), "/dev/zero: is a character device, not a regular file")


def test_input_size_limit(tmp):
    np.save(tmp / "big.npy", np.zeros(1 << 19, np.uint32))  # 2 MiB
    refused(tmp, manifest(args=[{"buffer": "big.npy"}, {"u32": 1}]),
            "big.npy: larger than the input size limit of 1048576 bytes (raise it with --max-input-mb)",
            "--max-input-mb", "1")


def test_npy_header_claiming_a_huge_shape(tmp):
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 1000000), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    (tmp / "huge.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 16)
    refused(tmp, manifest(args=[{"buffer": "huge.npy"}, {"u32": 1}]),
            "args[0].buffer: " + str(tmp / "huge.npy") + ": not a usable .npy file: the header's shape "
            "(1000000000000, 1000000) of '<f4' needs 4000000000000000000 data bytes; the file holds 16")
    header = header.replace(b"1000000)", b"99999999)")  # overflows 64 bits
    (tmp / "huge.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 16)
    refused(tmp, manifest(args=[{"buffer": "huge.npy"}, {"u32": 1}]), "needs more than 2^64 data bytes")


def test_manifest_from_stdin(tmp):
    m = manifest(ptx=str(tmp / "k.ptx"), args=[{"buffer": str(tmp / "o.npy"), "output": "r.npy"}, {"u32": 9}])
    r = subprocess.run([PTXVM, "run", "-", "--out", str(tmp / "out")], input=json.dumps(m),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert list(np.load(tmp / "out" / "r.npy")) == [9, 0, 0, 0]
    r = subprocess.run([PTXVM, "run", "-"], input='{"ptx": 1, "kernel": "k", "grid": [1], "block": [1]}', capture_output=True, text=True)
    assert r.returncode == 1 and "<stdin>: error: ptx: expected a non-empty string, got 1" in r.stderr


# ---- interruption and timeouts
@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_stops_an_endless_kernel(tmp, sig, status):
    path = tmp / "launch.json"
    path.write_text(json.dumps(manifest(kernel="spin", grid=[40], block=[64], threads=2)))
    p = subprocess.Popen([PTXVM, "run", str(path), "--out", str(tmp / "out")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    p.send_signal(sig)
    _, err = p.communicate(timeout=20)
    assert p.returncode == status, err
    assert "interrupted by " + ("SIGINT" if sig == signal.SIGINT else "SIGTERM") + "; no outputs written" in err
    assert "kernel 'spin' stopped: interrupted" in err
    assert re.search(r"CTA \(\d+, 0, 0\): warps? 0(-1)? at .*k\.ptx:(19|20) \(pc \d+\) (add|bra)", err), err  # the loop
    assert "more CTAs in flight" in err
    assert not (tmp / "out").exists()


def test_timeout_flag(tmp):
    t = time.time()
    r = run(tmp, manifest(kernel="spin", block=[64], timeout_s=100), "--timeout", "0.3")
    assert r.returncode == 2, r.stderr
    assert "watchdog: the launch ran longer than 0.3 s" in r.stderr
    assert time.time() - t < 20
    assert not (tmp / "out").exists()
    r = run(tmp, manifest(), "--timeout", "soon")
    assert r.returncode == 1 and "--timeout: expected a positive number of seconds, got 'soon'" in r.stderr
