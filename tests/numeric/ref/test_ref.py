"""C++ numeric library vs the independent Python reference (spec_ref.py), and the
reference itself vs ml_dtypes. Counts of compared values are printed (pytest -s)."""
import math
import sys
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from inputs import f32_inputs
from spec_ref import FORMATS, convert_from_f64_values, is_nan_code, table

X32 = f32_inputs()                      # >= 10^6 random + edges, f32 bits
with np.errstate(invalid="ignore"):
    X32F = X32.view(np.float32).astype(np.float64)


def report(what, n):
    print(f"[ref] {what}: {n} values compared", file=sys.stderr)


def check(f, got, want, what):
    """got: C++ codes; want: reference codes, -2 meaning 'a NaN of f'."""
    nan_want = want == -2
    bad = np.nonzero(~nan_want & (got != want))[0]
    assert len(bad) == 0, f"{what}: {len(bad)} mismatches, e.g. index {bad[:5]} got {got[bad[:5]]} want {want[bad[:5]]}"
    for g in np.unique(got[nan_want]):
        assert is_nan_code(f, int(g)), f"{what}: NaN input gave non-NaN {g:#x}"
    report(what, len(want))


# ---------------------------------------------------------------- decoding, exhaustive
SMALL = ["f16", "bf16", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "ue8m0", "ue4m3"]


@pytest.mark.parametrize("name", SMALL)
def test_decode_every_code(dump, name):
    f = FORMATS[name]
    codes = np.arange(f.ncodes * (2 if f.signed else 1))
    got = dump("f64", name, "rn", codes).astype(np.uint64).view(np.float64)
    for c, g in zip(codes, got):
        v = f.value(int(c))
        if v == "nan":
            assert math.isnan(g), (name, c)
        elif v in ("+inf", "-inf"):
            assert g == (math.inf if v == "+inf" else -math.inf), (name, c)
        else:
            assert Fraction(float(g)) == v and math.copysign(1, g) == (-1 if c & f.sign_bit else 1), (name, c, g)
    report(f"decode {name} -> f64 (every code)", len(codes))


ML = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "e4m3": ml_dtypes.float8_e4m3fn,
      "e5m2": ml_dtypes.float8_e5m2, "e2m3": ml_dtypes.float6_e2m3fn,
      "e3m2": ml_dtypes.float6_e3m2fn, "e2m1": ml_dtypes.float4_e2m1fn,
      "ue8m0": ml_dtypes.float8_e8m0fnu}


@pytest.mark.parametrize("name", list(ML))
def test_reference_values_match_ml_dtypes(name):
    f = FORMATS[name]
    codes = np.arange(f.ncodes * (2 if f.signed else 1))
    dt = np.uint16 if f.e + f.m >= 8 and name in ("f16", "bf16") else np.uint8
    with np.errstate(invalid="ignore"):
        ml = codes.astype(dt).view(ML[name]).astype(np.float64)
    for c, m in zip(codes, ml):
        v = f.value(int(c))
        if v == "nan":
            assert math.isnan(m)
        elif isinstance(v, str):
            assert math.isinf(m) and (m > 0) == (v == "+inf")
        else:
            assert Fraction(float(m)) == v, (name, c)
    report(f"reference values vs ml_dtypes {name}", len(codes))


# ------------------------------------------------- f32 -> every format, >= 10^6 inputs
CASES = []
for d, w in (("f16", 13), ("bf16", 16)):
    CASES += [(d, r, ()) for r in ("rn", "rz", "rm", "rp")]
    CASES += [(d, r, fl) for r in ("rn", "rz") for fl in (("relu",), ("satfinite",), ("relu", "satfinite"))]
    CASES += [(d, "rs", fl, w) for fl in ((), ("relu",), ("satfinite",))]
CASES += [("tf32", r, fl) for r, fl in (("rna", ()), ("rna", ("satfinite",)), ("rn", ()), ("rz", ()),
                                         ("rn", ("relu",)), ("rz", ("relu",)), ("rn", ("satfinite",)),
                                         ("rz", ("satfinite",)))]
