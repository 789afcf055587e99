"""Readers on crafted hostile files (issue 19.5, 17.2): peak memory stays a small multiple of the file
(tracemalloc), decompression is capped by the header and an absolute limit, aliases and overlapping
headers cannot multiply the input, and inputs past the size cap are refused before they are read."""

from __future__ import annotations

import struct
import subprocess
import sys
import tracemalloc
import zlib

import pytest
import zstandard
from conftest import reference_path

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats import limits
from kernelkit.formats.amdgpu import llvm_yaml
from kernelkit.formats.amdgpu.bundle import BUNDLE_MAGIC, OffloadBundle, decompress, md5_low64
from kernelkit.formats.amdgpu.inspect import inspect as inspect_amdgpu
from kernelkit.formats.visa.binary import read_isa
from kernelkit.formats.visa.tables import MAGIC as VISA_MAGIC

SLACK = 1 << 20        # interpreter noise: a fixed megabyte on top of the multiple


def peak_of(fn, *args) -> tuple[int, object]:
    """Peak bytes traced while ``fn(*args)`` runs, and its result (or the exception raised). A first,
    untraced call imports whatever the reader imports lazily: the peak is the reading's alone."""
    try:
        fn(*args)
    except Exception:                 # noqa: BLE001 - the traced call below reports it
        pass
    tracemalloc.start()
    try:
        try:
            result = fn(*args)
        except Exception as exc:      # noqa: BLE001 - the caller checks what was raised
            result = exc
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, result


def elf_with_overlapping_sections(payload: int, count: int) -> bytes:
    """An ELF64 file whose ``count`` section headers all cover the same ``payload`` bytes."""
    ehdr = struct.Struct("<16sHHIQQQIHHHHHH")
    shdr = struct.Struct("<IIQQQQIIQQ")
    shoff = ehdr.size + payload
    ident = E.ELF_MAGIC + bytes([2, 1, 1]) + bytes(9)
    head = ehdr.pack(ident, E.ET_REL, E.EM_AMDGPU, 1, 0, 0, shoff, 0, ehdr.size, 0, 0, shdr.size, count + 1, 0)
    body = bytes(shdr.size) + b"".join(shdr.pack(0, E.SHT_NOTE, 0, 0, ehdr.size, payload, 0, 0, 4, 0)
                                       for _ in range(count))
    return head + bytes(payload) + body


def test_overlapping_elf_sections_are_refused_without_copies():
    data = elf_with_overlapping_sections(256 << 10, 4000)     # ~0.5 MB claiming ~1 GB of section data
    peak, result = peak_of(E.ElfFile.parse, data)
    assert isinstance(result, FormatError) and result.field == "sh_offset"
    assert peak < 4 * len(data) + SLACK


def test_symbol_names_cannot_multiply_the_string_table():
    long_name = b"k" * (64 << 10) + b"\0"
    sym = struct.Struct("<IBBHQQ")
    symtab = b"".join(sym.pack(i % 1024, 0x12, 0, 1, 0, 0) for i in range(20000))  # 20000 names, ~64 KB each
    elf = E.ElfFile(e_machine=E.EM_AMDGPU)
    elf.sections += [E.Section(".strtab", E.SHT_STRTAB, data=long_name, addralign=1),
                     E.Section(".symtab", E.SHT_SYMTAB, link=1, addralign=8, entsize=24, data=symtab),
                     E.Section(".shstrtab", E.SHT_STRTAB, addralign=1)]
    elf.e_shstrndx = 3
    elf.layout()
    data = elf.to_bytes()
    parsed = E.ElfFile.parse(data)
    peak, result = peak_of(parsed.symbols, ".symtab")
    assert isinstance(result, FormatError)
    assert peak < 8 * len(data) + SLACK


def test_overlapping_bundle_entries_are_refused_without_copies():
    payload = 256 << 10
    count = 5000                                               # ~1.2 GB if each entry were copied
    header = len(BUNDLE_MAGIC) + 8 + count * (24 + 4)
    entries = b"".join(struct.pack("<QQQ", header, payload, 4) + b"host" for _ in range(count))
    data = BUNDLE_MAGIC + struct.pack("<Q", count) + entries + bytes(payload)
    peak, result = peak_of(OffloadBundle.parse, data)
    assert isinstance(result, FormatError) and result.field == "entry_offset"
    assert peak < 4 * len(data) + SLACK


