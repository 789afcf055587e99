"""Integer functions (OpenCL C 3.0 s6.15.4) against Python integer arithmetic."""

from __future__ import annotations

import numpy as np
import pytest
from clc_harness import DTYPES, Jit, run, wrapper

from kernelkit.mux.clc.types import INT_TYPES, TYPES

N = 96  # divisible by 3 and 4
WIDTHS = (1, 3, 4, 16)


def _u(t: str) -> str:
    return t if t.startswith("u") else "u" + t


def _wrap(v: int, t: str) -> int:
    ty = TYPES[t]
    v &= (1 << ty.bits) - 1
    return v - (1 << ty.bits) if ty.signed and v > ty.max else v


def _clamp(v: int, t: str) -> int:
    return min(max(v, TYPES[t].min), TYPES[t].max)


def _rot(t: str, x: int, y: int) -> int:
    b = TYPES[t].bits
    ux, s = x & ((1 << b) - 1), y % b
    return _wrap((ux << s) | (ux >> (b - s)), t)


# name -> (arity, result type function, oracle); OpenCL C 3.0 s6.15.4 Table 15.
ORACLES = {
    "abs": (1, _u, lambda t, x: abs(x)),
    "abs_diff": (2, _u, lambda t, x, y: abs(x - y)),
    "add_sat": (2, None, lambda t, x, y: _clamp(x + y, t)),
    "sub_sat": (2, None, lambda t, x, y: _clamp(x - y, t)),
    "hadd": (2, None, lambda t, x, y: (x + y) >> 1),
    "rhadd": (2, None, lambda t, x, y: (x + y + 1) >> 1),
    "clz": (1, None, lambda t, x: TYPES[t].bits - (x & ((1 << TYPES[t].bits) - 1)).bit_length()),
    "ctz": (1, None, lambda t, x: TYPES[t].bits if x == 0 else (x & -x).bit_length() - 1),
    "popcount": (1, None, lambda t, x: bin(x & ((1 << TYPES[t].bits) - 1)).count("1")),
    "mul_hi": (2, None, lambda t, x, y: (x * y) >> TYPES[t].bits),
    "rotate": (2, None, _rot),
    "mad_hi": (3, None, lambda t, x, y, z: _wrap(((x * y) >> TYPES[t].bits) + z, t)),
    "mad_sat": (3, None, lambda t, x, y, z: _clamp(x * y + z, t)),
    "max": (2, None, lambda t, x, y: max(x, y)),
    "min": (2, None, lambda t, x, y: min(x, y)),
    "clamp": (3, None, lambda t, x, y, z: min(max(x, min(y, z)), max(y, z))),
}


def _values(t: str, salt: int = 0) -> np.ndarray:
    ty = TYPES[t]
    rng = np.random.default_rng(ty.bits * 7 + ty.signed + salt)
    edge = [ty.min, ty.max, 0, 1, ty.max - 1, ty.min + 1, 2, 3]
    if ty.signed:
        edge += [-1, -2]
    r = rng.integers(ty.min, ty.max, size=N - len(edge), dtype=DTYPES[t], endpoint=True)
    vals = np.concatenate([np.array(edge, dtype=DTYPES[t]), r])
    return rng.permutation(vals) if salt else vals


def _source() -> str:
    out = []
    for ty in INT_TYPES:
        t = ty.name
        for w in WIDTHS:
            for name, (arity, rt, _) in ORACLES.items():
                ret = rt(t) if rt else t
                # clamp requires lo <= hi: the wrapper orders them
                expr = ("clamp({0}, min({1}, {2}), max({1}, {2}))" if name == "clamp" else
                        f"{name}(" + ", ".join(f"{{{k}}}" for k in range(arity)) + ")")
                out.append(wrapper(f"{name}_{t}_{w}", expr, [t] * arity, ret, w))
            if t in ("int", "uint"):
                out.append(wrapper(f"mul24_{t}_{w}", "mul24({0}, {1})", [t, t], t, w))
                out.append(wrapper(f"mad24_{t}_{w}", "mad24({0}, {1}, {2})", [t, t, t], t, w))
            if ty.bits <= 32:
                wide = {8: "short", 16: "int", 32: "long"}[ty.bits]
                wide = wide if ty.signed else "u" + wide
                out.append(wrapper(f"upsample_{t}_{w}", "upsample({0}, {1})", [t, _u(t)], wide, w))
    return "\n".join(out)


@pytest.fixture(scope="module")
def jit() -> Jit:
    return Jit(_source())


@pytest.mark.parametrize("t", [ty.name for ty in INT_TYPES])
def test_integer_functions(jit: Jit, t: str) -> None:
    xs, ys, zs = _values(t), _values(t, 1), _values(t, 2)
    failures = []
    for name, (arity, rt, oracle) in ORACLES.items():
        args = [xs, ys, zs][:arity]
        ret = rt(t) if rt else t
        want = [oracle(t, *(int(a[i]) for a in args)) for i in range(N)]
        for w in WIDTHS:
            got = run(jit, f"{name}_{t}_{w}", args, ret)
            bad = [i for i in range(N) if int(got[i]) != want[i]]
            failures += [f"{name}{w}({', '.join(str(a[i]) for a in args)}) = {got[i]}, want {want[i]}" for i in bad[:3]]
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize("t", ["int", "uint"])
def test_mul24_mad24(jit: Jit, t: str) -> None:
    rng = np.random.default_rng(24)
    lo, hi = (-(1 << 23), (1 << 23) - 1) if t == "int" else (0, (1 << 24) - 1)
    xs, ys = (rng.integers(lo, hi, size=N, endpoint=True).astype(DTYPES[t]) for _ in range(2))
    zs = _values(t)
    for w in WIDTHS:
        got = run(jit, f"mul24_{t}_{w}", [xs, ys], t)
        assert [int(g) for g in got] == [_wrap(int(x) * int(y), t) for x, y in zip(xs, ys, strict=True)]
        got = run(jit, f"mad24_{t}_{w}", [xs, ys, zs], t)
        assert [int(g) for g in got] == [_wrap(int(x) * int(y) + int(z), t) for x, y, z in zip(xs, ys, zs, strict=True)]


@pytest.mark.parametrize("t", ["char", "uchar", "short", "ushort", "int", "uint"])
def test_upsample(jit: Jit, t: str) -> None:
    hi, lo = _values(t), _values(_u(t), 3)
    bits = TYPES[t].bits
    wide = {8: "short", 16: "int", 32: "long"}[bits]
    wide = wide if TYPES[t].signed else "u" + wide
    for w in WIDTHS:
        got = run(jit, f"upsample_{t}_{w}", [hi, lo], wide)
        assert [int(g) for g in got] == [_wrap((int(h) << bits) | int(x), wide) for h, x in zip(hi, lo, strict=True)]
