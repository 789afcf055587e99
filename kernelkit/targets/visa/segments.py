"""Program-scope ``__constant`` and ``__global`` variables of a vISA program: laid out in a constant
segment and a global segment (IGC's OpenCL convention: the kernel receives their bases as the
implicit inputs constant_base and global_base), with the bytes of their initializers."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from kernelkit import ir
from kernelkit.abi.opencl_types import ir_field_offset, ir_size_align
from kernelkit.errors import CompileError
from kernelkit.ir import types as T

POINTER_BYTES = 8
SEGMENT_OF_SPACE = {1: "global_base", 2: "constant_base"}


@dataclass
class Segments:
    offsets: dict[str, tuple[str, int]] = field(default_factory=dict)   # variable -> (segment, offset)
    data: dict[str, bytearray] = field(default_factory=dict)            # segment -> bytes


def lay_out_segments(module) -> Segments:
    seg = Segments()
    for g in module.globals:
        kind = SEGMENT_OF_SPACE.get(g.addrspace)
        if kind is None:
            continue
        size, align = ir_size_align(g.value_type, POINTER_BYTES)
        buf = seg.data.setdefault(kind, bytearray())
        start = -(-len(buf) // max(align, 1)) * max(align, 1)
        buf.extend(b"\0" * (start + size - len(buf)))
        if g.initializer is not None:
            buf[start:start + size] = constant_bytes(g.initializer, g.value_type)
        seg.offsets[g.name] = (kind, start)
    return seg


def constant_bytes(value, ty: T.Type) -> bytes:
    """The little-endian bytes of a constant of type ``ty``."""
    size, _align = ir_size_align(ty, POINTER_BYTES)
    if isinstance(value, ir.ConstantSimple):
        if value.keyword in ("zeroinitializer", "null", "undef", "poison"):
            return b"\0" * size
    if isinstance(value, ir.ConstantInt):
        return (value.value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    if isinstance(value, ir.ConstantFP):
        return struct.pack({2: "<e", 4: "<f", 8: "<d"}[size], value.value)
    if isinstance(value, ir.ConstantBytes):
        return bytes(value.data).ljust(size, b"\0")
    if isinstance(value, ir.ConstantAggregate):
        out = bytearray(size)
        for i, element in enumerate(value.operands):
            if isinstance(ty, T.LiteralStructType | T.NamedStructType):
                ety, offset = ty.elements[i], ir_field_offset(ty, i, POINTER_BYTES)
            else:
                ety = ty.element
                offset = i * ir_size_align(ety, POINTER_BYTES)[0]
            data = constant_bytes(element, ety)
            out[offset:offset + len(data)] = data
        return bytes(out)
    if isinstance(value, ir.ConstantSplat):
        one = constant_bytes(value.operands[0], ty.element)
        return (one * ty.count).ljust(size, b"\0")
    raise CompileError(f"vISA code generation: initializer {value} of a program-scope variable is not supported")
