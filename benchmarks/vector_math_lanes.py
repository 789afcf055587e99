"""Float math builtins in lane form (kernelkit/mux/clc/include/clc_*lanes*.h): the largest error in
ulp against float64 numpy/scipy over >= 1M inputs (special values included), whether the vectorised
build (-cl-wfv=always) equals the scalar build (-cl-wfv=never) bit for bit, and the time of a small
kernel per function (eight calls per work-item over 1M work-items, best of --repeat).

    python benchmarks/vector_math_lanes.py [--only NAME ...] [--n N] [--repeat R] [--no-sweep]

Run it once from a checkout before the lane forms (PYTHONPATH=<that checkout>) for the "before" times.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import kernelkit


def ieee_remainder(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """C99's remainder (exact in float64 for float32 inputs): math.remainder, NaN where it has no value."""
    bad = np.isnan(v) | np.isnan(w) | np.isinf(v) | (w == 0)
    out = np.frompyfunc(math.remainder, 2, 1)(np.where(bad, 1.0, v), np.where(bad, 1.0, w)).astype(np.float64)
    return np.where(bad, np.nan, out)


# name -> (OpenCL expression of v (and w), float64 reference, OpenCL C 3.0 s7.4 bound in ulp)
FUNCTIONS = {
    "atan2": ("atan2(v, w)", lambda v, w: np.arctan2(v, w), 6),
    "atan2pi": ("atan2pi(v, w)", lambda v, w: np.arctan2(v, w) / np.pi, 6),
    "hypot": ("hypot(v, w)", lambda v, w: np.hypot(v, w), 4),
    "cbrt": ("cbrt(v)", lambda v, w: np.cbrt(v), 2),
    "expm1": ("expm1(v)", lambda v, w: np.expm1(v), 3),
    "log1p": ("log1p(v)", lambda v, w: np.log1p(v), 2),
    "tanh": ("tanh(v)", lambda v, w: np.tanh(v), 5),
    "sinh": ("sinh(v)", lambda v, w: np.sinh(v), 4),
    "cosh": ("cosh(v)", lambda v, w: np.cosh(v), 4),
    "asin": ("asin(v)", lambda v, w: np.arcsin(v), 4),
    "acos": ("acos(v)", lambda v, w: np.arccos(v), 4),
    "atan": ("atan(v)", lambda v, w: np.arctan(v), 5),
    "asinpi": ("asinpi(v)", lambda v, w: np.arcsin(v) / np.pi, 5),
    "acospi": ("acospi(v)", lambda v, w: np.arccos(v) / np.pi, 5),
    "atanpi": ("atanpi(v)", lambda v, w: np.arctan(v) / np.pi, 5),
    "asinh": ("asinh(v)", lambda v, w: np.arcsinh(v), 4),
    "acosh": ("acosh(v)", lambda v, w: np.arccosh(v), 4),
    "atanh": ("atanh(v)", lambda v, w: np.arctanh(v), 5),
    "fmod": ("fmod(v, w)", lambda v, w: np.fmod(v, w), 0),
    "remainder": ("remainder(v, w)", lambda v, w: ieee_remainder(v, w), 0),
}
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 1e-45, -1e-45, 1.1754944e-38,
                    3.4028235e38, -3.4028235e38, 88.72, 89.5, -104.0, 1e-8, -1e-8, 2.0, 0.99999994, -0.99999994,
                    1.0000001, 16777216.0, 3.0, -7.5], np.float32)


def inputs(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
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


def source(name: str) -> str:
    expr = FUNCTIONS[name][0]
    return f"""
kernel void once(global const float *x, global const float *y, global float *out) {{
  int i = get_global_id(0);
  float v = x[i], w = y[i], r = 0.0f;
  for (int k = 0; k < 1; ++k) r = {expr};
  out[i] = r;
}}
kernel void eight(global const float *x, global const float *y, global float *out) {{
  int i = get_global_id(0);
  float v = x[i], w = y[i], r = 0.0f;
  for (int k = 0; k < 8; ++k) {{ r += {expr}; v = v * 0.875f + 0.0625f; }}
  out[i] = r;
}}
"""


def ulp_errors(got: np.ndarray, exact: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = exact.astype(np.float32)
    finite = np.isfinite(rounded)
    bad = not np.array_equal(got[~finite], rounded[~finite], equal_nan=True)
    _, exponent = np.frexp(rounded[finite].astype(np.float64))
    ulp = np.ldexp(1.0, np.maximum(exponent - 24, -149))
    err = np.abs(got[finite].astype(np.float64) - exact[finite]) / ulp
    return np.append(err, np.inf if bad else 0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=list(FUNCTIONS))
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-sweep", action="store_true", help="times only")
    args = ap.parse_args()
    print(f"kernelkit {kernelkit.__file__}")
    print(f"{'function':10} {'inputs':>8} {'max ulp':>9} {'bound':>5} {'vec==scalar':>11} {'8 calls x 1M items':>19}")
    for name in args.only:
        expr, ref, bound = FUNCTIONS[name]
        vec = kernelkit.Program(source(name), ["-cl-wfv=always"]).build()
        x, y = inputs(name, args.n)
        x = np.resize(x, (x.size + 63) // 64 * 64)
        y = np.resize(y, x.size)
        cells = [f"{name:10} {x.size:8}"]
        if not args.no_sweep:
            got = np.zeros_like(x)
            vec.kernel("once")(x, y, got, global_size=(x.size,), local_size=(64,))
            scalar = kernelkit.Program(source(name), ["-cl-wfv=never"]).build()
            sgot = np.zeros_like(x)
            scalar.kernel("once")(x, y, sgot, global_size=(x.size,), local_size=(64,))
            with np.errstate(all="ignore"):
                exact = ref(x.astype(np.float64), y.astype(np.float64))
            err = ulp_errors(got, exact)
            cells.append(f"{err.max():9.3f} {bound:5} {str(np.array_equal(got.view(np.uint32), sgot.view(np.uint32))):>11}")
        else:
            cells.append(f"{'':9} {bound:5} {'':>11}")
        n = 1 << 20
        xt = np.random.default_rng(1).uniform(0.05, 0.95, n).astype(np.float32)
        yt = np.random.default_rng(2).uniform(0.5, 3.0, n).astype(np.float32)
        out = np.zeros_like(xt)
        k = vec.kernel("eight")
        k(xt, yt, out, global_size=(n,), local_size=(64,))
        best = np.inf
        for _ in range(args.repeat):
            t = time.perf_counter()
            k(xt, yt, out, global_size=(n,), local_size=(64,))
            best = min(best, time.perf_counter() - t)
        cells.append(f"{best * 1e3:16.2f} ms")
        print(" ".join(cells), flush=True)


if __name__ == "__main__":
    main()
