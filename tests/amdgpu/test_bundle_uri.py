"""Offload bundles (plain + CCOB v1..v3, zlib/zstd) and code object URIs."""

from __future__ import annotations

import zlib

import pytest
import zstandard
from conftest import REFERENCE, spec_text

from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu.bundle import (
    BundleEntry,
    BundleEntryID,
    OffloadBundle,
    compress,
    decompress,
    md5_low64,
)
from kernelkit.formats.amdgpu.uri import CodeObjectURI, parse_uri

BUNDLES = REFERENCE / "amdgpu" / "bundle"


def test_plain_bundle_round_trip_byte_identical():
    data = (BUNDLES / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    bundle = OffloadBundle.parse(data)
    assert bundle.to_bytes() == data
    gfx90a = bundle.find("gfx90a:sramecc+:xnack-")
    assert gfx90a.data[:4] == b"\x7fELF"
    assert bundle.find("hipv4-amdgcn-amd-amdhsa--gfx1100").entry_id.target_id == "gfx1100"
    with pytest.raises(FormatError):
        bundle.find("gfx942")


def test_compressed_reference_bundle():
    packed = (BUNDLES / "saxpy.hipv4.compressed.hipfb").read_bytes()
    plain = (BUNDLES / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    info, out = decompress(packed)
    assert out == plain
    assert (info.version, info.method, info.total_size, info.uncompressed_size) == (2, "zstd", len(packed), len(plain))
    # the stored hash is the low 64 bits of the MD5 of the uncompressed bundle
    import hashlib
    assert info.hash == int.from_bytes(hashlib.md5(plain).digest()[:8], "little") == md5_low64(plain)
    # the payload is a standard zstd frame
    assert zstandard.ZstdDecompressor().decompress(packed[24:], max_output_size=len(plain)) == plain


@pytest.mark.parametrize("version", [1, 2, 3])
@pytest.mark.parametrize("method", ["zlib", "zstd"])
def test_compress_round_trip(version, method):
    plain = (BUNDLES / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    packed = compress(plain, method=method, version=version)
    assert packed == compress(plain, method=method, version=version)     # deterministic
    info, out = decompress(packed)
    assert out == plain and info.version == version and info.method == method
    header = {1: 20, 2: 24, 3: 32}[version]
    if method == "zlib":
        assert zlib.decompress(packed[header:]) == plain
    else:
        assert zstandard.ZstdDecompressor().decompress(packed[header:], max_output_size=len(plain)) == plain
    if version >= 2:
        assert int.from_bytes(packed[8:12 if version == 2 else 16], "little") == len(packed)
    assert OffloadBundle.parse(packed).to_bytes() == plain


def test_bundle_writer_alignment_and_ids():
    b = OffloadBundle([BundleEntry("host-x86_64-unknown-linux-gnu-", b""),
                       BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", b"A" * 10),
                       BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx1030", b"B" * 5)])
    data = b.to_bytes(alignment=4096)
    back = OffloadBundle.parse(data)
    assert [e.offset for e in back.entries][1:] == [4096, 8192]
    assert [e.data for e in back.entries] == [b"", b"A" * 10, b"B" * 5]
    eid = BundleEntryID.parse("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-")
    assert (eid.kind, eid.triple, eid.target_id) == ("hipv4", "amdgcn-amd-amdhsa-", "gfx90a:xnack-")
    assert str(eid) == "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"
    assert str(BundleEntryID.parse("host-x86_64-unknown-linux-gnu-")) == "host-x86_64-unknown-linux-gnu-"
    with pytest.raises(FormatError):
        BundleEntryID.parse("hip-amdgcn")
    old = BundleEntryID.parse("hip-amdgcn-amd-amdhsa-gfx906+xnack")      # V2-V3 target ID syntax
    assert (old.triple, old.target_id) == ("amdgcn-amd-amdhsa-", "gfx906+xnack")
    assert old.target().canonical() == "gfx906:sramecc-:xnack+"
    assert eid.target().setting("xnack") == "off" and eid.target().setting("sramecc") == "any"
    assert BundleEntryID.parse("host-x86_64-unknown-linux-gnu-").target() is None


def test_uris(tmp_path):
    u = parse_uri("file:///tmp/a%20b.so#offset=0x1000&size=4096")
    assert (u.scheme, u.path, u.offset, u.size) == ("file", "/tmp/a b.so", 4096, 4096)
    assert u.format() == "file:///tmp/a%20b.so#offset=4096&size=4096"
    assert parse_uri(u.format()) == u
    m = parse_uri("memory://1234#offset=0x7f0000001000&size=8192")
    assert (m.pid, m.offset, m.size) == (1234, 0x7F0000001000, 8192)
    assert parse_uri(m.format()) == m
    assert parse_uri("file:///x.co?offset=010&size=2").offset == 8      # octal
    assert parse_uri("file:///x.co").format() == "file:///x.co"
    for bad in ("http://x", "memory://12", "file://#offset=1&size=2", "file:///x#offset=1",
                "file:///x#offset=z&size=1", "file:///x#offset=1&offset=2", "memory://pid#offset=1&size=2"):
        with pytest.raises(FormatError):
            parse_uri(bad)
    plain = (BUNDLES / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    path = tmp_path / "fat bin.hipfb"
    path.write_bytes(plain)
    entry = OffloadBundle.parse(plain).entries[1]
    uri = CodeObjectURI("file", path=str(path), offset=entry.offset, size=len(entry.data))
    assert parse_uri(uri.format()).read() == entry.data


def test_uri_examples_and_encoding_of_spec_001():
    """The examples spec 001 gives for code object URIs, and its encoding rule: every character
    outside [a-zA-Z0-9/_.~-] as %XX of its UTF-8 bytes, uppercase hex."""
    import re

    text = spec_text("001")
    examples = re.findall(r"^((?:file|memory)://\S+)$", text, re.M)
    assert len(examples) == 3
    parsed = [parse_uri(e) for e in examples]
    assert [(u.scheme, u.path, u.pid, u.offset, u.size) for u in parsed] == [
        ("file", "/dir1/dir2/file1", None, 0, 0), ("file", "/dir3/dir4/file2", None, 0x2000, 3000),
        ("memory", "", 1234, 0x20000, 3000)]
    assert [parse_uri(u.format()) for u in parsed] == parsed
    path = "/a b+c,ü~_.-x(1)"
    encoded = CodeObjectURI("file", path=path).format()
    assert encoded == "file://" + "".join(
        c if re.fullmatch(r"[a-zA-Z0-9/_.~-]", c) else "".join(f"%{b:02X}" for b in c.encode()) for c in path)
    assert parse_uri(encoded).path == path
    assert parse_uri("file:///x?offset=0X10&size=017").offset == 16 and parse_uri("file:///x?offset=0X10&size=017").size == 15
