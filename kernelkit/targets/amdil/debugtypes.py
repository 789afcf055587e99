"""The kernel parameters of ``-g`` AMD IL programs: each argument's name, declaration line,
register and DWARF type, described as the driver's debug programs describe them
(reference/amdil/hlc-juniper ``test_thread_dimension_atomic.01.unlinked.il``): OpenCL's unsigned
scalar names are typedefs of the C base types (``uint`` -> ``unsigned int``), the signed ones
and the floating types are base types, pointers are 4-byte pointer types.

Differences from the driver, on purpose: a pointer's type names its pointee when that is a
scalar (the driver's pointer types have none); vectors, structs, images and other handles are
typedefs of their OpenCL name without an underlying type (DWARF's incomplete type); the
location is ``DW_OP_reg<n>``/``DW_OP_regx n`` with n the IL register ``r<n>`` the wrapper copies
the argument's first cb1 slot into (the driver numbers registers in its LLVM register enum)."""

from __future__ import annotations

from dataclasses import dataclass

# DWARF 2 base type encodings (DW_ATE_*)
_SIGNED, _SIGNED_CHAR, _UNSIGNED, _UNSIGNED_CHAR, _FLOAT, _BOOLEAN = 5, 6, 7, 8, 4, 2
# OpenCL scalar -> (C base type, encoding, bytes, typedef?) for a 32-bit device
_SCALARS: dict[str, tuple[str, int, int, bool]] = {
    "bool": ("_Bool", _BOOLEAN, 1, False),
    "char": ("char", _SIGNED_CHAR, 1, False), "uchar": ("unsigned char", _UNSIGNED_CHAR, 1, True),
    "short": ("short", _SIGNED, 2, False), "ushort": ("unsigned short", _UNSIGNED, 2, True),
    "int": ("int", _SIGNED, 4, False), "uint": ("unsigned int", _UNSIGNED, 4, True),
    "long": ("long", _SIGNED, 8, False), "ulong": ("unsigned long", _UNSIGNED, 8, True),
    "float": ("float", _FLOAT, 4, False), "double": ("double", _FLOAT, 8, False),
    "size_t": ("unsigned int", _UNSIGNED, 4, True),
}
POINTER_SIZE = 4


@dataclass(frozen=True)
class BaseType:
    name: str
    encoding: int
    size: int


@dataclass(frozen=True)
class Typedef:
    name: str
    type: BaseType | None      # None: an incomplete type (vectors, structs, handles)


@dataclass(frozen=True)
class PointerType:
    type: BaseType | Typedef | None


DebugType = BaseType | Typedef | PointerType


@dataclass(frozen=True)
class Parameter:
    name: str
    line: int
    register: int
    type: DebugType


def scalar_type(name: str) -> BaseType | Typedef | None:
    entry = _SCALARS.get(name)
    if entry is None:
        return None
    base = BaseType(entry[0], entry[1], entry[2])
    return Typedef(name, base) if entry[3] else base


def argument_type(arg) -> DebugType:
    if arg.kind == "pointer":
        return PointerType(scalar_type(arg.element) if arg.element and arg.vector_width == 1
                           else None)
    if arg.kind == "scalar" and scalar_type(arg.type_name) is not None:
        return scalar_type(arg.type_name)        # type: ignore[return-value]
    return Typedef(arg.type_name.strip(), None)


def parameter_lines(fn) -> dict[int, int]:
    """Argument number (0-based) -> declaration line, from the kernel's debug information
    (the DILocalVariables with ``arg:`` its DISubprogram retains)."""
    sp = fn.metadata.get("dbg")
    lines: dict[int, int] = {}
    retained = getattr(sp, "field", lambda _: None)("retainedNodes")
    for node in getattr(retained, "operands", ()) or ():
        try:
            if node.kind == "DILocalVariable" and node.field("arg") is not None:
                lines[int(node.field("arg")) - 1] = int(node.field("line"))
        except (AttributeError, TypeError, ValueError):
            continue
    return lines


def parameters(fn, sig, layout, line: int) -> list[Parameter]:
    lines = parameter_lines(fn)
    return [Parameter(a.name, lines.get(a.index, line), 1 + slot.offset // 16, argument_type(a))
            for a, slot in zip(sig.args, layout.args, strict=True)]


def type_closure(params: list[Parameter]) -> list[DebugType]:
    """Every type the parameters refer to, each once, referred-to types first."""
    out: list[DebugType] = []

    def add(t) -> None:
        if t is None or t in out:
            return
        if isinstance(t, Typedef | PointerType):
            add(t.type)
        out.append(t)

    for p in params:
        add(p.type)
    return out
