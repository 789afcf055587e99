"""More float builtins the vISA target computes in float only (kernelkit/targets/visa/float_arc.cl,
float_pi.cl, float_powers.cl, float_erf.cl: asin, acos, asinpi, acospi, atanpi, atan2pi, asinh,
acosh, atanh, sinpi, cospi, tanpi, sincos, cbrt, pown, powr, rootn, ldexp, ilogb, erf, erfc), run on the vISA simulator on
TGLLP (no fp64: before, these were refused there) against Python's double-precision functions within
OpenCL C 3.0 s7.4's ulp limits (the table of tests/clc/test_math.py), with the special values of
OpenCL C s7.5 (its own for sinpi/cospi/tanpi, pown, powr, rootn). They build on DG2 and ICLLP too and
GenX_IR finalizes them."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from conftest import ROOT, require_tool

import kernelkit

sys.path.insert(0, str(ROOT / "tests" / "clc"))
from test_math import REFERENCE, ULP_LIMITS  # noqa: E402

from tests.visa.finalizer import finalize_binary  # noqa: E402

UNARY = ("asin", "acos", "asinpi", "acospi", "atanpi", "asinh", "acosh", "atanh", "sinpi", "cospi", "tanpi", "cbrt",
         "erf", "erfc")
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 0.25, -0.75, 1.5, 2.0, -3.0, 2.5,
                    1e-30, -1e-30, 3.4e38, -3.4e38, 1.1754944e-38, 4096.5, 8388607.5, 8388608.0, 16777216.0,
                    0.99999994, -0.99999994, 1.0000001, 1e8, 3.0e-39, 3.99, 4.0, 9.2, 10.0, 10.49, 10.5, -10.5], np.float32)
N = 256


def _source() -> str:
    out = [f"kernel void f_{n}(global const float *x, global float *y) {{ size_t i = get_global_id(0); "
           f"y[i] = {n}(x[i]); }}" for n in UNARY]
    out.append("kernel void f_atan2pi(global const float *x, global const float *z, global float *y) { "
               "size_t i = get_global_id(0); y[i] = atan2pi(x[i], z[i]); }")
    out.append("kernel void f_powr(global const float *x, global const float *z, global float *y) { "
               "size_t i = get_global_id(0); y[i] = powr(x[i], z[i]); }")
    out.append("kernel void with_int(global const float *x, global const int *k, global float *y, global int *e) { "
               "size_t i = get_global_id(0), n = get_global_size(0); float c; "
               "y[i] = pown(x[i], k[i]); y[n + i] = rootn(x[i], k[i]); y[2 * n + i] = ldexp(x[i], k[i] % 400); "
               "y[3 * n + i] = sincos(x[i], &c); y[4 * n + i] = c; e[i] = ilogb(x[i]); }")
    out.append("kernel void f_vector(global const float4 *x, global float4 *y) { size_t i = get_global_id(0); "
               "y[i] = asin(x[i] * 0.1f) + cospi(x[i]) + cbrt(x[i]) + powr(fabs(x[i]), (float4)(0.5f)); }")
    return "\n".join(out)


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(_source()).build("visa:tgllp")


def _inputs(rng: np.random.Generator) -> np.ndarray:
    bits = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([bits, SPECIAL, rng.uniform(-1, 1, N).astype(np.float32),
                           rng.uniform(-10, 10, N).astype(np.float32), rng.uniform(-100, 100, N // 2).astype(np.float32)])


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in ulps of the float nearest to want (0 where both are the same value, NaN or inf)."""
    with np.errstate(all="ignore"):
        w32 = want.astype(np.float32)
        ulp = np.spacing(np.minimum(np.abs(w32), np.float32(np.finfo(np.float32).max))).astype(np.float64)
        err = np.abs(got.astype(np.float64) - want) / ulp
    same = (got == w32) | (np.isnan(got) & np.isnan(want))
    err[same] = 0.0
    err[np.isnan(err)] = np.inf
    return err


def _tanpi(x: float) -> float:
    """OpenCL C s7.5: tanpi(n + 1/2) is +inf for even n, -inf for odd n."""
    if math.isfinite(x) and (2 * x) % 2 == 1:
        return math.inf if math.floor(x) % 2 == 0 else -math.inf
    return REFERENCE["tanpi"](x)


def _reference(name: str, x: np.ndarray) -> np.ndarray:
    f = _tanpi if name == "tanpi" else REFERENCE[name]

    def one(v: float) -> float:
        if math.isnan(v):
            return math.nan
        try:
            return f(v)
        except (ValueError, OverflowError):      # outside the domain (asin(2), acosh(0), sinpi(inf) ...)
            return math.nan if not (name == "atanh" and abs(v) == 1) else math.copysign(math.inf, v)

    return np.array([one(v) for v in x.astype(np.float64)])


def _check(name: str, got: np.ndarray, want: np.ndarray, *args: np.ndarray, limit: float | None = None) -> None:
    err = _ulps(got, want)
    worst = int(np.argmax(err))
    where = ", ".join(repr(a[worst]) for a in args)
    bound = ULP_LIMITS[name] if limit is None else limit
    assert err[worst] <= bound, f"{name}({where}) = {got[worst]!r}, want {want[worst]!r}: {err[worst]:.2f} ulp"


