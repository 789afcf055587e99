"""The float builtins given lane forms in kernelkit/mux/clc/include/clc_lanes_*.h, their float64 references
and inputs, the error measures, and the kernel running them: shared by tests/host/test_vector_math*.py and
benchmarks/vector_math_lanes.py (the 1M-input sweep). Bounds come from OpenCL C 3.0 s7.4's table, held once in tests/clc/test_math.py (ULP_LIMITS)."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clc"))
from test_math import ULP_LIMITS  # noqa: E402


def float_ulp_errors(got: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """|got - exact| in ulp of the float32 result, per result; a result that rounds to inf or NaN must be
    that value (else an inf error)."""
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = exact.astype(np.float32)
    finite = np.isfinite(rounded)
    err = np.zeros(got.size)
    err[~finite] = np.where(np.array_equal(got[~finite], rounded[~finite], equal_nan=True), 0.0, np.inf)
    _, exponent = np.frexp(rounded[finite].astype(np.float64))
    ulp = np.ldexp(1.0, np.maximum(exponent - 24, -149))
    err[finite] = np.abs(got[finite].astype(np.float64) - exact[finite]) / ulp
    err[np.isnan(err)] = np.inf   # (a NaN where a finite value was due)
    return err


def switch_kernel(functions: dict, element: str) -> str:
    """Kernel ``math(x, y, out, which)``: out[i] = the expression of function ``which`` (an index into
    ``functions``) of v = x[i], w = y[i] (q: a private int for the builtins taking a pointer); the loop
    makes -cl-wfv=auto vectorise it too."""
    cases = "\n".join(f"      case {i}: r = {case[0]}; break;" for i, case in enumerate(functions.values()))
    return f"""
kernel void math(global const {element} *x, global const {element} *y, global {element} *out, int which) {{
  int i = get_global_id(0);
  {element} v = x[i], w = y[i], r = 0;
  int q = 0;
  for (int k = 0; k < 1; ++k) {{
    switch (which) {{
{cases}
    }}
  }}
  out[i] = r;
}}
"""


def run_switch_kernel(program, functions: dict, name: str, v: np.ndarray, w: np.ndarray) -> tuple:
    """(v, w, out) of function ``name`` run by ``program``'s switch_kernel over whole 64-item groups."""
    size = (v.size + 63) // 64 * 64
    v, w = np.resize(v, size), np.resize(w, size)
    out = np.zeros_like(v)
    program.kernel("math")(v, w, out, np.int32(list(functions).index(name)), global_size=(size,), local_size=(64,))
    return v, w, out


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
    return -1.0 if math.floor(x) % 2 else 1.0   # (Gamma(x) < 0 for x < 0 where floor(x) is odd)


