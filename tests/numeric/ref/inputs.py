"""f32 test inputs: edges (every value and midpoint of every small format, with float
neighbours; zeros, subnormals, limits, Inf, NaN) plus random patterns (numpy PCG64)."""
import numpy as np

from spec_ref import FORMATS, table


def _neighbours(v):
    v = np.asarray(v, dtype=np.float32)
    return np.concatenate([v, np.nextafter(v, np.float32(np.inf)), np.nextafter(v, np.float32(-np.inf))])


def f32_edges():
    vals = []
    for f in FORMATS.values():
        if f.ncodes > 256:
            continue  # f16/bf16/tf32 ties come from the random tails below
        t = table(f).values
        vals += [t, (t[:-1] + t[1:]) / 2]
    v = np.concatenate(vals)
    v = v[np.abs(v) < 3.4e38].astype(np.float32)
    v = _neighbours(np.concatenate([v, -v]))
    bits = [0, 1, 2, 0x7FFFFF, 0x800000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x7F800001,
            0x7FFFFFFF, 0x3F800000]
    b = np.array(bits, dtype=np.uint32)
    return np.concatenate([v.view(np.uint32), b, b | np.uint32(0x80000000)])


def f32_random(n, seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    raw = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    kind = rng.integers(0, 4, n)
    exp = np.where(kind == 1, rng.integers(97, 148, n), rng.integers(100, 135, n))
    exp = np.where(kind == 3, rng.integers(0, 127, n), exp)
    # low mantissa bits on, just below or just above a tie for 13, 16, 20, 21, 22 discarded bits
    w = np.array([13, 16, 20, 21, 22])[rng.integers(0, 5, n)].astype(np.uint32)
    half = np.uint32(1) << (w - np.uint32(1))
    tail = half + rng.integers(-1, 2, n).astype(np.int64).astype(np.uint32)
    man = raw & np.uint32(0x7FFFFF)
    man = np.where(kind == 2, ((man >> w) << w) | (tail & ((np.uint32(1) << w) - np.uint32(1))), man)
    built = (raw & np.uint32(0x80000000)) | (exp.astype(np.uint32) << np.uint32(23)) | man.astype(np.uint32)
    return np.where(kind == 0, raw, built).astype(np.uint32)


def f32_inputs(n=1_000_000, seed=4):
    return np.concatenate([f32_edges(), f32_random(n, seed)])
