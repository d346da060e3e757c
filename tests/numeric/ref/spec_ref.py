"""Independent reference for PTX number formats and float conversions.

Written from the ISA text, not from the C++ code under test:
  * formats: PTX §5.2.1 and §5.2.3 "Alternate Floating-Point Data Formats"
    (001_23fdd5978b24a3ed.txt): bits -> exact value with fractions.Fraction;
  * rounding (§9.7.9.21 cvt, Floating Point Notes): by search among the enumerated
    values of the destination format (not by bit manipulation): .rn ties to the even
    code, .rna ties away from zero, .rz/.rm/.rp directed, .rs rounds away from zero when
    the random bits added to the discarded fraction carry out;
  * modifiers (§9.7.9.21 Saturation Modifiers): .relu, .satfinite.
The few points the ISA leaves open follow what sm_90 hardware does (tests/hw/cvt) and
are marked "(hw)"; points neither the ISA nor our hardware fixes are marked "(reading)".
"""
from fractions import Fraction

import numpy as np


class Fmt:
    def __init__(self, name, e, m, bias, signed=True, specials="ieee", subnormals=True, pad=0):
        self.name, self.e, self.m, self.bias = name, e, m, bias
        self.signed, self.specials, self.subnormals, self.pad = signed, specials, subnormals, pad
        self.ncodes = 1 << (e + m)  # magnitude codes
        self.sign_bit = (1 << (e + m)) if signed else 0

    def value(self, code):
        """Exact value of a full code (with sign): Fraction, or 'nan', '+inf', '-inf'."""
        neg = bool(code & self.sign_bit)
        mag = code & (self.ncodes - 1)
        E, M = mag >> self.m, mag & ((1 << self.m) - 1)
        top = E == (1 << self.e) - 1
        if self.specials == "ieee" and top:
            return "nan" if M else ("-inf" if neg else "+inf")
        if self.specials == "nan_all_ones" and top and M == (1 << self.m) - 1:
            return "nan"
        if self.specials == "nan_max_exp" and top:
            return "nan"
        if not self.subnormals:  # ue8m0: 2^(E - 127), no zero
            v = Fraction(2) ** (E - self.bias) * (1 + Fraction(M, 1 << self.m))
        elif E == 0:
            v = Fraction(2) ** (1 - self.bias) * Fraction(M, 1 << self.m)
        else:
            v = Fraction(2) ** (E - self.bias) * (1 + Fraction(M, 1 << self.m))
        return -v if neg else v


FORMATS = {
    "f16": Fmt("f16", 5, 10, 15),
    "bf16": Fmt("bf16", 8, 7, 127),
    "tf32": Fmt("tf32", 8, 10, 127, pad=13),  # §5.2.3: f32 range, 10 mantissa bits
    "e4m3": Fmt("e4m3", 4, 3, 7, specials="nan_all_ones"),  # NaN 0x7f/0xff, no Inf
    "e5m2": Fmt("e5m2", 5, 2, 15),
    "e2m3": Fmt("e2m3", 2, 3, 1, specials="none"),  # no Inf, no NaN
    "e3m2": Fmt("e3m2", 3, 2, 3, specials="none"),
    "e2m1": Fmt("e2m1", 2, 1, 1, specials="none"),
    "ue8m0": Fmt("ue8m0", 8, 0, 127, signed=False, specials="nan_max_exp", subnormals=False),
    "ue4m3": Fmt("ue4m3", 4, 3, 7, signed=False, specials="nan_all_ones"),
}


class Table:
    """Non-negative finite values of a format in increasing order, with their codes, plus
    one virtual value above MAX_NORM (MAX_NORM + one unit in its last place, i.e. the
    next value the exponent/mantissa ladder would have) that stands for overflow."""

    def __init__(self, f):
        vals = []
        for code in range(f.ncodes):
            v = f.value(code)
            if isinstance(v, Fraction):
                assert Fraction(float(v)) == v  # exact in binary64
                vals.append((v, code))
        vals.sort()
        self.max_code = vals[-1][1]
        top = vals[-1][0]
        spacing = Fraction(2) ** (top.numerator.bit_length() - top.denominator.bit_length() - f.m)
        self.values = np.array([float(v) for v, _ in vals] + [float(vals[-1][0] + spacing)])
        self.codes = np.array([c for _, c in vals] + [-1], dtype=np.int64)  # -1: overflow
        self.has_zero = vals[0][0] == 0