for d in ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1"):
    CASES += [(d, "rn", ("satfinite",)), (d, "rn", ("satfinite", "relu"))]
    CASES += [(d, "rs", ("satfinite",), 8 if d == "e2m1" else 16),
              (d, "rs", ("satfinite", "relu"), 8 if d == "e2m1" else 16)]
CASES += [("ue8m0", r, fl) for r in ("rz", "rp") for fl in ((), ("satfinite",))]
CASES += [("ue4m3", "rn", ("satfinite",))]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ".".join([c[1], *c[2], c[0]]))
def test_f32_to_format(dump, case):
    dst, mode, flags = case[:3]
    width = case[3] if len(case) > 3 else 0
    f = FORMATS[dst]
    rng = np.random.Generator(np.random.PCG64(7))
    rbits = rng.integers(0, 1 << width, len(X32)) if width else None
    got = dump(dst, "f32", mode, X32, flags, rbits, width)
    want = convert_from_f64_values(f, X32F, mode, "satfinite" in flags, "relu" in flags, rbits, width)
    if dst == "tf32" and mode == "rna":
        # (hw) cvt.rna.tf32.f32 truncates a NaN's bits (0x7f800001 -> 0x7f800000): the hardware
        # test checks those bits; here only non-NaN inputs are compared.
        keep = ~np.isnan(X32F)
        got, want = got[keep], want[keep]
    check(f, got, want, f"cvt.{mode}{''.join('.' + x for x in flags)}.{dst}.f32")


# ------------------------------------------------- ml_dtypes cross-check (round to nearest)
@pytest.mark.parametrize("name", list(ML))
def test_reference_rn_matches_ml_dtypes(name):
    f = FORMATS[name]
    t = table(f)
    x = X32F[np.isfinite(X32F) & (np.abs(X32F) <= t.values[-2])]
    if name == "ue8m0":
        x = x[x >= t.values[0]]  # ml_dtypes: negative -> NaN and no zero (see below)
        x = x[np.frexp(x)[0] != 0.75]  # ties 1.5 * 2^k: see test_known_disagreements_with_ml_dtypes
        x = x[x >= 2.0 ** -126]  # f32 subnormal inputs: likewise
    want = convert_from_f64_values(f, x, "rn")
    ml = x.astype(np.float32).astype(ML[name])
    got = ml.view(np.uint16 if name in ("f16", "bf16") else np.uint8).astype(np.int64)
    # ml_dtypes keeps the sign of a value rounding to zero in e2m1/e2m3/e3m2 too; so do we.
    assert np.array_equal(got, want), np.nonzero(got != want)[0][:5]
    report(f"reference .rn {name} vs ml_dtypes", len(x))