def remquo_quotient(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """remquo's quotient bits (OpenCL C 3.0 s6.15.2: the low 7 bits of n = x / y rounded to the nearest integer,
    ties to even, with the sign of x / y): n from math.remainder exactly in rational arithmetic; 0 where the
    remainder is NaN or x is returned (y infinite)."""
    def one(x: float, y: float) -> float:
        if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0 or math.isinf(y):
            return 0.0
        n = (Fraction(x) - Fraction(math.remainder(x, y))) / Fraction(y)
        assert n.denominator == 1
        return float(math.copysign(abs(n.numerator) % 128, (1.0 if n > 0 else -1.0) if n else x * y))
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


# ---- double builtins in lane form (kernelkit/mux/clc/include/clc_lanes_double.h) ----
# The oracle for finite results is mpmath at 120 bits (more precise than double); special values (a NaN,
# an infinity or a zero result, or an argument outside the finite range) must equal numpy's float64 (the C
# library's C99 F.9 values) bit for bit. Bounds: OpenCL C 3.0 s7.4's double table, which gives these
# functions the same values as the float table held in tests/clc/test_math.py (ULP_LIMITS).
import mpmath  # noqa: E402

mpmath.mp.prec = 120

# name -> (OpenCL expression of v (and w), mpmath function, numpy float64 function)
DOUBLE_REFERENCES = {
    "exp": ("exp(v)", mpmath.exp, lambda v, w: np.exp(v)),
    "exp2": ("exp2(v)", lambda x: mpmath.power(2, x), lambda v, w: np.exp2(v)),
    "exp10": ("exp10(v)", lambda x: mpmath.power(10, x), lambda v, w: np.power(10.0, v)),
    "expm1": ("expm1(v)", mpmath.expm1, lambda v, w: np.expm1(v)),
    "log": ("log(v)", mpmath.log, lambda v, w: np.log(v)),
    "log2": ("log2(v)", lambda x: mpmath.log(x, 2), lambda v, w: np.log2(v)),
    "log10": ("log10(v)", mpmath.log10, lambda v, w: np.log10(v)),
    "log1p": ("log1p(v)", mpmath.log1p, lambda v, w: np.log1p(v)),
    "pow": ("pow(v, w)", mpmath.power, np.power),
    "sin": ("sin(v)", mpmath.sin, lambda v, w: np.sin(v)),
    "cos": ("cos(v)", mpmath.cos, lambda v, w: np.cos(v)),
    "tan": ("tan(v)", mpmath.tan, lambda v, w: np.tan(v)),
    "sinh": ("sinh(v)", mpmath.sinh, lambda v, w: np.sinh(v)),
    "cosh": ("cosh(v)", mpmath.cosh, lambda v, w: np.cosh(v)),
    "tanh": ("tanh(v)", mpmath.tanh, lambda v, w: np.tanh(v)),
    "hypot": ("hypot(v, w)", mpmath.hypot, np.hypot),
}


def _exact(function):
    """An exact float64 function as an mpmath oracle: math.fmod (the C library's), math.remainder (CPython's own:
    glibc 2.36's remainder gives -0 for some positive x and subnormal y), remquo's quotient."""
    return lambda x, y: mpmath.mpf(function(float(x), float(y)))


def _quotient(x: float, y: float) -> float:
    return float(remquo_quotient(np.array([x]), np.array([y]))[0]) + 0.0   # (+0 where the bits are 0)


# the second group (kernelkit/mux/clc/include/clc_lanes_double_remainder.h, clc_lanes_double_inverse_trig.h)
DOUBLE_MORE_REFERENCES = {
    "fmod": ("fmod(v, w)", _exact(math.fmod), np.fmod),
    "remainder": ("remainder(v, w)", _exact(math.remainder), ieee_remainder),
    "remquo": ("remquo(v, w, &q)", _exact(math.remainder), ieee_remainder),
    "remquo_quotient": ("(remquo(v, w, &q), (double)q)", _exact(_quotient), lambda v, w: remquo_quotient(v, w) + 0.0),
    "atan": ("atan(v)", mpmath.atan, lambda v, w: np.arctan(v)),
    "atan2": ("atan2(v, w)", mpmath.atan2, np.arctan2),
    "asin": ("asin(v)", mpmath.asin, lambda v, w: np.arcsin(v)),
    "acos": ("acos(v)", mpmath.acos, lambda v, w: np.arccos(v)),
    "atanpi": ("atanpi(v)", lambda x: mpmath.atan(x) / mpmath.pi, lambda v, w: np.arctan(v) / np.pi),
    "atan2pi": ("atan2pi(v, w)", lambda y, x: mpmath.atan2(y, x) / mpmath.pi, lambda v, w: np.arctan2(v, w) / np.pi),
    "asinpi": ("asinpi(v)", lambda x: mpmath.asin(x) / mpmath.pi, lambda v, w: np.arcsin(v) / np.pi),
    "acospi": ("acospi(v)", lambda x: mpmath.acos(x) / mpmath.pi, lambda v, w: np.arccos(v) / np.pi),
    "cbrt": ("cbrt(v)", lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)), lambda v, w: np.cbrt(v)),   # (the real root)
    "asinh": ("asinh(v)", mpmath.asinh, lambda v, w: np.arcsinh(v)),
    "acosh": ("acosh(v)", mpmath.acosh, lambda v, w: np.arccosh(v)),
    "atanh": ("atanh(v)", mpmath.atanh, lambda v, w: np.arctanh(v)),
}


