"""A bounded reader of DWARF section bytes: fixed-size integers, LEB128 and byte runs, each a FormatError naming
its offset and field when the bytes are not there."""

from __future__ import annotations

from kernelkit.errors import FormatError


class ByteCursor:
    def __init__(self, data: bytes, pos: int, end: int | None = None):
        self.data, self.pos = data, pos
        self.end = len(data) if end is None else end

    def need(self, size: int, field: str) -> None:
        if size < 0 or self.pos + size > self.end:
            raise FormatError(f"{field} needs {size} bytes, {max(self.end - self.pos, 0)} remain",
                              offset=self.pos, field=field)

    def bytes(self, size: int, field: str) -> bytes:
        self.need(size, field)
        self.pos += size
        return self.data[self.pos - size:self.pos]

    def uint(self, size: int, field: str) -> int:
        return int.from_bytes(self.bytes(size, field), "little")

    def uleb(self, field: str) -> int:
        start, value, shift = self.pos, 0, 0
        while True:
            byte = self.bytes(1, field)[0]
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value
            if shift > 64:
                raise FormatError(f"{field} is a ULEB128 longer than 64 bits", offset=start, field=field)
