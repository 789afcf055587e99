"""More float builtins the vISA target computes in float only (kernelkit/targets/visa/float_arc.cl,
float_pi.cl, float_powers.cl, float_erf.cl, float_gamma.cl: asin, acos, asinpi, acospi, atanpi,
atan2pi, asinh, acosh, atanh, sinpi, cospi, tanpi, sincos, cbrt, pown, powr, rootn, ldexp, ilogb, erf,
erfc, tgamma, lgamma, lgamma_r), run on the vISA simulator on
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
from tests.visa.float_ulps import ulps  # noqa: E402

UNARY = ("asin", "acos", "asinpi", "acospi", "atanpi", "asinh", "acosh", "atanh", "sinpi", "cospi", "tanpi", "cbrt",
         "erf", "erfc", "tgamma")
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
    out.append("kernel void gammas(global const float *x, global float *y, global int *s) { "
               "size_t i = get_global_id(0), n = get_global_size(0); int sign; "
               "y[i] = lgamma(x[i]); y[n + i] = lgamma_r(x[i], &sign); s[i] = sign; }")
    out.append("kernel void library_forms(global const float4 *x, global float4 *y) { size_t i = get_global_id(0), "
               "n = get_global_size(0); float4 w, c; int4 e; y[i] = fract(x[i], &w); y[n + i] = w; "
               "y[2 * n + i] = sincos(x[i], &c); y[3 * n + i] = c; y[4 * n + i] = frexp(x[i], &e) + convert_float4(e); "
               "y[5 * n + i] = native_tan(x[i]) + (float)sin((half)x[i].x); }")
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
        if name == "tgamma" and v == 0:          # OpenCL C s7.5: tgamma(+-0) = +-inf
            return math.copysign(math.inf, v)
        try:
            return f(v)
        except OverflowError:                    # tgamma of large x
            return math.inf
        except ValueError:                       # outside the domain (asin(2), acosh(0), sinpi(inf) ...)
            return math.nan if not (name == "atanh" and abs(v) == 1) else math.copysign(math.inf, v)

    return np.array([one(v) for v in x.astype(np.float64)])


def _check(name: str, got: np.ndarray, want: np.ndarray, *args: np.ndarray, limit: float | None = None) -> None:
    err = ulps(got, want)
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


def test_lgamma_and_its_sign(program):
    """lgamma has no ulp limit in OpenCL C s7.4: within 2e-6 relative (absolute below 1) of
    Python's; lgamma_r's sign is the sign of gamma(x)."""
    x = _inputs(np.random.default_rng(35))
    x = x[np.isfinite(x) & ((x > 0) | (x != np.round(x)))]           # (poles: +inf)
    n = len(x)
    y = np.zeros(2 * n, np.float32)
    s = np.zeros(n, np.int32)
    program.gammas(x, y, s, global_size=n)
    want = np.array([math.lgamma(v) if abs(v) < 1e36 else math.inf for v in x.astype(np.float64)])
    finite = np.isfinite(want)
    for row in y.reshape(2, n):
        assert (row[~finite] == np.inf).all()
        err = np.abs(row[finite] - want[finite]) / np.maximum(1.0, np.abs(want[finite]))
        worst = int(np.argmax(err))
        assert err[worst] <= 2e-6, f"lgamma({x[finite][worst]!r}) = {row[finite][worst]!r}, want {want[finite][worst]!r}"
    small = np.abs(x) < 30                                           # (gamma over/underflows beyond)
    np.testing.assert_array_equal(s[small], np.sign([math.gamma(v) for v in x[small].astype(np.float64)]))


def test_library_forms_that_call_the_float_builtins(program):
    """The builtin library's vector forms of fract/sincos/frexp, native_tan and sin(half) call the
    scalar float builtins (linked from the float library after the builtin library)."""
    x = np.random.default_rng(36).uniform(-9, 9, (32, 4)).astype(np.float32)
    y = np.zeros((6, 32, 4), np.float32)
    program.library_forms(x, y, global_size=32)
    d = x.astype(np.float64)
    mantissa, exponent = np.frexp(x)
    np.testing.assert_array_equal(y[0], x - np.floor(x))
    np.testing.assert_array_equal(y[1], np.floor(x))
    np.testing.assert_allclose(y[2:4], [np.sin(d), np.cos(d)], rtol=0, atol=2e-7 * 4)
    np.testing.assert_array_equal(y[4], mantissa + exponent.astype(np.float32))
    half_sin = np.sin(x[:, :1].astype(np.float16).astype(np.float64)).astype(np.float16)
    np.testing.assert_allclose(y[5], np.tan(d) + half_sin, rtol=1e-5, atol=2e-3)


def test_vector_overloads_apply_the_scalar_functions():
    vector = next(k for k in _source().split("\n") if k.startswith("kernel void f_vector("))
    program = kernelkit.Program(vector).build("visa:dg2")
    x = np.random.default_rng(34).uniform(-9, 9, (64, 4)).astype(np.float32)
    y = np.zeros_like(x)
    program.f_vector(x, y, global_size=64)
    d = x.astype(np.float64)
    want = np.arcsin(d * 0.1) + np.array([[REFERENCE["cospi"](v) for v in row] for row in d]) + np.cbrt(d) \
        + np.sqrt(np.abs(d))
    np.testing.assert_allclose(y, want, rtol=4e-6, atol=4e-6)


def test_genx_ir_finalizes_them(program):
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    finalize_binary(program.binary, "TGLLP")
    binary = compile_visa(_source(), "icllp")
    assert not [k.error for k in binary.kernels if k.error]
    finalize_binary(binary.isa(), "ICLLP")