def _libm(name: str):
    """The C library's (glibc's) float64 function as a numpy function of (v, w): C99 F.9's special values
    (signed zeros and infinities: tgamma(-5e-324) = -inf, where Python's math module raises)."""
    function = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
    function.restype, function.argtypes = ctypes.c_double, [ctypes.c_double]
    return lambda v, w: np.frompyfunc(function, 1, 1)(v).astype(np.float64)


def _log_abs_gamma(x):
    """log |Gamma(x)| (the real part of mpmath's log Gamma: its imaginary part is k pi left of 0)."""
    return mpmath.re(mpmath.loggamma(x))


# the third group (kernelkit/mux/clc/include/clc_lanes_double_gamma_erf.h)
DOUBLE_GAMMA_REFERENCES = {
    "erf": ("erf(v)", mpmath.erf, _libm("erf")),
    "erfc": ("erfc(v)", mpmath.erfc, _libm("erfc")),
    "tgamma": ("tgamma(v)", mpmath.gamma, _libm("tgamma")),
    "lgamma": ("lgamma(v)", _log_abs_gamma, _libm("lgamma")),
    "lgamma_r": ("lgamma_r(v, &q)", _log_abs_gamma, _libm("lgamma")),
    "lgamma_r_sign": ("(lgamma_r(v, &q), (double)q)", lambda x: mpmath.mpf(_lgamma_sign(float(x))),
                      lambda v, w: np.frompyfunc(_lgamma_sign, 1, 1)(v).astype(np.float64)),
}
BINARY_DOUBLE = ("pow", "hypot", "fmod", "remainder", "remquo", "remquo_quotient", "atan2", "atan2pi")
# name -> (OpenCL expression, mpmath function, numpy function, bound in ulp)
DOUBLE_FUNCTIONS = {name: (*case, ULP_LIMITS[name]) for name, case in DOUBLE_REFERENCES.items()}
DOUBLE_MORE_FUNCTIONS = {name: (*case, OWN_BOUNDS[name] if name in OWN_BOUNDS else ULP_LIMITS[name])
                         for name, case in DOUBLE_MORE_REFERENCES.items()}
# lgamma: OpenCL C 3.0 s7.4 gives no bound; ours (glibc 2.36 makes 4.3 ulp next to the zeros left of -2)
DOUBLE_OWN_BOUNDS = {"lgamma": 4, "lgamma_r": 4, "lgamma_r_sign": 0}
DOUBLE_GAMMA_FUNCTIONS = {name: (*case, DOUBLE_OWN_BOUNDS[name] if name in DOUBLE_OWN_BOUNDS else ULP_LIMITS[name])
                          for name, case in DOUBLE_GAMMA_REFERENCES.items()}
ALL_DOUBLE_FUNCTIONS = DOUBLE_FUNCTIONS | DOUBLE_MORE_FUNCTIONS | DOUBLE_GAMMA_FUNCTIONS
SPECIAL_DOUBLE = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 5e-324, -5e-324,
                           2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 709.78, 710.0,
                           -745.2, -746.0, 1e-300, 2.0, 3.0, -7.5, 1048576.0, 1e22, 0.9999999999999999,
                           1.0000000000000002])

@functools.cache
def lgamma_negative_zeros() -> np.ndarray:
    """The zeros of lgamma in (-18, -2), two in each (-k-1, -k) either side of the minimum of |Gamma| (where digamma
    is 0), by mpmath (left of -18 they are within an ulp of the poles)."""
    lg = lambda t: mpmath.re(mpmath.loggamma(t))   # noqa: E731
    zeros = []
    for k in range(2, 18):
        m = mpmath.findroot(mpmath.digamma, -k - 0.5)
        zeros.append(mpmath.findroot(lg, (-k - 1 + mpmath.mpf(10) ** -30, m), solver="anderson"))
        zeros.append(mpmath.findroot(lg, (m, -k - mpmath.mpf(10) ** -30), solver="anderson"))
    return np.array([float(z) for z in zeros])