@pytest.mark.parametrize("name", UNARY)
def test_unary_builtin_within_the_spec_ulp_limit(program, name):
    x = _inputs(np.random.default_rng(31))
    y = np.zeros_like(x)
    getattr(program, f"f_{name}")(x, y, global_size=len(x))
    _check(name, y, _reference(name, x), x)


def test_zeros_of_sinpi_cospi_tanpi_carry_the_spec_signs(program):
    """OpenCL C s7.5: sinpi(+-n) = +-0, cospi(n + 1/2) = +0, tanpi(n) = copysign(0, n) for even n
    and copysign(0, -n) for odd n."""
    x = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.5, 1.5, -2.5, 8388609.0], np.float32)
    y = {}
    for name in ("sinpi", "cospi", "tanpi"):
        y[name] = np.zeros_like(x)
        getattr(program, f"f_{name}")(x, y[name], global_size=len(x))
    whole = x == np.round(x)
    np.testing.assert_array_equal(np.signbit(y["sinpi"][whole]), np.signbit(x[whole]))
    np.testing.assert_array_equal(y["cospi"][~whole], 0.0)
    assert not np.signbit(y["cospi"][~whole]).any()
    odd = whole & (np.abs(x) % 2 == 1)
    np.testing.assert_array_equal(np.signbit(y["tanpi"][whole]), np.signbit(x[whole]) ^ odd[whole])


def _powr(x: float, y: float) -> float:
    if math.isnan(x) or math.isnan(y) or x < 0:
        return math.nan
    if x == 0:
        return math.nan if y == 0 else (math.inf if y < 0 else 0.0)
    if x == math.inf:
        return math.nan if y == 0 else (0.0 if y < 0 else math.inf)
    if x == 1:
        return math.nan if math.isinf(y) else 1.0
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf


def _rootn(x: float, n: int) -> float:
    if n == 0 or math.isnan(x) or (x < 0 and n % 2 == 0):
        return math.nan
    odd = n % 2 == 1
    if x == 0 or math.isinf(x):
        r = math.inf if (x == 0) == (n < 0) else 0.0
        return math.copysign(r, x) if odd else r
    return math.copysign(abs(x) ** (1.0 / n), x)


def _pown(x: float, n: int) -> float:
    if n == 0:
        return 1.0
    try:
        return float(np.float64(x) ** np.float64(n))
    except (ZeroDivisionError, OverflowError):
        return math.nan


def test_binary_builtins_within_the_spec_ulp_limit(program):
    rng = np.random.default_rng(32)
    x, z = _inputs(rng), _inputs(rng)[::-1].copy()
    x, z = np.concatenate([x, np.repeat(SPECIAL, len(SPECIAL))]), np.concatenate([z, np.tile(SPECIAL, len(SPECIAL))])
    for name, reference in (("atan2pi", lambda a, b: math.atan2(a, b) / math.pi), ("powr", _powr)):
        y = np.zeros_like(x)
        getattr(program, f"f_{name}")(x, z, y, global_size=len(x))
        with np.errstate(all="ignore"):
            want = np.array([reference(a, b) for a, b in zip(x.astype(np.float64), z.astype(np.float64), strict=True)])
        _check(name, y, want, x, z)


def test_builtins_with_integer_arguments(program):
    rng = np.random.default_rng(33)
    x = _inputs(rng)
    k = rng.integers(-9, 10, len(x)).astype(np.int32)
    k[:40] = rng.integers(-(2**31), 2**31 - 1, 40)          # huge exponents and roots
    n = len(x)
    y = np.zeros(5 * n, np.float32)
    e = np.zeros(n, np.int32)
    with np.errstate(all="ignore"):          # NaN inputs
        program.with_int(x, k, y, e, global_size=n)
        d = x.astype(np.float64)
        mantissa_exponent = np.frexp(x)[1] - 1
    got = y.reshape(5, n)
    with np.errstate(all="ignore"):
        _check("pown", got[0], np.array([_pown(a, int(b)) for a, b in zip(d, k, strict=True)]), x, k)
        _check("rootn", got[1], np.array([_rootn(a, int(b)) for a, b in zip(d, k, strict=True)]), x, k)
        _check("ldexp", got[2], np.ldexp(x, np.fmod(k, 400)).astype(np.float64), x, k, limit=0)
        _check("sin", got[3], np.sin(d), x)
        _check("cos", got[4], np.cos(d), x)
    want = np.where(x == 0, -(2**31), np.where(np.isfinite(x), mantissa_exponent, 2**31 - 1))
    np.testing.assert_array_equal(e, want)


def test_vector_overloads_apply_the_scalar_functions():
    program = kernelkit.Program(_source()).build("visa:dg2")
    x = np.random.default_rng(34).uniform(-9, 9, (64, 4)).astype(np.float32)
    y = np.zeros_like(x)
    program.f_vector(x, y, global_size=64)
    d = x.astype(np.float64)
    want = np.arcsin(d * 0.1) + np.array([[REFERENCE["cospi"](v) for v in row] for row in d]) + np.cbrt(d) \
        + np.sqrt(np.abs(d))
    np.testing.assert_allclose(y, want, rtol=4e-6, atol=4e-6)


@pytest.mark.parametrize("platform", ["tgllp", "icllp"])
def test_genx_ir_finalizes_them(platform):
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    binary = compile_visa(_source(), platform)
    assert not [k.error for k in binary.kernels if k.error]
    finalize_binary(binary.isa(), platform.upper())
