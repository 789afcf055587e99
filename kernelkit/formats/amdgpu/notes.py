"""AMDGPU ELF note records (spec 001 "Note Records").

Code object V2 (owner ``"AMD"``): CODE_OBJECT_VERSION, HSAIL, ISA_VERSION, PRODUCER,
PRODUCER_OPTIONS, EXTENSION, METADATA (YAML text), ISA_NAME, PAL_METADATA.
Code object V3+ (owner ``"AMDGPU"``): NT_AMDGPU_METADATA (msgpack map).

``decode_note(note) -> record`` and ``encode_note(record) -> Note`` are exact inverses on every
reference file (tests check byte identity).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import msgpack

from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu import llvm_yaml
from kernelkit.formats.amdgpu.tables import NOTE_OWNER_V2, NOTE_OWNER_V3, NT_AMD_HSA, NT_AMDGPU_METADATA
from kernelkit.formats.elf import Note

NT = NT_AMD_HSA


@dataclass
class CodeObjectVersionNote:
    major: int
    minor: int


@dataclass
class HsailNote:
    hsail_major: int
    hsail_minor: int
    profile: int
    machine_model: int
    default_float_round: int


@dataclass
class IsaVersionNote:
    vendor: str
    architecture: str
    major: int
    minor: int
    stepping: int


@dataclass
class ProducerNote:
    name: str
    major: int
    minor: int


@dataclass
class ProducerOptionsNote:
    options: str


@dataclass
class IsaNameNote:
    name: str


@dataclass
class MetadataV2Note:
    """YAML text; ``document()`` gives the parsed mapping."""
    text: str
    terminated: bool = False  # a trailing NUL was present

    def document(self) -> Any:
        return llvm_yaml.load(self.text)


@dataclass
class PalMetadataNote:
    pairs: list[tuple[int, int]]


@dataclass
class MetadataV3Note:
    """NT_AMDGPU_METADATA: the msgpack map (keys in stored order)."""
    document: dict


@dataclass
class RawNote:
    owner: str
    type: int
    desc: bytes


NoteRecord = (CodeObjectVersionNote | HsailNote | IsaVersionNote | ProducerNote | ProducerOptionsNote
              | IsaNameNote | MetadataV2Note | PalMetadataNote | MetadataV3Note | RawNote)


def _need(desc: bytes, size: int, field: str) -> None:
    if len(desc) < size:
        raise FormatError(f"note descriptor of {len(desc)} bytes, need {size}", field=field)


def _text(raw: bytes, field: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"not UTF-8 text at byte {exc.start}", field=field) from exc


def decode_note(note: Note) -> NoteRecord:
    d = note.desc
    if note.owner == NOTE_OWNER_V3 and note.type == NT_AMDGPU_METADATA:
        try:
            doc = msgpack.unpackb(d, raw=False, strict_map_key=False)
        except (ValueError, TypeError, msgpack.UnpackException) as exc:
            raise FormatError(f"bad msgpack metadata: {exc}", field="NT_AMDGPU_METADATA") from exc
        if not isinstance(doc, dict):
            raise FormatError("metadata is not a map", field="NT_AMDGPU_METADATA")
        return MetadataV3Note(doc)
    if note.owner != NOTE_OWNER_V2 or note.owner_raw is not None:
        return RawNote(note.owner, note.type, d)
    t = note.type
    if t == NT["NT_AMD_HSA_CODE_OBJECT_VERSION"]:
        _need(d, 8, "NT_AMD_HSA_CODE_OBJECT_VERSION")
        if len(d) == 8:
            return CodeObjectVersionNote(*struct.unpack("<II", d))
    elif t == NT["NT_AMD_HSA_HSAIL"]:
        _need(d, 11, "NT_AMD_HSA_HSAIL")
        if len(d) == 11:
            return HsailNote(*struct.unpack("<IIBBB", d))
    elif t == NT["NT_AMD_HSA_ISA_VERSION"]:
        _need(d, 16, "NT_AMD_HSA_ISA_VERSION")
        vsz, asz, major, minor, stepping = struct.unpack_from("<HHIII", d)
        _need(d, 16 + vsz + asz, "NT_AMD_HSA_ISA_VERSION.vendor_and_architecture_name")
        vendor, arch = d[16:16 + vsz], d[16 + vsz:16 + vsz + asz]
        if len(d) == 16 + vsz + asz and vendor.endswith(b"\0") and arch.endswith(b"\0"):
            return IsaVersionNote(_text(vendor[:-1], "vendor_name"), _text(arch[:-1], "architecture_name"),
                                  major, minor, stepping)
    elif t == NT["NT_AMD_HSA_PRODUCER"]:
        _need(d, 12, "NT_AMD_HSA_PRODUCER")
        size, _res, major, minor = struct.unpack_from("<HHII", d)
        if len(d) == 12 + size and size and d[-1] == 0 and _res == 0:
            return ProducerNote(_text(d[12:-1], "producer_name"), major, minor)
    elif t == NT["NT_AMD_HSA_PRODUCER_OPTIONS"]:
        _need(d, 2, "NT_AMD_HSA_PRODUCER_OPTIONS")
        (size,) = struct.unpack_from("<H", d)
        if len(d) == 2 + size and size and d[-1] == 0:
            return ProducerOptionsNote(_text(d[2:-1], "producer_options"))
    elif t == NT["NT_AMD_HSA_ISA_NAME"]:
        return IsaNameNote(_text(d, "NT_AMD_HSA_ISA_NAME"))
    elif t == NT["NT_AMD_HSA_METADATA"]:
        term = d.endswith(b"\0")
        return MetadataV2Note(_text(d[:-1] if term else d, "NT_AMD_HSA_METADATA"), term)
    elif t == NT["NT_AMD_PAL_METADATA"]:
        if len(d) % 8 == 0:
            return PalMetadataNote([struct.unpack_from("<II", d, i) for i in range(0, len(d), 8)])
    return RawNote(note.owner, t, d)


def encode_note(rec: NoteRecord) -> Note:
    if isinstance(rec, MetadataV3Note):
        return Note(NOTE_OWNER_V3, NT_AMDGPU_METADATA, msgpack.packb(rec.document, use_bin_type=True))
    if isinstance(rec, RawNote):
        return Note(rec.owner, rec.type, rec.desc)
    if isinstance(rec, CodeObjectVersionNote):
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_CODE_OBJECT_VERSION"], struct.pack("<II", rec.major, rec.minor))
    if isinstance(rec, HsailNote):
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_HSAIL"],
                    struct.pack("<IIBBB", rec.hsail_major, rec.hsail_minor, rec.profile, rec.machine_model,
                                rec.default_float_round))
    if isinstance(rec, IsaVersionNote):
        v, a = rec.vendor.encode() + b"\0", rec.architecture.encode() + b"\0"
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_ISA_VERSION"],
                    struct.pack("<HHIII", len(v), len(a), rec.major, rec.minor, rec.stepping) + v + a)
    if isinstance(rec, ProducerNote):
        name = rec.name.encode() + b"\0"
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_PRODUCER"],
                    struct.pack("<HHII", len(name), 0, rec.major, rec.minor) + name)
    if isinstance(rec, ProducerOptionsNote):
        opts = rec.options.encode() + b"\0"
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_PRODUCER_OPTIONS"], struct.pack("<H", len(opts)) + opts)
    if isinstance(rec, IsaNameNote):
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_ISA_NAME"], rec.name.encode())
    if isinstance(rec, MetadataV2Note):
        return Note(NOTE_OWNER_V2, NT["NT_AMD_HSA_METADATA"],
                    rec.text.encode() + (b"\0" if rec.terminated else b""))
    if isinstance(rec, PalMetadataNote):
        return Note(NOTE_OWNER_V2, NT["NT_AMD_PAL_METADATA"],
                    b"".join(struct.pack("<II", k, v) for k, v in rec.pairs))
    raise TypeError(f"not a note record: {rec!r}")


def metadata_v2_note(document: dict) -> MetadataV2Note:
    """A V2 metadata note whose YAML is written the way LLVM writes it."""
    return MetadataV2Note(llvm_yaml.dump(document))


NOTE_TYPE_NAMES: dict[tuple[str, int], str] = {
    **{(NOTE_OWNER_V2, v): k for k, v in NT_AMD_HSA.items()},
    (NOTE_OWNER_V3, NT_AMDGPU_METADATA): "NT_AMDGPU_METADATA",
}
