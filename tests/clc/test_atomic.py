"""Atomic functions (OpenCL C 3.0 s6.15.12): results of each operation, and atomicity when
several threads hammer the same location (ctypes releases the GIL during calls)."""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest
from clc_harness import Jit, ptr

OPS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "xchg": lambda a, b: b, "min": min, "max": max,
       "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b}
TYPES = {"int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}


def _source() -> str:
    out = []
    for sp in ("__global", "__local"):
        s = sp.strip("_")
        for t in TYPES:
            prefixes = ("atomic", "atom") if t in ("int", "uint") else ("atom",)
            for pre in prefixes:
                for op in OPS:
                    out.append(f"{t} {pre}_{op}_{t}_{s}(volatile {sp} {t} *p, {t} v) {{ return {pre}_{op}(p, v); }}")
                out.append(f"{t} {pre}_inc_{t}_{s}(volatile {sp} {t} *p) {{ return {pre}_inc(p); }}")
                out.append(f"{t} {pre}_dec_{t}_{s}(volatile {sp} {t} *p) {{ return {pre}_dec(p); }}")
                out.append(f"{t} {pre}_cmpxchg_{t}_{s}(volatile {sp} {t} *p, {t} c, {t} v) {{ return {pre}_cmpxchg(p, c, v); }}")
                out.append(f"void {pre}_loop_{t}_{s}(volatile {sp} {t} *p, int n) {{ for (int i = 0; i < n; i++) {pre}_inc(p); }}")
        out.append(f"float xchgf_{s}(volatile {sp} float *p, float v) {{ return atomic_xchg(p, v); }}")
    for sp in ("__global", "__generic", "__local"):
        s = sp.strip("_")
        for a, t in (("atomic_int", "int"), ("atomic_long", "long"), ("atomic_uint", "uint")):
            P = f"volatile {sp} {a} *p"
            out.append(f"{t} c11_fetch_add_{t}_{s}({P}, {t} v) {{ return atomic_fetch_add_explicit(p, v, "
                       f"memory_order_relaxed, memory_scope_device); }}")
            out.append(f"{t} c11_fetch_min_{t}_{s}({P}, {t} v) {{ return atomic_fetch_min(p, v); }}")
            out.append(f"{t} c11_exchange_{t}_{s}({P}, {t} v) {{ return atomic_exchange_explicit(p, v, memory_order_acq_rel); }}")
            out.append(f"{t} c11_load_{t}_{s}({P}) {{ return atomic_load_explicit(p, memory_order_acquire, memory_scope_work_group); }}")
            out.append(f"void c11_store_{t}_{s}({P}, {t} v) {{ atomic_store_explicit(p, v, memory_order_release); }}")
            out.append(f"int c11_cas_{t}_{s}({P}, __global {t} *e, {t} d) {{ {t} x = *e; "
                       f"bool ok = atomic_compare_exchange_strong_explicit(p, &x, d, memory_order_seq_cst, "
                       f"memory_order_relaxed, memory_scope_device); *e = x; return ok; }}")
            out.append(f"void c11_loop_{t}_{s}({P}, int n) {{ for (int i = 0; i < n; i++) "
                       f"atomic_fetch_add_explicit(p, ({t})1, memory_order_relaxed, memory_scope_device); }}")
        out.append(f"float c11_fadd_{s}(volatile {sp} atomic_float *p, float v) {{ return atomic_fetch_add(p, v); }}")
        out.append(f"void c11_floop_{s}(volatile {sp} atomic_float *p, int n) {{ for (int i = 0; i < n; i++) atomic_fetch_add(p, 1.0f); }}")
        out.append(f"int flag_{s}(volatile {sp} atomic_flag *p) {{ return atomic_flag_test_and_set(p); }}")
        out.append(f"void flag_clear_{s}(volatile {sp} atomic_flag *p) {{ atomic_flag_clear(p); }}")
    return "\n".join(out)


@pytest.fixture(scope="module")
def jit() -> Jit:
    return Jit(_source(), std="CL3.0")


def _call(jit: Jit, name: str, ct, *args):
    return jit.fn(name, ct, *[type(a) if not isinstance(a, ctypes.c_void_p) else ctypes.c_void_p for a in args])(*args)


@pytest.mark.parametrize("t", list(TYPES))
@pytest.mark.parametrize("sp", ["global", "local"])
def test_legacy_atomics(jit: Jit, t: str, sp: str) -> None:
    dt = TYPES[t]
    ct = np.ctypeslib.as_ctypes_type(dt)
    rng = np.random.default_rng(1)
    prefixes = ("atomic", "atom") if t in ("int", "uint") else ("atom",)
    info = np.iinfo(dt)
    for pre in prefixes:
        for op, fn in OPS.items():
            for _ in range(8):
                a, b = (int(x) for x in rng.integers(info.min // 2, info.max // 2, 2, dtype=dt))
                cell = np.array([a], dtype=dt)
                old = _call(jit, f"{pre}_{op}_{t}_{sp}", ct, ptr(cell), ct(b))
                bits = 8 * cell.itemsize
                want = fn(a, b) & ((1 << bits) - 1)
                if info.min < 0 and want > info.max:
                    want -= 1 << bits
                assert old == a and int(cell[0]) == want, (pre, op, a, b, old, cell[0])
        cell = np.array([5], dtype=dt)
        assert _call(jit, f"{pre}_inc_{t}_{sp}", ct, ptr(cell)) == 5 and cell[0] == 6
        assert _call(jit, f"{pre}_dec_{t}_{sp}", ct, ptr(cell)) == 6 and cell[0] == 5
        assert _call(jit, f"{pre}_cmpxchg_{t}_{sp}", ct, ptr(cell), ct(4), ct(9)) == 5 and cell[0] == 5
        assert _call(jit, f"{pre}_cmpxchg_{t}_{sp}", ct, ptr(cell), ct(5), ct(9)) == 5 and cell[0] == 9
    if t == "int":
        cell = np.array([1.5], dtype=np.float32)
        assert _call(jit, f"xchgf_{sp}", ctypes.c_float, ptr(cell), ctypes.c_float(2.5)) == 1.5 and cell[0] == 2.5


@pytest.mark.parametrize("t", ["int", "long", "uint"])
@pytest.mark.parametrize("sp", ["global", "generic", "local"])
def test_c11_atomics(jit: Jit, t: str, sp: str) -> None:
    dt = TYPES[t]
    ct = np.ctypeslib.as_ctypes_type(dt)
    cell = np.array([10], dtype=dt)
    assert _call(jit, f"c11_fetch_add_{t}_{sp}", ct, ptr(cell), ct(5)) == 10 and cell[0] == 15
    assert _call(jit, f"c11_fetch_min_{t}_{sp}", ct, ptr(cell), ct(3)) == 15 and cell[0] == 3
    assert _call(jit, f"c11_exchange_{t}_{sp}", ct, ptr(cell), ct(42)) == 3 and cell[0] == 42
    assert _call(jit, f"c11_load_{t}_{sp}", ct, ptr(cell)) == 42
    _call(jit, f"c11_store_{t}_{sp}", None, ptr(cell), ct(7))
    assert cell[0] == 7
    expected = np.array([8], dtype=dt)
    assert _call(jit, f"c11_cas_{t}_{sp}", ctypes.c_int, ptr(cell), ptr(expected), ct(1)) == 0
    assert expected[0] == 7 and cell[0] == 7  # failure loads the current value into *expected
    assert _call(jit, f"c11_cas_{t}_{sp}", ctypes.c_int, ptr(cell), ptr(expected), ct(1)) == 1 and cell[0] == 1
    f = np.array([1.0], dtype=np.float32)
    assert _call(jit, f"c11_fadd_{sp}", ctypes.c_float, ptr(f), ctypes.c_float(0.5)) == 1.0 and f[0] == 1.5
    flag = np.zeros(1, dtype=np.int32)
    assert _call(jit, f"flag_{sp}", ctypes.c_int, ptr(flag)) == 0
    assert _call(jit, f"flag_{sp}", ctypes.c_int, ptr(flag)) == 1
    _call(jit, f"flag_clear_{sp}", None, ptr(flag))
    assert flag[0] == 0


@pytest.mark.parametrize("name,dtype", [("atomic_loop_int_global", np.int32), ("atom_loop_long_local", np.int64),
                                        ("c11_loop_int_generic", np.int32), ("c11_loop_long_global", np.int64),
                                        ("c11_floop_global", np.float32)])
def test_atomicity_across_threads(jit: Jit, name: str, dtype) -> None:
    threads, n = 4, 50_000
    cell = np.zeros(1, dtype=dtype)
    fn = jit.fn(name, None, ctypes.c_void_p, ctypes.c_int)
    workers = [threading.Thread(target=fn, args=(ptr(cell), n)) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert cell[0] == threads * n
