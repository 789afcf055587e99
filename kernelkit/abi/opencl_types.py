"""OpenCL C data types as kernel arguments: scalar sizes, vector rules, image and opaque types.

Tables cite the OpenCL C 3.0 specification; code that needs a type's size reads them here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# OpenCL C 3.0 spec 6.3.1 "Built-in Scalar Data Types": name -> size in bytes (alignment = size).
SCALAR_SIZES: dict[str, int] = {
    "char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4,
    "long": 8, "ulong": 8, "half": 2, "float": 4, "double": 8,
}

# 6.3.1 "Built-in Scalar Data Types" (+ 6.3.1's size_t/ptrdiff_t/intptr_t/uintptr_t for a 64-bit
# address space): name -> numpy dtype string of the value as a little-endian device stores it.
_DTYPE_CODES: dict[str, str] = {
    "char": "<i1", "uchar": "<u1", "short": "<i2", "ushort": "<u2", "int": "<i4", "uint": "<u4",
    "long": "<i8", "ulong": "<u8", "half": "<f2", "float": "<f4", "double": "<f8",
    "bool": "?", "size_t": "<u8", "ptrdiff_t": "<i8", "intptr_t": "<i8", "uintptr_t": "<u8",
}


def __getattr__(name: str):
    """``NUMPY_DTYPES`` (name -> numpy dtype) is made on first use: compiling imports no numpy."""
    if name != "NUMPY_DTYPES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import numpy as np

    dtypes: dict[str, np.dtype] = {k: np.dtype(v) for k, v in _DTYPE_CODES.items()}
    assert all(dtypes[k].itemsize == v for k, v in SCALAR_SIZES.items())
    globals()["NUMPY_DTYPES"] = dtypes
    return dtypes

# 6.3.1: the C spellings of the unsigned scalar types, as clang may print them.
SCALAR_ALIASES: dict[str, str] = {
    "unsigned char": "uchar", "signed char": "char", "unsigned short": "ushort",
    "unsigned int": "uint", "unsigned": "uint", "unsigned long": "ulong",
    "short int": "short", "long int": "long", "unsigned short int": "ushort",
    "unsigned long int": "ulong",
}

# 6.3.2 "Built-in Vector Data Types": the vector widths n.
VECTOR_WIDTHS: tuple[int, ...] = (2, 3, 4, 8, 16)

# 6.3.3 "Other Built-in Data Types" (image types) -> kernelkit's image dimension name.
IMAGE_DIMS: dict[str, str] = {
    "image1d_t": "1d", "image1d_array_t": "1d_array", "image1d_buffer_t": "1d_buffer",
    "image2d_t": "2d", "image2d_array_t": "2d_array", "image2d_depth_t": "2d_depth",
    "image2d_array_depth_t": "2d_array_depth", "image2d_msaa_t": "2d_msaa",
    "image2d_array_msaa_t": "2d_array_msaa", "image2d_msaa_depth_t": "2d_msaa_depth",
    "image2d_array_msaa_depth_t": "2d_array_msaa_depth", "image3d_t": "3d",
}

# 6.3.3: the other opaque types that can reach a kernel -> KernelArg.kind.
OPAQUE_KINDS: dict[str, str] = {
    "sampler_t": "sampler", "queue_t": "queue", "clk_event_t": "event", "event_t": "event",
}

_SCALAR_OR_VECTOR = re.compile(r"^(" + "|".join(sorted(SCALAR_SIZES, key=len, reverse=True)) + r")(\d*)$")
_EXT_VECTOR = re.compile(r"^(.+?)\s+__attribute__\(\(ext_vector_type\((\d+)\)\)\)$")


def scalar_name(name: str) -> str | None:
    """The OpenCL name of a scalar type spelled ``name`` (``unsigned int`` -> ``uint``), or None."""
    name = " ".join(name.split())
    name = SCALAR_ALIASES.get(name, name)
    return name if name in SCALAR_SIZES else None


def parse_value_type(name: str) -> tuple[str, int] | None:
    """``(element, width)`` of a scalar or vector type name (``float4`` -> ("float", 4), ``int``
    -> ("int", 1); clang's ``float __attribute__((ext_vector_type(4)))`` too), else None."""
    name = " ".join(name.split())
    m = _EXT_VECTOR.match(name)
    if m:
        element = scalar_name(m[1])
        width = int(m[2])
        return (element, width) if element and width in VECTOR_WIDTHS else None
    element = scalar_name(name)
    if element:
        return element, 1
    m = _SCALAR_OR_VECTOR.match(name)
    if m and m[2] and int(m[2]) in VECTOR_WIDTHS:
        return m[1], int(m[2])
    return None


def value_type_name(element: str, width: int) -> str:
    return element if width == 1 else f"{element}{width}"


def value_size(element: str, width: int) -> int:
    """Size in bytes of a scalar or vector; alignment equals it. 6.3.5: a 3-component vector has
    the size and alignment of a 4-component one."""
    return SCALAR_SIZES[element] * (4 if width == 3 else width)


def ir_size_align(ty, pointer_size: int) -> tuple[int, int]:
    """(size, alignment) in bytes of a ``kernelkit.ir`` type under the SPIR data layouts
    (``e-i64:64-v16:16-v24:32-...-v1024:1024``): scalars and vectors naturally aligned, a vector
    rounded up to a power-of-two size, C struct layout (packed: alignment 1), pointers and target
    extension types (images, samplers, ...) ``pointer_size`` bytes."""
    from kernelkit.ir import types as T

    if isinstance(ty, T.IntType):
        size = 1
        while size * 8 < ty.bits:
            size *= 2
        return size, size
    if isinstance(ty, T.FloatType):
        size = ty.bits // 8
        return size, size
    if isinstance(ty, T.PointerType | T.TargetExtType):
        return pointer_size, pointer_size
    if isinstance(ty, T.VectorType):
        elem, _ = ir_size_align(ty.element, pointer_size)
        size = 1
        while size < elem * ty.count:
            size *= 2
        return size, size
    if isinstance(ty, T.ArrayType):
        elem, align = ir_size_align(ty.element, pointer_size)
        return elem * ty.count, align
    if isinstance(ty, T.LiteralStructType | T.NamedStructType):
        if ty.elements is None:
            raise ValueError(f"opaque struct {ty} has no size")
        offset, max_align = 0, 1
        for member in ty.elements:
            size, align = ir_size_align(member, pointer_size)
            if ty.packed:
                align = 1
            offset = (offset + align - 1) // align * align + size
            max_align = max(max_align, align)
        return (offset + max_align - 1) // max_align * max_align, max_align
    raise ValueError(f"type {ty} has no size")


def ir_field_offset(ty, index: int, pointer_size: int) -> int:
    """Byte offset of member ``index`` of a ``kernelkit.ir`` struct type (the layout of
    ``ir_size_align``)."""
    offset = 0
    for i, member in enumerate(ty.elements):
        size, align = ir_size_align(member, pointer_size)
        if not ty.packed:
            offset = (offset + align - 1) // align * align
        if i == index:
            return offset
        offset += size
    raise ValueError(f"struct {ty} has no member {index}")


def normalize_type_name(name: str) -> str:
    """clang's spelling of a kernel argument base type in OpenCL terms: vectors as ``float4``,
    unsigned scalars as ``uint``, also inside ``_Atomic(...)`` and before a pointer's ``*``."""
    name = " ".join(name.split())
    if name.endswith("*"):
        return normalize_type_name(name[:-1]) + "*"
    if name.startswith("_Atomic(") and name.endswith(")"):
        return f"_Atomic({normalize_type_name(name[len('_Atomic('):-1])})"
    parsed = parse_value_type(name)
    return value_type_name(*parsed) if parsed else name
