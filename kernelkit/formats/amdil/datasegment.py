"""AMD IL data segments: ``;#DATASTART[:CBID]:size`` … ``;#DATAEND[:CBID]`` (spec 000, "Data
Segment"). Each entry line is ``;#type:offset:count:v0:v1:...``; integers are decimal, float and
double values are written as their IEEE bit patterns in hex; ``vec3`` data is padded to 4
components with zeros (``count`` includes the padding)."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from kernelkit.errors import FormatError

# spec 000 "Data Segment": element byte sizes of the scalar types a data entry can hold
ELEMENT_SIZES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u8": 1, "u16": 2, "u32": 4,
                 "u64": 8, "half": 2, "float": 4, "double": 8, "f32": 4, "f64": 8}
# types whose values are bit patterns written in hex (and their digit counts)
HEX_TYPES = {"half": 4, "float": 8, "double": 16, "f32": 8, "f64": 16}

_TYPE = re.compile(r"(?:v(\d+))?([a-z]+\d*)\Z")


def split_type(type_name: str) -> tuple[int, str]:
    """``v3i32`` -> (3, "i32"); ``float`` -> (1, "float")."""
    m = _TYPE.match(type_name)
    if not m or m.group(2) not in ELEMENT_SIZES:
        raise ValueError(type_name)
    return int(m.group(1) or 1), m.group(2)


@dataclass
class DataEntry:
    type: str
    offset: int
    values: list[int] = field(default_factory=list)
    text: str | None = field(default=None, compare=False, repr=False)  # as read, if not canonical

    @property
    def element(self) -> str:
        return split_type(self.type)[1]

    def to_line(self) -> str:
        if self.text is not None:
            return self.text
        digits = HEX_TYPES.get(self.element)
        if digits:
            vals = "".join(f":{v:0{digits}X}" for v in self.values)
        else:
            vals = "".join(f":{v}" for v in self.values)
        return f";#{self.type}:{self.offset}:{len(self.values)}{vals}"

    def to_bytes(self) -> bytes:
        size = ELEMENT_SIZES[self.element]
        out = bytearray()
        for v in self.values:
            out += (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        return bytes(out)


@dataclass
class DataSegment:
    """One data segment: ``cb`` None is the global (emulated) segment; ``end_cb`` is what the
    ``;#DATAEND`` line names (real output writes ``:0`` or nothing for the global segment)."""
    size: int
    entries: list[DataEntry] = field(default_factory=list)
    cb: int | None = None
    end_cb: int | None = None

    def lines(self) -> list[str]:
        start = f";#DATASTART:{self.size}" if self.cb is None else f";#DATASTART:{self.cb}:{self.size}"
        end = ";#DATAEND" if self.end_cb is None else f";#DATAEND:{self.end_cb}"
        return [start] + [e.to_line() for e in self.entries] + [end]

    def to_bytes(self) -> bytes:
        """The segment's initial contents as the runtime places them (little-endian)."""
        data = bytearray(self.size)
        for e in self.entries:
            raw = e.to_bytes()
            if e.offset + len(raw) > self.size:
                raise FormatError(f"data entry at {e.offset} ({len(raw)} bytes) exceeds the segment "
                                  f"size {self.size}", offset=e.offset, field="DATASTART.size")
            data[e.offset:e.offset + len(raw)] = raw
        return bytes(data)

    @classmethod
    def from_values(cls, entries: list[tuple[str, int, list[int | float]]], cb: int | None = None,
                    size: int | None = None) -> DataSegment:
        """Build a segment from ``(type, offset, values)``; floats become bit patterns and
        ``vNTYPE`` entries with N == 3 are padded to 4 components per vector."""
        out = []
        end = 0
        for type_name, offset, values in entries:
            width, element = split_type(type_name)
            ints = [_bits(element, v) for v in values]
            if width == 3:
                padded = []
                for i in range(0, len(ints), 3):
                    padded += ints[i:i + 3] + [0]
                ints = padded
            out.append(DataEntry(type_name, offset, ints))
            end = max(end, offset + len(ints) * ELEMENT_SIZES[element])
        return cls(size if size is not None else end, out, cb, cb if cb is not None else 0)


def _bits(element: str, value: int | float) -> int:
    if element in ("float", "f32"):
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if element in ("double", "f64"):
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if element == "half":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    return int(value)


_INT = re.compile(r"-?[0-9]+\Z")
_HEX = re.compile(r"[0-9A-Fa-f]+\Z")


_SIZE = re.compile(r"(0|[1-9][0-9]*)\Z")     # buffer ids and sizes: canonical, non-negative


def parse_data_start(text: str, line: int) -> tuple[int | None, int]:
    parts = text[len(";#DATASTART"):].split(":")
    if parts[0] != "" or len(parts) not in (2, 3) or not all(_SIZE.match(p) for p in parts[1:]):
        raise FormatError(f"bad data segment start {text!r}", line=line, field="DATASTART")
    if len(parts) == 2:
        return None, int(parts[1])
    return int(parts[1]), int(parts[2])


def parse_data_end(text: str, line: int) -> int | None:
    rest = text[len(";#DATAEND"):]
    if rest == "":
        return None
    if not rest.startswith(":") or not _SIZE.match(rest[1:]):
        raise FormatError(f"bad data segment end {text!r}", line=line, field="DATAEND")
    return int(rest[1:])


def parse_data_entry(text: str, line: int) -> DataEntry:
    parts = text[2:].split(":")
    if len(parts) < 3:
        raise FormatError(f"data entry {text[:40]!r} needs type:offset:count", line=line,
                          field="data.type")
    try:
        _, element = split_type(parts[0])
    except ValueError:
        raise FormatError(f"unknown data type {parts[0]!r}", line=line, field="data.type") from None
    for name, value in (("offset", parts[1]), ("count", parts[2])):
        if not _INT.match(value):
            raise FormatError(f"{value!r} is not an integer", line=line, field=f"data.{name}")
    count = int(parts[2])
    values = parts[3:]
    if len(values) != count:
        raise FormatError(f"count {count} but {len(values)} values", line=line, field="data.count")
    pattern = _HEX if element in HEX_TYPES else _INT
    for i, v in enumerate(values):
        if not pattern.match(v):
            raise FormatError(f"bad value {v!r}", line=line, field=f"data.value{i}")
    base = 16 if element in HEX_TYPES else 10
    entry = DataEntry(parts[0], int(parts[1]), [int(v, base) for v in values])
    if entry.to_line() != text:
        entry.text = text   # e.g. lower-case hex digits: keep the bytes as written
    return entry
