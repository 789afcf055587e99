"""Named bit-fields of a register word: a table of ``(name, lsb, width)`` rows -> dict and back."""

from __future__ import annotations

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
