"""select (MSB rule), bitselect, any/all, shuffle/shuffle2 (OpenCL C 3.0 s6.15.7, s6.15.13)
and vloadn/vstoren/vload_half/vstore_half in every address space (s6.15.10) vs numpy."""

from __future__ import annotations

import ctypes
from fractions import Fraction

import numpy as np
import pytest
from clc_harness import DTYPES, Jit, ptr, run, wrapper
from fp_oracle import round_exact

N = 64
MASK = {"char": "uchar", "uchar": "uchar", "int": "uint", "uint": "uint", "long": "ulong", "float": "uint",
        "double": "ulong", "short": "ushort", "half": "ushort"}
SIGNED = {"char": "char", "uchar": "char", "int": "int", "uint": "int", "long": "long", "ulong": "long",
          "float": "int", "double": "long", "short": "short", "half": "short"}
C = "0123456789abcdef"


def _source() -> str:
    out = []
    for t in ("char", "uchar", "int", "uint", "long", "float", "double"):
        for w in (1, 4, 3, 16):
            s = SIGNED[t]
            out.append(wrapper(f"select_{t}_{w}", "select({0}, {1}, {2})", [t, t, s], t, w))
            out.append(wrapper(f"selectu_{t}_{w}", "select({0}, {1}, {2})", [t, t, "u" + s], t, w))
            out.append(wrapper(f"bitselect_{t}_{w}", "bitselect({0}, {1}, {2})", [t, t, t], t, w))
    for t in ("char", "int", "long"):
        for w in (1, 2, 3, 4, 8, 16):
            out.append(wrapper(f"any_{t}_{w}", "(" + (t if w == 1 else f"{t}{w}") + ")any({0})", [t], t, w))
            out.append(wrapper(f"all_{t}_{w}", "(" + (t if w == 1 else f"{t}{w}") + ")all({0})", [t], t, w))
    for t in ("uchar", "int", "float", "double"):
        for n in (2, 4, 8, 16):
            for m in (2, 4, 8, 16):
                mt, vt, rt = f"{MASK[t]}{m}", f"{t}{n}", f"{t}{m}"
                loadx = ", ".join(f"x[{k}]" for k in range(n))
                loady = ", ".join(f"y[{k}]" for k in range(n))
                loadm = ", ".join(f"mk[{k}]" for k in range(m))
                store = " ".join(f"out[{k}] = r.s{C[k]};" for k in range(m))
                out.append(f"void shuffle_{t}_{n}_{m}(__global const {t} *x, __global const {MASK[t]} *mk, __global {t} *out) "
                           f"{{ {rt} r = shuffle(({vt})({loadx}), ({mt})({loadm})); {store} }}")
                out.append(f"void shuffle2_{t}_{n}_{m}(__global const {t} *x, __global const {t} *y, "
                           f"__global const {MASK[t]} *mk, __global {t} *out) "
                           f"{{ {rt} r = shuffle2(({vt})({loadx}), ({vt})({loady}), ({mt})({loadm})); {store} }}")
    # vload/vstore through every address space: copy global -> space -> global
    for t in ("char", "short", "int", "long", "float", "double", "half"):
        for n in (2, 3, 4, 8, 16):
            for sp in ("__global", "__local", "__private", "__generic", "__constant"):
                st = "__global" if sp == "__constant" else sp
                out.append(f"void vls_{t}_{n}_{sp.strip('_')}(const {sp} {t} *src, {st} {t} *dst, int k) "
                           f"{{ for (int i = 0; i < k; i++) vstore{n}(vload{n}(i, src), i, dst); }}")
            # pointers aligned to the element only (s6.15.10 requires no more)
            out.append(f"void vlsu_{t}_{n}(const __global {t} *src, __global {t} *dst, int k) "
                       f"{{ for (int i = 0; i < k; i++) vstore{n}(vload{n}(i, src + 1), i, dst + 1); }}")
    for n in (1, 2, 3, 4, 8, 16):
        w = "" if n == 1 else str(n)
        for sp in ("__global", "__private", "__generic", "__local"):
            for a in ("", "a") if n > 1 else ("",):
                out.append(f"void vlh{a}_{n}_{sp.strip('_')}(const {sp} half *src, __global float *dst, int k) "
                           f"{{ for (int i = 0; i < k; i++) vstore{w}(vload{a}_half{w}(i, src), i, dst); }}"
                           if n > 1 else
                           f"void vlh_{n}_{sp.strip('_')}(const {sp} half *src, __global float *dst, int k) "
                           f"{{ for (int i = 0; i < k; i++) dst[i] = vload_half(i, src); }}")
                for rnd in ("", "_rte", "_rtz", "_rtp", "_rtn"):
                    for src in ("float", "double"):
                        out.append(f"void vsh{a}_{n}_{sp.strip('_')}{rnd}_{src}(__global const {src} *v, {sp} half *dst, int k) "
                                   f"{{ for (int i = 0; i < k; i++) vstore{a}_half{w}{rnd}("
                                   + (f"vload{w}(i, v)" if n > 1 else "v[i]") + ", i, dst); }")
    return "\n".join(out)


