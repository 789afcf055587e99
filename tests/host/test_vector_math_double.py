"""Double exp, exp2, exp10, expm1, log, log2, log10, log1p, pow, sin, cos, tan, sinh, cosh and tanh in lane form
(kernelkit/mux/clc/include/clc_lanes_double.h), and hypot (the branch-free form in clc_math.h): a vectorised
kernel evaluates them as <W x double> code, not as W calls of the C library (pow, sin, cos and tan call pow/sin/cos/tan only behind a none-active skip, for arguments
outside the fast range). Oracles: mpmath at 120 bits (largest error in ulp within OpenCL C 3.0 s7.4's bounds),
numpy's float64 for special values, and the scalar build of the same kernel (bit-equal results).
The 1M-input sweep of the same functions is benchmarks/vector_math_lanes.py --double."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from lane_math_cases import (
    DOUBLE_FUNCTIONS,
    double_inputs,
    double_ulp_errors,
    run_switch_kernel,
    switch_kernel,
)
from vectorised_ir import scalar_calls, vectorised_bodies

import kernelkit

NAMES = tuple(DOUBLE_FUNCTIONS)
SOURCE = switch_kernel(DOUBLE_FUNCTIONS, "double")
N = 1 << 12
LIBRARY_FALLBACKS = {"pow", "sin", "cos", "tan"}   # (the C library behind the none-active skip)


@functools.cache
def program(mode: str) -> kernelkit.Program:
    return kernelkit.Program(SOURCE, [f"-cl-wfv={mode}"]).build()


def run(mode: str, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return run_switch_kernel(program(mode), DOUBLE_FUNCTIONS, name, *double_inputs(name, N))


def test_the_kernel_is_vectorised_without_per_lane_library_calls():
    w, bodies = vectorised_bodies(SOURCE, ("math",))
    assert scalar_calls(bodies["math"], w) <= LIBRARY_FALLBACKS


@pytest.mark.parametrize("name", NAMES)
def test_within_the_ulp_bound_and_equal_to_the_scalar_build(name):
    v, w, vec = run("always", name)
    *_, scalar = run("never", name)
    np.testing.assert_array_equal(vec.view(np.uint64), scalar.view(np.uint64))
    err = double_ulp_errors(name, vec, v, w)
    worst = int(np.argmax(err))
    assert err[worst] <= DOUBLE_FUNCTIONS[name][3], (v[worst], w[worst], vec[worst], err[worst])
