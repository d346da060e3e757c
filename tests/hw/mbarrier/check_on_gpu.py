#!/usr/bin/env python3
"""Runs the kernels of tests/sem/mbarrier_test.cpp on a GPU (sm_90, CuPy) and checks that the
hardware gives the values that test expects of ptxvm: phases by state token and by parity,
pending counts captured by state tokens, arrive_drop, tx-counts, cp.async.mbarrier.arrive.

    python3 tests/hw/mbarrier/check_on_gpu.py      # prints one line per kernel, exits 1 on a mismatch

The kernel bodies are read from the test file, wrapped as tests/exec/harness.h's kernel_ptx and
the test's run() do it (the same registers, `bar`, `buf`, and 64 input words 0x1000 + i).
"""
import os, re, sys
import numpy as np
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
TEST = os.path.join(HERE, "..", "..", "sem", "mbarrier_test.cpp")
HEAD = """.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
.reg .b16 %h<16>;
.reg .b32 %r<64>;
.reg .b64 %rd<64>;
.reg .f32 %f<32>;
.reg .f64 %fd<32>;
.reg .pred %p<16>;
.reg .b64 %rd_out, %rd_in;
ld.param.u64 %rd_out, [out];
ld.param.u64 %rd_in, [in];
.shared .align 8 .b64 bar;
.shared .align 16 .b8 buf[512];
.reg .b32 %r_b;
.reg .b64 %rd_b;
mov.u32 %r_b, bar;
cvta.shared.u64 %rd_b, bar;
"""
# Per kernel body, in the order of the test file: threads, output words, expected words.
EXPECTED = [
    (64, 192, [(t ^ 32) + 100 for t in range(64)] + [(t ^ 32) + 200 for t in range(64)] + [0] * 64),
    (1, 10, [4, 2, 0, 1, 1, 1, 0, 1, 1, 2]),
    (1, 5, [0, 0, 0, 0, 1]),
    (1, 3, [0x1000, 0x1007, 0]),
]

bodies = re.findall(r'R"\((.*?)\)"', open(TEST).read(), re.S)
assert len(bodies) == len(EXPECTED), len(bodies)
bad = 0
for i, (body, (threads, n, want)) in enumerate(zip(bodies, EXPECTED)):
    path = f"/tmp/mbarrier_{i}.ptx"
    open(path, "w").write(HEAD + body + "\nret;\n}\n")
    k = cp.RawModule(path=path).get_function("k")
    out = cp.full(n, 0xFFFFFFFF, dtype=cp.uint32)
    inp = cp.arange(0x1000, 0x1040, dtype=cp.uint32)
    k((1,), (threads,), (out, inp))
    got = cp.asnumpy(out).tolist()
    ok = got == want
    bad += not ok
    print(f"kernel {i}: {'ok' if ok else 'MISMATCH'}" + ("" if ok else f" got {got[:16]}... want {want[:16]}..."))
sys.exit(1 if bad else 0)
