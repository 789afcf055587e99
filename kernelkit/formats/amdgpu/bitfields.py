"""Named bit-fields of a register word: a table of ``(name, lsb, width)`` rows -> dict and back;
and the fixed-size records (kernel descriptor, amd_kernel_code_t) that hold such words."""

from __future__ import annotations

import struct

from kernelkit.errors import FormatError

BitField = tuple[str, int, int]


def unpack_bits(value: int, table: tuple[BitField, ...]) -> dict[str, int]:
    return {name: (value >> lsb) & ((1 << width) - 1) for name, lsb, width in table}


def pack_bits(fields: dict[str, int], table: tuple[BitField, ...], *, where: str = "") -> int:
    known = {name for name, _, _ in table}
    unknown = set(fields) - known
    if unknown:
        raise FormatError(f"unknown bit-field(s) {', '.join(sorted(unknown))}", field=where or None)
    value = 0
    for name, lsb, width in table:
        v = fields.get(name, 0)
        if v < 0 or v >= 1 << width:
            raise FormatError(f"{name}={v} does not fit in {width} bit(s)", field=f"{where}.{name}")
        value |= v << lsb
    return value


def merge_bits(value: int, table: tuple[BitField, ...], new: dict[str, int], *, where: str = "") -> int:
    """``value`` with the named bit-fields in ``new`` replaced (the others kept)."""
    return pack_bits({**unpack_bits(value, table), **new}, table, where=where)


def unpack_record(layout: struct.Struct, data: bytes, offset: int, what: str) -> tuple:
    """The fields of a fixed-size record at ``offset``; a FormatError names it when too few bytes are left."""
    if len(data) - offset < layout.size:
        raise FormatError(f"{what} needs {layout.size} bytes, {len(data) - offset} left", offset=offset, field=what)
    return layout.unpack_from(data, offset)
