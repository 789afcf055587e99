"""OpenCL C source for the math functions (OpenCL C 3.0 s6.15.2, Tables 11-13).

Scalar float/double overloads call the cores of include/clc_math.h; vectors apply the scalar
overload per component, or an LLVM elementwise intrinsic where one is exact; half overloads
go through float.  half_* and native_* (float only) use the full-precision functions, which
meets their (looser) accuracy requirements.
"""

from __future__ import annotations

from kernelkit.mux.clc.gen_common import half_via_float
from kernelkit.mux.clc.types import (
    ALL_POINTER_ADDRESS_SPACES,
    COMPONENTS,
    VECTOR_WIDTHS,
    WIDTHS,
    elementwise,
    vec,
)

REAL = ("float", "double")
SUFFIX = {"float": "f", "double": "d"}

# OpenCL C 3.0 s6.15.2 Table 11: one-argument gentype functions -> core (kk_<name>_<f|d>)
# or an exact elementwise clang builtin usable on vectors.
UNARY_ELEMENTWISE = {"ceil": "ceil", "floor": "floor", "trunc": "trunc", "rint": "rint", "round": "round",
                     "fabs": "abs", "sqrt": "sqrt"}
UNARY_CORE = ("acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt", "cos",
              "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p",
              "logb", "rsqrt", "sin", "sinh", "sinpi", "tan", "tanh", "tanpi", "tgamma", "lgamma")
BINARY_CORE = ("atan2", "atan2pi", "fdim", "fmod", "hypot", "maxmag", "minmag", "nextafter", "pow", "powr",
               "remainder")
BINARY_ELEMENTWISE = {"copysign": "copysign", "fmax": "maxnum", "fmin": "minnum"}
# OpenCL C 3.0 s6.15.2 Table 13: half_ and native_ functions (float only)
HALF_NATIVE_UNARY = {"cos": "cos", "exp": "exp", "exp2": "exp2", "exp10": "exp10", "log": "log", "log2": "log2",
                     "log10": "log10", "recip": None, "rsqrt": "rsqrt", "sin": "sin", "sqrt": "sqrt", "tan": "tan"}
HALF_NATIVE_BINARY = {"divide": None, "powr": "powr"}
# pointer-output functions: name -> (kind of the pointee: "same" gentype or "int" vector)
POINTER_FUNCTIONS = {"fract": "same", "modf": "same", "sincos": "same", "frexp": "int", "lgamma_r": "int"}
POINTER_SPACES = ALL_POINTER_ADDRESS_SPACES


def _elementwise_or_core(f: str, n: int, params: tuple[str, ...], builtins: dict[str, str],
                         cores: tuple[str, ...]) -> list[str]:
    """gentype name(gentype <params>) for each exact elementwise builtin and each core."""
    F, s = vec(f, n), SUFFIX[f]
    decl, args = ", ".join(f"{F} {p}" for p in params), ", ".join(params)
    out = [f"OVL {F} {name}({decl}) {{ return __builtin_elementwise_{builtin}({args}); }}"
           for name, builtin in builtins.items()]
    for name in cores:
        per_component = ", ".join(f"{p}{{i}}" for p in params)
        body = f"kk_{name}_{s}({args})" if n == 1 else elementwise(n, f"{name}({per_component})", F)
        out.append(f"OVL {F} {name}({decl}) {{ return {body}; }}")
    return out


def _unary(f: str, n: int) -> list[str]:
    return _elementwise_or_core(f, n, ("x",), UNARY_ELEMENTWISE, UNARY_CORE)


def _binary(f: str, n: int) -> list[str]:
    out = _elementwise_or_core(f, n, ("x", "y"), BINARY_ELEMENTWISE, BINARY_CORE)
    if n > 1:
        F = vec(f, n)
        for name in ("fmax", "fmin"):
            out.append(f"OVL {F} {name}({F} x, {f} y) {{ return {name}(x, ({F})y); }}")
    return out


def _mixed(f: str, n: int) -> list[str]:
    """ilogb, ldexp, pown, rootn, fma, mad, nan."""
    F, s, Iv = vec(f, n), SUFFIX[f], vec("int", n)
    out = [
        f"OVL {Iv} ilogb({F} x) {{ return {f'kk_ilogb_{s}(x)' if n == 1 else elementwise(n, 'ilogb(x{i})', Iv)}; }}",
        f"OVL {F} ldexp({F} x, {Iv} k) {{ return __builtin_elementwise_ldexp(x, k); }}",
        f"OVL {F} fma({F} a, {F} b, {F} c) {{ return __builtin_elementwise_fma(a, b, c); }}",
        f"OVL {F} mad({F} a, {F} b, {F} c) {{ return a * b + c; }}",
    ]
    for name in ("pown", "rootn"):
        body = f"kk_{name}_{s}(x, k)" if n == 1 else elementwise(n, f"{name}(x{{i}}, k{{i}})", F)
        out.append(f"OVL {F} {name}({F} x, {Iv} k) {{ return {body}; }}")
    if n > 1:
        out.append(f"OVL {F} ldexp({F} x, int k) {{ return __builtin_elementwise_ldexp(x, ({Iv})k); }}")
    code_t, quiet = ("uint", "0x7fc00000u") if f == "float" else ("ulong", "0x7ff8000000000000UL")
    C = vec(code_t, n)
    out.append(f"OVL {F} nan({C} c) {{ return __builtin_astype(c | ({C}){quiet}, {F}); }}")
    return out


