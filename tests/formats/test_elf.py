"""ELF reader/writer against llvm-readelf-19 dumps of the reference files and llvm-readelf itself."""

from __future__ import annotations

import subprocess

import pytest
from amdgpu.readelf_dump import dump_pairs, parse_dump
from conftest import REFERENCE, require_tool

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E

PAIRS = dump_pairs(REFERENCE)
FLAG_LETTERS = {"W": E.SHF_WRITE, "A": E.SHF_ALLOC, "X": E.SHF_EXECINSTR, "M": 0x10, "S": 0x20,
                "I": 0x40}
SHN = {"UND": 0, "ABS": 0xFFF1, "COM": 0xFFF2}


def test_reference_pairs_present():
    assert len(PAIRS) > 100


@pytest.mark.parametrize("dump,binary", PAIRS, ids=[p[1].name + "-" + p[1].parent.name for p in PAIRS])
def test_reads_like_readelf(dump, binary):
    data = binary.read_bytes()
    ref = parse_dump(dump.read_text())
    elf = E.ElfFile.parse(data)
    assert elf.to_bytes() == data  # byte-identical round trip
    assert ("REL" if elf.e_type == E.ET_REL else "DYN") in ref.header["Type"]
    assert int(ref.header["Flags"].split(",")[0], 16) == elf.e_flags
    assert int(ref.header["ABI Version"]) == elf.abiversion
    assert len(ref.sections) == len(elf.sections)
    for (_idx, name, tname, addr, off, size, es, flg, lk, inf, al), sec in zip(ref.sections, elf.sections,
                                                                              strict=True):
        assert sec.name == name
        assert sec.type_name == tname
        assert (sec.addr, sec.offset, sec.size, sec.entsize, sec.link, sec.info, sec.addralign) == \
            (addr, off, size, es, lk, inf, al)
        flags = 0
        for letter in flg:
            flags |= FLAG_LETTERS[letter]
        assert sec.flags == flags
    for table, rows in ref.symbols.items():
        syms = elf.symbols(table)
        assert len(syms) == len(rows)
        for (_num, value, size, tname, bind, vis, ndx, name), sym in zip(rows, syms, strict=True):
            assert (sym.value, sym.size, sym.type_name, sym.bind_name, sym.visibility_name, sym.name) == \
                (value, size, tname, bind, vis, name)
            assert sym.shndx == (SHN[ndx] if ndx in SHN else int(ndx))
    for table, rows in ref.relocations.items():
        relocs = elf.relocations(table)
        symtab = elf.symbols(elf.sections[elf.section(table).link])
        assert len(relocs) == len(rows)
        for (offset, info, tname, target), r in zip(rows, relocs, strict=True):
            assert (r.offset, (r.symbol << 32) | r.type, r.type_name) == (offset, info, tname)
            assert target.split(" ")[0] == symtab[r.symbol].name
    notes = elf.all_notes()
    assert [(n.owner, len(n.desc)) for n in notes] == [(o, s) for o, s, _ in ref.notes]


