"""Compares the example's outputs (out/) with NumPy computing the same thing."""
import pathlib

import numpy as np

here = pathlib.Path(__file__).parent
x, y = np.load(here / "x.npy"), np.load(here / "y.npy")
got = np.load(here / "out/y.npy")
# nvcc contracts a*x + y into one fma.rn.f32; the product is exact in float64, so this is the
# fused result up to a rare double rounding.
want = (2.5 * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
same = np.sum(got.view(np.uint32) == want.view(np.uint32))
print(f"saxpy: {same} of {got.size} elements equal NumPy's fused a*x+y bit for bit")
sums = np.load(here / "out/out.npy")
print("block_sum:", sums, " numpy:", (np.arange(1024) / 64).reshape(4, 256).sum(1))