def test_known_disagreements_with_ml_dtypes():
    """Where ml_dtypes and the ISA part ways, by design."""
    x = np.array([1e6, np.nan], dtype=np.float32)
    # ml_dtypes float8_e4m3fn overflows to NaN; cvt.rn.satfinite.e4m3x2 clamps to 448 (0x7e).
    assert np.isnan(x[:1].astype(ml_dtypes.float8_e4m3fn).astype(np.float32))[0]
    assert convert_from_f64_values(FORMATS["e4m3"], x[:1].astype(np.float64), "rn", True)[0] == 0x7E
    # float4_e2m1fn has no NaN; ml_dtypes maps NaN to some finite code, the ISA to +MAX_NORM (0x7).
    assert convert_from_f64_values(FORMATS["e2m1"], x[1:].astype(np.float64), "rn", True)[0] == 0x7
    # float8_e8m0fnu of a negative value is NaN in ml_dtypes; ue8m0 has no sign, and cvt to
    # ue8m0 takes the magnitude (reading, as CUDA's __nv_cvt_bfloat16raw_to_e8m0 host code).
    assert np.isnan(np.array([-2.0], np.float32).astype(ml_dtypes.float8_e8m0fnu).astype(np.float32))[0]
    assert convert_from_f64_values(FORMATS["ue8m0"], np.array([-2.0]), "rz")[0] == 128
    # A tie 1.5 * 2^k between two ue8m0 values: ml_dtypes rounds up, the reference to the
    # even code. PTX has no .rn conversion to ue8m0 (only .rz and .rp), so this never shows.
    tie = np.array([0.75], dtype=np.float32)  # between 0.5 (code 126) and 1.0 (code 127)
    assert tie.astype(ml_dtypes.float8_e8m0fnu).view(np.uint8)[0] == 127
    assert convert_from_f64_values(FORMATS["ue8m0"], tie.astype(np.float64), "rn")[0] == 126
    # ml_dtypes maps f32 subnormals just above 2^-127 to 2^-126 (code 1); the nearest ue8m0
    # value is 2^-127 (code 0).
    sub = np.array([2.0 ** -127 * 1.25], dtype=np.float32)
    assert sub.astype(ml_dtypes.float8_e8m0fnu).view(np.uint8)[0] == 1
    assert convert_from_f64_values(FORMATS["ue8m0"], sub.astype(np.float64), "rn")[0] == 0
    # ml_dtypes rounds only to nearest: no .rz/.rm/.rp/.rs/.rna to compare against.


# ------------------------------------------- exhaustive sm_100 sources and bf16 -> ue8m0
@pytest.mark.parametrize("src", ["e2m1", "e2m3", "e3m2", "e4m3", "e5m2"])
@pytest.mark.parametrize("relu", [False, True])
def test_small_to_f16_every_code(dump, src, relu):
    f = FORMATS[src]
    codes = np.arange(2 * f.ncodes)
    vals = np.array([float("nan") if (v := f.value(int(c))) == "nan" else float(v) if not isinstance(v, str)
                     else (math.inf if v == "+inf" else -math.inf) for c in codes])
    vals = np.where(codes & f.sign_bit, -np.abs(vals), np.abs(vals))  # keep -0
    got = dump("f16", src, "rn", codes, ("relu",) if relu else ())
    want = convert_from_f64_values(FORMATS["f16"], vals, "rn", relu=relu)
    check(FORMATS["f16"], got, want, f"cvt.rn{'.relu' if relu else ''}.f16x2.{src}x2 (every code)")


def test_ue8m0_to_bf16_every_code(dump):
    codes = np.arange(256)
    vals = np.array([float("nan") if c == 255 else float(FORMATS["ue8m0"].value(int(c))) for c in codes])
    got = dump("bf16", "ue8m0", "rn", codes)
    check(FORMATS["bf16"], got, convert_from_f64_values(FORMATS["bf16"], vals, "rn"), "cvt.rn.bf16x2.ue8m0x2 (every code)")


