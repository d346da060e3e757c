import os
import subprocess
import tempfile

import numpy as np
import pytest


def pytest_addoption(parser):
    parser.addoption("--numeric-dump", help="path of the numeric_dump executable")


class Dump:
    """Runs the C++ library (numeric_dump) over arrays of source bits."""

    def __init__(self, exe):
        self.exe = exe

    def __call__(self, dst, src, mode, src_bits, flags=(), rbits=None, width=0):
        src_bits = np.asarray(src_bits, dtype=np.uint64)
        rec = np.zeros((len(src_bits), 2), dtype=np.uint64)
        rec[:, 0] = src_bits
        if rbits is not None:
            rec[:, 1] = rbits
        with tempfile.TemporaryDirectory() as d:
            i, o = os.path.join(d, "in"), os.path.join(d, "out")
            rec.tofile(i)
            subprocess.run([self.exe, dst, src, mode, ",".join(flags) or "-", str(width), i, o],
                           check=True)
            return np.fromfile(o, dtype=np.uint64).astype(np.int64)


@pytest.fixture(scope="session")
def dump(request):
    exe = request.config.getoption("--numeric-dump")
    if not exe:
        pytest.skip("needs --numeric-dump")
    return Dump(exe)
