"""Math functions (OpenCL C 3.0 s6.15.2) within the spec's ULP limits (OpenCL C 3.0 s7.4,
full profile) of references from Python's math module (double precision).

Run twice: the host library (C library calls) and the portable implementations that AMDGPU
uses (KK_PORTABLE_MATH), both JIT-compiled for this CPU.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest
from clc_harness import DTYPES, Jit, ptr, run, wrapper

N = 256

# OpenCL C 3.0 s7.4 (ULP values for single and double precision built-in math functions);
# the same limits hold for both precisions for these functions.
ULP_LIMITS = {
    "acos": 4, "acosh": 4, "acospi": 5, "asin": 4, "asinh": 4, "asinpi": 5, "atan": 5, "atanh": 5, "atanpi": 5,
    "atan2": 6, "atan2pi": 6, "cbrt": 2, "cos": 4, "cosh": 4, "cospi": 4, "erfc": 16, "erf": 16, "exp": 3,
    "exp2": 3, "exp10": 3, "expm1": 3, "fdim": 0, "fmod": 0, "hypot": 4, "log": 3, "log2": 3, "log10": 3,
    "log1p": 2, "logb": 0, "maxmag": 0, "minmag": 0, "pow": 16, "pown": 16, "powr": 16, "remainder": 0,
    "rootn": 16, "rsqrt": 2, "sin": 4, "sinh": 4, "sinpi": 4, "tan": 5, "tanh": 5, "tanpi": 6, "tgamma": 16,
    "sqrt": 0, "ceil": 0, "floor": 0, "trunc": 0, "rint": 0, "round": 0, "fabs": 0, "copysign": 0,
}


def _sinpi(x: float) -> float:
    r = math.fmod(x, 2.0)  # exact
    n = round(2 * r)
    f = (r - n / 2) * math.pi  # |f| <= pi/4
    v = (math.sin(f), math.cos(f), -math.sin(f), -math.cos(f))[n % 4]
    return v


def _cospi(x: float) -> float:
    r = math.fmod(x, 2.0)
    n = round(2 * r)
    f = (r - n / 2) * math.pi
    return (math.cos(f), -math.sin(f), -math.cos(f), math.sin(f))[n % 4]


REFERENCE = {
    "acos": math.acos, "acosh": math.acosh, "acospi": lambda x: math.acos(x) / math.pi, "asin": math.asin,
    "asinh": math.asinh, "asinpi": lambda x: math.asin(x) / math.pi, "atan": math.atan, "atanh": math.atanh,
    "atanpi": lambda x: math.atan(x) / math.pi, "cbrt": math.cbrt, "cos": math.cos, "cosh": math.cosh,
    "cospi": _cospi, "erfc": math.erfc, "erf": math.erf, "exp": math.exp,
    "exp2": math.exp2, "exp10": lambda x: 10.0 ** x, "expm1": math.expm1, "log": math.log, "log2": math.log2,
    "log10": math.log10, "log1p": math.log1p, "sin": math.sin, "sinh": math.sinh,
    "sinpi": _sinpi, "tan": math.tan, "tanh": math.tanh,
    "tanpi": lambda x: _sinpi(x) / _cospi(x), "tgamma": math.gamma, "rsqrt": lambda x: 1 / math.sqrt(x),
    "logb": lambda x: float(math.frexp(x)[1] - 1), "sqrt": math.sqrt, "ceil": math.ceil, "floor": math.floor,
    "trunc": math.trunc, "rint": lambda x: float(np.rint(x)), "fabs": abs,
    "round": lambda x: float(math.copysign(math.floor(abs(x) + 0.5), x)),
    "atan2": math.atan2, "atan2pi": lambda y, x: math.atan2(y, x) / math.pi, "fdim": lambda x, y: max(x - y, 0.0),
    "fmod": math.fmod, "hypot": math.hypot, "pow": math.pow, "powr": math.pow, "remainder": math.remainder,
    "maxmag": lambda x, y: x if abs(x) > abs(y) else y if abs(y) > abs(x) else max(x, y),
    "minmag": lambda x, y: x if abs(x) < abs(y) else y if abs(y) < abs(x) else min(x, y),
    "copysign": math.copysign,
}
BINARY = ("atan2", "atan2pi", "fdim", "fmod", "hypot", "pow", "powr", "remainder", "maxmag", "minmag", "copysign")


def _domain(name: str, f: str, rng: np.random.Generator) -> list[np.ndarray]:
    d = f == "double"
    u = rng.uniform
    big = 10.0 ** u(-30, 30, N) if not d else 10.0 ** u(-300, 300, N)
    sym = np.concatenate([u(-10, 10, N // 2), u(-1, 1, N // 4) * 1e-3, u(-100, 100, N // 4)])
    table = {
        "acos": u(-1, 1, N), "asin": u(-1, 1, N), "acospi": u(-1, 1, N), "asinpi": u(-1, 1, N),
        "atanh": u(-0.999, 0.999, N), "acosh": 1 + 10.0 ** u(-6, 6, N), "asinh": sym * 10, "atan": sym * 10,
        "atanpi": sym, "cbrt": np.concatenate([big[: N // 2], -big[N // 2:]]), "erf": u(-6, 6, N),
        "erfc": u(-5, 9 if not d else 26, N), "exp": u(-80, 80, N) if not d else u(-700, 700, N),
        "exp2": u(-120, 120, N) if not d else u(-1000, 1000, N), "exp10": u(-35, 35, N) if not d else u(-300, 300, N),
        "expm1": np.concatenate([u(-5, 5, N // 2), u(-1e-3, 1e-3, N // 2)]),
        "log": big, "log2": big, "log10": big, "logb": big, "rsqrt": big, "sqrt": big,
        "log1p": np.concatenate([u(-0.999, 10, N // 2), u(-1e-4, 1e-4, N // 2)]),
        "sin": np.concatenate([sym, u(-1e4, 1e4, N // 2)]), "cos": np.concatenate([sym, u(-1e4, 1e4, N // 2)]),
        "tan": np.concatenate([sym, u(-1e4, 1e4, N // 2)]), "sinpi": np.round(sym * 8) / 8 + u(-0.1, 0.1, N),
        "cospi": np.round(sym * 8) / 8 + u(-0.1, 0.1, N), "tanpi": u(-100, 100, N),
        "sinh": u(-80, 80, N) if not d else u(-700, 700, N), "cosh": u(-80, 80, N) if not d else u(-700, 700, N),
        "tanh": u(-20, 20, N), "tgamma": u(0.01, 34, N) if not d else u(0.01, 170, N),
        "ceil": sym, "floor": sym, "trunc": sym, "rint": np.round(sym * 2) / 2, "round": np.round(sym * 2) / 2,
        "fabs": sym,
    }
    if name in table:
        x = table[name]
        if name in ("sin", "cos", "tan"):
            x = np.concatenate([x[: N * 3 // 4], (10.0 ** u(5, 30 if not d else 200, N // 4)) * rng.choice([-1, 1], N // 4)])
        return [x.astype(DTYPES[f])]
    x, y = sym * 10, np.concatenate([u(-10, 10, N // 2), u(-1000, 1000, N // 2)])
    if name in ("pow", "powr"):
        x = 10.0 ** u(-3, 3, N)
        y = u(-12, 12, N)
    if name == "fmod" or name == "remainder":
        x = np.concatenate([big[: N // 2] * rng.choice([-1, 1], N // 2), sym[: N // 2]])
        y = np.concatenate([sym[: N // 2] + 0.5, 10.0 ** u(-3, 3, N // 2)])
    return [x.astype(DTYPES[f]), y.astype(DTYPES[f])]


def _source() -> str:
    out = []
    for f in ("float", "double"):
        for w in (1, 4):
            for name in ULP_LIMITS:
                if name in REFERENCE:
                    args = [f, f] if name in BINARY else [f]
                    call = f"{name}(" + ", ".join(f"{{{k}}}" for k in range(len(args))) + ")"
                    out.append(wrapper(f"{name}_{f}_{w}", call, args, f, w))
            out.append(wrapper(f"pown_{f}_{w}", "pown({0}, {1})", [f, "int"], f, w))
            out.append(wrapper(f"rootn_{f}_{w}", "rootn({0}, {1})", [f, "int"], f, w))
            out.append(wrapper(f"ilogb_{f}_{w}", "ilogb({0})", [f], "int", w))
            out.append(wrapper(f"ldexp_{f}_{w}", "ldexp({0}, {1})", [f, "int"], f, w))
            code = "uint" if f == "float" else "ulong"
            out.append(wrapper(f"nan_{f}_{w}", "nan({0})", [code], f, w))
        for sp in ("__private", "__global", "__local", "__generic"):
            for name, ptype in (("fract", f), ("modf", f), ("sincos", f), ("frexp", "int"), ("lgamma_r", "int")):
                out.append(f"void {name}_{f}_{sp.strip('_')}(__global const {f} *x, __global {f} *r, {sp} {ptype} *p, int n) "
                           f"{{ for (int i = 0; i < n; i++) r[i] = {name}(x[i], p + i); }}")
            out.append(f"void remquo_{f}_{sp.strip('_')}(__global const {f} *x, __global const {f} *y, __global {f} *r, "
                       f"{sp} int *q, int n) {{ for (int i = 0; i < n; i++) r[i] = remquo(x[i], y[i], q + i); }}")
    for name in ("sin", "exp", "log", "sqrt", "pow"):
        args = ["half", "half"] if name == "pow" else ["half"]
        call = f"{name}(" + ", ".join(f"{{{k}}}" for k in range(len(args))) + ")"
        out.append(wrapper(f"{name}_half_1", call, args, "half", 1))
    for name in ("native_sin", "half_exp", "native_recip", "half_sqrt", "native_rsqrt"):
        out.append(wrapper(f"{name}_float_4", f"{name}({{0}})", ["float"], "float", 4))
    return "\n".join(out)


@pytest.fixture(scope="module", params=["libm", "portable"])
def jit(request) -> Jit:
    opts = ("-DKK_PORTABLE_MATH=1",) if request.param == "portable" else ()
    j = Jit(_source(), lib_opts=opts)
    j.variant = request.param
    return j


def _ulp_errors(got: np.ndarray, ref: list[float], f: str) -> np.ndarray:
    dt = np.dtype(DTYPES[f])
    errs = []
    for g, r in zip(got.tolist(), ref, strict=True):
        if math.isnan(r):
            errs.append(0.0 if math.isnan(g) else math.inf)
        elif math.isinf(r) or math.isinf(g):
            errs.append(0.0 if g == r else math.inf)
        else:
            ulp = float(np.spacing(dt.type(abs(r)))) if abs(r) < float(np.finfo(dt).max) else float(np.spacing(np.finfo(dt).max))
            errs.append(abs(g - r) / ulp)
    return np.array(errs)


@pytest.mark.parametrize("f", ["float", "double"])
def test_ulp_limits(jit: Jit, f: str) -> None:
    rng = np.random.default_rng(2026)
    report = []
    for name, limit in ULP_LIMITS.items():
        if name not in REFERENCE:
            continue
        args = _domain(name, f, rng)
        ref = []
        for vals in zip(*[a.tolist() for a in args], strict=True):
            try:
                ref.append(float(REFERENCE[name](*vals)))
            except (OverflowError, ValueError):
                ref.append(math.inf if name not in ("fmod", "remainder") else math.nan)
        # a limit of 0 means correctly rounded (<= 0.5 ulp from the exact value); double
        # references are themselves rounded: allow their half ULP for double functions
        slack = 0.5 + (0.5 if f == "double" and limit else 0.0)
        if name == "sqrt" and f == "float":
            limit = 3  # s7.4: 3 ulp for float sqrt (unless -cl-fp32-correctly-rounded-divide-sqrt)
        for w in (1, 4):
            got = run(jit, f"{name}_{f}_{w}", args, f)
            err = _ulp_errors(got, ref, f)
            worst = int(np.argmax(err))
            if err[worst] > limit + slack:
                report.append(f"{name}{w}({', '.join(str(a[worst]) for a in args)}) = {got[worst]!r}, "
                              f"ref {ref[worst]!r}: {err[worst]:.1f} ulp > {limit}")
    assert not report, f"{jit.variant}:\n" + "\n".join(report)


@pytest.mark.parametrize("f", ["float", "double"])
def test_integer_argument_functions(jit: Jit, f: str) -> None:
    rng = np.random.default_rng(7)
    dt = DTYPES[f]
    x = rng.uniform(-4, 4, N).astype(dt)
    k = rng.integers(-12, 12, N).astype(np.int32)
    for w in (1, 4):
        got = run(jit, f"pown_{f}_{w}", [x, k], f)
        ref = [float(xv) ** int(kv) if not (xv == 0 and kv < 0) else math.inf for xv, kv in zip(x, k, strict=True)]
        assert _ulp_errors(got, ref, f).max() <= 16.5
        ax = np.abs(x) + np.asarray(0.01, dtype=dt)
        kk = np.where(k == 0, 3, k).astype(np.int32)
        got = run(jit, f"rootn_{f}_{w}", [ax, kk], f)
        ref = [float(xv) ** (1.0 / int(kv)) for xv, kv in zip(ax, kk, strict=True)]
        assert _ulp_errors(got, ref, f).max() <= 16.5
        specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 3.0, 1e-40 if f == "double" else 1e-39], dtype=dt)
        got = run(jit, f"ilogb_{f}_{w}", [np.resize(specials, 8)], "int")
        assert got.tolist() == [-(2**31), -(2**31), 2**31 - 1, 2**31 - 1, 2**31 - 1, 0, 1,
                                math.frexp(float(specials[7]))[1] - 1]
        got = run(jit, f"ldexp_{f}_{w}", [x, k], f)
        assert np.array_equal(got, np.ldexp(x, k))


@pytest.mark.parametrize("f", ["float", "double"])
def test_pointer_functions(jit: Jit, f: str) -> None:
    dt = DTYPES[f]
    x = np.array([1.25, -1.25, 0.0, -0.0, 3.0, -7.5, 1e-3, np.inf, -np.inf, np.nan, 1e30, -2.5], dtype=dt)
    y = np.array([0.5, 0.75, 1.0, -1.0, 2.0, 2.0, 3.0, 1.0, 1.0, 1.0, 7.0, -1.5], dtype=dt)
    n = len(x)
    for sp in ("private", "global", "local", "generic"):
        r, p, q = np.zeros(n, dt), np.zeros(n, dt), np.zeros(n, np.int32)
        call = jit.fn(f"fract_{f}_{sp}", None, *[ctypes.c_void_p] * 3, ctypes.c_int)
        call(ptr(x), ptr(r), ptr(p), n)
        with np.errstate(invalid="ignore"):
            fl = np.floor(x)
            want = np.where(np.isinf(x), np.copysign(0, x), np.minimum(x - fl, np.nextafter(x.dtype.type(1), x.dtype.type(0))))
        assert np.array_equal(r, want, equal_nan=True) and np.array_equal(p, fl, equal_nan=True), sp
        jit.fn(f"modf_{f}_{sp}", None, *[ctypes.c_void_p] * 3, ctypes.c_int)(ptr(x), ptr(r), ptr(p), n)
        mf, mi = np.modf(x)
        assert np.array_equal(r, mf, equal_nan=True) and np.array_equal(p, mi, equal_nan=True), sp
        assert np.array_equal(np.signbit(r), np.signbit(mf)), sp
        jit.fn(f"frexp_{f}_{sp}", None, *[ctypes.c_void_p] * 3, ctypes.c_int)(ptr(x), ptr(r), ptr(q), n)
        fm, fe = np.frexp(x)
        finite = np.isfinite(x)
        assert np.array_equal(r, fm, equal_nan=True) and np.array_equal(q[finite], fe[finite]), sp
        jit.fn(f"sincos_{f}_{sp}", None, *[ctypes.c_void_p] * 3, ctypes.c_int)(ptr(x[:7]), ptr(r), ptr(p), 7)
        assert np.allclose(r[:7], np.sin(x[:7]), rtol=1e-6) and np.allclose(p[:7], np.cos(x[:7]), rtol=1e-6), sp
        g = np.where(y == -1.0, -0.25, y).astype(dt)
        jit.fn(f"lgamma_r_{f}_{sp}", None, *[ctypes.c_void_p] * 3, ctypes.c_int)(ptr(g), ptr(r), ptr(q), n)
        assert q.tolist() == [1 if math.gamma(float(v)) > 0 else -1 for v in g], sp
        assert np.allclose(r, [math.lgamma(float(v)) for v in g], rtol=1e-5, atol=1e-6), sp
        jit.fn(f"remquo_{f}_{sp}", None, *[ctypes.c_void_p] * 4, ctypes.c_int)(ptr(x), ptr(y), ptr(r), ptr(q), n)
        for i in range(n):
            xv, yv = float(x[i]), float(y[i])
            if not math.isfinite(xv):
                assert math.isnan(r[i]), (sp, xv)
                continue
            rem = math.remainder(xv, yv)
            assert r[i] == rem, (sp, xv, yv, r[i], rem)
            quot = round((xv - rem) / yv) if abs(xv) < 1e15 else None
            if quot is not None:
                # sign of x/y and (at least) the 3 low bits of the integral quotient (s6.15.2)
                assert (q[i] < 0) == (quot < 0) or quot == 0, (sp, xv, yv, q[i])
                assert abs(int(q[i])) % 8 == abs(quot) % 8, (sp, xv, yv, q[i], quot)


def test_special_values(jit: Jit) -> None:
    """powr's own special values, hypot(inf, NaN), nan() (OpenCL C 3.0 s6.15.2)."""
    inf, nan = math.inf, math.nan
    cases = [(0.0, 0.0, nan), (inf, 0.0, nan), (1.0, inf, nan), (-1.0, 2.0, nan), (0.0, -2.0, inf), (0.0, 3.0, 0.0),
             (inf, -1.0, 0.0), (inf, 2.0, inf), (1.0, 5.0, 1.0), (4.0, 0.5, 2.0), (2.0, nan, nan), (nan, 0.0, nan)]
    for f in ("float", "double"):
        x = np.array([c[0] for c in cases], dtype=DTYPES[f])
        y = np.array([c[1] for c in cases], dtype=DTYPES[f])
        for w in (1, 4):
            got = run(jit, f"powr_{f}_{w}", [x, y], f)
            assert np.array_equal(got, np.array([c[2] for c in cases], dtype=DTYPES[f]), equal_nan=True), (f, w, got)
            got = run(jit, f"hypot_{f}_{w}", [np.array([inf, nan, -inf, 3.0], DTYPES[f]),
                                              np.array([nan, -inf, 1.0, 4.0], DTYPES[f])], f)
            assert got.tolist() == [inf, inf, inf, 5.0], (f, w)
        codes = np.array([0, 1, 0x1234, 7], dtype=np.uint32 if f == "float" else np.uint64)
        got = run(jit, f"nan_{f}_4", [codes], f)
        quiet = np.uint32(0x7FC00000) if f == "float" else np.uint64(0x7FF8000000000000)
        assert np.isnan(got).all() and np.array_equal(got.view(codes.dtype), codes | quiet), f