def _pointer(f: str, n: int, space: str) -> list[str]:
    """fract/modf/sincos/frexp/lgamma_r and remquo with a pointer argument in space."""
    F, s, Iv = vec(f, n), SUFFIX[f], vec("int", n)
    out = []
    for name, kind in POINTER_FUNCTIONS.items():
        P, e = (F, f) if kind == "same" else (Iv, "int")
        if n == 1:
            body = f"{e} t; {f} r = kk_{name}_{s}(x, &t); *p = t; return r;"
        else:
            lines = [f"{e} t[{n}]; {F} r;"]
            lines += [f"r.s{COMPONENTS[k]} = {name}(x.s{COMPONENTS[k]}, &t[{k}]);" for k in range(n)]
            lines.append(f"*p = ({P})({', '.join(f't[{k}]' for k in range(n))}); return r;")
            body = " ".join(lines)
        out.append(f"OVL {F} {name}({F} x, {space} {P} *p) {{ {body} }}")
    if n == 1:
        body = f"int t; {f} r = kk_remquo_{s}(x, y, &t); *p = t; return r;"
    else:
        lines = [f"int t[{n}]; {F} r;"]
        lines += [f"r.s{COMPONENTS[k]} = remquo(x.s{COMPONENTS[k]}, y.s{COMPONENTS[k]}, &t[{k}]);"
                  for k in range(n)]
        lines.append(f"*p = ({Iv})({', '.join(f't[{k}]' for k in range(n))}); return r;")
        body = " ".join(lines)
    out.append(f"OVL {F} remquo({F} x, {F} y, {space} {Iv} *p) {{ {body} }}")
    return out


def _half(n: int) -> list[str]:
    H, h, Iv = vec("half", n), "half", vec("int", n)
    out = []
    for name in (*UNARY_ELEMENTWISE, *UNARY_CORE):
        out.append(half_via_float(H, name, [(H, "x")], n))
    for name in (*BINARY_ELEMENTWISE, *BINARY_CORE):
        out.append(half_via_float(H, name, [(H, "x"), (H, "y")], n))
    if n > 1:
        for name in ("fmax", "fmin"):
            out.append(half_via_float(H, name, [(H, "x"), (h, "y")], n))
        out.append(half_via_float(H, "ldexp", [(H, "x"), ("int", "k")], n))
    out.append(half_via_float(Iv, "ilogb", [(H, "x")], n))
    for name in ("ldexp", "pown", "rootn"):
        out.append(half_via_float(H, name, [(H, "x"), (Iv, "k")], n))
    for name in ("fma", "mad"):
        out.append(half_via_float(H, name, [(H, "a"), (H, "b"), (H, "c")], n))
    C = vec("ushort", n)
    out.append(f"OVL {H} nan({C} c) {{ return __builtin_astype(({C})(c | ({C})0x7e00), {H}); }}")
    F = vec("float", n)
    def to_f(e: str) -> str:
        return f"(float)({e})" if n == 1 else f"__builtin_convertvector({e}, {F})"
    def to_h(e: str) -> str:
        return f"(half)({e})" if n == 1 else f"__builtin_convertvector({e}, {H})"
    for space in POINTER_SPACES:
        for name, kind in POINTER_FUNCTIONS.items():
            if kind == "same":
                out.append(f"OVL {H} {name}({H} x, {space} {H} *p) {{ {F} t; {F} r = {name}({to_f('x')}, &t); "
                           f"*p = {to_h('t')}; return {to_h('r')}; }}")
            else:
                out.append(f"OVL {H} {name}({H} x, {space} {Iv} *p) {{ {Iv} t; {F} r = {name}({to_f('x')}, &t); "
                           f"*p = t; return {to_h('r')}; }}")
        out.append(f"OVL {H} remquo({H} x, {H} y, {space} {Iv} *p) {{ {Iv} t; "
                   f"{F} r = remquo({to_f('x')}, {to_f('y')}, &t); *p = t; return {to_h('r')}; }}")
    return out


def _half_native(n: int) -> list[str]:
    F = vec("float", n)
    out = []
    for prefix in ("half_", "native_"):
        for name, full in HALF_NATIVE_UNARY.items():
            body = f"{full}(x)" if full else f"({F})1.0f / x"
            out.append(f"OVL {F} {prefix}{name}({F} x) {{ return {body}; }}")
        for name, full in HALF_NATIVE_BINARY.items():
            body = f"{full}(x, y)" if full else "x / y"
            out.append(f"OVL {F} {prefix}{name}({F} x, {F} y) {{ return {body}; }}")
    return out


def _scalar_functions() -> list[str]:
    out = []
    for f in REAL:
        out += _unary(f, 1) + _binary(f, 1) + _mixed(f, 1)
        for space in POINTER_SPACES:
            out += _pointer(f, 1, space)
    return out


def prototypes(definitions: list[str]) -> list[str]:
    """Declarations of the OVL functions defined in definitions (one per line)."""
    return [d[: d.index(" {")] + ";" for d in definitions if d.startswith("OVL ")]


def scalar_source() -> str:
    return "\n".join(['#include "clc.h"', '#include "clc_math.h"', *_scalar_functions()]) + "\n"


def vector_source() -> str:
    """Vectors and half: a translation unit apart from the scalar cores, so each vector
    component is a call (inlined, or not, by the kernel's optimiser) rather than a copy."""
    out = ['#include "clc.h"', '#include "clc_math.h"', *prototypes(_scalar_functions())]
    for f in REAL:
        for n in VECTOR_WIDTHS:
            out += _unary(f, n) + _binary(f, n) + _mixed(f, n)
            for space in POINTER_SPACES:
                out += _pointer(f, n, space)
    for n in WIDTHS:
        out += _half(n) + _half_native(n)
    return "\n".join(out) + "\n"
