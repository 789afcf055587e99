"""The OpenCL C built-in scalar and vector types the library generates overloads for."""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.abi.opencl_types import SCALAR_SIZES, VECTOR_WIDTHS


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


_FLOATING = ("half", "float", "double")

# OpenCL C 3.0 s6.3.1 (built-in scalar data types), from the ABI's size table: the kind and
# signedness follow from the names (u* unsigned; half/float/double floating point).
SCALAR_TYPES: tuple[ScalarType, ...] = tuple(
    ScalarType(name, 8 * size, "float" if name in _FLOATING else "int", not name.startswith("u"))
    for name, size in SCALAR_SIZES.items()
)
TYPES: dict[str, ScalarType] = {t.name: t for t in SCALAR_TYPES}
INT_TYPES = tuple(t for t in SCALAR_TYPES if not t.is_float)
FLOAT_TYPES = tuple(t for t in SCALAR_TYPES if t.is_float)

# OpenCL C 3.0 s6.3.2: vector widths (the ABI's table) and 1 for scalars.
WIDTHS: tuple[int, ...] = (1, *VECTOR_WIDTHS)

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
