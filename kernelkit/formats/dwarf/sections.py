"""The DWARF 5 side tables as they are stored: .debug_str_offsets (a unit's string offsets, DWARF 5
7.26) and .debug_loclists (location list tables with their offset arrays and raw entries, DWARF 5
7.29), read from the section bytes so that ``inspect --debug --json`` shows them as llvm-dwarfdump's
--debug-str-offsets and --debug-loclists do. Entry kinds are pyelftools' DW_LLE table."""

from __future__ import annotations

import struct

from elftools.dwarf.enums import ENUM_DW_LLE

from kernelkit.errors import FormatError
from kernelkit.formats.dwarf.cursor import ByteCursor
from kernelkit.formats.dwarf.expr import ExpressionDecoder

_LLE_NAMES = {code: name for name, code in ENUM_DW_LLE.items()}
# operands of each entry kind before its expression ("addr" = an address of the unit's size)
_LLE_OPERANDS = {"DW_LLE_end_of_list": (), "DW_LLE_base_addressx": ("uleb",), "DW_LLE_startx_endx": ("uleb", "uleb"),
                 "DW_LLE_startx_length": ("uleb", "uleb"), "DW_LLE_offset_pair": ("uleb", "uleb"),
                 "DW_LLE_default_location": (), "DW_LLE_base_address": ("addr",),
                 "DW_LLE_start_end": ("addr", "addr"), "DW_LLE_start_length": ("addr", "uleb")}
_NO_EXPRESSION = {"DW_LLE_end_of_list", "DW_LLE_base_addressx", "DW_LLE_base_address"}


def _section(dwarf, name: str) -> bytes:
    sec = getattr(dwarf, name)
    if sec is None:
        return b""
    sec.stream.seek(0)
    return sec.stream.read(sec.size)


def _u32(data: bytes, offset: int, field: str) -> int:
    if offset < 0 or offset + 4 > len(data):
        raise FormatError(f"{field} past the end of the section", offset=offset, field=field)
    return struct.unpack_from("<I", data, offset)[0]


def string_offsets(dwarf, base: int) -> list[dict]:
    """The string offsets table of one unit: ``base`` is its DW_AT_str_offsets_base (after the header)."""
    data = _section(dwarf, "debug_str_offsets_sec")
    length = _u32(data, base - 8, ".debug_str_offsets unit_length")
    end = base - 4 + length
    if length >= 0xFFFFFFF0 or end > len(data):
        raise FormatError(f"string offsets table of length {length:#x} past the section", offset=base - 8,
                          field=".debug_str_offsets unit_length")
    out = []
    for offset in range(base, end - 3, 4):
        target = _u32(data, offset, ".debug_str_offsets entry")
        text = dwarf.get_string_from_table(target)
        out.append({"offset": offset, "string_offset": target,
                    "string": None if text is None else text.decode("utf-8", "replace")})
    return out


class _Cursor(ByteCursor):
    """A .debug_loclists reader (``offset``: where it stands)."""

    def __init__(self, data: bytes, offset: int, address_size: int):
        super().__init__(data, offset)
        self.address_size = address_size

    @property
    def offset(self) -> int:
        return self.pos

    def uleb(self, field: str = ".debug_loclists LEB128") -> int:
        return super().uleb(field)

    def addr(self) -> int:
        return int.from_bytes(self.bytes(self.address_size, "address"), "little")


def location_list_tables(dwarf, decoder: ExpressionDecoder) -> list[dict]:
    """Every table of .debug_loclists: header, offset array (as section offsets) and raw entries."""
    data = _section(dwarf, "debug_loclists_sec")
    tables, offset = [], 0
    while offset + 12 <= len(data):
        length = _u32(data, offset, ".debug_loclists unit_length")
        end = offset + 4 + length
        if length >= 0xFFFFFFF0 or end > len(data) or length < 8:
            raise FormatError(f"location list table of length {length:#x} does not fit the section", offset=offset,
                              field=".debug_loclists unit_length")
        version, address_size, _segment, count = struct.unpack_from("<HBBI", data, offset + 4)
        start = offset + 12
        if start + 4 * count > end:
            raise FormatError(f"offset_entry_count {count} past the table", offset=offset + 8,
                              field="offset_entry_count")
        offsets = [start + _u32(data, start + 4 * i, "offset") for i in range(count)]
        cursor = _Cursor(data[:end], start + 4 * count, address_size)
        entries = []
        while cursor.offset < end:
            at = cursor.offset
            kind = _LLE_NAMES.get(cursor.bytes(1, "DW_LLE kind")[0])
            if kind is None:
                raise FormatError(f"unknown location list entry kind {data[at]:#x}", offset=at, field="DW_LLE")
            operands = [cursor.uleb() if how == "uleb" else cursor.addr() for how in _LLE_OPERANDS[kind]]
            entry = {"offset": at, "kind": kind, "operands": operands}
            if kind not in _NO_EXPRESSION:
                expression = cursor.bytes(cursor.uleb(), "location expression")
                entry["expression"] = [op.text() for op in decoder.decode(expression)]
            entries.append(entry)
        tables.append({"offset": offset, "version": version, "address_size": address_size,
                       "offset_entry_count": count, "offsets": offsets, "entries": entries})
        offset = end
    return tables
