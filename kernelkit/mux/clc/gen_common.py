"""OpenCL C source for the common and geometric functions (OpenCL C 3.0 s6.15.5, s6.15.6).

float and double are implemented directly; half goes through float (exact widening, one
rounding back), which is within the half ULP limits of the spec.
"""

from __future__ import annotations

from kernelkit.mux.clc.types import WIDTHS, vec

REAL = ("float", "double")


def _cv(expr: str, to: str, n: int) -> str:
    return f"(({to})({expr}))" if n == 1 else f"__builtin_convertvector({expr}, {to})"


def half_via_float(ret: str, name: str, params: list[tuple[str, str]], n: int) -> str:
    """A half overload calling the float one: params are (type, name) with half types."""
    def widen(t: str) -> str:
        return t.replace("half", "float")
    args = ", ".join(_cv(p, widen(t), n if t != "half" else 1) if t.startswith("half") else p for t, p in params)
    sig = ", ".join(f"{t} {p}" for t, p in params)
    body = f"{name}({args})"
    if ret.startswith("half"):
        body = _cv(body, ret, n if ret != "half" else 1)
    return f"OVL {ret} {name}({sig}) {{ return {body}; }}"


def _common(f: str, n: int) -> list[str]:
    F = vec(f, n)
    k = "f" if f == "float" else ""
    out = [
        f"OVL {F} clamp({F} x, {F} lo, {F} hi) {{ return __builtin_elementwise_minnum(__builtin_elementwise_maxnum(x, lo), hi); }}",
        f"OVL {F} degrees({F} r) {{ return r * ({F})(0x1.ca5dc1a63c1f8p+5{k}); }}",
        f"OVL {F} radians({F} d) {{ return d * ({F})(0x1.1df46a2529d39p-6{k}); }}",
        f"OVL {F} max({F} x, {F} y) {{ return __builtin_elementwise_maxnum(x, y); }}",
        f"OVL {F} min({F} x, {F} y) {{ return __builtin_elementwise_minnum(x, y); }}",
        f"OVL {F} mix({F} x, {F} y, {F} a) {{ return x + (y - x) * a; }}",
        f"OVL {F} step({F} edge, {F} x) {{ return x < edge ? ({F})0 : ({F})1; }}",
        f"OVL {F} smoothstep({F} e0, {F} e1, {F} x) {{ {F} t = clamp((x - e0) / (e1 - e0), ({F})0, ({F})1); "
        f"return t * t * (({F})3 - ({F})2 * t); }}",
        f"OVL {F} sign({F} x) {{ return x > ({F})0 ? ({F})1 : (x < ({F})0 ? ({F})-1 : (x == x ? x : ({F})0)); }}",
    ]
    if n > 1:
        out += [
            f"OVL {F} clamp({F} x, {f} lo, {f} hi) {{ return clamp(x, ({F})lo, ({F})hi); }}",
            f"OVL {F} max({F} x, {f} y) {{ return max(x, ({F})y); }}",
            f"OVL {F} min({F} x, {f} y) {{ return min(x, ({F})y); }}",
            f"OVL {F} mix({F} x, {F} y, {f} a) {{ return mix(x, y, ({F})a); }}",
            f"OVL {F} step({f} edge, {F} x) {{ return step(({F})edge, x); }}",
            f"OVL {F} smoothstep({f} e0, {f} e1, {F} x) {{ return smoothstep(({F})e0, ({F})e1, x); }}",
        ]
    return out


def _half_common(n: int) -> list[str]:
    H, h = vec("half", n), "half"
    out = [
        half_via_float(H, "clamp", [(H, "x"), (H, "lo"), (H, "hi")], n),
        half_via_float(H, "degrees", [(H, "x")], n),
        half_via_float(H, "radians", [(H, "x")], n),
        half_via_float(H, "max", [(H, "x"), (H, "y")], n),
        half_via_float(H, "min", [(H, "x"), (H, "y")], n),
        half_via_float(H, "mix", [(H, "x"), (H, "y"), (H, "a")], n),
        half_via_float(H, "step", [(H, "e"), (H, "x")], n),
        half_via_float(H, "smoothstep", [(H, "e0"), (H, "e1"), (H, "x")], n),
        half_via_float(H, "sign", [(H, "x")], n),
    ]
    if n > 1:
        out += [
            half_via_float(H, "clamp", [(H, "x"), (h, "lo"), (h, "hi")], n),
            half_via_float(H, "max", [(H, "x"), (h, "y")], n),
            half_via_float(H, "min", [(H, "x"), (h, "y")], n),
            half_via_float(H, "mix", [(H, "x"), (H, "y"), (h, "a")], n),
            half_via_float(H, "step", [(h, "e"), (H, "x")], n),
            half_via_float(H, "smoothstep", [(h, "e0"), (h, "e1"), (H, "x")], n),
        ]
    return out


