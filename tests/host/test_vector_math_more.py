"""Float atan2, hypot, cbrt, expm1, log1p, sinh/cosh/tanh, asin/acos/atan (and pi forms), asinh/acosh/atanh,
fmod and remainder in lane form (kernelkit/mux/clc/include/clc_lanes_*.h): a vectorised kernel evaluates
them as <W x float>/<W x double> code, not as W calls of the C library (fmod/remainder call
fmodf/remainderf only behind a none-active skip, for quotients of 2^24 and more). Oracles: numpy/float64
(largest error in ulp within OpenCL C 3.0 s7.4's bounds; fmod and remainder exact: math.remainder) and
the scalar build of the same kernel (bit-equal results).
The 1M-input sweep of the same functions is benchmarks/vector_math_lanes.py."""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

import kernelkit


def ieee_remainder(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """C99's remainder (exact in float64 for float32 inputs): math.remainder, NaN where it has no value."""
    bad = np.isnan(v) | np.isnan(w) | np.isinf(v) | (w == 0)
    out = np.frompyfunc(math.remainder, 2, 1)(np.where(bad, 1.0, v), np.where(bad, 1.0, w)).astype(np.float64)
    return np.where(bad, np.nan, out)


# name -> (OpenCL expression of v and w, float64 reference, OpenCL C 3.0 s7.4 bound in ulp (float))
FUNCTIONS = {
    "atan2": ("atan2(v, w)", lambda v, w: np.arctan2(v, w), 6),
    "atan2pi": ("atan2pi(v, w)", lambda v, w: np.arctan2(v, w) / np.pi, 6),
    "hypot": ("hypot(v, w)", np.hypot, 4),
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
    "fmod": ("fmod(v, w)", np.fmod, 0),
    "remainder": ("remainder(v, w)", lambda v, w: ieee_remainder(v, w), 0),
}
NAMES = tuple(FUNCTIONS)
CASES = "\n".join(f"      case {i}: r = {FUNCTIONS[n][0]}; break;" for i, n in enumerate(NAMES))
SOURCE = f"""
kernel void math(global const float *x, global const float *y, global float *out, int which) {{
  int i = get_global_id(0);
  float v = x[i], w = y[i], r = 0.0f;
  for (int k = 0; k < 1; ++k) {{   // (a loop: -cl-wfv=auto vectorises the kernel too)
    switch (which) {{
{CASES}
    }}
  }}
  out[i] = r;
}}
"""
N = 1 << 13
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 1e-45, -1e-45, 1.1754944e-38,
                    3.4028235e38, -3.4028235e38, 88.72, 89.5, -104.0, 1e-8, -1e-8, 2.0, 0.99999994, -0.99999994,
                    1.0000001, 16777216.0, 3.0, -7.5], np.float32)


@functools.cache
def program(mode: str) -> kernelkit.Program:
    return kernelkit.Program(SOURCE, [f"-cl-wfv={mode}"]).build()


def inputs(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Random v (in the function's domain and far beyond it) and w, then every pair of special values."""
    rng = np.random.default_rng(sum(map(ord, name)))
    u = rng.uniform
    sign = rng.choice([-1.0, 1.0], N)
    wide = sign * 10.0 ** u(-45, 38.5, N)
    if name in ("asin", "acos", "asinpi", "acospi", "atanh"):
        v = np.concatenate([u(-1, 1, N // 2), sign[:N // 2] * (1 - 10.0 ** u(-8, 0, N // 2))])
    elif name in ("expm1", "sinh", "cosh", "tanh"):
        v = np.concatenate([u(-105, 90, N // 2), sign[:N // 2] * 10.0 ** u(-45, 0.5, N // 2)])
    elif name == "log1p":
        v = np.concatenate([u(-1, 1, N // 2), wide[:N // 4], 10.0 ** u(0, 38.5, N // 4)])
    elif name == "acosh":
        v = np.concatenate([1 + 10.0 ** u(-8, 0, N // 2), 10.0 ** u(0, 38.5, N // 2)])
    else:
        v = np.concatenate([u(-10, 10, N // 2), wide[:N // 2]])
    w = np.concatenate([u(-10, 10, N // 4), rng.choice([-1.0, 1.0], N - N // 4) * 10.0 ** u(-45, 38.5, N - N // 4)])
    if name in ("fmod", "remainder"):   # quotients below 2^24 (exact double path) and beyond (library, some lanes)
        w[::3] = v[::3] / 10.0 ** u(0, 12, w[::3].size)
    rng.shuffle(w)
    grid_v, grid_w = np.meshgrid(SPECIAL, SPECIAL)
    v = np.concatenate([v, grid_v.ravel()])
    w = np.concatenate([w, grid_w.ravel()])
    size = (v.size + 63) // 64 * 64   # (whole work-groups)
    return np.resize(v, size).astype(np.float32), np.resize(w, size).astype(np.float32)


def run(mode: str, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    v, w = inputs(name)
    out = np.zeros_like(v)
    program(mode).kernel("math")(v, w, out, np.int32(NAMES.index(name)), global_size=(v.size,), local_size=(64,))
    return v, w, out


def max_ulp_error(got: np.ndarray, exact: np.ndarray) -> float:
    """Largest |got - exact| in ulp of the float32 result; results that round to inf or NaN must be equal."""
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = exact.astype(np.float32)
    finite = np.isfinite(rounded)
    np.testing.assert_array_equal(got[~finite], rounded[~finite])
    _, exponent = np.frexp(rounded[finite].astype(np.float64))
    ulp = np.ldexp(1.0, np.maximum(exponent - 24, -149))
    return float((np.abs(got[finite].astype(np.float64) - exact[finite]) / ulp).max())


def test_the_kernel_is_vectorised_without_per_lane_library_calls():
    from kernelkit.targets.host.codegen import _LAST_IR, compile_host

    mux = kernelkit.Program(SOURCE, ["-cl-wfv=always"])
    mux.build()
    code = compile_host(mux._binary.mux_ir, options=["-cl-wfv=always"], keep_ir=True)
    w = code.vectorised["math"]
    assert w > 1
    text = _LAST_IR["text"]
    body = text[text.index(f"@__vecz_v{w}_math("):]
    body = body[:body.index("\n}\n")]
    # no scalar intrinsic or library call per lane: vector intrinsics, and the guarded fmodf/remainderf
    calls = set(re.findall(r"call [^@]*@([\w.]+)\(", body))
    vector = re.compile(rf"llvm\.[\w.]+\.v{w}(f32|f64|i32|i64|i1)")
    assert {c for c in calls if not vector.fullmatch(c)} <= {"fmodf", "remainderf"}


@pytest.mark.parametrize("name", NAMES)
def test_within_the_ulp_bound_and_equal_to_the_scalar_build(name):
    v, w, vec = run("always", name)
    *_, scalar = run("never", name)
    np.testing.assert_array_equal(vec.view(np.uint32), scalar.view(np.uint32))
    expr, reference, bound = FUNCTIONS[name]
    with np.errstate(all="ignore"):
        exact = reference(v.astype(np.float64), w.astype(np.float64))
    assert max_ulp_error(vec, exact) <= bound
