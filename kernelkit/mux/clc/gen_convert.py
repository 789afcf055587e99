"""OpenCL C source for the explicit conversions convert_<type><n>[_sat][_<rounding>].

OpenCL C 3.0 s6.4.3: conversions to integer types round toward zero by default, to
floating-point types to nearest even; `_sat` clamps out-of-range values (NaN -> 0). Our
non-saturating float -> integer conversion also clamps (the spec leaves it
implementation-defined; clamping avoids undefined behaviour in LLVM IR).
"""

from __future__ import annotations

from kernelkit.mux.clc.types import SCALAR_TYPES, VECTOR_WIDTHS, ScalarType, elementwise, vec

# OpenCL C 3.0 s6.4.3.2: rounding-mode suffixes, and the library's mode constant for each.
ROUNDING_SUFFIXES: tuple[str, ...] = ("", "_rte", "_rtz", "_rtp", "_rtn")
_MODE = {"_rte": "KK_RTE", "_rtz": "KK_RTZ", "_rtp": "KK_RTP", "_rtn": "KK_RTN"}
# C library function that rounds a float to an integral value in each mode.
_ROUND_FN = {"_rte": "rint", "_rtz": "trunc", "_rtp": "ceil", "_rtn": "floor"}


def _int_literal(value: int, ctype: str) -> str:
    """A C expression of type ctype for value (also for the most negative long)."""
    if value == -(1 << 63):
        return f"({ctype})(-0x7fffffffffffffffL - 1)"
    return f"({ctype}){value}{'UL' if value > 0 else 'L'}"


def _int_from_int(dst: ScalarType, src: ScalarType, sat: bool) -> str:
    if not sat or (src.min >= dst.min and src.max <= dst.max):
        return f"return ({dst.name})x;"
    lines = []
    if src.min < dst.min:
        lines.append(f"if (x < {_int_literal(dst.min, src.name)}) return {_int_literal(dst.min, dst.name)};")
    if src.max > dst.max:
        lines.append(f"if (x > {_int_literal(dst.max, src.name)}) return {_int_literal(dst.max, dst.name)};")
    lines.append(f"return ({dst.name})x;")
    return " ".join(lines)


def _int_from_float(dst: ScalarType, src: ScalarType, rnd: str) -> str:
    work = "float" if src.name == "half" else src.name
    pre = "float v = kk_half_to_float(x);" if src.name == "half" else f"{work} v = x;"
    fn = _ROUND_FN.get(rnd or "_rtz")
    suffix = "f" if work == "float" else ""
    hi = f"0x1p{dst.bits - 1 if dst.signed else dst.bits}{suffix}"
    lo = f"-0x1p{dst.bits - 1}{suffix}" if dst.signed else f"0.0{suffix}"
    return (
        f"{pre} v = __builtin_{fn}{suffix}(v); if (v != v) return 0; "
        f"if (v >= {hi}) return {_int_literal(dst.max, dst.name)}; "
        f"if (v < {lo}) return {_int_literal(dst.min, dst.name)}; return ({dst.name})v;"
    )


def _float_from_int(dst: ScalarType, src: ScalarType, rnd: str) -> str:
    if dst.name == "half":
        mode = _MODE.get(rnd, "KK_RTE")
        inner = f"convert_float{rnd or '_rte'}(x)"
        return f"return kk_float_to_half({inner}, {mode});"
    mantissa = 24 if dst.name == "float" else 53
    if rnd in ("", "_rte") or src.bits <= mantissa:
        return f"return ({dst.name})x;"
    mode = _MODE[rnd]
    f = "f" if dst.name == "float" else "d"
    wide = "long" if src.signed else "ulong"
    limit = f"0x1p{src.bits - 1 if src.signed else src.bits}"
    # cmp = sign(r - x), exactly: r is an integer value; beyond the source range r > x.
    return (
        f"{dst.name} r = ({dst.name})x; int cmp; "
        f"if (r >= {limit}) cmp = 1; "
        f"else {{ {wide} ri = ({wide})r; {wide} xi = ({wide})x; cmp = ri > xi ? 1 : (ri < xi ? -1 : 0); }} "
        f"return kk_fix_round_{f}(r, cmp, x < 0, {mode});"
    )


def _float_from_float(dst: ScalarType, src: ScalarType, rnd: str) -> str:
    mode = _MODE.get(rnd, "KK_RTE")
    if dst.name == src.name:
        return "return x;"
    if src.name == "half":
        return f"return ({dst.name})kk_half_to_float(x);"
    if dst.name == "half":
        return f"return kk_{src.name}_to_half(x, {mode});"
    if dst.bits > src.bits:
        return f"return ({dst.name})x;"
    if rnd in ("", "_rte"):
        return "return (float)x;"
    # double -> float in a directed mode
    return (
        "float r = (float)x; double rd = (double)r; "
        "int cmp = rd > x ? 1 : (rd < x ? -1 : 0); "
        f"return kk_fix_round_f(r, cmp, x < 0, {mode});"
    )


def scalar_body(dst: ScalarType, src: ScalarType, sat: bool, rnd: str) -> str:
    if not dst.is_float and not src.is_float:
        return _int_from_int(dst, src, sat)
    if not dst.is_float:
        return _int_from_float(dst, src, rnd)
    if not src.is_float:
        return _float_from_int(dst, src, rnd)
    return _float_from_float(dst, src, rnd)


