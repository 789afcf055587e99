"""The OpenCL C built-in scalar and vector types the library generates overloads for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScalarType:
    name: str
    bits: int
    kind: str  # "int" or "float"
    signed: bool

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def min(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1


# OpenCL C 3.0 s6.3.1 (built-in scalar data types): name, bits, kind, signed.
SCALAR_TYPES: tuple[ScalarType, ...] = (
    ScalarType("char", 8, "int", True),
    ScalarType("uchar", 8, "int", False),
    ScalarType("short", 16, "int", True),
    ScalarType("ushort", 16, "int", False),
    ScalarType("int", 32, "int", True),
    ScalarType("uint", 32, "int", False),
    ScalarType("long", 64, "int", True),
    ScalarType("ulong", 64, "int", False),
    ScalarType("half", 16, "float", True),
    ScalarType("float", 32, "float", True),
    ScalarType("double", 64, "float", True),
)
TYPES: dict[str, ScalarType] = {t.name: t for t in SCALAR_TYPES}
INT_TYPES = tuple(t for t in SCALAR_TYPES if not t.is_float)
FLOAT_TYPES = tuple(t for t in SCALAR_TYPES if t.is_float)

# OpenCL C 3.0 s6.3.2 (built-in vector data types): supported widths; 1 means scalar.
WIDTHS: tuple[int, ...] = (1, 2, 3, 4, 8, 16)
VECTOR_WIDTHS: tuple[int, ...] = (2, 3, 4, 8, 16)

# Address spaces of pointer arguments: OpenCL C qualifier per clang's mangling group.
# OpenCL C 3.0 s6.7 (address space qualifiers); "generic" exists from OpenCL C 2.0.
NAMED_ADDRESS_SPACES: tuple[str, ...] = ("__private", "__global", "__local")
ALL_POINTER_ADDRESS_SPACES: tuple[str, ...] = (*NAMED_ADDRESS_SPACES, "__generic")

# Element suffix of vector components .s0 ... .sf (OpenCL C 3.0 s6.3.7).
COMPONENTS = "0123456789abcdef"


def vec(name: str, width: int) -> str:
    """Spelling of the vector type (or scalar for width 1)."""
    return name if width == 1 else f"{name}{width}"


def elementwise(width: int, expr: str, result_type: str) -> str:
    """An expression that applies expr (with {i} for the component) to every component."""
    if width == 1:
        return expr.format(i="")
    parts = ", ".join(expr.format(i=f".s{COMPONENTS[k]}") for k in range(width))
    return f"({result_type})({parts})"