@pytest.mark.parametrize("mode", ["rz", "rp"])
@pytest.mark.parametrize("flags", [(), ("satfinite",), ("relu",), ("satfinite", "relu")])
def test_bf16_to_ue8m0_every_code(dump, mode, flags):
    codes = np.arange(65536)
    x = (codes.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    got = dump("ue8m0", "bf16", mode, codes, flags)
    want = convert_from_f64_values(FORMATS["ue8m0"], x, mode, "satfinite" in flags, "relu" in flags)
    want = np.where(want == -2, 0xFF, want)  # ue8m0's only NaN
    check(FORMATS["ue8m0"], got, want, f"cvt.{mode}{''.join('.' + x for x in flags)}.ue8m0x2.bf16x2 (every code)")


# ------------------------------------------------------- f64 -> f32 (numpy as the oracle)
def f64_inputs(n=1_000_000, seed=5):
    rng = np.random.Generator(np.random.PCG64(seed))
    raw = rng.integers(0, 1 << 63, n, dtype=np.int64).astype(np.uint64) * np.uint64(2) + rng.integers(0, 2, n).astype(np.uint64)
    exp = rng.integers(1023 - 160, 1023 + 130, n).astype(np.uint64)
    tail_w = rng.choice(np.array([29, 42, 45], dtype=np.uint64), n)
    man = raw & np.uint64((1 << 52) - 1)
    tie = (man >> tail_w << tail_w) | (np.uint64(1) << (tail_w - np.uint64(1)))
    kind = rng.integers(0, 3, n)
    man = np.where(kind == 2, tie, man)
    built = (raw & np.uint64(1 << 63)) | (exp << np.uint64(52)) | man
    edges = np.array([0, 1, 0x36A0000000000000, 0x3690000000000000, 0x3810000000000000,
                      0x380FFFFFFFFFFFFF, 0x47EFFFFFE0000000, 0x47EFFFFFF0000000, 0x47EFFFFFEFFFFFFF,
                      0x7FF0000000000000], dtype=np.uint64)
    return np.concatenate([edges, edges | np.uint64(1 << 63), np.where(kind == 0, raw, built)])


@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
def test_f64_to_f32(dump, mode):
    bits = f64_inputs()
    x = bits.view(np.float64)
    keep = ~np.isnan(x)
    bits, x = bits[keep], x[keep]
    with np.errstate(over="ignore"):
        r = x.astype(np.float32)  # IEEE round to nearest even (numpy's C cast)
    rd = r.astype(np.float64)
    down = np.nextafter(r, np.float32(-np.inf))
    up = np.nextafter(r, np.float32(np.inf))
    if mode == "rz":
        r = np.where(np.abs(rd) > np.abs(x), np.where(x > 0, down, up), r)
    elif mode == "rm":
        r = np.where(rd > x, down, r)
    elif mode == "rp":
        r = np.where(rd < x, up, r)
    got = dump("f32", "f64", mode, bits)
    want = r.view(np.uint32).astype(np.int64)
    bad = np.nonzero(got != want)[0]
    assert len(bad) == 0, (bits[bad[:5]], got[bad[:5]], want[bad[:5]])
    report(f"cvt.{mode}.f32.f64 vs numpy", len(bits))


# --------------------------------------------------- float -> integer (numpy as the oracle)
INTS = [("s8", 8, True), ("u8", 8, False), ("s16", 16, True), ("u16", 16, False),
        ("s32", 32, True), ("u32", 32, False), ("s64", 64, True), ("u64", 64, False)]
IRND = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}


@pytest.mark.parametrize("src", ["f32", "f64"])
@pytest.mark.parametrize("irnd", list(IRND))
def test_float_to_int(dump, src, irnd):
    bits = X32.astype(np.uint64) if src == "f32" else f64_inputs(n=250_000, seed=6)
    x = X32F if src == "f32" else bits.view(np.float64)
    keep = ~np.isnan(x)  # NaN -> int: ISA says 0, hw differs; tests/hw/cvt holds those bits
    bits, x = bits[keep], x[keep]
    r = IRND[irnd](x)
    total = 0
    for name, n, signed in INTS:
        lo, hi = (-(2.0 ** (n - 1)), 2.0 ** (n - 1)) if signed else (0.0, 2.0 ** n)
        inr = (r >= lo) & (r < hi)
        mask = (1 << n) - 1
        v = np.where(inr, r, 0.0)
        val = (v.astype(np.int64).astype(np.uint64) if signed else v.astype(np.uint64)) & np.uint64(mask)
        maxv = np.uint64(mask >> 1 if signed else mask)
        minv = np.uint64((1 << (n - 1)) if signed else 0)
        want = np.where(inr, val, np.where(r < lo, minv, maxv))
        got = dump(name, src, irnd, bits).astype(np.uint64)
        bad = np.nonzero(got != want)[0]
        assert len(bad) == 0, (name, bits[bad[:5]], got[bad[:5]], want[bad[:5]])
        total += len(bits)
    report(f"cvt.{irnd}.<8 int types>.{src} vs numpy", total)