_TABLES = {}


def table(f):
    if f.name not in _TABLES:
        _TABLES[f.name] = Table(f)
    return _TABLES[f.name]


def round_magnitude(f, a, neg, mode, rbits=None, width=0):
    """Round magnitudes a (float64 array, finite, >= 0) into f: magnitude codes, -1 on
    overflow. neg: signs (for .rm/.rp)."""
    t = table(f)
    idx = np.searchsorted(t.values, a, side="right") - 1
    below = idx < 0  # ue8m0 below 2^-127 (reading: code 0, as the CUDA host emulation)
    idx = np.clip(idx, 0, len(t.values) - 2)
    lo = np.where(below, 0.0, t.values[idx])
    hi = np.where(below, t.values[0], t.values[idx + 1])
    lo_code = t.codes[idx]
    hi_code = np.where(below, t.codes[0], t.codes[idx + 1])
    exact = a == lo
    twice, mid = 2 * a, lo + hi  # both exact in binary64
    if mode == "rz":
        up = np.zeros_like(exact)
    elif mode == "rm":
        up = neg & ~exact
    elif mode == "rp":
        up = ~neg & ~exact
    elif mode == "rna":
        up = twice >= mid
    elif mode == "rn":
        even_hi = (hi_code & 1) == 0  # the overflow stand-in counts as even: code max+1
        even_hi = np.where(hi_code < 0, (t.max_code + 1) % 2 == 0, even_hi)
        up = (twice > mid) | ((twice == mid) & even_hi)
    elif mode == "rs":
        frac = np.floor(np.minimum((a - lo) / (hi - lo), 1.0) * (1 << width)).astype(np.int64)
        up = ~exact & (frac + rbits >= (1 << width))
    else:
        raise ValueError(mode)
    beyond = a >= t.values[-1]  # at or past the overflow stand-in: overflow in every mode
    return np.where(beyond, -1, np.where(up, hi_code, lo_code))


def convert_from_f64_values(f, x, mode, satfinite=False, relu=False, rbits=None, width=0):
    """cvt of values x (float64 array; any f32/f64 value, inf, nan) into format f.
    Returns full codes (sign included, tf32 padded); -2 where the result is 'some NaN of
    f' (the ISA: 'canonical NaN' / 'NaN of the destination format', bits from hardware)."""
    x = np.asarray(x, dtype=np.float64)
    nan = np.isnan(x)
    neg = np.signbit(x) & ~nan
    if not f.signed:
        neg = np.zeros_like(neg)  # (reading) unsigned formats take the magnitude
    a = np.abs(np.where(nan, 0.0, x))
    inf = np.isinf(a)
    t = table(f)
    mag = round_magnitude(f, np.where(inf, 0.0, a), neg, mode, rbits, width)
    over = (mag < 0) | inf
    out = np.where(neg, f.sign_bit, 0) | np.where(mag < 0, 0, mag)
    maxn = np.where(neg, f.sign_bit, 0) | t.max_code
    if f.specials == "ieee":
        infc = np.where(neg, f.sign_bit, 0) | (t.max_code + 1)
        if satfinite:
            ov = maxn
        elif mode in ("rn", "rna", "rs"):
            ov = infc
        elif mode == "rz":
            ov = maxn
        elif mode == "rm":
            ov = np.where(neg, infc, maxn)
        else:
            ov = np.where(neg, maxn, infc)
        # an infinite input stays infinite unless .satfinite (hw: any rounding mode)
        ov = np.where(inf & (not satfinite), infc, ov)
    elif satfinite or f.specials == "none":
        ov = maxn
    else:
        ov = np.full_like(out, (1 << (f.e + f.m)) - 1)  # ue8m0 without .satfinite: NaN 0xff
    out = np.where(over, ov, out)
    if relu:
        out = np.where(neg, 0, out)  # .relu: negative results -> +0 (hw: also -0)
    # NaN: .satfinite gives +MAX_NORM for formats without NaN, else a NaN
    out = np.where(nan, t.max_code if f.specials == "none" else -2, out << f.pad)
    return out


def is_nan_code(f, code):
    return f.value(code >> f.pad) == "nan"