def test_bundle_entries_are_views_of_the_file():
    real = reference_path("amdgpu", "bundle", "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    bundle = OffloadBundle.parse(real)
    assert [bytes(e.data) == real[e.offset:e.offset + len(e.data)] for e in bundle.entries] == \
        [True] * len(bundle.entries)
    assert all(isinstance(e.data, memoryview) for e in bundle.entries)
    assert OffloadBundle(bundle.entries).to_bytes() == real          # views write back like bytes


def test_overlapping_visa_objects_are_refused(reference):
    real = (reference / "visa" / "tgllp_simple" / "simple.isa").read_bytes()
    head = struct.pack("<IBBH", VISA_MAGIC, 4, 1, 200)
    for i in range(200):                                       # 200 kernels x 255 Gen binaries, each the file
        name = f"k{i}".encode()
        head += struct.pack("<H", len(name)) + name + struct.pack("<IIIHHB", 0, len(real), 0, 0, 0, 255)
        head += struct.pack("<BII", 1, 0, len(real)) * 255
    data = head + struct.pack("<HH", 0, 0) + real
    peak, result = peak_of(read_isa, data)
    assert isinstance(result, FormatError)
    assert peak < 4 * len(data) + SLACK


def test_billion_laughs_is_refused_quickly():
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for i in range(1, 10):
        text += f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]\n"
    peak, result = peak_of(llvm_yaml.load, text)
    assert isinstance(result, FormatError) and "expand" in str(result)
    assert peak < 200 * len(text) + SLACK
    assert llvm_yaml.load("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}   # small aliases still read


@pytest.mark.parametrize("text", ["a: &x [1, *x]\n", "a: &x {b: *x}\n"])
def test_recursive_yaml_alias_is_a_format_error(text):
    with pytest.raises(FormatError, match="recursive"):
        llvm_yaml.load(text)


def ccob(method: int, payload: bytes, usize: int, digest: int = 0, version: int = 3) -> bytes:
    fmt = {2: "<II", 3: "<QQ"}[version]
    total = 8 + struct.calcsize(fmt) + 8 + len(payload)
    return b"CCOB" + struct.pack("<HH", version, method) + struct.pack(fmt, total, usize) + \
        struct.pack("<Q", digest) + payload


def _zstd_zeros(size: int) -> bytes:
    """A zstd frame of ``size`` zero bytes whose frame header declares that size."""
    cobj = zstandard.ZstdCompressor(level=1).compressobj(size=size)
    chunk = bytes(1 << 20)
    out = [cobj.compress(chunk) for _ in range(size >> 20)]
    return b"".join(out) + cobj.flush()


def _zlib_zeros(size: int) -> bytes:
    c = zlib.compressobj(1)
    chunk = bytes(1 << 20)
    return b"".join(c.compress(chunk) for _ in range(size >> 20)) + c.flush()


@pytest.mark.parametrize("method,bomb", [(1, _zstd_zeros), (0, _zlib_zeros)], ids=["zstd", "zlib"])
def test_decompression_stops_at_the_declared_size(method, bomb):
    payload = bomb(64 << 20)                                   # 64 MB of zeros in ~300 KB (zlib) or less
    data = ccob(method, payload, 4096)                          # the header claims 4 KB
    peak, result = peak_of(decompress, data)
    assert isinstance(result, FormatError) and result.field == "uncompressed_size"
    assert peak < 4 * len(data) + SLACK


@pytest.mark.parametrize("usize", [1 << 40, (1 << 64) - 1])
def test_header_claiming_more_than_the_cap_is_refused_before_allocating(usize):
    payload = _zstd_zeros(1 << 20)
    peak, result = peak_of(decompress, ccob(1, payload, usize))
    assert isinstance(result, FormatError) and "exceeds the limit" in str(result)
    assert peak < SLACK


def test_honest_header_past_the_expansion_bound_is_refused():
    payload = _zstd_zeros(64 << 20)                             # ~ 2 KB of zstd for 64 MB: ratio > 1024
    assert len(payload) * limits.MAX_EXPANSION < 64 << 20
    peak, result = peak_of(decompress, ccob(1, payload, 64 << 20))
    assert isinstance(result, FormatError) and "exceeds the limit" in str(result)
    assert peak < SLACK


@pytest.mark.parametrize("method", ["zstd", "zlib"])
def test_real_bundle_decompresses_streamed(method):
    from kernelkit.formats.amdgpu.bundle import compress

    plain = BUNDLE_MAGIC + struct.pack("<Q", 0) + bytes(range(256)) * 64
    info, out = decompress(compress(plain, method=method, version=2))
    assert out == plain and info.uncompressed_size == len(plain) and md5_low64(out) == info.hash
    with pytest.raises(FormatError):
        decompress(compress(plain, method=method, version=2)[:-7])          # truncated stream


def test_compressed_reference_bundle_reads_within_bounds():
    ref = reference_path("amdgpu", "bundle", "saxpy.hipv4.compressed.hipfb").read_bytes()
    peak, result = peak_of(inspect_amdgpu, ref, "x")
    assert isinstance(result, dict) and result["compression"]["method"] == "zstd"
    info = result["compression"]
    assert peak < 4 * (len(ref) + info["uncompressed_size"]) + SLACK


def test_input_size_cap(tmp_path):
    with pytest.raises(FormatError, match="input size limit"):
        limits.read_input("/dev/zero", 1 << 20)
    small = tmp_path / "x.bin"
    small.write_bytes(b"abc")
    assert limits.read_input(small, 3) == b"abc"
    with pytest.raises(FormatError):
        limits.read_input(small, 2)
    assert limits.parse_size("512M") == 512 << 20 and limits.parse_size("4096") == 4096


def test_inspect_dev_zero_is_one_line_error():
    env_cap = "2M"
    proc = subprocess.run([sys.executable, "-m", "kernelkit", "inspect", "--max-input-size", env_cap, "/dev/zero"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert proc.stderr.count("\n") == 1 and "input size limit" in proc.stderr


@pytest.mark.parametrize("command", [["link", "-k", "clear_memory"], ["run", "-g", "4"], ["layout", "-k", "x"],
                                     ["build", "-t", "host", "-o", "-"]])
def test_every_command_reading_a_file_applies_the_cap(command):
    import os

    path = reference_path("amdil", "hlc-juniper", "clear_memory.01.linked.il")
    assert path.stat().st_size > 1024
    env = dict(os.environ, KERNELKIT_MAX_INPUT_SIZE="1k")
    proc = subprocess.run([sys.executable, "-m", "kernelkit", command[0], str(path), *command[1:]],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode != 0 and "input size limit of 1024 bytes" in proc.stderr, proc.stderr


def test_cl2_metadata_symbols_naming_the_same_bytes_are_refused():
    from kernelkit.formats.amdcl2.binary import read_cl2

    real = reference_path("amdcl2", "alltypes.clo.regen").read_bytes()
    elf = E.ElfFile.parse(real)
    symtab = elf.section(".symtab")
    syms = elf.symbols()
    meta = next(s for s in syms if s.name.endswith("_kernel_metadata"))
    strtab = elf.sections[symtab.link]
    copies = []
    for i in range(2000):             # 2000 kernels' metadata, all the same bytes: 2000 parses of one blob
        name = meta.name.replace("_kernel_metadata", f"{i}_kernel_metadata")
        copies.append(E.Symbol(name, meta.value, meta.size, meta.bind, meta.type, meta.other, meta.shndx,
                               len(strtab.data)))
        strtab.data += name.encode() + b"\0"
    symtab.data = E.encode_symbols(syms + copies, elf.ei_class, elf.little)
    elf.layout()
    data = elf.to_bytes()
    assert len(read_cl2(real).kernels) >= 1
    with pytest.raises(FormatError, match="overlaps"):
        read_cl2(data)