_VECTOR_ROUND = {"": "trunc", "_rte": "rint", "_rtz": "trunc", "_rtp": "ceil", "_rtn": "floor"}


def _vector_float_to_int(dst: ScalarType, src: ScalarType, rnd: str, n: int) -> str:
    """Body of convert_<int>n[_sat](<float|double>n) in vector operations (the scalar rules:
    round, NaN -> 0, clamp), so LLVM can keep it in vector registers."""
    work = "double" if dst.bits > src.bits else src.name  # float -> (u)long goes through double
    bits, mant = (64, 53) if work == "double" else (32, 24)
    wint = ("u" if not dst.signed and dst.bits == bits else "") + ("long" if bits == 64 else "int")
    suffix = "f" if work == "float" else ""
    k = dst.bits - (1 if dst.signed else 0)  # dst.max == 2^k - 1
    hi_rep = dst.max if dst.max < (1 << mant) else (1 << k) - (1 << (k - mant))
    F, W, D = vec(work, n), vec(wint, n), vec(dst.name, n)
    x = "x" if work == src.name else f"__builtin_convertvector(x, {F})"

    def lit(v: int) -> str:
        return f"({F})({float(v).hex()}{suffix})"

    lines = [f"{F} v = __builtin_elementwise_{_VECTOR_ROUND[rnd]}({x});",
             f"{F} c = __builtin_elementwise_minnum(__builtin_elementwise_maxnum(v, {lit(dst.min)}), {lit(hi_rep)});",
             f"{W} r = __builtin_convertvector(c, {W});"]
    if hi_rep < dst.max:
        lines.append(f"r = v >= {lit(1 << k)} ? ({W}){_int_literal(dst.max, wint)} : r;")
    lines.append(f"r = v != v ? ({W})0 : r;")
    lines.append(f"return {'r' if D == W else f'__builtin_convertvector(r, {D})'};")
    return " ".join(lines)


def _vector_int_sat(dst: ScalarType, src: ScalarType, n: int) -> str:
    """Body of convert_<int>n_sat(<int>n): clamp in the source type (each bound that lies
    inside the source range is representable there), then convert."""
    S, D = vec(src.name, n), vec(dst.name, n)
    e = "x"
    if src.min < dst.min:
        e = f"__builtin_elementwise_max({e}, ({S}){_int_literal(dst.min, src.name)})"
    if src.max > dst.max:
        e = f"__builtin_elementwise_min({e}, ({S}){_int_literal(dst.max, src.name)})"
    return f"return __builtin_convertvector({e}, {D});"


def _variants(dst: ScalarType) -> list[tuple[bool, str]]:
    sats = (False,) if dst.is_float else (False, True)
    return [(sat, rnd) for sat in sats for rnd in ROUNDING_SUFFIXES]


def _vector_is_plain(dst: ScalarType, src: ScalarType, sat: bool, rnd: str) -> bool:
    """True when __builtin_convertvector (LLVM's trunc/ext/itofp/fpext/fptrunc) is exact."""
    if "half" in (dst.name, src.name):
        return False
    if not dst.is_float and not src.is_float:
        return not sat
    if dst.is_float and not src.is_float:
        return rnd in ("", "_rte") or src.bits <= (24 if dst.name == "float" else 53)
    if dst.is_float and src.is_float:
        return rnd in ("", "_rte") or dst.bits >= src.bits
    return False


def _scalar_definitions() -> list[tuple[str, str]]:
    """(prototype, body) of every scalar conversion; half last (it goes through float)."""
    defs = []
    for dst in sorted(SCALAR_TYPES, key=lambda t: t.name == "half"):
        for src in SCALAR_TYPES:
            for sat, rnd in _variants(dst):
                name = f"convert_{dst.name}{'_sat' if sat else ''}{rnd}"
                defs.append((f"OVL {dst.name} {name}({src.name} x)", scalar_body(dst, src, sat, rnd)))
    return defs


def scalar_source() -> str:
    out = ['#include "clc.h"', ""]
    out += [f"{proto} {{ {body} }}" for proto, body in _scalar_definitions()]
    return "\n".join(out) + "\n"


def vector_source() -> str:
    """Vector conversions: one translation unit apart from the scalar ones, so clang does
    not inline 16 copies of a scalar conversion into each (the kernel's optimiser may)."""
    out = ['#include "clc.h"', ""]
    out += [f"{proto};" for proto, _ in _scalar_definitions()]
    for dst in SCALAR_TYPES:
        for src in SCALAR_TYPES:
            for sat, rnd in _variants(dst):
                for n in VECTOR_WIDTHS:
                    d, s = vec(dst.name, n), vec(src.name, n)
                    name = f"convert_{d}{'_sat' if sat else ''}{rnd}"
                    scalar = f"convert_{dst.name}{'_sat' if sat else ''}{rnd}"
                    if _vector_is_plain(dst, src, sat, rnd):
                        body = f"return __builtin_convertvector(x, {d});"
                    elif not dst.is_float and not src.is_float:
                        body = _vector_int_sat(dst, src, n)
                    elif not dst.is_float and src.name in ("float", "double"):
                        body = _vector_float_to_int(dst, src, rnd, n)
                    else:
                        body = "return " + elementwise(n, scalar + "(x{i})", d) + ";"
                    out.append(f"OVL {d} {name}({s} x) {{ {body} }}")
    return "\n".join(out) + "\n"
