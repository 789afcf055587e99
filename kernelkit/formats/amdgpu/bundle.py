"""Clang offload bundles: ``__CLANG_OFFLOAD_BUNDLE__`` and compressed ``CCOB`` (v1..v3, zlib/zstd).

Plain layout: magic (24 bytes), u64 entry count, per entry u64 offset, u64 size, u64 ID length,
ID; then the entries' data at their offsets. Compressed layout: ``CCOB``, u16 version, u16 method
(0 zlib, 1 zstd), [v2: u32 total size | v3: u64 total size], u32/u64 uncompressed size, u64 hash
(low 64 bits of the MD5 of the uncompressed bundle, little-endian), compressed bundle.
Entry IDs: ``<offload-kind>-<triple>[-<target-id>]`` (``hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-``).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from dataclasses import dataclass, field

import zstandard

from kernelkit.errors import FormatError
from kernelkit.formats.limits import decompressed_limit, first_overlap, inflate

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
CCOB_MAGIC = b"CCOB"
# clang OffloadBundler "CompressedOffloadBundle": method codes (llvm::compression::Format)
COMPRESSION_METHODS: dict[str, int] = {"zlib": 0, "zstd": 1}
# header layout per version: (total-size format or None, uncompressed-size format)
CCOB_HEADER: dict[int, tuple[str | None, str]] = {1: (None, "I"), 2: ("I", "I"), 3: ("Q", "Q")}
OFFLOAD_KINDS = ("host", "hip", "hipv4", "openmp", "sycl")


@dataclass(frozen=True)
class BundleEntryID:
    kind: str
    triple: str          # four components, e.g. "amdgcn-amd-amdhsa-"
    target_id: str = ""  # e.g. "gfx90a:sramecc+:xnack-" (empty for host entries)

    @classmethod
    def parse(cls, text: str) -> BundleEntryID:
        parts = text.split("-", 5)
        if len(parts) < 4:
            raise FormatError(f"bundle entry ID {text!r} is not <kind>-<triple>[-<target-id>]",
                              field="bundle_entry_id")
        kind = parts[0]
        triple_parts = parts[1:5]
        target = parts[5] if len(parts) > 5 else ""
        # older HIP bundles: 3-component triple then the V2-V3 target ID ("hip-amdgcn-amd-amdhsa-gfx906+xnack")
        if len(triple_parts) == 4 and not target and triple_parts[3].startswith("gfx"):
            target, triple_parts[3] = triple_parts[3], ""
        while len(triple_parts) < 4:
            triple_parts.append("")
        return cls(kind, "-".join(triple_parts), target)

    def __str__(self) -> str:
        return f"{self.kind}-{self.triple}-{self.target_id}"

    @property
    def is_host(self) -> bool:
        return self.kind == "host"

    def target(self):
        """The entry's TargetID (``+feature`` V2-V3 syntax or ``:feature±`` syntax), None for host."""
        from kernelkit.formats.amdgpu.target_id import TargetID

        if not self.target_id:
            return None
        if "+" in self.target_id and ":" not in self.target_id:
            return TargetID.parse_v2v3(self.target_id)
        return TargetID.parse(self.target_id)


@dataclass
class BundleEntry:
    id: str
    data: bytes | memoryview     # read entries are read-only views of the bundle
    offset: int = 0

    @property
    def entry_id(self) -> BundleEntryID:
        return BundleEntryID.parse(self.id)


@dataclass
class CompressionInfo:
    version: int
    method: str
    total_size: int | None
    uncompressed_size: int
    hash: int


