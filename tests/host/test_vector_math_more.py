"""Float atan2, hypot, cbrt, expm1, log1p, sinh/cosh/tanh, asin/acos/atan (and pi forms), asinh/acosh/atanh,
fmod, remainder and remquo, erf/erfc, tgamma/lgamma/lgamma_r, pown and rootn in lane form (kernelkit/mux/clc/include/clc_lanes_*.h): a vectorised kernel evaluates
them as <W x float>/<W x double> code, not as W calls of the C library (fmod/remainder call
fmodf/remainderf only behind a none-active skip, for quotients of 2^24 and more). Oracles: numpy/float64
(largest error in ulp within OpenCL C 3.0 s7.4's bounds; fmod and remainder exact: math.remainder),
Python's math module in float64 for erf/erfc/tgamma/lgamma, rational arithmetic for remquo's quotient and
the scalar build of the same kernel (bit-equal results).
The 1M-input sweep of the same functions is benchmarks/vector_math_lanes.py."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from lane_math_cases import FUNCTIONS, float_ulp_errors, inputs, run_switch_kernel, switch_kernel
from vectorised_ir import scalar_calls, vectorised_bodies

import kernelkit

NAMES = tuple(FUNCTIONS)
SOURCE = switch_kernel(FUNCTIONS, "float")
N = 1 << 13


@functools.cache
def program(mode: str) -> kernelkit.Program:
    return kernelkit.Program(SOURCE, [f"-cl-wfv={mode}"]).build()


def run(mode: str, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return run_switch_kernel(program(mode), FUNCTIONS, name, *inputs(name, N))


def test_the_kernel_is_vectorised_without_per_lane_library_calls():
    w, bodies = vectorised_bodies(SOURCE, ("math",))
    # no scalar intrinsic or library call per lane: vector intrinsics, and the guarded fmodf/remainderf
    # (q, whose address remquo and lgamma_r take, is a per-lane private variable: a masked gather/scatter)
    assert scalar_calls(bodies["math"], w, lane_pointers=True) <= {"fmodf", "remainderf"}


@pytest.mark.parametrize("name", NAMES)
def test_within_the_ulp_bound_and_equal_to_the_scalar_build(name):
    v, w, vec = run("always", name)
    *_, scalar = run("never", name)
    np.testing.assert_array_equal(vec.view(np.uint32), scalar.view(np.uint32))
    expr, reference, bound = FUNCTIONS[name]
    with np.errstate(all="ignore"):
        exact = reference(v.astype(np.float64), w.astype(np.float64))
    assert float_ulp_errors(vec, exact).max() <= bound
