"""OpenCL C source for vloadn/vstoren and vload_half/vstore_half (OpenCL C 3.0 s6.15.10).

Pointer arguments come in every address space a kernel can pass: the named ones of OpenCL C
1.x (private, global, local, and constant for loads) and generic (2.0+). half values are
converted in software (exact widening; narrowing in the requested rounding mode).
"""

from __future__ import annotations

from kernelkit.mux.clc.types import ALL_POINTER_ADDRESS_SPACES, COMPONENTS, SCALAR_TYPES, VECTOR_WIDTHS, vec

STORE_SPACES = ALL_POINTER_ADDRESS_SPACES
LOAD_SPACES = (*ALL_POINTER_ADDRESS_SPACES, "__constant")  # loads also read __constant
# OpenCL C 3.0 s6.15.10: vstore_half rounding suffixes -> library mode (default: rte)
HALF_ROUNDING = {"": "KK_RTE", "_rte": "KK_RTE", "_rtz": "KK_RTZ", "_rtp": "KK_RTP", "_rtn": "KK_RTN"}


def _unaligned(t: str, n: int) -> str:
    """A vector type with the alignment of its element: one vector load/store at p + i*n
    (TBAA of vector accesses is "omnipotent char", so they alias the kernel's scalars)."""
    return f"kk_unaligned_{t}{n}"


def _typedefs() -> list[str]:
    return [f"typedef {st.name} {_unaligned(st.name, n)} __attribute__((ext_vector_type({n}), "
            f"aligned({st.bits // 8})));" for st in SCALAR_TYPES for n in VECTOR_WIDTHS if n != 3]


def _vload(t: str, n: int, space: str) -> str:
    T = vec(t, n)
    if n == 3:  # 3 elements, not a 4-element vector's footprint
        elems = ", ".join(f"q[{k}]" for k in range(n))
        body = f"return ({T})({elems});"
    else:
        body = f"return *(const {space} {_unaligned(t, n)} *)q;"
    return f"OVL {T} vload{n}(size_t i, const {space} {t} *p) {{ const {space} {t} *q = p + i * {n}; {body} }}"


def _vstore(t: str, n: int, space: str) -> str:
    T = vec(t, n)
    if n == 3:
        body = " ".join(f"q[{k}] = v.s{COMPONENTS[k]};" for k in range(n))
    else:
        body = f"*({space} {_unaligned(t, n)} *)q = v;"
    return f"OVL void vstore{n}({T} v, size_t i, {space} {t} *p) {{ {space} {t} *q = p + i * {n}; {body} }}"


def _vload_half(n: int, space: str, aligned: bool) -> str:
    name = f"vload{'a' if aligned else ''}_half{n if n > 1 else ''}"
    stride = 4 if (aligned and n == 3) else n
    F = vec("float", n)
    src = f"const {space} ushort *q = (const {space} ushort *)p + i * {stride};"
    if n == 1:
        return f"OVL float {name}(size_t i, const {space} half *p) {{ {src} return kk_half_bits_to_float(q[0]); }}"
    elems = ", ".join(f"kk_half_bits_to_float(q[{k}])" for k in range(n))
    return f"OVL {F} {name}(size_t i, const {space} half *p) {{ {src} return ({F})({elems}); }}"


def _vstore_half(n: int, space: str, aligned: bool, rnd: str, src_t: str) -> str:
    name = f"vstore{'a' if aligned else ''}_half{n if n > 1 else ''}{rnd}"
    stride = 4 if (aligned and n == 3) else n
    mode = HALF_ROUNDING[rnd]
    conv = f"kk_{src_t}_to_half_bits"
    V = vec(src_t, n)
    dst = f"{space} ushort *q = ({space} ushort *)p + i * {stride};"
    if n == 1:
        stores = f"q[0] = {conv}(v, {mode});"
    else:
        stores = " ".join(f"q[{k}] = {conv}(v.s{COMPONENTS[k]}, {mode});" for k in range(n))
    return f"OVL void {name}({V} v, size_t i, {space} half *p) {{ {dst} {stores} }}"


def source() -> str:
    out = ['#include "clc.h"', *_typedefs()]
    for st in SCALAR_TYPES:
        for n in VECTOR_WIDTHS:
            out += [_vload(st.name, n, s) for s in LOAD_SPACES]
            out += [_vstore(st.name, n, s) for s in STORE_SPACES]
    for n in (1, *VECTOR_WIDTHS):
        for aligned in (False, True):
            out += [_vload_half(n, s, aligned) for s in LOAD_SPACES]
            for rnd in HALF_ROUNDING:
                for src_t in ("float", "double"):
                    out += [_vstore_half(n, s, aligned, rnd, src_t) for s in STORE_SPACES]
    return "\n".join(out) + "\n"
