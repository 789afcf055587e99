"""Host objects carrying device code: the ``.hip_fatbin`` section of a host ELF holds one or more
offload bundles (plain or ``CCOB``-compressed), each at a 4096-byte boundary when several
translation units were linked together.

``fatbin_bundles(elf) -> list[(offset, OffloadBundle)]`` reads them; ``host_object(bundle_bytes)``
writes a minimal relocatable x86-64 host object with the section and its ``__hip_fatbin`` symbol.
"""

from __future__ import annotations

import struct

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu.bundle import BUNDLE_MAGIC, CCOB_HEADER, CCOB_MAGIC, OffloadBundle

FATBIN_SECTIONS = (".hip_fatbin", "__CLANG_OFFLOAD_BUNDLE__hip_fatbin")
FATBIN_ALIGN = 4096
EM_X86_64 = 62


def fatbin_section(elf: E.ElfFile) -> E.Section | None:
    for name in FATBIN_SECTIONS:
        sec = elf.section(name)
        if sec is not None:
            return sec
    return None


def _bundle_end(data: bytes, pos: int) -> int:
    if data[pos:pos + 4] == CCOB_MAGIC:
        version = struct.unpack_from("<H", data, pos + 4)[0] if pos + 6 <= len(data) else 0
        total_fmt = CCOB_HEADER.get(version, (None, ""))[0]
        if total_fmt:
            if pos + 8 + struct.calcsize("<" + total_fmt) > len(data):
                raise FormatError("truncated CCOB header", offset=pos + 8, field="total_file_size")
            return pos + struct.unpack_from("<" + total_fmt, data, pos + 8)[0]
        return len(data)
    bundle = OffloadBundle.parse(data[pos:])
    header = len(BUNDLE_MAGIC) + 8 + sum(24 + len(e.id) for e in bundle.entries)
    return pos + max([header] + [e.offset + len(e.data) for e in bundle.entries])


def fatbin_bundles(elf: E.ElfFile) -> list[tuple[int, OffloadBundle]]:
    sec = fatbin_section(elf)
    if sec is None:
        raise FormatError("no .hip_fatbin section", field="sections")
    data = sec.data
    out = []
    pos = 0
    while pos < len(data):
        if data[pos:pos + len(BUNDLE_MAGIC)] != BUNDLE_MAGIC and data[pos:pos + 4] != CCOB_MAGIC:
            if any(data[pos:]):
                nxt = -(-(pos + 1) // FATBIN_ALIGN) * FATBIN_ALIGN
                if nxt >= len(data) or not out:
                    raise FormatError("bytes in .hip_fatbin that are not an offload bundle",
                                      offset=sec.offset + pos, field=".hip_fatbin")
                pos = nxt
                continue
            break
        end = _bundle_end(data, pos)
        out.append((pos, OffloadBundle.parse(data[pos:end])))
        pos = -(-end // FATBIN_ALIGN) * FATBIN_ALIGN
    if not out:
        raise FormatError("empty .hip_fatbin section", offset=sec.offset, field=".hip_fatbin")
    return out


def host_object(bundles: list[bytes], machine: int = EM_X86_64) -> bytes:
    """A relocatable host ELF whose ``.hip_fatbin`` holds the given bundles, 4096-aligned."""
    fat = bytearray()
    for b in bundles:
        fat += b"\0" * (-(-len(fat) // FATBIN_ALIGN) * FATBIN_ALIGN - len(fat)) + b
    strtab, offs = E.build_string_table(["__hip_fatbin"])
    syms = [E.Symbol("", 0, 0, 0, 0, 0, 0),
            E.Symbol("__hip_fatbin", 0, len(fat), 0, 1, 0, 1, offs["__hip_fatbin"])]
    elf = E.ElfFile(ei_class=E.ELFCLASS64, e_type=E.ET_REL, e_machine=machine)
    elf.sections += [
        E.Section(".hip_fatbin", E.SHT_PROGBITS, E.SHF_ALLOC, addralign=FATBIN_ALIGN, data=bytes(fat)),
        E.Section(".strtab", E.SHT_STRTAB, addralign=1, data=strtab),
        E.Section(".symtab", E.SHT_SYMTAB, link=2, info=2, addralign=8, entsize=24,
                  data=E.encode_symbols(syms)),
        E.Section(".shstrtab", E.SHT_STRTAB, addralign=1),
    ]
    elf.e_shstrndx = 4
    elf.layout()
    return elf.to_bytes()
