"""OpenCL C source for the integer functions (OpenCL C 3.0 s6.15.4, Tables 15 and 16)."""

from __future__ import annotations

from kernelkit.mux.clc.types import INT_TYPES, TYPES, WIDTHS, ScalarType, elementwise, vec


def _unsigned(t: ScalarType) -> ScalarType:
    return TYPES[t.name if not t.signed else "u" + t.name]


def _wider(t: ScalarType) -> ScalarType | None:
    names = {"char": "short", "uchar": "ushort", "short": "int", "ushort": "uint", "int": "long", "uint": "ulong"}
    return TYPES[names[t.name]] if t.name in names else None


def _cv(expr: str, to: str, n: int) -> str:
    """Convert an expression to type `to` (vector-aware)."""
    return f"(({to})({expr}))" if n == 1 else f"__builtin_convertvector({expr}, {to})"


def _as(expr: str, to: str) -> str:
    return f"__builtin_astype({expr}, {to})"


def _type_functions(t: ScalarType, n: int) -> list[str]:
    T, U = vec(t.name, n), vec(_unsigned(t).name, n)
    b = t.bits
    out = []
    if t.signed:
        out.append(f"OVL {U} abs({T} x) {{ return {_as('__builtin_elementwise_abs(x)', U)}; }}")
    else:
        out.append(f"OVL {U} abs({T} x) {{ return x; }}")
    out.append(f"OVL {U} abs_diff({T} x, {T} y) {{ {U} ux = {_as('x', U)}, uy = {_as('y', U)}; "
               f"return x > y ? ux - uy : uy - ux; }}")
    out.append(f"OVL {T} add_sat({T} x, {T} y) {{ return __builtin_elementwise_add_sat(x, y); }}")
    out.append(f"OVL {T} sub_sat({T} x, {T} y) {{ return __builtin_elementwise_sub_sat(x, y); }}")
    out.append(f"OVL {T} hadd({T} x, {T} y) {{ return (x >> 1) + (y >> 1) + (x & y & ({T})1); }}")
    out.append(f"OVL {T} rhadd({T} x, {T} y) {{ return (x >> 1) + (y >> 1) + ((x | y) & ({T})1); }}")
    ux = _as("x", U)
    for name, builtin in (("clz", "clzg"), ("ctz", "ctzg")):
        out.append(f"OVL {T} {name}({T} x) {{ return {_as(f'__builtin_elementwise_{builtin}({ux}, ({U}){b})', T)}; }}")
    out.append(f"OVL {T} popcount({T} x) {{ return {_as(f'__builtin_elementwise_popcount({ux})', T)}; }}")
    out.append(f"OVL {T} rotate({T} x, {T} y) {{ return __builtin_elementwise_fshl(x, x, y); }}")
    w = _wider(t)
    if w is not None:
        W = vec(w.name, n)
        xw, yw = _cv("x", W, n), _cv("y", W, n)
        aw, bw, cw = _cv("a", W, n), _cv("b", W, n), _cv("c", W, n)
        out.append(f"OVL {T} mul_hi({T} x, {T} y) {{ return {_cv(f'({xw} * {yw}) >> {b}', T, n)}; }}")
        out.append(f"OVL {T} mad_sat({T} a, {T} b, {T} c) {{ return convert_{T}_sat({aw} * {bw} + {cw}); }}")
    elif n == 1:
        out.append(f"OVL {T} mul_hi({T} x, {T} y) {{ return kk_mul_hi_{t.name}(x, y); }}")
        out.append(f"OVL {T} mad_sat({T} a, {T} b, {T} c) {{ return kk_mad_sat_{t.name}(a, b, c); }}")
    else:
        out.append(f"OVL {T} mul_hi({T} x, {T} y) {{ return {elementwise(n, 'kk_mul_hi_' + t.name + '(x{i}, y{i})', T)}; }}")
        out.append(f"OVL {T} mad_sat({T} a, {T} b, {T} c) {{ return "
                   f"{elementwise(n, 'kk_mad_sat_' + t.name + '(a{i}, b{i}, c{i})', T)}; }}")
    out.append(f"OVL {T} mad_hi({T} a, {T} b, {T} c) {{ return mul_hi(a, b) + c; }}")
    out.append(f"OVL {T} max({T} x, {T} y) {{ return __builtin_elementwise_max(x, y); }}")
    out.append(f"OVL {T} min({T} x, {T} y) {{ return __builtin_elementwise_min(x, y); }}")
    out.append(f"OVL {T} clamp({T} x, {T} lo, {T} hi) {{ return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi); }}")
    if n > 1:
        s = t.name
        out.append(f"OVL {T} max({T} x, {s} y) {{ return __builtin_elementwise_max(x, ({T})y); }}")
        out.append(f"OVL {T} min({T} x, {s} y) {{ return __builtin_elementwise_min(x, ({T})y); }}")
        out.append(f"OVL {T} clamp({T} x, {s} lo, {s} hi) {{ return clamp(x, ({T})lo, ({T})hi); }}")
    if t.name in ("int", "uint"):
        if t.signed:
            out.append(f"OVL {T} mul24({T} x, {T} y) {{ return ((x << 8) >> 8) * ((y << 8) >> 8); }}")
        else:
            out.append(f"OVL {T} mul24({T} x, {T} y) {{ return (x & 0xffffffu) * (y & 0xffffffu); }}")
        out.append(f"OVL {T} mad24({T} x, {T} y, {T} z) {{ return mul24(x, y) + z; }}")
    if w is not None and t.bits <= 32:
        # upsample(hi, lo): ((wide)hi << bits) | lo  (OpenCL C 3.0 s6.15.4 Table 15)
        lo_t = vec(_unsigned(t).name, n)
        W = vec(w.name, n)
        UW = vec(_unsigned(w).name, n)
        hw, lw = _cv("hi", W, n), _as(_cv("lo", UW, n), W)
        out.append(f"OVL {W} upsample({T} hi, {lo_t} lo) {{ return ({hw} << {b}) | {lw}; }}")
    return out