def test_corrupt_inputs_raise_format_error():
    data = (REFERENCE / "amdgpu" / "zig" / "saxpy.gfx90a.v5.hsaco").read_bytes()
    for cut in (0, 3, 10, 40, 63, 64, 200, len(data) // 2, len(data) - 1):
        with pytest.raises(FormatError):
            elf = E.ElfFile.parse(data[:cut])
            for sec in elf.sections:
                if sec.type in (E.SHT_SYMTAB, E.SHT_DYNSYM):
                    elf.symbols(sec)
    bad = bytearray(data)
    bad[4] = 7
    with pytest.raises(FormatError) as exc:
        E.ElfFile.parse(bytes(bad))
    assert exc.value.field == "EI_CLASS"
    for pos in range(0x40, len(data), 97):  # corrupted bytes: FormatError or a clean read, nothing else
        bad = bytearray(data)
        bad[pos] ^= 0xFF
        try:
            elf = E.ElfFile.parse(bytes(bad))
            for sec in elf.sections:
                if sec.type in (E.SHT_SYMTAB, E.SHT_DYNSYM):
                    elf.symbols(sec)
                elif sec.type == E.SHT_NOTE:
                    elf.notes(sec)
                elif sec.type in (E.SHT_RELA, E.SHT_REL):
                    elf.relocations(sec)
        except FormatError:
            pass


def _tiny(ei_class: int) -> E.ElfFile:
    strtab, offs = E.build_string_table(["kern", "data"])
    syms = [E.Symbol("", 0, 0, 0, 0, 0, 0),
            E.Symbol("kern", 0, 8, 1, 2, 3, 1, offs["kern"]),
            E.Symbol("data", 0, 4, 1, 1, 0, 2, offs["data"])]
    relocs = [E.Relocation(4, 5, 1, 16)]
    notes = [E.Note("AMDGPU", 32, b"\x80\x01\x02\x03")]
    elf = E.ElfFile(ei_class=ei_class, e_machine=E.EM_AMDGPU, osabi=64, abiversion=3, e_flags=0x30)
    elf.sections += [
        E.Section(".text", E.SHT_PROGBITS, 6, addralign=256, data=b"\0" * 8),
        E.Section(".data", E.SHT_PROGBITS, 3, addralign=4, data=b"\1\2\3\4"),
        E.Section(".note", E.SHT_NOTE, 2, addralign=4, data=E.encode_notes(notes)),
        E.Section(".rela.data", E.SHT_RELA, 0x40, link=6, info=2, addralign=8,
                  entsize=24 if ei_class == 2 else 12,
                  data=E.encode_relocations(relocs, True, ei_class)),
        E.Section(".strtab", E.SHT_STRTAB, data=strtab, addralign=1),
        E.Section(".symtab", E.SHT_SYMTAB, link=5, info=1, addralign=8, entsize=24 if ei_class == 2 else 16,
                  data=E.encode_symbols(syms, ei_class)),
        E.Section(".shstrtab", E.SHT_STRTAB, addralign=1),
    ]
    elf.e_shstrndx = 7
    elf.layout()
    return elf


@pytest.mark.parametrize("ei_class", [1, 2])
def test_writer_output_read_back_and_accepted_by_llvm_readelf(tmp_path, ei_class):
    elf = _tiny(ei_class)
    data = elf.to_bytes()
    assert data == _tiny(ei_class).to_bytes()  # deterministic
    back = E.ElfFile.parse(data)
    assert [s.name for s in back.sections] == ["", ".text", ".data", ".note", ".rela.data", ".strtab",
                                               ".symtab", ".shstrtab"]
    assert back.section(".text").offset % 256 == 0
    assert [(s.name, s.type_name, s.shndx) for s in back.symbols()] == [
        ("", "NOTYPE", 0), ("kern", "FUNC", 1), ("data", "OBJECT", 2)]
    r = back.relocations(".rela.data")[0]
    if ei_class == 2:
        assert (r.offset, r.type_name, r.symbol, r.addend) == (4, "R_AMDGPU_REL64", 1, 16)
    assert back.notes(".note")[0].desc == b"\x80\x01\x02\x03"
    tool = require_tool("llvm-readelf")
    path = tmp_path / "t.o"
    path.write_bytes(data)
    out = subprocess.run([tool, "-h", "-S", "-s", "-r", "--notes", str(path)], capture_output=True,
                         text=True, check=True)
    assert "warning" not in out.stderr.lower() and "error" not in out.stderr.lower(), out.stderr
    assert "kern" in out.stdout and "data" in out.stdout
    if ei_class == 2:
        assert "R_AMDGPU_REL64" in out.stdout


def test_fuzzed_alignment_is_a_format_error_not_a_crash():
    """gABI: sh_addralign is 0, 1 or a power of two; note alignment 4 or 8. A fuzzed value must
    not make the writer allocate without bound (MemoryError) or overflow struct packing."""
    data = (REFERENCE / "amdgpu" / "zig" / "saxpy.gfx90a.v5.hsaco").read_bytes()
    for value in (3, 12, 1 << 40, (1 << 64) - 1):
        elf = E.ElfFile.parse(data)
        elf.sections[1].addralign = value
        with pytest.raises(FormatError) as exc:
            elf.layout()
        assert exc.value.field == "sh_addralign"
    elf = _tiny(2)
    note = elf.section(".note")
    for value in (16, 1 << 40):
        note.addralign = value
        with pytest.raises(FormatError) as exc:
            elf.notes(note)
        assert exc.value.field == "sh_addralign"
        with pytest.raises(FormatError):
            E.encode_notes([E.Note("AMD", 1, b"")], value)
    # every header byte of sh_addralign fuzzed in a real file: read, notes, re-layout, write
    shoff, shentsize = E.ElfFile.parse(data).e_shoff, 64
    for index in range(1, len(E.ElfFile.parse(data).sections)):
        for byte in range(8):
            bad = bytearray(data)
            bad[shoff + index * shentsize + 48 + byte] ^= 0xA5
            try:
                elf = E.ElfFile.parse(bytes(bad))
                elf.all_notes()
                elf.layout()
                elf.to_bytes()
            except FormatError:
                pass