def test_half_and_native(jit: Jit) -> None:
    x = np.linspace(0.1, 4, 64).astype(np.float16)
    for name, fn in (("sin", np.sin), ("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt)):
        got = run(jit, f"{name}_half_1", [x], "half")
        want = fn(x.astype(np.float64))
        # half math: within 2 ulp of the half result (OpenCL C 3.0 s7.4, half precision)
        assert (_ulp_errors(got, want.tolist(), "half") <= 2).all(), name
    got = run(jit, "pow_half_1", [x, x], "half")
    assert (_ulp_errors(got, (x.astype(np.float64) ** x.astype(np.float64)).tolist(), "half") <= 4).all()
    xf = np.linspace(0.1, 4, 64).astype(np.float32)
    for name, fn in (("native_sin", np.sin), ("half_exp", np.exp), ("native_recip", lambda v: 1 / v),
                     ("half_sqrt", np.sqrt), ("native_rsqrt", lambda v: 1 / np.sqrt(v))):
        got = run(jit, f"{name}_float_4", [xf], "float")
        # half_* must be within 8192 ulp; native_* is implementation-defined (we give full precision)
        assert (_ulp_errors(got, fn(xf.astype(np.float64)).tolist(), "float") <= 8192).all(), name


def test_two_over_pi_table() -> None:
    """The 2/pi bits of the portable sin/cos reduction, recomputed (Machin's formula)."""
    import re
    from pathlib import Path

    header = Path(__file__).resolve().parents[2] / "kernelkit/mux/clc/include/clc_math_portable.h"
    table = re.search(r"kk_two_over_pi_bits\[40\] = \{([^}]*)\}", header.read_text()).group(1)
    words = [int(w.strip().rstrip("u"), 16) for w in table.split(",")]

    def arctan_inv(x: int, bits: int) -> int:
        total = term = (1 << bits) // x
        n, sign = 1, -1
        while term:
            term //= x * x
            total += sign * (term // (2 * n + 1))
            sign, n = -sign, n + 1
        return total

    g = 1400
    pi = 16 * arctan_inv(5, g) - 4 * arctan_inv(239, g)
    bits = ((2 << (2 * g)) // pi) >> (g - 1280)
    assert words == [(bits >> (1280 - 32 * (i + 1))) & 0xFFFFFFFF for i in range(40)]
