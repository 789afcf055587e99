"""convert_<type><n>[_sat][_rnd] against exact oracles (OpenCL C 3.0 s6.4.3)."""

from __future__ import annotations

import ctypes
import math
from fractions import Fraction

import numpy as np
import pytest
from clc_harness import Jit, ptr
from fp_oracle import FORMATS, round_exact, round_to_integral

from kernelkit.mux.clc.gen_convert import ROUNDING_SUFFIXES
from kernelkit.mux.clc.types import FLOAT_TYPES, INT_TYPES, SCALAR_TYPES, TYPES

DTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
          "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "half": np.float16, "float": np.float32,
          "double": np.float64}
N = 96  # values per source type (a multiple of 3 and 16)


def _inputs(src: str) -> np.ndarray:
    rng = np.random.default_rng(sum(map(ord, src)))
    dt = DTYPES[src]
    if not TYPES[src].is_float:
        info = np.iinfo(dt)
        special = [info.min, info.max, 0, 1, info.max - 1, info.min + 1]
        if TYPES[src].signed:
            special += [-1, -2]
        for k in (7, 8, 15, 16, 24, 25, 31, 32, 53, 54, 63):
            for v in ((1 << k) - 1, 1 << k, (1 << k) + 1, -(1 << k) - 1, -(1 << k) + 1, (1 << k) + 3):
                if info.min <= v <= info.max:
                    special.append(v)
        randoms = rng.integers(info.min, info.max, size=N, dtype=dt, endpoint=True)
        values = np.concatenate([np.array(special, dtype=dt), randoms])
    else:
        ftype = dt
        special = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 127.5, 128.5, -128.5, 255.5, 65504.0,
                   65519.0, 65520.0, -65520.0, 70000.0, 2.0**31, -2.0**31, 2.0**31 - 128, 2.0**32,
                   2.0**63, -2.0**63, 2.0**64, 1e30, -1e30, math.inf, -math.inf, math.nan, 1e-30, 6e-8,
                   3e-8, 1.0000001, 2.0**-24, 2.0**-25 * 3]
        with np.errstate(over="ignore"):
            special_arr = np.array(special, dtype=np.float64).astype(ftype)
        nbits = np.dtype(ftype).itemsize * 8
        utype = {16: np.uint16, 32: np.uint32, 64: np.uint64}[nbits]
        bits = rng.integers(0, np.iinfo(utype).max, size=N // 2, dtype=utype, endpoint=True).view(ftype)
        moderate = (rng.uniform(-300, 300, size=N // 2)).astype(ftype)
        ties = (np.round(rng.uniform(-600, 600, size=N // 2)) / 2).astype(ftype)
        big = rng.uniform(-2.0**65, 2.0**65, size=N // 2).astype(ftype) if ftype != np.float16 else moderate
        values = np.concatenate([special_arr, bits, moderate, ties, big])
    pad = (-len(values)) % 48
    return np.concatenate([values, values[:pad]])


def _expected(dst: str, src: str, sat: bool, rnd: str, x) -> tuple[bool, object]:
    """(defined, value): defined is False where the spec leaves the result to the implementation."""
    d, s = TYPES[dst], TYPES[src]
    if not d.is_float:
        if not s.is_float:
            v = int(x)
            if sat:
                return True, min(max(v, d.min), d.max)
            v &= (1 << d.bits) - 1
            return True, v - (1 << d.bits) if d.signed and v > d.max else v
        xf = float(x)
        if math.isnan(xf):
            return sat, 0
        if math.isinf(xf):
            return sat, d.max if xf > 0 else d.min
        r = int(round_to_integral(xf, rnd[1:] if rnd else "rtz"))
        if d.min <= r <= d.max:
            return True, r
        return sat, min(max(r, d.min), d.max)
    mode = rnd[1:] if rnd else "rte"
    if not s.is_float:
        return True, round_exact(Fraction(int(x)), dst, mode)
    xf = float(x)
    if math.isnan(xf) or math.isinf(xf):
        return True, xf
    return True, round_exact(Fraction(xf), dst, mode)


def _variants(dst: str) -> list[tuple[bool, str]]:
    sats = (False,) if TYPES[dst].is_float else (False, True)
    return [(sat, rnd) for sat in sats for rnd in ROUNDING_SUFFIXES]


def _fname(kind: str, dst: str, src: str, sat: bool, rnd: str) -> str:
    return f"{kind}_{dst}_{src}{'_sat' if sat else ''}{rnd}"


def _wrappers() -> str:
    out = []
    for dst in SCALAR_TYPES:
        for src in SCALAR_TYPES:
            d, s = dst.name, src.name
            for sat, rnd in _variants(d):
                conv = f"convert_{d}{'_sat' if sat else ''}{rnd}"
                out.append(
                    f"void {_fname('s', d, s, sat, rnd)}(__global const {s} *in, __global {d} *out, int n) "
                    f"{{ for (int i = 0; i < n; i++) out[i] = {conv}(in[i]); }}")
                for w in (3, 16):
                    # vloadn/vstoren move the vectors (one call each: element-wise loads and stores at -O0 made
                    # the module's IR 3.4 times larger, and its retargeting, JIT and clang time with it)
                    conv_v = f"convert_{d}{w}{'_sat' if sat else ''}{rnd}"
                    out.append(
                        f"void {_fname(f'v{w}', d, s, sat, rnd)}(__global const {s} *in, __global {d} *out, int n) "
                        f"{{ for (int i = 0; i + {w} <= n; i += {w}) vstore{w}({conv_v}(vload{w}(0, in + i)), 0, out + i); }}")
    return "\n".join(out)


@pytest.fixture(scope="module")
def jit() -> Jit:
    return Jit(_wrappers(), opt=0)


def test_every_conversion_is_defined(jit: Jit) -> None:
    assert jit.missing == []


@pytest.mark.parametrize("dst", [t.name for t in SCALAR_TYPES])
def test_convert(jit: Jit, dst: str) -> None:
    failures = []
    for src in (t.name for t in SCALAR_TYPES):
        xs = _inputs(src)
        for sat, rnd in _variants(dst):
            want = [_expected(dst, src, sat, rnd, x) for x in xs]
            defined = np.array([w[0] for w in want])
            for kind in ("s", "v3", "v16"):
                out = np.zeros(len(xs), dtype=DTYPES[dst])
                fn = jit.fn(_fname(kind, dst, src, sat, rnd), None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
                fn(ptr(xs), ptr(out), len(xs))
                for i in np.nonzero(defined)[0]:
                    exp = want[i][1]
                    got = out[i]
                    if TYPES[dst].is_float:
                        ok = (math.isnan(exp) and np.isnan(got)) or float(got) == exp
                    else:
                        ok = int(got) == exp
                    if not ok:
                        failures.append(f"{kind} convert_{dst}{'_sat' if sat else ''}{rnd}({src} {xs[i]!r}) = {got!r}, want {exp!r}")
    assert not failures, f"{len(failures)} wrong, e.g.\n" + "\n".join(failures[:20])


def test_formats_cover_float_types() -> None:
    assert set(FORMATS) == {t.name for t in FLOAT_TYPES} and len(INT_TYPES) == 8
