"""Math builtins in vector form: a vectorised kernel evaluates exp/exp2/exp10/log/log2/log10/sin/cos/tan/pow (float)
as <W x float> code from the builtin library (kernelkit/mux/clc/include/clc_math_lanes.h), not as W
calls of the C library. Oracles: numpy in float64 (the largest error in ulp must stay within
OpenCL C 3.0 s7.4's bounds), and the scalar build of the same kernel (bit-equal results)."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from lane_math_cases import float_ulp_errors
from vectorised_ir import called_functions, vectorised_bodies

import kernelkit

SOURCE = """
kernel void unary(global const float *x, global float *y, int which) {
  int i = get_global_id(0);
  float v = x[i], r = 0.0f;
  for (int k = 0; k < 1; ++k) {   // (a loop: -cl-wfv=auto vectorises the kernel)
    switch (which) {
      case 0: r = exp(v); break;
      case 1: r = exp2(v); break;
      case 2: r = log(v); break;
      case 3: r = log2(v); break;
      case 4: r = sin(v); break;
      case 5: r = cos(v); break;
      case 6: r = exp10(v); break;
      case 7: r = log10(v); break;
      default: r = tan(v); break;
    }
  }
  y[i] = r;
}
kernel void power(global const float *x, global const float *e, global float *y) {
  int i = get_global_id(0);
  float r = 0.0f;
  for (int k = 0; k < 1; ++k)
    r = pow(x[i], e[i]);
  y[i] = r;
}
"""
UNARY = ("exp", "exp2", "log", "log2", "sin", "cos", "exp10", "log10", "tan")
# OpenCL C 3.0 s7.4, single precision
ULP_BOUND = {"exp": 3, "exp2": 3, "exp10": 3, "log": 3, "log2": 3, "log10": 3, "sin": 4, "cos": 4, "tan": 5,
             "pow": 16}
REFERENCE = {"exp10": lambda x: 10.0 ** x}
N = 1 << 15
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1.0, 1e-45, -1e-45, 1.17549435e-38, 3.4028235e38,
                    -3.4028235e38, 88.72, 88.73, -103.9, -104.0, 128.0, -150.0, 8192.0, -8192.5, 1e30, 0.5],
                   np.float32)
SPECIAL = np.resize(SPECIAL, 64)   # (whole work-groups)


@functools.cache
def program(mode: str) -> kernelkit.Program:
    return kernelkit.Program(SOURCE, [f"-cl-wfv={mode}"]).build()


def inputs(name: str) -> np.ndarray:
    rng = np.random.default_rng(len(name))
    u = rng.uniform
    positive = np.concatenate([10.0 ** u(-45, 38.5, N // 2), u(0.5, 2.0, N // 2)])
    trig = np.concatenate([u(-10, 10, N // 2), u(-8192, 8192, N // 4), 10.0 ** u(-40, 38, N // 4)])
    trig[N // 2::7] = np.clip(trig[N // 2::7] * 1e6, -3e38, 3e38)   # packets with some lanes beyond the fast range
    x = {"exp": u(-104, 89, N), "exp2": u(-152, 129, N), "exp10": u(-46, 39, N), "log": positive,
         "log2": positive, "log10": positive, "sin": trig, "cos": trig, "tan": trig}[name]
    return np.concatenate([x.astype(np.float32), SPECIAL])


def run_unary(mode: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    x = inputs(name)
    y = np.zeros_like(x)
    program(mode).kernel("unary")(x, y, np.int32(UNARY.index(name)), global_size=(x.size,), local_size=(64,))
    return x, y


def run_power(mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = np.concatenate([10.0 ** rng.uniform(-3, 3, N), rng.uniform(0.5, 2.0, N // 4), SPECIAL]).astype(np.float32)
    e = np.concatenate([rng.uniform(-12, 12, N), rng.uniform(-200, 200, N // 4),
                        np.resize(np.array([0.5, 2.0, -1.0, 3.0, np.inf, -np.inf, np.nan, 0.0], np.float32),
                                  SPECIAL.size)]).astype(np.float32)
    y = np.zeros_like(x)
    program(mode).kernel("power")(x, e, y, global_size=(x.size,), local_size=(64,))
    return x, e, y


def test_the_kernels_are_vectorised_without_per_lane_library_calls():
    _, bodies = vectorised_bodies(SOURCE, ("unary", "power"))
    for body in bodies.values():
        # no vector math intrinsic (LLVM's x86 backend expands those into W library calls) and no
        # library call but the guarded ones of sin/cos/pow outside their fast ranges
        assert not re.search(r"@llvm\.(exp|exp2|exp10|log|log2|log10|sin|cos|tan|pow)\.v", body)
        assert {c for c in called_functions(body) if "." not in c} <= {"sinf", "cosf", "tanf", "powf"}


@pytest.mark.parametrize("name", UNARY)
def test_unary_within_the_ulp_bounds_and_equal_to_the_scalar_build(name):
    x, vec = run_unary("always", name)
    _, scalar = run_unary("never", name)
    np.testing.assert_array_equal(vec, scalar)
    with np.errstate(all="ignore"):
        exact = REFERENCE.get(name, getattr(np, name, None))(x.astype(np.float64))
    assert float_ulp_errors(vec, exact).max() <= ULP_BOUND[name]


def test_pow_within_the_ulp_bound_and_equal_to_the_scalar_build():
    x, e, vec = run_power("always")
    *_, scalar = run_power("never")
    np.testing.assert_array_equal(vec, scalar)
    with np.errstate(all="ignore"):
        exact = np.power(x.astype(np.float64), e.astype(np.float64))
    assert float_ulp_errors(vec, exact).max() <= ULP_BOUND["pow"]
