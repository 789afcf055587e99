"""The float builtins given lane forms in kernelkit/mux/clc/include/clc_lanes_*.h, their float64 references
and inputs: shared by tests/host/test_vector_math_more.py and benchmarks/vector_math_lanes.py (the 1M-input
sweep). Bounds come from OpenCL C 3.0 s7.4's table, held once in tests/clc/test_math.py (ULP_LIMITS)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clc"))
from test_math import ULP_LIMITS  # noqa: E402


def ieee_remainder(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """C99's remainder (exact in float64 for float32 inputs): math.remainder, NaN where it has no value."""
    bad = np.isnan(v) | np.isnan(w) | np.isinf(v) | (w == 0)
    out = np.frompyfunc(math.remainder, 2, 1)(np.where(bad, 1.0, v), np.where(bad, 1.0, w)).astype(np.float64)
    return np.where(bad, np.nan, out)


# name -> (OpenCL expression of v (and w), float64 reference)
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
}
# name -> (OpenCL expression, float64 reference, bound in ulp)
FUNCTIONS = {name: (expr, ref, ULP_LIMITS[name]) for name, (expr, ref) in REFERENCES.items()}
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
    elif name == "acosh":
        v = np.concatenate([1 + 10.0 ** u(-8, 0, n // 2), 10.0 ** u(0, 38.5, n // 2)])
    else:
        v = np.concatenate([u(-10, 10, n // 2), wide[:n // 2]])
    w = np.concatenate([u(-10, 10, n // 4), rng.choice([-1.0, 1.0], n - n // 4) * 10.0 ** u(-45, 38.5, n - n // 4)])
    if name in ("fmod", "remainder"):   # quotients below and beyond 2^24 (the exact double path and the library path)
        w[::3] = v[::3] / 10.0 ** u(0, 12, w[::3].size)
    rng.shuffle(w)
    grid_v, grid_w = np.meshgrid(SPECIAL, SPECIAL)
    return (np.concatenate([v, grid_v.ravel(), SPECIAL]).astype(np.float32),
            np.concatenate([w, grid_w.ravel(), SPECIAL[::-1]]).astype(np.float32))