def _declarations() -> list[str]:
    """convert_*_sat (from the convert family) used by mad_sat."""
    out = []
    for t in INT_TYPES:
        w = _wider(t)
        if w is None:
            continue
        for n in WIDTHS:
            T, W = vec(t.name, n), vec(w.name, n)
            out.append(f"OVL {T} convert_{T}_sat({W} x);")
    return out


_HELPERS = r"""
KK_INLINE ulong kk_mul_hi_ulong(ulong x, ulong y) {
  ulong xl = x & 0xffffffffUL, xh = x >> 32, yl = y & 0xffffffffUL, yh = y >> 32;
  ulong ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  ulong mid = (ll >> 32) + (lh & 0xffffffffUL) + (hl & 0xffffffffUL);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
KK_INLINE long kk_mul_hi_long(long x, long y) {
  ulong h = kk_mul_hi_ulong((ulong)x, (ulong)y);
  if (x < 0) h -= (ulong)y;
  if (y < 0) h -= (ulong)x;
  return (long)h;
}
KK_INLINE ulong kk_mad_sat_ulong(ulong a, ulong b, ulong c) {
  if (kk_mul_hi_ulong(a, b) != 0) return 0xffffffffffffffffUL;
  ulong p = a * b, s = p + c;
  return s < p ? 0xffffffffffffffffUL : s;
}
KK_INLINE long kk_mad_sat_long(long a, long b, long c) {
  long hi = kk_mul_hi_long(a, b);
  ulong lo = (ulong)a * (ulong)b;
  /* the 128-bit product fits in 64 bits iff hi is the sign extension of lo */
  if (hi != ((long)lo >> 63)) return hi < 0 ? (long)0x8000000000000000UL : 0x7fffffffffffffffL;
  long p = (long)lo;
  long s;
  if (__builtin_add_overflow(p, c, &s)) return c < 0 ? (long)0x8000000000000000UL : 0x7fffffffffffffffL;
  return s;
}
"""


def source() -> str:
    out = ['#include "clc.h"', _HELPERS, *_declarations()]
    for t in INT_TYPES:
        for n in WIDTHS:
            out += _type_functions(t, n)
    return "\n".join(out) + "\n"
