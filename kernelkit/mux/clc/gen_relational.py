"""OpenCL C source for the relational functions, select/bitselect (OpenCL C 3.0 s6.15.7)
and shuffle/shuffle2 (s6.15.13).

Scalar relational functions return 1/0 (int); vector ones return -1/0 in the signed integer
type of the operand's element size, which is what OpenCL C vector comparisons produce.
"""

from __future__ import annotations

from kernelkit.mux.clc.types import COMPONENTS, SCALAR_TYPES, WIDTHS, vec

# element type -> signed / unsigned integer type of the same size
SIGNED_OF = {"char": "char", "uchar": "char", "short": "short", "ushort": "short", "int": "int", "uint": "int",
             "long": "long", "ulong": "long", "half": "short", "float": "int", "double": "long"}
UNSIGNED_OF = {k: "u" + v for k, v in SIGNED_OF.items()}
INF_BITS = {"half": "0x7c00", "float": "0x7f800000", "double": "0x7ff0000000000000L"}
MIN_NORMAL_BITS = {"half": "0x0400", "float": "0x00800000", "double": "0x0010000000000000L"}
ABS_MASK = {"half": "0x7fff", "float": "0x7fffffff", "double": "0x7fffffffffffffffL"}

_COMPARISONS = {
    "isequal": "x == y", "isnotequal": "x != y", "isgreater": "x > y", "isgreaterequal": "x >= y",
    "isless": "x < y", "islessequal": "x <= y",
}


def _as(expr: str, to: str) -> str:
    return f"__builtin_astype({expr}, {to})"


def _relational(f: str, n: int) -> list[str]:
    F = vec(f, n)
    R = "int" if n == 1 else vec(SIGNED_OF[f], n)
    Iv = vec(SIGNED_OF[f], n)
    # half compares are done on float values (no half arithmetic needed on the target)
    if f == "half":
        W = vec("float", n)
        pre = ("float fx = kk_half_to_float(x), fy = kk_half_to_float(y);" if n == 1 else
               f"{W} fx = __builtin_convertvector(x, {W}), fy = __builtin_convertvector(y, {W});")
    else:
        pre = f"{F} fx = x, fy = y;"
    out = []
    for name, expr in _COMPARISONS.items():
        e = expr.replace("x", "fx").replace("y", "fy")
        body = f"return {e};" if n == 1 or f != "half" else f"return __builtin_convertvector({e}, {R});"
        out.append(f"OVL {R} {name}({F} x, {F} y) {{ {pre} {body} }}")
    ops = {"islessgreater": "(fx < fy) {or_} (fx > fy)", "isordered": "(fx == fx) {and_} (fy == fy)",
           "isunordered": "(fx != fx) {or_} (fy != fy)"}
    for name, expr in ops.items():
        e = expr.format(or_="||" if n == 1 else "|", and_="&&" if n == 1 else "&")
        body = f"return {e};" if n == 1 or f != "half" else f"return __builtin_convertvector({e}, {R});"
        out.append(f"OVL {R} {name}({F} x, {F} y) {{ {pre} {body} }}")
    # classification on the bit pattern (exact for every format, no float arithmetic)
    a = f"({_as('x', Iv)} & ({Iv}){ABS_MASK[f]})"
    inf, mn = f"({Iv}){INF_BITS[f]}", f"({Iv}){MIN_NORMAL_BITS[f]}"
    tests = {
        "isfinite": f"{a} < {inf}", "isinf": f"{a} == {inf}", "isnan": f"{a} > {inf}",
        "isnormal": f"({a} >= {mn}) {'&&' if n == 1 else '&'} ({a} < {inf})",
        "signbit": f"{_as('x', Iv)} < ({Iv})0",
    }
    for name, expr in tests.items():
        out.append(f"OVL {R} {name}({F} x) {{ return {expr}; }}")
    return out


def _any_all(t: str, n: int) -> list[str]:
    T = vec(t, n)
    if n == 1:
        return [f"OVL int any({T} x) {{ return x < 0; }}", f"OVL int all({T} x) {{ return x < 0; }}"]
    return [f"OVL int any({T} x) {{ return __builtin_reduce_or(x) < 0; }}",
            f"OVL int all({T} x) {{ return __builtin_reduce_and(x) < 0; }}"]


def _bitselect(t: str, n: int) -> str:
    T, U = vec(t, n), vec(UNSIGNED_OF[t], n)
    ua, ub, uc = _as("a", U), _as("b", U), _as("c", U)
    return f"OVL {T} bitselect({T} a, {T} b, {T} c) {{ return {_as(f'({U})(({ua} & ~{uc}) | ({ub} & {uc}))', T)}; }}"


def _select(t: str, n: int) -> list[str]:
    """select(a, b, c): scalar c ? b : a; vectors take b where the MSB of c is set."""
    T = vec(t, n)
    U = vec(UNSIGNED_OF[t], n)
    bits = {"char": 8, "short": 16, "int": 32, "long": 64}[SIGNED_OF[t]]
    out = []
    for ct in (SIGNED_OF[t], UNSIGNED_OF[t]):
        C = vec(ct, n)
        if n == 1:
            out.append(f"OVL {T} select({T} a, {T} b, {C} c) {{ return c ? b : a; }}")
        else:
            mask = _as(f"{_as('c', vec(SIGNED_OF[t], n))} >> {bits - 1}", U)
            body = _as(f"({U})(({_as('a', U)} & ~m) | ({_as('b', U)} & m))", T)
            out.append(f"OVL {T} select({T} a, {T} b, {C} c) {{ {U} m = {mask}; return {body}; }}")
    return out


def _shuffles(t: str) -> list[str]:
    out = []
    mask_t = UNSIGNED_OF[t]
    for m in (2, 4, 8, 16):
        for n in (2, 4, 8, 16):
            X, R, M = vec(t, n), vec(t, m), vec(mask_t, m)
            picks = ", ".join(f"x[mask.s{COMPONENTS[i]} & {n - 1}]" for i in range(m))
            out.append(f"OVL {R} shuffle({X} x, {M} mask) {{ return ({R})({picks}); }}")
            picks2 = ", ".join(f"kk_pick{n}(x, y, mask.s{COMPONENTS[i]})" for i in range(m))
            out.append(f"OVL {R} shuffle2({X} x, {X} y, {M} mask) {{ return ({R})({picks2}); }}")
    return out


def _pick_helpers(t: str) -> list[str]:
    out = []
    for n in (2, 4, 8, 16):
        X = vec(t, n)
        out.append(f"KK_INLINE OVL {t} kk_pick{n}({X} x, {X} y, {UNSIGNED_OF[t]} k) "
                   f"{{ uint i = (uint)k & {2 * n - 1}u; return i < {n}u ? x[i] : y[i - {n}u]; }}")
    return out


def source() -> str:
    out = ['#include "clc.h"']
    for f in ("half", "float", "double"):
        for n in WIDTHS:
            out += _relational(f, n)
    for t in ("char", "short", "int", "long"):
        for n in WIDTHS:
            out += _any_all(t, n)
    for st in SCALAR_TYPES:
        out += _pick_helpers(st.name)
        for n in WIDTHS:
            out.append(_bitselect(st.name, n))
            out += _select(st.name, n)
        out += _shuffles(st.name)
    return "\n".join(out) + "\n"


__all__ = ["source"]
