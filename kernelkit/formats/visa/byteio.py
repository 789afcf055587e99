"""Little-endian byte reader/writer for the vISA binary; every short read is a FormatError."""

from __future__ import annotations

import struct

from kernelkit.errors import FormatError


class ByteReader:
    def __init__(self, data: bytes, pos: int = 0, end: int | None = None):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else min(end, len(data))

    def _take(self, size: int, field: str) -> bytes:
        if self.pos < 0 or self.pos + size > self.end:
            raise FormatError(f"truncated: {size} byte(s) needed, {max(self.end - self.pos, 0)} left",
                              offset=self.pos, field=field)
        chunk = self.data[self.pos:self.pos + size]
        self.pos += size
        return chunk

    def u8(self, field: str) -> int:
        return self._take(1, field)[0]

    def u16(self, field: str) -> int:
        return struct.unpack("<H", self._take(2, field))[0]

    def i16(self, field: str) -> int:
        return struct.unpack("<h", self._take(2, field))[0]

    def u32(self, field: str) -> int:
        return struct.unpack("<I", self._take(4, field))[0]

    def i32(self, field: str) -> int:
        return struct.unpack("<i", self._take(4, field))[0]

    def u64(self, field: str) -> int:
        return struct.unpack("<Q", self._take(8, field))[0]

    def raw(self, size: int, field: str) -> bytes:
        return self._take(size, field)

    def cstring(self, field: str) -> str:
        end = self.data.find(b"\0", self.pos, self.end)
        if end < 0:
            raise FormatError("string not terminated", offset=self.pos, field=field)
        text = self.data[self.pos:end].decode("latin-1")
        self.pos = end + 1
        return text

    def peek_u8(self, field: str) -> int:
        if self.pos >= self.end:
            raise FormatError("truncated: 1 byte needed", offset=self.pos, field=field)
        return self.data[self.pos]


class ByteWriter:
    def __init__(self):
        self.buf = bytearray()

    def __len__(self) -> int:
        return len(self.buf)

    def _put(self, fmt: str, value: int, field: str) -> None:
        try:
            self.buf += struct.pack(fmt, value)
        except struct.error as exc:
            raise FormatError(f"value {value} does not fit ({exc})", offset=len(self.buf),
                              field=field) from None

    def u8(self, value: int, field: str = "u8") -> None:
        self._put("<B", value, field)

    def u16(self, value: int, field: str = "u16") -> None:
        self._put("<H", value, field)

    def i16(self, value: int, field: str = "i16") -> None:
        self._put("<h", value, field)

    def u32(self, value: int, field: str = "u32") -> None:
        self._put("<I", value, field)

    def i32(self, value: int, field: str = "i32") -> None:
        self._put("<i", value, field)

    def u64(self, value: int, field: str = "u64") -> None:
        self._put("<Q", value, field)

    def raw(self, data: bytes) -> None:
        self.buf += data

    def cstring(self, text: str) -> None:
        self.buf += text.encode("latin-1") + b"\0"

    def patch_u32(self, pos: int, value: int) -> None:
        self.buf[pos:pos + 4] = struct.pack("<I", value)
