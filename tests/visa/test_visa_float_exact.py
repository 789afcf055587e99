"""The float builtins with exact results that the vISA target computes in float (kernelkit/targets/
visa/float_exact.cl: logb, remainder, remquo, fract, modf, frexp; and the builtin library's float
fdim, maxmag, minmag, nextafter), run on the vISA simulator against numpy/Python (OpenCL C 3.0 s7.4: 0 ulp; special values of C99
Annex F), on TGLLP (no fp64: before, these were refused there). Inputs: random bit patterns (every
exponent), small ranges, special values."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from tests.visa.finalizer import finalize_binary

SOURCE = """
kernel void two_args(global const float *x, global const float *y, global float *out, global int *quo) {
  size_t i = get_global_id(0), n = get_global_size(0);
  float a = x[i], b = y[i];
  out[i] = fdim(a, b);
  out[n + i] = maxmag(a, b);
  out[2 * n + i] = minmag(a, b);
  out[3 * n + i] = nextafter(a, b);
  out[4 * n + i] = remainder(a, b);
  int q;
  out[5 * n + i] = remquo(a, b, &q);
  quo[i] = q;
  out[6 * n + i] = logb(a);
}
kernel void parts(global const float *x, global float *out, global int *e, local float *scratch) {
  size_t i = get_global_id(0), n = get_global_size(0), l = get_local_id(0);
  float a = x[i], whole;
  out[i] = fract(a, &whole);
  out[n + i] = whole;
  out[2 * n + i] = modf(a, &out[3 * n + i]);
  out[4 * n + i] = frexp(a, &e[i]);
  out[5 * n + i] = fract(a, &scratch[l]);
  out[6 * n + i] = scratch[l];
}
"""
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -3.0, 1.5, 2.5, -2.5, 7.0,
                    1e-30, -1e-30, 3.4e38, -3.4e38, 1.1754944e-38, 2.0**-149, 0.99999994, 1e8, -1e8, 2.0**23 + 1],
                   np.float32)
N = 512


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(SOURCE).build("visa:tgllp")


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(21)
    bits = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x = np.concatenate([bits, np.repeat(SPECIAL, len(SPECIAL)), rng.uniform(-20, 20, N).astype(np.float32),
                        rng.integers(-50, 50, N).astype(np.float32) * 0.5])
    y = np.concatenate([rng.permutation(bits), np.tile(SPECIAL, len(SPECIAL)),
                        rng.uniform(-4, 4, N).astype(np.float32), rng.integers(-6, 6, N).astype(np.float32)])
    return x, y


def _same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Bit-equal (to want rounded to float), or both NaN."""
    with np.errstate(over="ignore"):
        rounded = want.astype(np.float32)
    return (got.view(np.uint32) == rounded.view(np.uint32)) | (np.isnan(got) & np.isnan(want))


def _maxmag(x, y):
    return np.where(np.abs(x) > np.abs(y), x, np.where(np.abs(y) > np.abs(x), y, np.fmax(x, y)))


def _minmag(x, y):
    return np.where(np.abs(x) < np.abs(y), x, np.where(np.abs(y) < np.abs(x), y, np.fmin(x, y)))


def _quotient_bits(x: float, y: float) -> int:
    """The sign of x/y with the 7 lowest bits of x/y rounded to the nearest even integer (exact)."""
    if not (math.isfinite(x) and math.isfinite(y)) or y == 0:
        return 0
    n = round(Fraction(x) / Fraction(y))
    return int(math.copysign(abs(n) & 127, 1.0 if (x < 0) == (y < 0) else -1.0))


def test_binary_builtins_are_exact(program):
    x, y = _inputs()
    n = len(x)
    out = np.zeros(7 * n, np.float32)
    quo = np.zeros(n, np.int32)
    with np.errstate(all="ignore"):
        program.two_args(x, y, out, quo, global_size=n)
        d, e = x.astype(np.float64), y.astype(np.float64)
        want = {"fdim": np.where(np.isnan(d) | np.isnan(e), np.nan, np.where(d > e, d - e, 0.0)),
                "maxmag": _maxmag(x, y), "minmag": _minmag(x, y), "nextafter": np.nextafter(x, y),
                "remainder": np.array([math.remainder(a, b) if math.isfinite(a) and b != 0 and not math.isnan(b)
                                       else np.nan for a, b in zip(d, e, strict=True)]),
                "logb": np.where(x == 0, -np.inf, np.where(np.isinf(x), np.inf, np.floor(np.log2(np.abs(d)))))}
    got = out.reshape(7, n)
    for row, name in enumerate(["fdim", "maxmag", "minmag", "nextafter", "remainder"]):
        bad = np.flatnonzero(~_same(got[row], want[name]))
        assert not len(bad), f"{name}({x[bad[0]]!r}, {y[bad[0]]!r}) = {got[row][bad[0]]!r}, want {want[name][bad[0]]!r}"
    assert _same(got[5], want["remainder"]).all(), "remquo's remainder"
    bad = np.flatnonzero(~_same(got[6], want["logb"]))
    assert not len(bad), f"logb({x[bad[0]]!r}) = {got[6][bad[0]]!r}"
    quotients = np.array([_quotient_bits(a, b) for a, b in zip(d, e, strict=True)])
    defined = np.isfinite(x) & np.isfinite(y) & (y != 0)
    bad = np.flatnonzero(defined & (quo != quotients))
    assert not len(bad), f"remquo({x[bad[0]]!r}, {y[bad[0]]!r}) quotient {quo[bad[0]]}, want {quotients[bad[0]]}"


def test_pointer_builtins_are_exact(program):
    x, _ = _inputs()
    n, local = len(x) - len(x) % 64, 64
    x = x[:n]
    out = np.zeros(7 * n, np.float32)
    e = np.zeros(n, np.int32)
    with np.errstate(all="ignore"):
        program.parts(x, out, e, kernelkit.LocalMemory(4 * local), global_size=n, local_size=local)
        floor = np.floor(x)
        fract = np.where(np.isinf(x), np.copysign(np.float32(0), x), np.minimum(x - floor, np.float32(1) - np.float32(2.0**-24)))
        frac, whole = np.modf(x)
        mantissa, exponent = np.frexp(x)
    got = out.reshape(7, n)
    for row, want in enumerate([fract, floor, frac, whole, mantissa, fract, floor]):
        bad = np.flatnonzero(~_same(got[row], want))
        assert not len(bad), f"result {row} for {x[bad[0]]!r}: {got[row][bad[0]]!r}, want {want[bad[0]]!r}"
    finite = np.isfinite(x)
    np.testing.assert_array_equal(e[finite], exponent[finite])


def test_genx_ir_finalizes_them():
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    finalize_binary(compile_visa(SOURCE, "tgllp").isa(), "TGLLP")