# erfc's last subnormal and first 0, tgamma's overflow and underflow, poles, lgamma's zeros at 1, 2 and -2.457...
GAMMA_ERF_SPECIAL = np.array([26.6, 27.2, 27.25, -27.3, 171.6, 171.7, -170.5, -177.5, -184.5, -2.0, -1e300, 1.5, 2.5,
                              -2.4570247382208006, 1.0000000000000002, 1.9999999999999998, 1e-310, -1e-310])


def double_inputs(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n random v (in the function's range and far beyond it) and w, then the special values (every pair for
    the binary functions)."""
    rng = np.random.default_rng(sum(map(ord, name)) + 1)
    u = rng.uniform
    sign = rng.choice([-1.0, 1.0], n)
    wide = sign * 10.0 ** u(-323, 308.2, n)
    ranges = {"exp": (-750, 720), "exp2": (-1080, 1030), "exp10": (-330, 315), "expm1": (-50, 712),
              "sinh": (-720, 720), "cosh": (-720, 720), "tanh": (-25, 25), "sin": (-1e6, 1e6), "cos": (-1e6, 1e6),
              "tan": (-1e6, 1e6), "log1p": (-1, 1)}
    w = np.zeros(n)
    if name in ("log", "log2", "log10"):
        v = np.concatenate([np.abs(wide[: n // 2]), 1 + u(-1e-3, 1e-3, n // 4), wide[: n - n // 2 - n // 4]])
    elif name == "pow":
        v = np.concatenate([10.0 ** u(-5, 5, n // 2), 1 + u(-1e-6, 1e-6, n // 4), wide[: n - n // 2 - n // 4]])
        w = np.concatenate([u(-100, 100, n // 2), u(-1e8, 1e8, n // 4), sign[: n - n // 2 - n // 4] * 10.0 ** u(-3, 3, n - n // 2 - n // 4)])
    elif name in ("asin", "acos", "asinpi", "acospi"):   # (near +-1 too)
        v = np.concatenate([u(-1, 1, n // 2), sign[: n // 4] * (1 - 10.0 ** u(-16, 0, n // 4)), wide[: n - n // 2 - n // 4]])
    elif name in ("atan2", "atan2pi"):
        v = np.concatenate([u(-10, 10, n // 2), wide[: n - n // 2]])
        w = np.concatenate([u(-10, 10, n // 4), rng.permutation(wide)[: n - n // 4]])
        with np.errstate(over="ignore"):
            w[::5] = v[::5] * u(0.5, 2, w[::5].size)   # (near the diagonal)
    elif name == "acosh":
        v = np.concatenate([1 + 10.0 ** u(-16, 0, n // 4), 10.0 ** u(0, 308.2, n // 4), u(-2, 10, n // 4), wide[: n - 3 * (n // 4)]])
    elif name == "atanh":
        v = np.concatenate([u(-1, 1, n // 2), sign[: n // 4] * (1 - 10.0 ** u(-16, 0, n // 4)), wide[: n - n // 2 - n // 4]])
    elif name in ("atan", "atanpi", "cbrt", "asinh"):
        v = np.concatenate([u(-10, 10, n // 2), wide[: n - n // 2]])
    elif name in DOUBLE_MORE_REFERENCES and name in BINARY_DOUBLE:   # fmod and remainder: quotients below and beyond 2^52
        v = np.concatenate([u(-10, 10, n // 4), wide[: n - n // 4]])
        w = rng.permutation(wide)
        w[::3] = v[::3] / 10.0 ** u(0, 30, w[::3].size)
        w[1::3] = u(-10, 10, w[1::3].size)
        w[2::9] = sign[2::9] * 5e-324 * rng.integers(1, 9, w[2::9].size)   # (tiny divisors: zero remainders)
    elif name in ("erf", "erfc"):   # (erfc: subnormal from 26.55, 0 from 27.23)
        v = np.concatenate([u(-6, 6, n // 2), u(-28, 28, n // 4), sign[: n // 8] * (0.5 + u(-1e-3, 1e-3, n // 8)),
                            wide[: n - n // 2 - n // 4 - n // 8]])
    elif name == "tgamma":   # (overflow beyond 171.6, subnormal from -170.6, 0 below -184; next to poles)
        v = np.concatenate([u(-190, 175, n // 4), u(-10, 10, n // 4),
                            np.round(u(-180, 10, n // 4)) + sign[: n // 4] * 10.0 ** u(-14, -0.5, n // 4),
                            wide[: n - 3 * (n // 4)]])
    elif name.startswith("lgamma"):   # (next to the poles, the zeros at 1 and 2 and the zeros left of -2)
        zeros = rng.choice(lgamma_negative_zeros(), n // 4)
        v = np.concatenate([u(-60, 60, n // 8), u(-10, 10, n // 8),
                            np.round(u(-60, 10, n // 4)) + sign[: n // 4] * 10.0 ** u(-14, -0.5, n // 4),
                            zeros + sign[n // 4: n // 2] * 10.0 ** u(-16, 0, n // 4), wide[: n - 3 * (n // 4)]])
        v = np.where(v == np.rint(v), v + 0.5, v)   # (no exact pole: mpmath raises there; they are special values)
    elif name == "hypot":
        v = np.concatenate([u(-10, 10, n // 2), wide[: n - n // 2]])
        w = np.concatenate([u(-10, 10, n // 4), rng.permutation(wide)[: n - n // 4]])
    else:
        lo, hi = ranges[name]
        v = np.concatenate([u(lo, hi, n // 2), u(-10, 10, n // 4), wide[: n - n // 2 - n // 4]])
    if name in BINARY_DOUBLE:
        grid_v, grid_w = np.meshgrid(SPECIAL_DOUBLE, SPECIAL_DOUBLE)
        return np.concatenate([v, grid_v.ravel()]), np.concatenate([w, grid_w.ravel()])
    special = np.concatenate([SPECIAL_DOUBLE, GAMMA_ERF_SPECIAL]) if name in DOUBLE_GAMMA_REFERENCES else SPECIAL_DOUBLE
    return np.concatenate([v, special]), np.concatenate([w, np.zeros(special.size)])


def double_ulp_errors(name: str, got: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The error of each result in ulp of the exact (mpmath) value; where numpy's float64 value is NaN, infinite
    or zero, or an argument is zero or not finite (signed zeros: mpmath has none), 0 if got equals numpy's value
    bit for bit (NaN: any NaN) and inf if not."""
    _, exact_of, numpy_of, _ = ALL_DOUBLE_FUNCTIONS[name]
    with np.errstate(all="ignore"):
        special = numpy_of(v, w)
    binary = name in BINARY_DOUBLE
    plain = np.isfinite(special) & (special != 0) & np.isfinite(v) & np.isfinite(w) & (v != 0) & ((w != 0) | (not binary))
    same = (got.view(np.int64) == special.view(np.int64)) | (np.isnan(got) & np.isnan(special))
    err = np.where(same, 0.0, np.inf)
    for i in np.flatnonzero(plain):
        exact = exact_of(mpmath.mpf(v[i]), mpmath.mpf(w[i])) if binary else exact_of(mpmath.mpf(v[i]))
        if isinstance(exact, mpmath.mpc) or exact == 0:   # (numpy's finite value where the exact one is 0)
            err[i] = 0.0 if got[i] == 0 else np.inf
            continue
        ulp = mpmath.ldexp(1, max(int(mpmath.frexp(exact)[1]) - 53, -1074))
        err[i] = float(abs(mpmath.mpf(got[i]) - exact) / ulp)
    return err