@pytest.fixture(scope="module")
def jit() -> Jit:
    return Jit(_source())


def _rand(t: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dt = np.dtype(DTYPES[t])
    if dt.kind == "f":
        return rng.uniform(-100, 100, n).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)


@pytest.mark.parametrize("t", ["char", "uchar", "int", "uint", "long", "float", "double"])
def test_select_bitselect(jit: Jit, t: str) -> None:
    a, b = _rand(t, 48, 1), _rand(t, 48, 2)
    c = _rand(SIGNED[t], 48, 3)
    c[:6] = [0, 1, -1, 2, np.iinfo(c.dtype).min, np.iinfo(c.dtype).max]
    for w in (1, 4, 3, 16):
        # scalar: c != 0 picks b; vector: the MSB of c picks b
        want = np.where(c != 0, b, a) if w == 1 else np.where(c < 0, b, a)
        got = run(jit, f"select_{t}_{w}", [a, b, c], t)
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), w
        got = run(jit, f"selectu_{t}_{w}", [a, b, c.view("u" + c.dtype.name)], t)
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), w
        cb = _rand(t, 48, 4)
        ui = {1: np.uint8, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
        want = ((a.view(ui) & ~cb.view(ui)) | (b.view(ui) & cb.view(ui))).view(a.dtype)
        got = run(jit, f"bitselect_{t}_{w}", [a, b, cb], t)
        assert np.array_equal(got.view(ui), want.view(ui)), w


@pytest.mark.parametrize("t", ["char", "int", "long"])
def test_any_all(jit: Jit, t: str) -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(-3, 3, size=48).astype(DTYPES[t])
    x[16:32] = -1
    for w in (1, 2, 3, 4, 8, 16):
        groups = x[: (48 // w) * w].reshape(-1, w)
        got_any = run(jit, f"any_{t}_{w}", [x], t)[: (48 // w) * w].reshape(-1, w)[:, 0]
        got_all = run(jit, f"all_{t}_{w}", [x], t)[: (48 // w) * w].reshape(-1, w)[:, 0]
        assert np.array_equal(got_any, (groups < 0).any(axis=1).astype(int)), w
        assert np.array_equal(got_all, (groups < 0).all(axis=1).astype(int)), w


@pytest.mark.parametrize("t", ["uchar", "int", "float", "double"])
def test_shuffle(jit: Jit, t: str) -> None:
    rng = np.random.default_rng(5)
    for n in (2, 4, 8, 16):
        x, y = _rand(t, n, 6), _rand(t, n, 7)
        for m in (2, 4, 8, 16):
            # only the low log2(n) (shuffle) / log2(2n) (shuffle2) bits of each mask element count
            mt = np.dtype(DTYPES[MASK[t]])
            mk = rng.integers(0, np.iinfo(mt).max, size=m, dtype=mt, endpoint=True)
            out = np.zeros(m, dtype=DTYPES[t])
            jit.fn(f"shuffle_{t}_{n}_{m}", None, *[ctypes.c_void_p] * 3)(ptr(x), ptr(mk), ptr(out))
            assert np.array_equal(out, x[mk % n]), (n, m)
            jit.fn(f"shuffle2_{t}_{n}_{m}", None, *[ctypes.c_void_p] * 4)(ptr(x), ptr(y), ptr(mk), ptr(out))
            assert np.array_equal(out, np.concatenate([x, y])[mk % (2 * n)]), (n, m)


@pytest.mark.parametrize("t", ["char", "short", "int", "long", "float", "double", "half"])
def test_vload_vstore(jit: Jit, t: str) -> None:
    for n in (2, 3, 4, 8, 16):
        src = _rand(t, 5 * n, n)
        for sp in ("global", "local", "private", "generic", "constant"):
            dst = np.zeros(5 * n, dtype=DTYPES[t])
            jit.fn(f"vls_{t}_{n}_{sp}", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(ptr(src), ptr(dst), 5)
            assert np.array_equal(dst.view(np.uint8), src.view(np.uint8)), (n, sp)
        dst = np.zeros(5 * n + 1, dtype=DTYPES[t])
        src1 = np.concatenate([src[:1], src])
        jit.fn(f"vlsu_{t}_{n}", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(ptr(src1), ptr(dst), 5)
        assert np.array_equal(dst[1:].view(np.uint8), src.view(np.uint8)) and dst[0] == 0, n


def test_vload_half(jit: Jit) -> None:
    bits = np.arange(0, 1 << 16, 7, dtype=np.uint16)[:4800]
    h = bits.view(np.float16)
    want = h.astype(np.float32)
    for n in (1, 2, 3, 4, 8, 16):
        for sp in ("global", "private", "generic", "local"):
            for a in ("", "a") if n > 1 else ("",):
                k = len(h) // (4 if (a and n == 3) else n)
                dst = np.zeros(k * n, dtype=np.float32)
                jit.fn(f"vlh{a}_{n}_{sp}", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(ptr(h), ptr(dst), k)
                if a and n == 3:  # vloada_half3 reads from 4-aligned slots
                    exp = want.reshape(-1, 4)[:k, :3].ravel()
                else:
                    exp = want[: k * n]
                assert np.array_equal(dst, exp, equal_nan=True), (n, sp, a)


def test_vstore_half_rounding(jit: Jit) -> None:
    rng = np.random.default_rng(3)
    v = np.concatenate([np.array([0.0, -0.0, 1.0, 65504.0, 65519.0, 65520.0, 1e6, -1e6, 6e-8, 2.9e-8, 3e-8,
                                  1 + 2**-11, 1 + 3 * 2**-11, np.inf, -np.inf]),
                        rng.uniform(-70000, 70000, 33), rng.uniform(-1, 1, 48) * 2.0**-14])
    v = v[:96]
    for src in ("float", "double"):
        vals = v.astype(DTYPES[src])
        for rnd in ("", "_rte", "_rtz", "_rtp", "_rtn"):
            mode = rnd[1:] or "rte"
            want = np.array([round_exact(Fraction(float(x)), "half", mode) if np.isfinite(x) and x != 0 else x
                             for x in vals], dtype=np.float16)
            for n in (1, 2, 3, 4, 8, 16):
                for sp in ("global", "private", "generic", "local"):
                    for a in ("", "a") if n > 1 else ("",):
                        k = len(vals) // 4 if n == 3 else len(vals) // n
                        dst = np.zeros(len(vals), dtype=np.float16)
                        jit.fn(f"vsh{a}_{n}_{sp}{rnd}_{src}", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(
                            ptr(vals), ptr(dst), k)
                        if a and n == 3:
                            got = dst.reshape(-1, 4)[:k, :3].ravel()
                        else:
                            got = dst[: k * n]
                        assert np.array_equal(got.view(np.uint16), want[: k * n].view(np.uint16)), (src, rnd, n, sp, a)
