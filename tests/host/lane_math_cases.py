"""The float builtins given lane forms in kernelkit/mux/clc/include/clc_lanes_*.h, their float64 references
and inputs: shared by tests/host/test_vector_math_more.py and benchmarks/vector_math_lanes.py (the 1M-input
sweep). Bounds come from OpenCL C 3.0 s7.4's table, held once in tests/clc/test_math.py (ULP_LIMITS)."""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clc"))
from test_math import ULP_LIMITS  # noqa: E402


def ieee_remainder(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """C99's remainder (exact in float64 for float32 inputs): math.remainder, NaN where it has no value."""
    bad = np.isnan(v) | np.isnan(w) | np.isinf(v) | (w == 0)
    out = np.frompyfunc(math.remainder, 2, 1)(np.where(bad, 1.0, v), np.where(bad, 1.0, w)).astype(np.float64)
    return np.where(bad, np.nan, out)


def elementwise(function, *, poles: float = np.inf):
    """A math-module function applied to float64 arrays: its value at poles (ValueError) is `poles`, an overflow
    is infinity with the sign of the function's continuation, NaN stays NaN."""
    def one(*args: float) -> float:
        if any(math.isnan(a) for a in args):
            return math.nan
        try:
            return function(*args)
        except ValueError:
            return poles
        except OverflowError:
            return math.inf
    return lambda *arrays: np.frompyfunc(one, len(arrays), 1)(*arrays).astype(np.float64)


def _gamma(x: float) -> float:
    """Gamma(x) (math.gamma), with its limits where the math module raises: +-inf at +-0, 0 far left of 0."""
    if x == 0.0:
        return math.copysign(math.inf, x)
    if x == -math.inf or (x < 0 and x == math.floor(x)):
        return math.nan
    if x < -200:   # |Gamma(x)| < 1e-370: 0 with Gamma's sign (negative where floor(x) is odd)
        return -0.0 if math.floor(x) % 2 else 0.0
    return math.gamma(x)


def _lgamma_sign(x: float) -> float:
    """The sign lgamma_r stores: that of Gamma(x) (the sign of math.gamma, of its continuation far left of 0);
    at poles, infinities and NaN (C99 leaves it open) 1, or -1 at -0 (as glibc's lgammaf_r)."""
    if x == 0.0:
        return math.copysign(1.0, x)
    if math.isnan(x) or math.isinf(x) or x == math.floor(x) or x > 0:
        return 1.0
    return math.copysign(1.0, _gamma(x)) if x > -200 else (-1.0 if math.floor(x) % 2 else 1.0)


def remquo_quotient(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """remquo's quotient bits (OpenCL C 3.0 s6.15.2: the low 7 bits of n = x / y rounded to the nearest integer,
    ties to even, with the sign of x / y): n from math.remainder exactly in rational arithmetic; 0 where the
    remainder is NaN or x is returned (y infinite)."""
    def one(x: float, y: float) -> float:
        if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0 or math.isinf(y):
            return 0.0
        n = (Fraction(x) - Fraction(math.remainder(x, y))) / Fraction(y)
        assert n.denominator == 1
        return float(math.copysign(abs(n.numerator) % 128, n.numerator if n else x * y))
    return np.frompyfunc(one, 2, 1)(v, w).astype(np.float64)


def int_argument(w: np.ndarray) -> np.ndarray:
    """w as the kernel's convert_int_sat(w) (OpenCL C 3.0 s6.4.3.3: saturated, NaN to 0), as float64."""
    return np.where(np.isnan(w), 0.0, np.trunc(np.clip(w, -2.0 ** 31, 2.0 ** 31 - 1)))


def rootn_reference(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x^(1/n) (math.pow in float64) with the sign of x for odd n; OpenCL C 3.0 s6.15.2's special values: NaN for
    n = 0 and for x < 0 with n even; +-0 and infinities as x^(1/n)'s limits."""
    def one(x: float, n: float) -> float:
        odd = n % 2 == 1
        if math.isnan(x) or n == 0 or (x < 0 and not odd):
            return math.nan
        m = abs(x) ** (1.0 / n) if 0 < abs(x) < math.inf else (0.0 if (x == 0) == (n > 0) else math.inf)
        return math.copysign(m, x) if odd else m
    return np.frompyfunc(one, 2, 1)(v, int_argument(w)).astype(np.float64)


def pown_reference(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x^n: C99's pow for an integral exponent (OpenCL C 3.0 s6.15.2), numpy's float64 power."""
    return np.power(v, int_argument(w))


# name -> (OpenCL expression of v (and w, an int q), float64 reference)
REFERENCES = {
    "atan2": ("atan2(v, w)", lambda v, w: np.arctan2(v, w)),
    "atan2pi": ("atan2pi(v, w)", lambda v, w: np.arctan2(v, w) / np.pi),
    "hypot": ("hypot(v, w)", np.hypot),
    "cbrt": ("cbrt(v)", lambda v, w: np.cbrt(v)),
    "expm1": ("expm1(v)", lambda v, w: np.expm1(v)),
    "log1p": ("log1p(v)", lambda v, w: np.log1p(v)),
    "tanh": ("tanh(v)", lambda v, w: np.tanh(v)),
    "sinh": ("sinh(v)", lambda v, w: np.sinh(v)),
    "cosh": ("cosh(v)", lambda v, w: np.cosh(v)),
    "asin": ("asin(v)", lambda v, w: np.arcsin(v)),
    "acos": ("acos(v)", lambda v, w: np.arccos(v)),
    "atan": ("atan(v)", lambda v, w: np.arctan(v)),
    "asinpi": ("asinpi(v)", lambda v, w: np.arcsin(v) / np.pi),
    "acospi": ("acospi(v)", lambda v, w: np.arccos(v) / np.pi),
    "atanpi": ("atanpi(v)", lambda v, w: np.arctan(v) / np.pi),
    "asinh": ("asinh(v)", lambda v, w: np.arcsinh(v)),
    "acosh": ("acosh(v)", lambda v, w: np.arccosh(v)),
    "atanh": ("atanh(v)", lambda v, w: np.arctanh(v)),
    "fmod": ("fmod(v, w)", np.fmod),
    "remainder": ("remainder(v, w)", ieee_remainder),
    "erf": ("erf(v)", lambda v, w: elementwise(math.erf)(v)),
    "erfc": ("erfc(v)", lambda v, w: elementwise(math.erfc)(v)),
    "tgamma": ("tgamma(v)", lambda v, w: elementwise(_gamma)(v)),
    "lgamma": ("lgamma(v)", lambda v, w: elementwise(math.lgamma)(v)),
    "lgamma_r": ("(lgamma_r(v, &q), (float)q)", lambda v, w: np.frompyfunc(_lgamma_sign, 1, 1)(v).astype(np.float64)),
    "remquo": ("remquo(v, w, &q)", ieee_remainder),
    "remquo_quotient": ("(remquo(v, w, &q), (float)q)", remquo_quotient),
    "pown": ("pown(v, convert_int_sat(w))", pown_reference),
    "rootn": ("rootn(v, convert_int_sat(w))", rootn_reference),
}
# OpenCL C 3.0 s7.4 gives lgamma no bound (and lgamma_r's sign and remquo's quotient are exact): the bound
# tested here for lgamma is our own claim, stricter than the specification
OWN_BOUNDS = {"lgamma": 4, "lgamma_r": 0, "remquo": 0, "remquo_quotient": 0}
# name -> (OpenCL expression, float64 reference, bound in ulp)
FUNCTIONS = {name: (expr, ref, OWN_BOUNDS[name] if name in OWN_BOUNDS else ULP_LIMITS[name]) for name, (expr, ref) in REFERENCES.items()}
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 1e-45, -1e-45, 1.1754944e-38,
                    3.4028235e38, -3.4028235e38, 88.72, 89.5, -104.0, 1e-8, -1e-8, 2.0, 0.99999994, -0.99999994,
                    1.0000001, 16777216.0, 3.0, -7.5], np.float32)


def inputs(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n random v (in the function's domain and far beyond it) and w, then every pair of special values."""
    rng = np.random.default_rng(sum(map(ord, name)))
    u = rng.uniform
    sign = rng.choice([-1.0, 1.0], n)
    wide = sign * 10.0 ** u(-45, 38.5, n)
    if name in ("asin", "acos", "asinpi", "acospi", "atanh"):
        v = np.concatenate([u(-1, 1, n // 2), sign[:n // 2] * (1 - 10.0 ** u(-8, 0, n // 2))])
    elif name in ("expm1", "sinh", "cosh", "tanh"):
        v = np.concatenate([u(-105, 90, n // 2), sign[:n // 2] * 10.0 ** u(-45, 0.5, n // 2)])
    elif name == "log1p":
        v = np.concatenate([u(-1, 1, n // 2), sign[:n // 4] * 10.0 ** u(-45, 0, n // 4), 10.0 ** u(0, 38.5, n // 4)])
    elif name in ("tgamma", "lgamma", "lgamma_r"):
        v = np.concatenate([u(-50, 40, n // 2), np.round(u(-60, 0, n // 4)) + sign[:n // 4] * 10.0 ** u(-7, -1, n // 4),
                            sign[:n - n // 2 - n // 4] * 10.0 ** u(-45, 38.5, n - n // 2 - n // 4)])
    elif name in ("erf", "erfc"):
        v = np.concatenate([u(-11, 11, n // 2), wide[:n // 2]])
    elif name in ("pown", "rootn"):
        v = np.concatenate([sign[:n // 2] * 10.0 ** u(-3, 3, n // 2), wide[:n // 2]])
    elif name == "acosh":
        v = np.concatenate([1 + 10.0 ** u(-8, 0, n // 2), 10.0 ** u(0, 38.5, n // 2)])
    else:
        v = np.concatenate([u(-10, 10, n // 2), wide[:n // 2]])
    w = np.concatenate([u(-10, 10, n // 4), rng.choice([-1.0, 1.0], n - n // 4) * 10.0 ** u(-45, 38.5, n - n // 4)])
    if name in ("pown", "rootn"):   # small integral exponents (and some large ones)
        w[: n * 3 // 4] = rng.integers(-40, 41, n * 3 // 4)
    if name in ("fmod", "remainder", "remquo", "remquo_quotient"):   # quotients below and beyond 2^24 (the exact double path and the library path)
        w[::3] = v[::3] / 10.0 ** u(0, 12, w[::3].size)
    rng.shuffle(w)
    grid_v, grid_w = np.meshgrid(SPECIAL, SPECIAL)
    return (np.concatenate([v, grid_v.ravel(), SPECIAL]).astype(np.float32),
            np.concatenate([w, grid_w.ravel(), SPECIAL[::-1]]).astype(np.float32))
