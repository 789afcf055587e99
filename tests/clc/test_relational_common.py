"""Relational, select/bitselect, shuffle (OpenCL C 3.0 s6.15.7, s6.15.13), common (s6.15.5)
and geometric (s6.15.6) functions against numpy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from clc_harness import DTYPES, Jit, run, wrapper

N = 96
FLOATS = ("float", "double")
SIGNED = {"half": "short", "float": "int", "double": "long"}
CMP = {"isequal": np.equal, "isnotequal": np.not_equal, "isgreater": np.greater, "isgreaterequal": np.greater_equal,
       "isless": np.less, "islessequal": np.less_equal,
       "islessgreater": lambda x, y: np.less(x, y) | np.greater(x, y),
       "isordered": lambda x, y: ~(np.isnan(x) | np.isnan(y)), "isunordered": lambda x, y: np.isnan(x) | np.isnan(y)}
CLASSIFY = {"isfinite": np.isfinite, "isinf": np.isinf, "isnan": np.isnan, "signbit": np.signbit,
            "isnormal": lambda x: np.isfinite(x) & (np.abs(x) >= np.finfo(x.dtype).tiny)}


def _floats(f: str, salt: int = 0) -> np.ndarray:
    dt = np.dtype(DTYPES[f])
    rng = np.random.default_rng(salt + dt.itemsize)
    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, np.finfo(dt).tiny, np.finfo(dt).tiny / 4,
                        np.finfo(dt).max, 2.5, -2.5], dtype=dt)
    rest = rng.uniform(-10, 10, size=N - len(special)).astype(dt)
    rest[::7] = np.round(rest[::7])
    v = np.concatenate([special, rest])
    return rng.permutation(v) if salt else v


def _source() -> str:
    out = []
    for f in ("half", *FLOATS):
        for w in (1, 4, 3):
            r = "int" if w == 1 else SIGNED[f]
            for name in CMP:
                out.append(wrapper(f"{name}_{f}_{w}", f"{name}({{0}}, {{1}})", [f, f], r, w))
            for name in CLASSIFY:
                out.append(wrapper(f"{name}_{f}_{w}", f"{name}({{0}})", [f], r, w))
    for f in FLOATS:
        for w in (1, 4, 3, 16):
            args2, args3 = [f, f], [f, f, f]
            for name in ("max", "min", "step", "fmax", "fmin"):
                out.append(wrapper(f"{name}_{f}_{w}", f"{name}({{0}}, {{1}})", args2, f, w))
            for name in ("degrees", "radians", "sign"):
                out.append(wrapper(f"{name}_{f}_{w}", f"{name}({{0}})", [f], f, w))
            for name in ("clamp", "mix", "smoothstep"):
                out.append(wrapper(f"{name}_{f}_{w}", f"{name}({{0}}, {{1}}, {{2}})", args3, f, w))
            if w > 1:
                out.append(wrapper(f"clamps_{f}_{w}", "clamp({0}, (" + f + ")-1, (" + f + ")2)", [f], f, w))
        for w in (1, 2, 3, 4):
            out.append(wrapper(f"length_{f}_{w}", "(" + f + ")length({0})", [f], f, w).replace(
                f"{f} r = (", f"{f} r = (", 1))
    for f in ("float", "double", "half"):
        for w in (1, 2, 3, 4):
            V = f if w == 1 else f"{f}{w}"
            def loads(a: str, V: str = V, w: int = w) -> str:
                return f"({V})(" + ", ".join(f"{a}[{w} * i + {k}]" for k in range(w)) + ")"
            store = (f"n[{w} * i] = r;" if w == 1 else
                     " ".join(f"n[{w} * i + {k}] = r.s{k};" for k in range(w)))
            out.append(f"void geo_{f}_{w}(__global const {f} *x, __global const {f} *y, __global {f} *d, "
                       f"__global {f} *dist, __global {f} *n, __global {f} *c, int m) {{ for (int i = 0; i < m; i++) {{ "
                       f"{V} a = {loads('x')}, b = {loads('y')}; d[i] = dot(a, b); dist[i] = distance(a, b); "
                       f"{V} r = normalize(a); {store} "
                       + (f"{V} cr = cross(a, b); " + " ".join(f"c[{w} * i + {k}] = cr.s{k};" for k in range(w))
                          if w in (3, 4) else "")
                       + " } }")
            if f == "float":
                out.append(f"void fast_{w}(__global const float *x, __global const float *y, __global float *l, "
                           f"__global float *dist, __global float *n, int m) {{ for (int i = 0; i < m; i++) {{ "
                           f"{V} a = {loads('x')}, b = {loads('y')}; l[i] = fast_length(a); "
                           f"dist[i] = fast_distance(a, b); {V} r = fast_normalize(a); {store} }} }}")
    return "\n".join(out)


@pytest.fixture(scope="module")
def jit() -> Jit:
    return Jit(_source())


@pytest.mark.parametrize("f", ["half", *FLOATS])
def test_relational(jit: Jit, f: str) -> None:
    x, y = _floats(f), _floats(f, 5)
    y[:10] = x[:10]
    for w in (1, 4, 3):
        true = 1 if w == 1 else -1
        r = "int" if w == 1 else SIGNED[f]
        for name, fn in CMP.items():
            got = run(jit, f"{name}_{f}_{w}", [x, y], r)
            with np.errstate(invalid="ignore"):
                want = np.where(fn(x, y), true, 0)
            assert np.array_equal(got, want), (name, w, x[got != want], y[got != want])
        for name, fn in CLASSIFY.items():
            got = run(jit, f"{name}_{f}_{w}", [x], r)
            want = np.where(fn(x), true, 0)
            assert np.array_equal(got, want), (name, w, x[got != want])


@pytest.mark.parametrize("f", FLOATS)
def test_common(jit: Jit, f: str) -> None:
    x, y, z = _floats(f), _floats(f, 1), _floats(f, 2)
    finite = np.isfinite(x) & np.isfinite(y) & np.isfinite(z)
    with np.errstate(all="ignore"):
        t = np.clip((z - x) / (y - x), 0, 1)
        wants = {
            "max": np.fmax(x, y), "min": np.fmin(x, y), "fmax": np.fmax(x, y), "fmin": np.fmin(x, y),
            "step": np.where(y < x, 0.0, 1.0).astype(x.dtype),
            "degrees": x * (180 / math.pi), "radians": x * (math.pi / 180),
            "sign": np.where(np.isnan(x), 0, np.where(x > 0, 1, np.where(x < 0, -1, x))).astype(x.dtype),
            "clamp": np.fmin(np.fmax(x, y), z), "mix": x + (y - x) * z,
            "smoothstep": t * t * (3 - 2 * t),
        }
    for w in (1, 4, 3, 16):
        for name, want in wants.items():
            args = [x] if name in ("degrees", "radians", "sign") else [x, y] if name in (
                "max", "min", "fmax", "fmin", "step") else [x, y, z]
            got = run(jit, f"{name}_{f}_{w}", args, f)
            ok = np.isclose(got, want, rtol=4 * np.finfo(x.dtype).eps, atol=0, equal_nan=True)
            if name in ("mix", "smoothstep", "clamp"):
                ok |= ~finite  # undefined for infinities/NaN or lo > hi (s6.15.5)
                if name == "clamp":
                    ok |= y > z
                if name == "smoothstep":
                    ok |= x >= y
            if name in ("max", "min"):
                ok |= np.isnan(x) | np.isnan(y)
            assert ok.all(), (name, w, x[~ok], y[~ok], got[~ok], want[~ok])
        if w > 1:
            got = run(jit, f"clamps_{f}_{w}", [x], f)
            assert np.array_equal(got, np.fmin(np.fmax(x, -1), 2)), w


@pytest.mark.parametrize("f", FLOATS)
def test_length_without_overflow(jit: Jit, f: str) -> None:
    big = np.finfo(DTYPES[f]).max / 2
    tiny = np.finfo(DTYPES[f]).tiny * 8
    for w in (1, 2, 3, 4):
        rows = [[3.0, 4.0, 12.0, 84.0], [big, big, 0.0, big], [tiny, tiny, tiny, tiny], [0.0] * 4, [-1.0, 2.0, -2.0, 4.0]]
        data = np.array([r[:w] for r in rows], dtype=DTYPES[f]).ravel()
        got = run(jit, f"length_{f}_{w}", [data], f)[::w]
        want = [math.hypot(*(float(v) for v in data[i * w:(i + 1) * w])) for i in range(len(rows))]
        assert np.allclose(got, np.array(want, dtype=np.float64).astype(DTYPES[f]), rtol=4e-7 if f == "float" else 1e-15)


@pytest.mark.parametrize("f", ["float", "double", "half"])
def test_geometric(jit: Jit, f: str) -> None:
    import ctypes

    from clc_harness import ptr

    rng = np.random.default_rng(11)
    dt = np.dtype(DTYPES[f])
    tol = {"float": 1e-5, "double": 1e-13, "half": 4e-3}[f]
    m = 16
    for w in (1, 2, 3, 4):
        x = rng.uniform(-4, 4, (m, w)).astype(dt)
        y = rng.uniform(-4, 4, (m, w)).astype(dt)
        x[0] = 0  # normalize(0) returns 0
        d, dist, c = np.zeros(m, dt), np.zeros(m, dt), np.zeros((m, w), dt)
        n = np.zeros((m, w), dt)
        jit.fn(f"geo_{f}_{w}", None, *[ctypes.c_void_p] * 6, ctypes.c_int)(
            ptr(x), ptr(y), ptr(d), ptr(dist), ptr(n), ptr(c), m)
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        assert np.allclose(d, (x64 * y64).sum(axis=1), rtol=tol, atol=tol * 8), w
        assert np.allclose(dist, np.linalg.norm(x64 - y64, axis=1), rtol=tol), w
        norms = np.linalg.norm(x64, axis=1, keepdims=True)
        want = np.divide(x64, norms, out=np.zeros_like(x64), where=norms > 0)
        assert np.allclose(n, want, rtol=tol, atol=tol), w
        if w in (3, 4):
            cr = np.cross(x64[:, :3], y64[:, :3])
            assert np.allclose(c[:, :3], cr, rtol=tol, atol=tol * 16), w
            if w == 4:
                assert (c[:, 3] == 0).all()
        if f == "float":
            ln, dist2, n2 = np.zeros(m, dt), np.zeros(m, dt), np.zeros((m, w), dt)
            jit.fn(f"fast_{w}", None, *[ctypes.c_void_p] * 5, ctypes.c_int)(ptr(x), ptr(y), ptr(ln), ptr(dist2), ptr(n2), m)
            # fast_*: half_sqrt precision (8192 ulp) is allowed; ours are float sqrt
            assert np.allclose(ln, norms[:, 0], rtol=1e-5) and np.allclose(dist2, np.linalg.norm(x64 - y64, axis=1), rtol=1e-5)
            assert np.allclose(n2, want, rtol=1e-5, atol=1e-6), w


def test_normalize_infinities(jit: Jit) -> None:
    """s6.15.6: infinite elements become +-1, the others 0, then the vector is normalized."""
    import ctypes

    from clc_harness import ptr

    x = np.array([[np.inf, 2.0, -np.inf, 1.0]], dtype=np.float32)
    z = np.zeros((1, 4), np.float32)
    n, d, dist, c = np.zeros((1, 4), np.float32), np.zeros(1, np.float32), np.zeros(1, np.float32), np.zeros((1, 4), np.float32)
    jit.fn("geo_float_4", None, *[ctypes.c_void_p] * 6, ctypes.c_int)(ptr(x), ptr(z), ptr(d), ptr(dist), ptr(n), ptr(c), 1)
    s = 1 / np.sqrt(2)
    assert np.allclose(n[0], [s, 0, -s, 0])
