"""Writes the example's input arrays (x, y, in, out) as .npy files beside this script."""
import pathlib

import numpy as np

here = pathlib.Path(__file__).parent
rng = np.random.default_rng(2026)
np.save(here / "x.npy", rng.standard_normal(1000, dtype=np.float32))
np.save(here / "y.npy", rng.standard_normal(1000, dtype=np.float32))
np.save(here / "in.npy", np.arange(1024, dtype=np.float32) / 64)
np.save(here / "out.npy", np.zeros(4, dtype=np.float32))
