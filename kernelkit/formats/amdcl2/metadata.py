"""Per-kernel metadata blobs of AMD CL2 binaries (``.rodata`` symbol
``__OpenCL_&__OpenCL_<kernel>_kernel_metadata``), read and written byte for byte.

Layout (CLRX's description of the AMD OpenCL 2.0 format; 32-bit binaries use 32-bit fields
where 64-bit ones use 64-bit): a header (``size`` bytes, of which the leading fields are known),
two NUL-terminated names, from Crimson 16 (driver 200406) on the NUL-terminated vec_type_hint
(empty: one zero byte), ``argsNum+1`` argument entries (the last all zero), then each argument's
name and type name (NUL-terminated), then trailing bytes up to ``metadataSize``.

Three header layouts (``LAYOUTS``): drivers before 191205 ("old"), 191205 ("new"), and from
200406 on ("crimson16"), whose header ends with the work_group_size_hint and the length of the
vec_type_hint string (CLRX AmdCL2GPUMetadataHeaderEnd32/64). From driver 223600 (AMDGPU-PRO) on
the second name is the architecture word (``GFX7``...) instead of ``generic``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from kernelkit.errors import FormatError

# header fields (CLRX AmdCL2GPUMetadataHeader32/64): (name, 32-bit format, 64-bit format)
HEADER_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("size", "I", "Q"), ("metadata_size", "I", "Q"), ("unknown1", "12s", "12s"),
    ("options", "I", "I"), ("kernel_id", "H", "H"), ("unknownx", "H", "H"), ("unknowny", "I", "I"),
    ("unknown2", "16s", "16s"), ("reqd_work_group_size", "3I", "3Q"), ("unknown3", "12s", "16s"),
    ("first_name_length", "I", "Q"), ("second_name_length", "I", "Q"), ("unknown4", "12s", "24s"),
    ("pipes_usage", "I", "Q"), ("unknown5", "8s", "16s"), ("args_num", "Q", "Q"),
)
# argument entry fields (CLRX AmdCL2GPUKernelArgEntry32/64)
ARG_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("size", "I", "Q"), ("name_size", "I", "Q"), ("type_name_size", "I", "Q"),
    ("unknown1", "I", "Q"), ("unknown2", "I", "Q"), ("vector_length", "I", "I"),
    ("unknown3", "I", "I"), ("arg_offset", "I", "I"), ("arg_type", "I", "I"),
    ("ptr_alignment", "I", "I"), ("ptr_type", "I", "I"), ("ptr_space", "I", "I"),
    ("is_pointer_or_pipe", "I", "I"), ("is_volatile", "B", "B"), ("is_restrict", "B", "B"),
    ("is_pipe", "B", "B"), ("unknown4", "B", "B"), ("kind_of_type", "I", "I"),
    ("is_const", "I", "Q"),
)


def _struct(table, bits: int) -> struct.Struct:
    return struct.Struct("<" + "".join(f[1] if bits == 32 else f[2] for f in table))


def _names(table) -> list[str]:
    return [f[0] for f in table]


HEADER_STRUCTS = {32: _struct(HEADER_FIELDS, 32), 64: _struct(HEADER_FIELDS, 64)}
ARG_STRUCTS = {32: _struct(ARG_FIELDS, 32), 64: _struct(ARG_FIELDS, 64)}

# header bytes after the known fields: zeros (40 / 16 bytes), then two u32 that AMD's binaries
# in reference/amdcl2 show as "kernel enqueues" flag and kernel index (the HSAIL backend's
# ;enqueue_kernel / ;kernel_index); name -> (format, offset into those bytes) per bitness
HEADER_TAIL_FIELDS: dict[int, dict[str, tuple[str, int]]] = {
    64: {"enqueue_kernel": ("<I", 40), "kernel_index": ("<I", 44)},
    32: {"enqueue_kernel": ("<I", 16), "kernel_index": ("<I", 20)},
}
# header size of each layout (CLRX AmdCL2BinGen: headerSizeOldBinaries / NewBinaries / 16_3Ver)
LAYOUTS: tuple[tuple[str, int], ...] = (("old", 0), ("new", 191205), ("crimson16", 200406))
HEADER_SIZES: dict[int, dict[str, int]] = {32: {"old": 0x88, "new": 0x90, "crimson16": 0xA4},
                                           64: {"old": 0xD8, "new": 0xE0, "crimson16": 0x110}}
# the header end of the crimson16 layout (CLRX AmdCL2GPUMetadataHeaderEnd32/64), at its last bytes
HEADER_END_FORMATS = {32: struct.Struct("<3I I I"), 64: struct.Struct("<3Q Q Q")}
# first driver whose second name is the architecture word (CLRX: AMDGPU-PRO 2236.0)
ARCH_WORD_DRIVER = 223600
GENERIC_WORD = "generic"


def layout_of_driver(driver_version: int) -> str:
    return [name for name, first in LAYOUTS if driver_version >= first][-1]


def layout_of_header_size(size: int, bits: int) -> str:
    """The layout a header size belongs to (the largest whose size it reaches)."""
    return [name for name, n in HEADER_SIZES[bits].items() if size >= n][-1] if size >= \
        HEADER_SIZES[bits]["old"] else "old"

# CLRX "argType" codes of scalar/vector arguments (element type of vectors)
ARG_TYPE_ELEMENTS = {6: "char", 7: "short", 8: "int", 9: "long", 11: "float", 12: "double"}
# CLRX "kindOfType"
KIND_OF_TYPE = {1: "sampler", 2: "image", 4: "value", 5: "pointer", 7: "queue"}
# CLRX "ptrSpace"
POINTER_SPACES = {3: "local", 4: "global", 5: "constant"}
# argType of images: access qualifier
IMAGE_ACCESS = {1: "read_only", 2: "write_only", 3: "read_write"}


@dataclass
class ArgEntry:
    name: str
    type_name: str
    fields: dict[str, int | bytes]

    def get(self, key: str) -> int:
        return int(self.fields[key])  # type: ignore[arg-type]

    @property
    def kind(self) -> str:
        """sampler | image | pointer | pipe | queue | struct | value."""
        if self.get("is_pointer_or_pipe"):
            return "pipe" if self.get("is_pipe") else "pointer"
        kind = KIND_OF_TYPE.get(self.get("kind_of_type"), "value")
        if kind == "value" and self.get("arg_type") == 15:
            return "struct"
        return kind

    @property
    def address_space(self) -> str:
        if self.kind in ("pointer", "pipe"):
            return POINTER_SPACES.get(self.get("ptr_space"), "global")
        return "global" if self.kind == "image" else "private"

    @property
    def access(self) -> str:
        if self.kind == "image":
            return IMAGE_ACCESS.get(self.get("arg_type"), "none")
        return "none"

    @property
    def qualifiers(self) -> list[str]:
        out = []
        if self.kind == "pointer":
            if self.get("is_const"):
                out.append("const")
            if self.get("is_restrict"):
                out.append("restrict")
            if self.get("is_volatile"):
                out.append("volatile")
        return out


@dataclass
class KernelMetadata:
    bits: int
    header: dict[str, object]
    header_tail: bytes           # header bytes past the known fields (work-group size hint, ...)
    first_name: str
    second_name: str
    vec_type_hint: str | None    # None: no string stored (layouts before Crimson 16)
    args: list[ArgEntry]
    terminator: bytes            # the all-zero closing entry as stored
    tail: bytes = b""
    extra: dict = field(default_factory=dict)

    def tail_field(self, name: str):
        fmt, off = HEADER_TAIL_FIELDS[self.bits][name]
        if off + struct.calcsize(fmt) > len(self.header_tail):
            return None
        vals = struct.unpack_from(fmt, self.header_tail, off)
        return vals if len(vals) > 1 else vals[0]

    @property
    def layout(self) -> str:
        return layout_of_header_size(int(self.header["size"]), self.bits)  # type: ignore[arg-type]

    def header_end(self) -> tuple[tuple[int, int, int], int] | None:
        """(work_group_size_hint, vec_type_hint length) of the crimson16 layout, else None."""
        if self.layout != "crimson16":
            return None
        fmt = HEADER_END_FORMATS[self.bits]
        at = HEADER_SIZES[self.bits]["crimson16"] - fmt.size - HEADER_STRUCTS[self.bits].size
        values = fmt.unpack_from(self.header_tail, at)
        return tuple(values[:3]), values[3]  # type: ignore[return-value]

    @property
    def work_group_size_hint(self) -> tuple[int, int, int]:
        end = self.header_end()
        return end[0] if end is not None else (0, 0, 0)

    @property
    def enqueues_kernel(self) -> bool:
        return bool(self.tail_field("enqueue_kernel"))

    @property
    def printf_formats(self) -> list:
        """The kernel's printf formats (``printf.PrintfFormat``), decoded from the tail."""
        from kernelkit.formats.amdcl2.printf import decode_printf, printf_count

        _, count = printf_count(self.bits, int(self.header["args_num"]), self.header_tail)  # type: ignore[arg-type]
        return decode_printf(self.tail, count, self.bits)

    @property
    def reqd_work_group_size(self) -> tuple[int, int, int]:
        return tuple(self.header["reqd_work_group_size"])  # type: ignore[return-value]

    def to_bytes(self) -> bytes:
        hs, as_ = HEADER_STRUCTS[self.bits], ARG_STRUCTS[self.bits]
        values = []
        for name in _names(HEADER_FIELDS):
            v = self.header[name]
            values += list(v) if isinstance(v, tuple) else [v]
        out = bytearray(hs.pack(*values)) + self.header_tail
        out += self.first_name.encode() + b"\0" + self.second_name.encode() + b"\0"
        if self.vec_type_hint is not None:
            out += self.vec_type_hint.encode() + b"\0"
        for a in self.args:
            out += as_.pack(*(a.fields[n] for n in _names(ARG_FIELDS)))
        out += self.terminator
        for a in self.args:
            out += a.name.encode() + b"\0" + a.type_name.encode() + b"\0"
        return bytes(out + self.tail)