def _dot_expr(n: int, a: str, b: str) -> str:
    if n == 1:
        return f"{a} * {b}"
    return " + ".join(f"{a}.s{i} * {b}.s{i}" for i in range(n))


def _geometric(f: str, n: int) -> list[str]:
    F = vec(f, n)
    out = [f"OVL {f} dot({F} x, {F} y) {{ return {_dot_expr(n, 'x', 'y')}; }}"]
    if f == "float":
        # Computed in double: no overflow or underflow for any float input (s6.15.6).
        D = vec("double", n)
        xd = _cv("x", D, n)
        out += [
            f"OVL float length({F} x) {{ {D} d = {xd}; return (float)__builtin_sqrt({_dot_expr(n, 'd', 'd')}); }}",
            f"OVL {F} normalize({F} x) {{ {D} d = kk_normalize_prep_d({xd}); double s = {_dot_expr(n, 'd', 'd')}; "
            f"if (s == 0.0) return x; return {_cv('d / __builtin_sqrt(s)', F, n)}; }}",
            f"OVL float fast_length({F} x) {{ return __builtin_sqrtf(dot(x, x)); }}",
            f"OVL float fast_distance({F} x, {F} y) {{ return fast_length(x - y); }}",
            f"OVL {F} fast_normalize({F} x) {{ float s = dot(x, x); if (s == 0.0f) return x; "
            f"return x * (1.0f / __builtin_sqrtf(s)); }}",
        ]
    else:
        out += [
            f"OVL double length({F} x) {{ return kk_length_d(x); }}",
            f"OVL {F} normalize({F} x) {{ {F} d = kk_normalize_prep_d(x); double l = kk_length_d(d); "
            f"if (l == 0.0) return x; return d / l; }}",
        ]
    out.append(f"OVL {f} distance({F} x, {F} y) {{ return length(x - y); }}")
    return out


def _geometric_helpers() -> list[str]:
    """length without overflow for double (scaled), and the infinity rule of normalize."""
    out = []
    for n in (1, 2, 3, 4):
        D = vec("double", n)
        mx = "__builtin_fabs(x)" if n == 1 else "__builtin_reduce_max(__builtin_elementwise_abs(x))"
        out.append(
            f"KK_INLINE OVL double kk_length_d({D} x) {{ double s = {_dot_expr(n, 'x', 'x')}; "
            f"if (s < 0x1p1000 && s > 0x1p-900) return __builtin_sqrt(s); "
            f"double m = {mx}; if (m == 0.0 || m == __builtin_inf()) return m; "
            f"{D} y = x / m; return m * __builtin_sqrt({_dot_expr(n, 'y', 'y')}); }}")
        # OpenCL C 3.0 s6.15.6 normalize: infinite elements become +-1, the others 0.
        out.append(
            f"KK_INLINE OVL {D} kk_normalize_prep_d({D} x) {{ {D} a = __builtin_elementwise_abs(x); "
            + ("if (a == __builtin_inf()) return __builtin_copysign(1.0, x); return x; }"
               if n == 1 else
               f"if (__builtin_reduce_max(a) != __builtin_inf()) return x; "
               f"return a == __builtin_inf() ? __builtin_elementwise_copysign(({D})1.0, x) : ({D})0.0; }}"))
    return out


def _half_geometric(n: int) -> list[str]:
    H = vec("half", n)
    out = [
        half_via_float("half", "dot", [(H, "x"), (H, "y")], n),
        half_via_float("half", "length", [(H, "x")], n),
        half_via_float("half", "distance", [(H, "x"), (H, "y")], n),
        half_via_float(H, "normalize", [(H, "x")], n),
    ]
    return out


def _cross() -> list[str]:
    out = []
    for f in ("float", "double", "half"):
        for n in (3, 4):
            F = vec(f, n)
            tail = ", 0" if n == 4 else ""
            out.append(f"OVL {F} cross({F} a, {F} b) {{ return ({F})(a.s1 * b.s2 - a.s2 * b.s1, "
                       f"a.s2 * b.s0 - a.s0 * b.s2, a.s0 * b.s1 - a.s1 * b.s0{tail}); }}")
    return out


def source() -> str:
    out = ['#include "clc.h"', *_geometric_helpers()]
    for f in REAL:
        for n in WIDTHS:
            out += _common(f, n)
        for n in (1, 2, 3, 4):
            out += _geometric(f, n)
    for n in WIDTHS:
        out += _half_common(n)
    for n in (1, 2, 3, 4):
        out += _half_geometric(n)
    out += _cross()
    return "\n".join(out) + "\n"


__all__ = ["source", "half_via_float"]
