"""Double builtins in lane form: a vectorised kernel evaluates them as <W x double> code, not as W calls of the C
library. Three groups, one switch kernel each:
- exp, exp2, exp10, expm1, log, log2, log10, log1p, pow, sin, cos, tan, sinh, cosh and tanh
  (kernelkit/mux/clc/include/clc_lanes_double.h), and hypot (the branch-free form in clc_math.h); pow, sin, cos
  and tan call pow/sin/cos/tan only behind a none-active skip, for arguments outside the fast range;
- fmod, remainder and remquo (clc_lanes_double_remainder.h: LLVM's x86 backend expands a vector frem into one
  fmod call per lane); fmod is called only behind a none-active skip, for quotients of 2^52 and more (and
  infinite x, y = 0 and NaN); atan, atan2, asin, acos, their pi forms and cbrt (clc_lanes_double_inverse_trig.h);
  asinh, acosh and atanh (clc_lanes_double_hyperbolic.h);
- erf, erfc, tgamma, lgamma and lgamma_r, its value and its sign (clc_lanes_double_gamma_erf.h): no library call
  at all.
Oracles: mpmath at 120 bits (largest error in ulp within OpenCL C 3.0 s7.4's bounds; lgamma has none there: our
own 4 ulp, next to its zeros left of -2 too), the C library's exact fmod and remainder (math.fmod,
math.remainder: bit-equal), rational arithmetic for remquo's quotient bits, numpy's or the C library's float64
for special values (glibc's erf, erfc, tgamma and lgamma: C99 F.9.5's values, signed zeros and infinities), the
sign of Gamma for lgamma_r's sign, and the scalar build of the same kernel (bit-equal results).
The 262k-input sweep of the same functions is benchmarks/vector_math_lanes.py --double."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from lane_math_cases import (
    DOUBLE_FUNCTIONS,
    DOUBLE_GAMMA_FUNCTIONS,
    DOUBLE_MORE_FUNCTIONS,
    double_inputs,
    double_ulp_errors,
    run_switch_kernel,
    switch_kernel,
)
from vectorised_ir import scalar_calls, vectorised_bodies

import kernelkit

GROUPS = {"exp_log_trig": DOUBLE_FUNCTIONS, "more": DOUBLE_MORE_FUNCTIONS, "gamma_erf": DOUBLE_GAMMA_FUNCTIONS}
N = 1 << 12
# (the C library behind the none-active skip)
LIBRARY_FALLBACKS = {"exp_log_trig": {"pow", "sin", "cos", "tan"}, "more": {"fmod"}, "gamma_erf": set()}
CASES = [(group, name) for group, functions in GROUPS.items() for name in functions]


@functools.cache
def program(group: str, mode: str) -> kernelkit.Program:
    return kernelkit.Program(switch_kernel(GROUPS[group], "double"), [f"-cl-wfv={mode}"]).build()


def run(group: str, mode: str, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return run_switch_kernel(program(group, mode), GROUPS[group], name, *double_inputs(name, N))


@pytest.mark.parametrize("group", GROUPS)
def test_the_kernel_is_vectorised_without_per_lane_library_calls(group):
    w, bodies = vectorised_bodies(switch_kernel(GROUPS[group], "double"), ("math",))
    # (q, whose address remquo and lgamma_r take, is a per-lane private variable: a masked gather/scatter)
    assert scalar_calls(bodies["math"], w, lane_pointers=group != "exp_log_trig") <= LIBRARY_FALLBACKS[group]


@pytest.mark.parametrize(("group", "name"), CASES)
def test_within_the_ulp_bound_and_equal_to_the_scalar_build(group, name):
    v, w, vec = run(group, "always", name)
    *_, scalar = run(group, "never", name)
    np.testing.assert_array_equal(vec.view(np.uint64), scalar.view(np.uint64))
    err = double_ulp_errors(name, vec, v, w)
    worst = int(np.argmax(err))
    assert err[worst] <= GROUPS[group][name][3], (v[worst], w[worst], vec[worst], err[worst])
