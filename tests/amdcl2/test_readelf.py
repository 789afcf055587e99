"""Our reading of AMD's CL2 binaries (outer ELF symbols, inner HSA ELF sections, kernel symbols and
relocations) against llvm-readelf's reading of the same bytes."""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from kernelkit.formats.amdcl2.binary import INNER_DATA_SECTIONS, read_cl2
from kernelkit.formats.elf import ElfFile
from tests.conftest import require_tool

SYMBOL = re.compile(r"^\s*\d+: ([0-9a-f]+)\s+(\d+) (.+?)\s+(LOCAL|GLOBAL|WEAK)\s+\S+\s+(\S+) ?(.*)$")
RELOC = re.compile(r"^([0-9a-f]{8,16})\s+([0-9a-f]{8,16})\s+(\S+)\s+([0-9a-f]{8,16})\s+(.*)$")


def readelf(path: Path) -> dict:
    """Sections (llvm-readelf's JSON), symbols and relocations (its GNU text) of one file."""
    tool = require_tool("llvm-readelf")
    doc = json.loads(subprocess.run([tool, "--elf-output-style=JSON", "-S", str(path)],
                                    capture_output=True, text=True, check=True).stdout)
    sections = [s["Section"] for s in doc[0][str(path)]["Sections"]]
    text = subprocess.run([tool, "-s", "-r", "-W", str(path)], capture_output=True, text=True,
                          check=True).stdout
    symbols, relocs, current = [], {}, None
    for line in text.splitlines():
        m = re.match(r"Relocation section '(\S+)'", line)
        if m:
            current = relocs.setdefault(m.group(1), [])
            continue
        if line.startswith("Symbol table"):
            current = None
        m = SYMBOL.match(line)
        if m and current is None:
            symbols.append((m.group(6), int(m.group(1), 16), int(m.group(2)), m.group(5)))
            continue
        m = RELOC.match(line)
        if m and current is not None:
            info, tail = int(m.group(2), 16), m.group(5).split()
            addend = int(tail[-1], 16) * (-1 if len(tail) > 1 and tail[-2] == "-" else 1)
            current.append((int(m.group(1), 16), info & 0xFFFFFFFF, info >> 32, addend))
    return {"sections": sections, "symbols": symbols, "relocations": relocs}


def reference_binaries(reference) -> list[Path]:
    files = sorted((reference / "amdcl2").glob("*.clo.re*"))
    assert len(files) == 28
    return files


def test_outer_symbols_are_llvm_readelfs(reference, tmp_path):
    """Every outer symbol llvm-readelf lists is one our model writes back, at the same place and
    size: compile options, acl version, one metadata blob per kernel, __BRIG__."""
    for path in reference_binaries(reference):
        b = read_cl2(path.read_bytes())
        got = {name: (value, size) for name, value, size, _ in readelf(path)["symbols"] if name}
        options, acl = len(b.compile_options.encode()), len(b.acl_version.encode())
        assert got.pop("__OpenCL_compiler_options") == (0, options), path.name
        assert got.pop("acl_version_string") == (options, acl), path.name
        offset = 0
        for k in b.kernels:
            size = len(k.metadata.to_bytes())
            assert got.pop(f"__OpenCL_&__OpenCL_{k.name}_kernel_metadata") == (offset, size), path.name
            offset += size
        brig = got.pop("__BRIG__", None)
        assert brig is None or brig[1] == (len(b.brig) if b.brig is not None else b.extra["brig_size"])
        assert not got, (path.name, got)


def test_inner_binary_is_llvm_readelfs(reference, tmp_path):
    """The inner HSA ELF as llvm-readelf reads it: each kernel symbol (type AMDGPU_HSA_KERNEL in
    .hsatext) spans our amd_kernel_code_t + code, 256-byte aligned; the global data, bss and
    sampler-init sections have our sizes; their relocations are ours."""
    checked = 0
    for path in reference_binaries(reference):
        b = read_cl2(path.read_bytes())
        if b.inner is None:
            continue
        inner = tmp_path / "inner.o"
        inner.write_bytes(ElfFile.parse(path.read_bytes()).section(".text").data)
        r = readelf(inner)
        names = [s["Name"]["Value"] for s in r["sections"]]
        kernels = {name: (value, size, names[int(ndx)]) for name, value, size, ndx in r["symbols"]
                   if name.startswith("&__OpenCL_") and name.endswith("_kernel")}
        for k in b.kernels:
            value, size, section = kernels.pop(f"&__OpenCL_{k.name}_kernel")
            assert (size, section, value % 256) == (len(k.setup) + len(k.code), ".hsatext", 0)
            text = b.inner_section(".hsatext")
            assert text[value:value + size] == k.setup + k.code
            assert k.kernel_code.kernel_code_entry_byte_offset == len(k.setup) == 256
            checked += 1
        assert not kernels
        ours = b.data_sections()
        theirs = {s["Name"]["Value"]: s for s in r["sections"] if s["Name"]["Value"] in INNER_DATA_SECTIONS}
        assert set(ours) == set(theirs), path.name
        for name, s in theirs.items():
            assert (ours[name]["size"], ours[name]["align"]) == (s["Size"], s["AddressAlignment"])
            assert ours[name].get("relocations", []) == r["relocations"].get(".rela" + name, [])
    assert checked == 88


def test_rewritten_inner_binary_keeps_the_kernels_where_llvm_readelf_finds_them(reference, tmp_path):
    """A kernel whose code grows moves the following kernels to the next 256-byte boundary; the
    relocations that patch their code move with them (llvm-readelf's view of the rewrite)."""
    b = read_cl2((reference / "amdcl2" / "atomics.clo.regen").read_bytes())
    first, second = b.kernels
    grown = replace(b, kernels=[replace(first, code=first.code + bytes(300)), second])
    back = read_cl2(grown.to_bytes())
    inner = tmp_path / "inner.o"
    inner.write_bytes(back.inner_bytes())
    r = readelf(inner)
    places = {name: value for name, value, _, _ in r["symbols"]}
    old_place = 0x200
    new_place = places["&__OpenCL_imageTransform_kernel"]
    assert new_place == (256 + len(first.code) + 300 + 255) // 256 * 256 == old_place + 0x200
    before = {o for o, *_ in b.data_sections()[".hsatext"]["relocations"]}
    after = {o for o, *_ in r["relocations"][".rela.hsatext"]}
    assert after == {o if o < old_place else o + new_place - old_place for o in before}
    assert back.kernel("imageTransform").code == second.code


@pytest.mark.parametrize("name", ["samplers4.32.clo.regen", "enqueue.clo.regen"])
def test_llvm_readelf_reads_the_outer_elf_we_write(reference, tmp_path, name):
    b = read_cl2((reference / "amdcl2" / name).read_bytes())
    out = tmp_path / "out.clo"
    out.write_bytes(replace(b, compile_options=b.compile_options + " -DX").to_bytes())
    r = readelf(out)
    assert [s["Name"]["Value"] for s in r["sections"]] == [s.name for s in ElfFile.parse(
        (reference / "amdcl2" / name).read_bytes()).sections]
    assert dict((n, (v, s)) for n, v, s, _ in r["symbols"])["acl_version_string"] == (
        len(b.compile_options) + 4, len(b.acl_version))