def _cstring(data: bytes, at: int, size: int, what: str) -> str:
    if at + size >= len(data) or data[at + size] != 0:
        raise FormatError(f"{what}: string of {size} bytes not NUL-terminated inside the metadata",
                          offset=at, field=what)
    try:
        return data[at:at + size].decode("ascii")
    except UnicodeDecodeError:
        raise FormatError(f"{what}: not ASCII", offset=at, field=what) from None


def parse_kernel_metadata(data: bytes, bits: int, base: int = 0) -> KernelMetadata:
    """Parse one metadata blob; ``base`` is its file offset (for error messages)."""
    hs, as_ = HEADER_STRUCTS[bits], ARG_STRUCTS[bits]
    if len(data) < hs.size:
        raise FormatError(f"metadata of {len(data)} bytes is shorter than its header ({hs.size})",
                          offset=base, field="metadata.header")
    raw = hs.unpack_from(data, 0)
    header: dict[str, object] = {}
    i = 0
    for name, f32, f64 in HEADER_FIELDS:
        fmt = f32 if bits == 32 else f64
        if fmt.startswith("3"):
            header[name] = tuple(raw[i:i + 3])
            i += 3
        else:
            header[name] = raw[i]
            i += 1
    size = int(header["size"])  # type: ignore[arg-type]
    if not hs.size <= size < len(data):
        raise FormatError(f"header size {size} outside [{hs.size}, {len(data)})", offset=base,
                          field="metadata.size")
    if header["metadata_size"] != len(data):
        raise FormatError(f"metadataSize {header['metadata_size']} but the symbol has {len(data)} "
                          f"bytes", offset=base + 8 if bits == 64 else base + 4,
                          field="metadata.metadataSize")
    n1, n2 = int(header["first_name_length"]), int(header["second_name_length"])  # type: ignore[arg-type]
    at = size
    first = _cstring(data, at, n1, "metadata.firstName")
    second = _cstring(data, at + n1 + 1, n2, "metadata.secondName")
    at += n1 + n2 + 2
    vec_type_hint = None
    if layout_of_header_size(size, bits) == "crimson16":
        end = HEADER_END_FORMATS[bits]
        length = end.unpack_from(data, HEADER_SIZES[bits]["crimson16"] - end.size)[3]
        if length > len(data) - at - 1:
            raise FormatError(f"vecTypeHintLength {length} runs past the metadata", offset=base + at,
                              field="metadata.vecTypeHintLength")
        vec_type_hint = _cstring(data, at, length, "metadata.vecTypeHint")
        at += length + 1
    elif at + 4 <= len(data) and struct.unpack_from("<I", data, at)[0] == as_.size << 8:
        vec_type_hint, at = "", at + 1      # CLRX: an empty vec_type_hint in a shorter header
    from kernelkit.formats.amdcl2.printf import decode_printf, printf_count

    nargs, nprintf = printf_count(bits, int(header["args_num"]), data[hs.size:size])  # type: ignore[arg-type]
    if at + as_.size * (nargs + 1) > len(data):
        raise FormatError(f"{nargs} argument entries do not fit in the metadata", offset=base + at,
                          field="metadata.argsNum")
    entries = []
    for k in range(nargs):
        vals = dict(zip(_names(ARG_FIELDS), as_.unpack_from(data, at + k * as_.size), strict=True))
        if vals["size"] != as_.size:
            raise FormatError(f"argument entry {k} has size {vals['size']}, expected {as_.size}",
                              offset=base + at + k * as_.size, field="metadata.arg.size")
        entries.append(vals)
    terminator = data[at + nargs * as_.size:at + (nargs + 1) * as_.size]
    at += (nargs + 1) * as_.size
    args = []
    for k, vals in enumerate(entries):
        name = _cstring(data, at, int(vals["name_size"]), f"metadata.arg{k}.name")
        at += int(vals["name_size"]) + 1
        tname = _cstring(data, at, int(vals["type_name_size"]), f"metadata.arg{k}.typeName")
        at += int(vals["type_name_size"]) + 1
        args.append(ArgEntry(name, tname, vals))
    decode_printf(data[at:], nprintf, bits, base + at)      # checked here: errors name the offset
    return KernelMetadata(bits, header, data[hs.size:size], first, second, vec_type_hint, args,
                          terminator, data[at:])