@dataclass
class OffloadBundle:
    entries: list[BundleEntry] = field(default_factory=list)
    compression: CompressionInfo | None = None

    @classmethod
    def parse(cls, data: bytes) -> OffloadBundle:
        data = bytes(data)
        if data[:4] == CCOB_MAGIC:
            info, plain = decompress(data)
            bundle = cls.parse(plain)
            bundle.compression = info
            return bundle
        if data[:len(BUNDLE_MAGIC)] != BUNDLE_MAGIC:
            raise FormatError("not a clang offload bundle", offset=0, field="magic")
        pos = len(BUNDLE_MAGIC)
        if len(data) < pos + 8:
            raise FormatError("truncated bundle header", offset=pos, field="num_entries")
        (count,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        if count > len(data) // 24:
            raise FormatError(f"{count} entries cannot fit in {len(data)} bytes", offset=pos - 8,
                              field="num_entries")
        entries = []
        view = memoryview(data)      # entries are views: overlapping entries cost no memory
        for i in range(count):
            if len(data) < pos + 24:
                raise FormatError(f"truncated header of entry {i}", offset=pos, field="entry")
            off, size, idlen = struct.unpack_from("<QQQ", data, pos)
            pos += 24
            if pos + idlen > len(data):
                raise FormatError(f"entry {i} ID runs past the end", offset=pos, field="entry_id")
            try:
                ident = data[pos:pos + idlen].decode("ascii")
            except UnicodeDecodeError as exc:
                raise FormatError(f"entry {i} ID is not ASCII", offset=pos, field="entry_id") from exc
            pos += idlen
            if off + size > len(data):
                raise FormatError(f"entry {i} ({ident}) data [{off}, +{size}) past the end of {len(data)} bytes",
                                  offset=pos - idlen - 24, field="entry_offset")
            entries.append(BundleEntry(ident, view[off:off + size], off))
        _check_disjoint(entries)
        return cls(entries)

    def to_bytes(self, alignment: int = 1) -> bytes:
        """Header, then each non-empty entry at the next multiple of ``alignment``; empty
        entries (the host's) point at the end of the header, as clang-offload-bundler writes them."""
        ids = [e.id.encode("ascii") for e in self.entries]
        header_size = len(BUNDLE_MAGIC) + 8 + sum(24 + len(i) for i in ids)
        offsets = []
        pos = header_size
        for e in self.entries:
            if not e.data:
                offsets.append(header_size)
                continue
            pos = -(-pos // alignment) * alignment
            offsets.append(pos)
            pos += len(e.data)
        out = bytearray(BUNDLE_MAGIC + struct.pack("<Q", len(self.entries)))
        for e, ident, off in zip(self.entries, ids, offsets, strict=True):
            out += struct.pack("<QQQ", off, len(e.data), len(ident)) + ident
        for e, off in zip(self.entries, offsets, strict=True):
            if e.data:
                out += b"\0" * (off - len(out)) + e.data
        return bytes(out)

    def find(self, target: str) -> BundleEntry:
        """The entry for a target ID (``gfx90a:xnack-``) or full entry ID."""
        for e in self.entries:
            if e.id == target or e.entry_id.target_id == target:
                return e
        raise FormatError(f"no bundle entry for {target!r} (entries: {', '.join(e.id for e in self.entries)})",
                          field="bundle_entry_id")


def _check_disjoint(entries: list[BundleEntry]) -> None:
    """Entries occupy disjoint bytes (clang-offload-bundler lays them out one after another): a
    header naming the same bytes many times would make every reader of the entries quadratic."""
    found = first_overlap((e.offset, e.offset + len(e.data), i) for i, e in enumerate(entries))
    if found:
        (_, end, i), (start, _, j) = found
        raise FormatError(f"entry {j} ({entries[j].id}) at {start} overlaps entry {i} ({entries[i].id}, "
                          f"ends at {end})", offset=start, field="entry_offset")


def md5_low64(data: bytes) -> int:
    return struct.unpack("<Q", hashlib.md5(data).digest()[:8])[0]


def decompress(data: bytes, *, check_hash: bool = True) -> tuple[CompressionInfo, bytes]:
    if data[:4] != CCOB_MAGIC:
        raise FormatError("not a compressed offload bundle", offset=0, field="magic")
    if len(data) < 8:
        raise FormatError("truncated CCOB header", offset=4, field="version")
    version, method_code = struct.unpack_from("<HH", data, 4)
    if version not in CCOB_HEADER:
        raise FormatError(f"unsupported CCOB version {version} (known: 1, 2, 3)", offset=4, field="version")
    methods = {v: k for k, v in COMPRESSION_METHODS.items()}
    if method_code not in methods:
        raise FormatError(f"unknown compression method {method_code}", offset=6, field="method")
    total_fmt, size_fmt = CCOB_HEADER[version]
    fmt = "<" + (total_fmt or "") + size_fmt + "Q"
    if len(data) < 8 + struct.calcsize(fmt):
        raise FormatError("truncated CCOB header", offset=8, field="uncompressed_size")
    vals = struct.unpack_from(fmt, data, 8)
    total, usize, digest = (vals if total_fmt else (None, *vals))
    start = 8 + struct.calcsize(fmt)
    end = total if total is not None else len(data)
    if total is not None and total > len(data):
        raise FormatError(f"total size {total} exceeds the {len(data)} bytes present", offset=8,
                          field="total_file_size")
    if end < start:
        raise FormatError(f"total size {total} is smaller than the {start}-byte header", offset=8,
                          field="total_file_size")
    payload = memoryview(data)[start:end]
    decompressed_limit(usize, len(payload), offset=8 + (struct.calcsize(total_fmt) if total_fmt else 0),
                       field="uncompressed_size")
    plain = inflate(methods[method_code], payload, usize, offset=start)
    if check_hash and md5_low64(plain) != digest:
        raise FormatError(f"hash mismatch: stored {digest:#018x}, computed {md5_low64(plain):#018x}",
                          offset=start - 8, field="hash")
    return CompressionInfo(version, methods[method_code], total, usize, digest), plain


def compress(plain: bytes, *, method: str = "zstd", version: int = 3, level: int | None = None) -> bytes:
    if method not in COMPRESSION_METHODS:
        raise FormatError(f"unknown compression method {method!r} (known: zlib, zstd)", field="method")
    if version not in CCOB_HEADER:
        raise FormatError(f"unsupported CCOB version {version}", field="version")
    if method == "zstd":
        payload = zstandard.ZstdCompressor(level=level if level is not None else 20).compress(plain)
    else:
        payload = zlib.compress(plain, level if level is not None else 9)
    total_fmt, size_fmt = CCOB_HEADER[version]
    header_size = 8 + struct.calcsize("<" + (total_fmt or "") + size_fmt + "Q")
    fields_ = ([header_size + len(payload)] if total_fmt else []) + [len(plain), md5_low64(plain)]
    head = CCOB_MAGIC + struct.pack("<HH", version, COMPRESSION_METHODS[method])
    head += struct.pack("<" + (total_fmt or "") + size_fmt + "Q", *fields_)
    return head + payload
