"""OpenCL C source for the atomic functions.

OpenCL C 1.x atomic_* and the cl_khr_*_atomics atom_* functions (OpenCL C 3.0 s6.15.12.8/9,
relaxed order), and the C11 atomics of OpenCL C 2.0+ (s6.15.12): atomic_init/store/load/
exchange/compare_exchange_*/fetch_*/flag_*, with implicit (seq_cst, device scope) and explicit
memory order and scope, plus cl_ext_float_atomics' float/double fetch_add/sub/min/max.
"""

from __future__ import annotations

OLD_SPACES = ("__global", "__local")  # s6.15.12.8: global and local only
C11_SPACES = ("__generic", *OLD_SPACES)
# OpenCL C 3.0 s6.15.12.8 (atomic_*) and cl_khr_{global,local}_int32_*/int64_* (atom_*)
OLD_BINARY = ("add", "sub", "xchg", "min", "max", "and", "or", "xor")
C11_TYPES = (("atomic_int", "int"), ("atomic_uint", "uint"), ("atomic_long", "long"), ("atomic_ulong", "ulong"),
             ("atomic_float", "float"), ("atomic_double", "double"))
C11_INT_FETCH = ("add", "sub", "or", "xor", "and", "min", "max")
FLOAT_FETCH = ("add", "sub", "min", "max")
DEFAULT_ORDER, DEFAULT_SCOPE = "memory_order_seq_cst", "memory_scope_device"


def _old(prefix: str, t: str, space: str) -> list[str]:
    P = f"volatile {space} {t} *p"
    fetch = {"add": "add", "sub": "sub", "min": "min", "max": "max", "and": "and", "or": "or", "xor": "xor"}
    out = []
    for op in OLD_BINARY:
        if op == "xchg":
            body = "return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);"
        else:
            body = f"return __atomic_fetch_{fetch[op]}(p, v, __ATOMIC_RELAXED);"
        out.append(f"OVL {t} {prefix}_{op}({P}, {t} v) {{ {body} }}")
    out.append(f"OVL {t} {prefix}_inc({P}) {{ return __atomic_fetch_add(p, ({t})1, __ATOMIC_RELAXED); }}")
    out.append(f"OVL {t} {prefix}_dec({P}) {{ return __atomic_fetch_sub(p, ({t})1, __ATOMIC_RELAXED); }}")
    out.append(f"OVL {t} {prefix}_cmpxchg({P}, {t} cmp, {t} v) {{ {t} e = cmp; "
               f"__atomic_compare_exchange_n(p, &e, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED); return e; }}")
    return out


def _old_float_xchg(space: str) -> str:
    return (f"OVL float atomic_xchg(volatile {space} float *p, float v) {{ "
            f"return as_float(__atomic_exchange_n((volatile {space} uint *)p, as_uint(v), __ATOMIC_RELAXED)); }}")


def _explicit_variants(ret: str, name: str, params: str, call: str) -> list[str]:
    """name(params), name_explicit(params, order), name_explicit(params, order, scope)."""
    return [
        f"OVL {ret} {name}({params}) {{ {call.format(o=DEFAULT_ORDER, s=DEFAULT_SCOPE)} }}",
        f"OVL {ret} {name}_explicit({params}, memory_order o) {{ {call.format(o='o', s=DEFAULT_SCOPE)} }}",
        f"OVL {ret} {name}_explicit({params}, memory_order o, memory_scope s) {{ {call.format(o='o', s='s')} }}",
    ]


def _c11(space: str) -> list[str]:
    out = []
    for A, C in C11_TYPES:
        P = f"volatile {space} {A} *p"
        out.append(f"OVL void atomic_init({P}, {C} v) {{ __opencl_atomic_init(p, v); }}")
        out += _explicit_variants("void", "atomic_store", f"{P}, {C} v", "__opencl_atomic_store(p, v, {o}, {s});")
        out += _explicit_variants(C, "atomic_load", P, "return __opencl_atomic_load(p, {o}, {s});")
        out += _explicit_variants(C, "atomic_exchange", f"{P}, {C} v", "return __opencl_atomic_exchange(p, v, {o}, {s});")
        exp_spaces = ("__generic",) if space == "__generic" else ("__global", "__local", "__private")
        for variant in ("weak", "strong"):
            for es in exp_spaces:
                params = f"{P}, {es} {C} *expected, {C} desired"
                body = (f"{C} e = *expected; bool ok = __opencl_atomic_compare_exchange_{variant}(p, &e, desired, "
                        "{so}, {fo}, {s}); *expected = e; return ok;")
                out.append(f"OVL bool atomic_compare_exchange_{variant}({params}) {{ "
                           f"{body.format(so=DEFAULT_ORDER, fo=DEFAULT_ORDER, s=DEFAULT_SCOPE)} }}")
                out.append(f"OVL bool atomic_compare_exchange_{variant}_explicit({params}, memory_order so, "
                           f"memory_order fo) {{ {body.format(so='so', fo='fo', s=DEFAULT_SCOPE)} }}")
                out.append(f"OVL bool atomic_compare_exchange_{variant}_explicit({params}, memory_order so, "
                           f"memory_order fo, memory_scope s) {{ {body.format(so='so', fo='fo', s='s')} }}")
        ops = C11_INT_FETCH if C not in ("float", "double") else FLOAT_FETCH
        for op in ops:
            out += _explicit_variants(C, f"atomic_fetch_{op}", f"{P}, {C} v",
                                      f"return __opencl_atomic_fetch_{op}(p, v, {{o}}, {{s}});")
    # atomic_uintptr_t with a ptrdiff_t operand (OpenCL C 3.0 s6.15.12.7)
    for op in ("add", "sub"):
        P = f"volatile {space} atomic_uintptr_t *p"
        out += _explicit_variants("uintptr_t", f"atomic_fetch_{op}", f"{P}, ptrdiff_t v",
                                  f"return __opencl_atomic_fetch_{op}(p, (uintptr_t)v, {{o}}, {{s}});")
    P = f"volatile {space} atomic_flag *p"
    out += _explicit_variants("void", "atomic_flag_clear", P, "__opencl_atomic_store(p, 0, {o}, {s});")
    out += _explicit_variants("bool", "atomic_flag_test_and_set", P,
                              "return __opencl_atomic_exchange(p, 1, {o}, {s}) != 0;")
    return out


def source() -> str:
    out = ['#include "clc.h"']
    for space in OLD_SPACES:
        for t in ("int", "uint"):
            out += _old("atomic", t, space)
        out.append(_old_float_xchg(space))
        for t in ("int", "uint", "long", "ulong"):
            out += _old("atom", t, space)
    for space in C11_SPACES:
        out += _c11(space)
    return "\n".join(out) + "\n"
