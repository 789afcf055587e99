"""Double-precision operations GenX_IR lacks, as the vISA target lowers them on SKL (floor, ceil,
trunc, rint, round, ldexp, frexp, copysign, fmod), run on the vISA simulator against numpy (exact:
each is exactly rounded), including zeros, subnormals, halves, the 2^52 edge, infinities and NaN;
GenX_IR finalizes the kernel for SKL."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from tests.visa.finalizer import finalize_binary

SOURCE = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void rounding(global const double *x, global double *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  double v = x[i];
  out[i] = floor(v); out[n + i] = ceil(v); out[2 * n + i] = trunc(v); out[3 * n + i] = rint(v);
  out[4 * n + i] = round(v); out[5 * n + i] = copysign(2.5, v);
}
kernel void scaling(global const double *x, global const int *k, global double *out, global int *e,
                    global const double *y) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int ex;
  out[i] = ldexp(x[i], k[i]);
  out[n + i] = frexp(x[i], &ex);
  e[i] = ex;
  out[2 * n + i] = fmod(x[i], y[i]);
}
"""
SPECIAL = np.array([0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                    2.0**52 - 0.5, -(2.0**52 - 0.5), 2.0**52 + 1, 2.0**53, 1e300, -1e300, 5e-324, -5e-324,
                    2.2250738585072014e-308, np.inf, -np.inf, np.nan, 3.0, -7.0, 1e-310])


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(SOURCE).build("visa:skl")


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(64)
    bits = rng.integers(0, 2**63, 96, dtype=np.uint64) * rng.choice(np.array([1, 3], np.uint64), 96)
    return np.concatenate([SPECIAL, rng.uniform(-100, 100, 96).round(1), bits.view(np.float64)])


def _round_half_away(x: np.ndarray) -> np.ndarray:
    t = np.trunc(x)
    return t + np.copysign((np.abs(x - t) >= 0.5).astype(np.float64), x)


def test_rounding_and_copysign_are_numpys(program):
    x = _inputs()
    n = len(x)
    out = np.zeros(6 * n)
    with np.errstate(all="ignore"):
        program.rounding(x, out, global_size=n)
        want = [np.floor(x), np.ceil(x), np.trunc(x), np.rint(x), _round_half_away(x), np.copysign(2.5, x)]
    for name, got, expected in zip(("floor", "ceil", "trunc", "rint", "round", "copysign"), out.reshape(6, n), want,
                                   strict=True):
        np.testing.assert_array_equal(got, expected, err_msg=name)
        number = ~np.isnan(expected)
        np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(expected[number]), err_msg=f"{name}: sign")


def test_ldexp_frexp_fmod_are_numpys(program):
    x = _inputs()
    n = len(x)
    rng = np.random.default_rng(3)
    k = rng.integers(-2300, 2300, n).astype(np.int32)
    k[: len(SPECIAL)] = np.resize(np.array([0, 1, -1, 1074, -1074, 2046, -2046, 60, -60], np.int32), len(SPECIAL))
    y = np.concatenate([rng.permutation(SPECIAL), rng.uniform(-10, 10, n - len(SPECIAL))])
    y[: len(SPECIAL)][np.isinf(x[: len(SPECIAL)])] = 3.0
    out, e = np.zeros(3 * n), np.zeros(n, np.int32)
    with np.errstate(all="ignore"):
        program.scaling(x, k, out, e, y, global_size=n)
        mantissa, exponent = np.frexp(x)
        want = [np.ldexp(x, k), mantissa, np.fmod(x, y)]
    for name, got, expected in zip(("ldexp", "frexp", "fmod"), out.reshape(3, n), want, strict=True):
        np.testing.assert_array_equal(got, expected, err_msg=name)
        number = ~np.isnan(expected)                        # (a NaN's sign is not specified)
        np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(expected[number]), err_msg=f"{name}: sign")
    finite = np.isfinite(x)
    np.testing.assert_array_equal(e[finite], exponent[finite])


def test_genx_ir_finalizes_the_double_lowerings():
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    finalize_binary(compile_visa(SOURCE, "skl").isa(), "SKL")
