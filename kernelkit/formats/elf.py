"""Generic ELF32/ELF64 reader and writer (little- and big-endian).

API (stable; other formats build on it — never write a second ELF parser):

Reading::

    elf = ElfFile.parse(data)            # raises FormatError(offset=, field=) on bad input
    elf.ei_class  (32|64), elf.little, elf.osabi, elf.abiversion, elf.e_type, elf.e_machine,
    elf.e_entry, elf.e_flags, elf.sections (list[Section], index 0 = NULL),
    elf.program_headers (list[ProgramHeader])
    elf.section(".text") -> Section | None      elf.sections_of_type(SHT_NOTE)
    sec.data (bytes), sec.name, sec.type, sec.flags, sec.addr, sec.offset, sec.size, ...
    elf.symbols(sec_or_name=".symtab") -> list[Symbol]  (name resolved via sh_link)
    elf.relocations(sec) -> list[Relocation] (SHT_REL / SHT_RELA; .type_name via machine table)
    elf.notes(sec_or_phdr) -> list[Note]; parse_notes(data, align=4)
    elf.segment_data(phdr) -> bytes; elf.read_at_vaddr(vaddr, size) -> bytes
    elf.symbol_data(sym) -> bytes (the bytes a defined symbol covers)

Writing::

    elf.to_bytes()            # keeps every offset as is (byte-identical round trip of linked
                              # and unlinked files); gaps are zero-filled.
    elf.layout()              # assigns fresh offsets (phdrs after the header, sections in order
                              # with their alignment, section headers last); then to_bytes()
    build_string_table(names) -> (bytes, {name: offset})
    encode_symbols(symbols, ei_class, little) / encode_relocations(relocs, rela, ei_class, little)
    encode_notes(notes, align=4)

Relocation names: ``RELOCATION_NAMES[e_machine][type]`` (AMDGPU's table comes from
``kernelkit.formats.amdgpu.tables``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats.limits import first_overlap

ELF_MAGIC = b"\x7fELF"
ELFCLASS32, ELFCLASS64 = 1, 2
ELFDATA2LSB, ELFDATA2MSB = 1, 2

# ELF gABI constants (System V ABI, chapter 4)
ET_NAMES = {0: "NONE", 1: "REL", 2: "EXEC", 3: "DYN", 4: "CORE"}
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
EM_AMDGPU = 224
SHT_NULL, SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA = 0, 1, 2, 3, 4
SHT_HASH, SHT_DYNAMIC, SHT_NOTE, SHT_NOBITS, SHT_REL, SHT_DYNSYM = 5, 6, 7, 8, 9, 11
SHT_NAMES = {0: "NULL", 1: "PROGBITS", 2: "SYMTAB", 3: "STRTAB", 4: "RELA", 5: "HASH",
             6: "DYNAMIC", 7: "NOTE", 8: "NOBITS", 9: "REL", 11: "DYNSYM", 14: "INIT_ARRAY",
             15: "FINI_ARRAY", 0x6FFFFFF6: "GNU_HASH", 0x6FFF4C03: "LLVM_ADDRSIG"}
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
PT_NAMES = {0: "NULL", 1: "LOAD", 2: "DYNAMIC", 3: "INTERP", 4: "NOTE", 6: "PHDR", 7: "TLS",
            0x6474E550: "GNU_EH_FRAME", 0x6474E551: "GNU_STACK", 0x6474E552: "GNU_RELRO"}
PT_LOAD, PT_DYNAMIC, PT_NOTE, PT_PHDR = 1, 2, 4, 6
STB_NAMES = {0: "LOCAL", 1: "GLOBAL", 2: "WEAK"}
STT_NAMES = {0: "NOTYPE", 1: "OBJECT", 2: "FUNC", 3: "SECTION", 4: "FILE", 5: "COMMON", 6: "TLS",
             10: "AMDGPU_HSA_KERNEL"}
STV_NAMES = {0: "DEFAULT", 1: "INTERNAL", 2: "HIDDEN", 3: "PROTECTED"}
SHN_UNDEF, SHN_ABS, SHN_COMMON = 0, 0xFFF1, 0xFFF2


def _amdgpu_relocations() -> dict[int, str]:
    from kernelkit.formats.amdgpu.tables import RELOCATIONS
    return {code: name for name, code in RELOCATIONS.items()}


RELOCATION_NAME_LOADERS = {EM_AMDGPU: _amdgpu_relocations}


def relocation_name(machine: int, rtype: int) -> str:
    loader = RELOCATION_NAME_LOADERS.get(machine)
    names = loader() if loader else {}
    return names.get(rtype, f"R_{machine}_{rtype}")


@dataclass
class Section:
    name: str = ""
    type: int = SHT_NULL
    flags: int = 0
    addr: int = 0
    offset: int = 0
    size: int = 0
    link: int = 0
    info: int = 0
    addralign: int = 0
    entsize: int = 0
    data: bytes = b""
    name_offset: int = 0

    @property
    def type_name(self) -> str:
        return SHT_NAMES.get(self.type, hex(self.type))


@dataclass
class ProgramHeader:
    type: int
    flags: int
    offset: int
    vaddr: int
    paddr: int
    filesz: int
    memsz: int
    align: int

    @property
    def type_name(self) -> str:
        return PT_NAMES.get(self.type, hex(self.type))


@dataclass
class Symbol:
    name: str
    value: int
    size: int
    bind: int
    type: int
    other: int
    shndx: int
    name_offset: int = 0

    @property
    def visibility(self) -> int:
        return self.other & 3

    @property
    def type_name(self) -> str:
        return STT_NAMES.get(self.type, str(self.type))

    @property
    def bind_name(self) -> str:
        return STB_NAMES.get(self.bind, str(self.bind))

    @property
    def visibility_name(self) -> str:
        return STV_NAMES[self.visibility]


@dataclass
class Relocation:
    offset: int
    type: int
    symbol: int
    addend: int | None = None
    type_name: str = ""


@dataclass
class Note:
    owner: str
    type: int
    desc: bytes
    owner_raw: bytes | None = None  # exact name bytes incl. NUL when not canonical


def _fmt(ei_class: int, little: bool) -> tuple[str, dict[str, struct.Struct]]:
    e = "<" if little else ">"
    if ei_class == ELFCLASS64:
        return e, {
            "ehdr": struct.Struct(e + "16sHHIQQQIHHHHHH"),
            "shdr": struct.Struct(e + "IIQQQQIIQQ"),
            "phdr": struct.Struct(e + "IIQQQQQQ"),
            "sym": struct.Struct(e + "IBBHQQ"),
            "rel": struct.Struct(e + "QQ"),
            "rela": struct.Struct(e + "QQq"),
        }
    return e, {
        "ehdr": struct.Struct(e + "16sHHIIIIIHHHHHH"),
        "shdr": struct.Struct(e + "IIIIIIIIII"),
        "phdr": struct.Struct(e + "IIIIIIII"),
        "sym": struct.Struct(e + "IIIBBH"),
        "rel": struct.Struct(e + "II"),
        "rela": struct.Struct(e + "IIi"),
    }


def _cstr(data: bytes, off: int, where: str) -> str:
    if off >= len(data) and off != 0:
        raise FormatError(f"string offset {off} beyond string table of {len(data)} bytes", field=where)
    end = data.find(b"\0", off)
    if end < 0:
        end = len(data)
    try:
        return data[off:end].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"string at {off} is not UTF-8", field=where) from exc


def _check_no_overlap(sections: list[Section], shoff: int, shentsize: int) -> None:
    """gABI "Sections": no byte of a file lies in more than one section. Enforced, so the section
    data a reader holds never exceeds the file (overlapping headers would multiply it)."""
    found = first_overlap((sec.offset, sec.offset + sec.size, i) for i, sec in enumerate(sections)
                          if sec.type != SHT_NOBITS)
    if found:
        (_, end, i), (start, _, j) = found
        raise FormatError(f"section {j} data at {start:#x} overlaps section {i} (ends at {end:#x})",
                          offset=shoff + j * shentsize, field="sh_offset")


class _Names:
    """Names from a string table, decoded once per offset, with a budget on the characters decoded
    (many symbols naming long overlapping strings would otherwise multiply the table)."""

    def __init__(self, table: bytes, budget: int):
        self.table = table
        self.budget = budget
        self.cache: dict[int, str] = {}

    def get(self, off: int, where: str) -> str:
        name = self.cache.get(off)
        if name is None:
            name = _cstr(self.table, off, where)
            self.budget -= len(name)
            if self.budget < 0:
                raise FormatError("symbol names decode to far more text than the file holds", field=where)
            self.cache[off] = name
        return name


def _align(value: int, alignment: int) -> int:
    return value if alignment <= 1 else (value + alignment - 1) // alignment * alignment


# the largest file layout() lays out: a (fuzzed) sh_addralign must not make it allocate more
WRITE_LIMIT = 1 << 30


def note_alignment(align: int, *, offset: int | None = None, field: str = "sh_addralign") -> int:
    """Alignment of the notes in a SHT_NOTE section / PT_NOTE segment: 0..4 mean 4, or 8 (gABI
    "Note Section"; LLVM's reader refuses any other value too)."""
    if 0 <= align <= 4:
        return 4
    if align == 8:
        return 8
    raise FormatError(f"note alignment {align} is not 4 or 8", offset=offset, field=field)


def _section_alignment(sec: Section, pos: int) -> int:
    """The file offset layout() gives a section at ``pos``: sh_addralign 0/1 or a power of two
    (gABI "Sections"), and a result the writer can hold."""
    align = sec.addralign
    if align < 0 or align > 1 and align & (align - 1):
        raise FormatError(f"section {sec.name!r}: sh_addralign {align} is not 0 or a power of two",
                          field="sh_addralign")
    new = _align(pos, align)
    if new + (0 if sec.type == SHT_NOBITS else len(sec.data)) > WRITE_LIMIT:
        raise FormatError(f"section {sec.name!r}: sh_addralign {align:#x} would place it at offset {new:#x}, "
                          f"past the writer's {WRITE_LIMIT:#x}-byte limit", field="sh_addralign")
    return new


def parse_notes(data: bytes, align: int = 4, *, base: int = 0, little: bool = True,
                field: str = "sh_addralign") -> list[Note]:
    """Notes of a SHT_NOTE section or PT_NOTE segment (``base`` = file offset, for errors)."""
    e = "<" if little else ">"
    notes: list[Note] = []
    pos = 0
    align = note_alignment(align, offset=base, field=field)
    while pos < len(data):
        if pos + 12 > len(data):
            raise FormatError("truncated note header", offset=base + pos, field="n_namesz")
        namesz, descsz, ntype = struct.unpack_from(e + "III", data, pos)
        name_at = pos + 12
        desc_at = name_at + _align(namesz, 4)
        end = desc_at + descsz
        if end > len(data):
            raise FormatError(f"note of {namesz}+{descsz} bytes runs past the end of its section",
                              offset=base + pos, field="n_descsz")
        raw = data[name_at:name_at + namesz]
        owner = raw.rstrip(b"\0").decode("ascii", "replace")
        canonical = owner.encode() + b"\0" if owner else b""
        notes.append(Note(owner, ntype, bytes(data[desc_at:end]),
                          None if raw == canonical else bytes(raw)))
        pos = _align(end, align)
    return notes


def encode_notes(notes: Iterable[Note], align: int = 4, *, little: bool = True) -> bytes:
    e = "<" if little else ">"
    out = bytearray()
    align = note_alignment(align)
    for note in notes:
        raw = note.owner_raw if note.owner_raw is not None else (
            note.owner.encode() + b"\0" if note.owner else b"")
        out += struct.pack(e + "III", len(raw), len(note.desc), note.type)
        out += raw + b"\0" * (_align(len(raw), 4) - len(raw))
        out += note.desc
        out += b"\0" * (_align(len(out), align) - len(out))
    return bytes(out)


def build_string_table(names: Iterable[str]) -> tuple[bytes, dict[str, int]]:
    """A string table starting with NUL, each distinct name once, in first-seen order."""
    table = bytearray(b"\0")
    offsets: dict[str, int] = {"": 0}
    for name in names:
        if name not in offsets:
            offsets[name] = len(table)
            table += name.encode() + b"\0"
    return bytes(table), offsets


def encode_symbols(symbols: Iterable[Symbol], ei_class: int = ELFCLASS64, little: bool = True) -> bytes:
    _, s = _fmt(ei_class, little)
    out = bytearray()
    for sym in symbols:
        info = (sym.bind << 4) | (sym.type & 0xF)
        if ei_class == ELFCLASS64:
            out += s["sym"].pack(sym.name_offset, info, sym.other, sym.shndx, sym.value, sym.size)
        else:
            out += s["sym"].pack(sym.name_offset, sym.value, sym.size, info, sym.other, sym.shndx)
    return bytes(out)


def encode_relocations(relocs: Iterable[Relocation], rela: bool, ei_class: int = ELFCLASS64,
                       little: bool = True) -> bytes:
    _, s = _fmt(ei_class, little)
    shift = 32 if ei_class == ELFCLASS64 else 8
    out = bytearray()
    for r in relocs:
        info = (r.symbol << shift) | r.type
        if rela:
            out += s["rela"].pack(r.offset, info, r.addend or 0)
        else:
            out += s["rel"].pack(r.offset, info)
    return bytes(out)


@dataclass
class ElfFile:
    ei_class: int = ELFCLASS64
    little: bool = True
    osabi: int = 0
    abiversion: int = 0
    e_type: int = ET_REL
    e_machine: int = 0
    e_version: int = 1
    e_entry: int = 0
    e_flags: int = 0
    e_phoff: int = 0
    e_shoff: int = 0
    e_shstrndx: int = 0
    ident_version: int = 1
    ident_pad: bytes = b"\0" * 7
    sections: list[Section] = field(default_factory=lambda: [Section()])
    program_headers: list[ProgramHeader] = field(default_factory=list)
    raw: bytes = b""

    # ------------------------------------------------------------------ reading
    @classmethod
    def parse(cls, data: bytes) -> ElfFile:
        data = bytes(data)
        if len(data) < 16 or data[:4] != ELF_MAGIC:
            raise FormatError("not an ELF file", offset=0, field="e_ident")
        ei_class, ei_data = data[4], data[5]
        if ei_class not in (ELFCLASS32, ELFCLASS64):
            raise FormatError(f"bad ELF class {ei_class}", offset=4, field="EI_CLASS")
        if ei_data not in (ELFDATA2LSB, ELFDATA2MSB):
            raise FormatError(f"bad ELF data encoding {ei_data}", offset=5, field="EI_DATA")
        little = ei_data == ELFDATA2LSB
        _, s = _fmt(ei_class, little)
        if len(data) < s["ehdr"].size:
            raise FormatError("truncated ELF header", offset=len(data), field="ehdr")
        (ident, e_type, e_machine, e_version, e_entry, e_phoff, e_shoff, e_flags, _ehsize,
         phentsize, phnum, shentsize, shnum, shstrndx) = s["ehdr"].unpack_from(data, 0)
        elf = cls(ei_class=ei_class, little=little, osabi=ident[7], abiversion=ident[8],
                  e_type=e_type, e_machine=e_machine, e_version=e_version, e_entry=e_entry,
                  e_flags=e_flags, e_phoff=e_phoff, e_shoff=e_shoff, e_shstrndx=shstrndx,
                  ident_version=ident[6], ident_pad=ident[9:16], sections=[], raw=data)
        if phnum:
            if phentsize != s["phdr"].size:
                raise FormatError(f"e_phentsize {phentsize}", offset=e_phoff, field="e_phentsize")
            if e_phoff + phnum * phentsize > len(data):
                raise FormatError("program headers past end of file", offset=e_phoff, field="e_phoff")
            for i in range(phnum):
                f = s["phdr"].unpack_from(data, e_phoff + i * phentsize)
                if ei_class == ELFCLASS64:
                    ptype, pflags, off, va, pa, fsz, msz, al = f
                else:
                    ptype, off, va, pa, fsz, msz, pflags, al = f
                elf.program_headers.append(ProgramHeader(ptype, pflags, off, va, pa, fsz, msz, al))
        if shnum:
            if shentsize != s["shdr"].size:
                raise FormatError(f"e_shentsize {shentsize}", offset=e_shoff, field="e_shentsize")
            if e_shoff + shnum * shentsize > len(data):
                raise FormatError("section headers past end of file", offset=e_shoff, field="e_shoff")
            for i in range(shnum):
                at = e_shoff + i * shentsize
                name, stype, flags, addr, off, size, link, info, al, es = s["shdr"].unpack_from(data, at)
                if stype != SHT_NOBITS and size and off + size > len(data):
                    raise FormatError(f"section {i} data [{off:#x}, +{size:#x}) past end of file",
                                      offset=at, field="sh_offset")
                elf.sections.append(Section("", stype, flags, addr, off, size, link, info, al, es,
                                            b"", name))
            _check_no_overlap(elf.sections, e_shoff, shentsize)
            for sec in elf.sections:         # copied once checked: at most the file's size in all
                if sec.type != SHT_NOBITS:
                    sec.data = data[sec.offset:sec.offset + sec.size]
            if shstrndx >= len(elf.sections):
                raise FormatError(f"e_shstrndx {shstrndx} >= {shnum}", offset=0, field="e_shstrndx")
            strtab = elf.sections[shstrndx].data
            for i, sec in enumerate(elf.sections):
                sec.name = _cstr(strtab, sec.name_offset, f"section[{i}].sh_name")
        else:
            elf.sections = [Section()]
        return elf

    def section(self, name: str) -> Section | None:
        for sec in self.sections:
            if sec.name == name:
                return sec
        return None

    def section_index(self, name: str) -> int:
        for i, sec in enumerate(self.sections):
            if sec.name == name:
                return i
        raise FormatError(f"no section {name!r}", field="sections")

    def sections_of_type(self, stype: int) -> list[Section]:
        return [s for s in self.sections if s.type == stype]

    def _sec(self, sec: Section | str) -> Section:
        if isinstance(sec, str):
            found = self.section(sec)
            if found is None:
                raise FormatError(f"no section {sec!r}", field="sections")
            return found
        return sec

    def symbols(self, sec: Section | str = ".symtab") -> list[Symbol]:
        sec = self._sec(sec)
        _, s = _fmt(self.ei_class, self.little)
        size = s["sym"].size
        if sec.link >= len(self.sections):
            raise FormatError(f"{sec.name}: sh_link {sec.link} out of range", offset=sec.offset,
                              field="sh_link")
        names = _Names(self.sections[sec.link].data, 4 * len(self.raw) + (1 << 20))
        out = []
        for i in range(len(sec.data) // size):
            f = s["sym"].unpack_from(sec.data, i * size)
            if self.ei_class == ELFCLASS64:
                name, info, other, shndx, value, sz = f
            else:
                name, value, sz, info, other, shndx = f
            out.append(Symbol(names.get(name, f"{sec.name}[{i}].st_name"), value, sz,
                              info >> 4, info & 0xF, other, shndx, name))
        return out

    def relocations(self, sec: Section | str) -> list[Relocation]:
        sec = self._sec(sec)
        _, s = _fmt(self.ei_class, self.little)
        rela = sec.type == SHT_RELA
        st = s["rela" if rela else "rel"]
        shift, mask = (32, 0xFFFFFFFF) if self.ei_class == ELFCLASS64 else (8, 0xFF)
        out = []
        for i in range(len(sec.data) // st.size):
            f = st.unpack_from(sec.data, i * st.size)
            rtype = f[1] & mask
            out.append(Relocation(f[0], rtype, f[1] >> shift, f[2] if rela else None,
                                  relocation_name(self.e_machine, rtype)))
        return out

    def notes(self, where: Section | ProgramHeader | str) -> list[Note]:
        if isinstance(where, ProgramHeader):
            return parse_notes(self.segment_data(where), where.align, base=where.offset,
                               little=self.little, field="p_align")
        sec = self._sec(where)
        return parse_notes(sec.data, sec.addralign, base=sec.offset, little=self.little)

    def all_notes(self) -> list[Note]:
        """Notes of every SHT_NOTE section (or of PT_NOTE segments if there are no sections)."""
        secs = self.sections_of_type(SHT_NOTE)
        if secs:
            return [n for sec in secs for n in self.notes(sec)]
        segments = [ph for ph in self.program_headers if ph.type == PT_NOTE]
        found = first_overlap((ph.offset, ph.offset + ph.filesz) for ph in segments)
        if found:                                   # each note is read once: no multiplied copies
            raise FormatError(f"PT_NOTE segments at {found[0][0]:#x} and {found[1][0]:#x} overlap",
                              offset=found[1][0], field="p_offset")
        return [n for ph in segments for n in self.notes(ph)]

    def segment_data(self, ph: ProgramHeader) -> bytes:
        if ph.offset + ph.filesz > len(self.raw):
            raise FormatError("segment past end of file", offset=ph.offset, field="p_filesz")
        return self.raw[ph.offset:ph.offset + ph.filesz]

    def read_at_vaddr(self, vaddr: int, size: int) -> bytes:
        """Bytes at a virtual address (linked files) via the section that contains it."""
        for sec in self.sections:
            if sec.flags & SHF_ALLOC and sec.addr <= vaddr and vaddr + size <= sec.addr + sec.size:
                if sec.type == SHT_NOBITS:
                    return b"\0" * size
                return sec.data[vaddr - sec.addr:vaddr - sec.addr + size]
        raise FormatError(f"no section holds [{vaddr:#x}, +{size:#x})", offset=vaddr, field="vaddr")

    def symbol_data(self, sym: Symbol, size: int | None = None) -> bytes:
        """The bytes a defined symbol covers (``size`` overrides st_size)."""
        size = sym.size if size is None else size
        if sym.shndx in (SHN_UNDEF, SHN_ABS, SHN_COMMON) or sym.shndx >= len(self.sections):
            raise FormatError(f"symbol {sym.name!r} is not defined in a section", field="st_shndx")
        sec = self.sections[sym.shndx]
        start = sym.value - sec.addr if self.e_type != ET_REL else sym.value
        if start < 0 or start + size > len(sec.data):
            raise FormatError(f"symbol {sym.name!r} [{sym.value:#x}, +{size:#x}) outside {sec.name}",
                              offset=sec.offset + max(start, 0), field="st_value")
        return sec.data[start:start + size]

    # ------------------------------------------------------------------ writing
    def layout(self) -> None:
        """Assign fresh file offsets: header, program headers, sections, section headers."""
        _, s = _fmt(self.ei_class, self.little)
        self._sync_shstrtab()
        pos = s["ehdr"].size
        if self.program_headers:
            self.e_phoff = pos
            pos += len(self.program_headers) * s["phdr"].size
        for sec in self.sections[1:]:
            sec.size = sec.size if sec.type == SHT_NOBITS else len(sec.data)
            pos = _section_alignment(sec, pos)
            sec.offset = pos
            if sec.type != SHT_NOBITS:
                pos += sec.size
        self.e_shoff = _align(pos, 8 if self.ei_class == ELFCLASS64 else 4)

    def _sync_shstrtab(self) -> None:
        if not self.e_shstrndx:
            return
        table, offsets = build_string_table(sec.name for sec in self.sections)
        shstr = self.sections[self.e_shstrndx]
        if any(sec.name_offset == 0 and sec.name for sec in self.sections) or not shstr.data:
            shstr.data = table
            for sec in self.sections:
                sec.name_offset = offsets[sec.name]

    def to_bytes(self) -> bytes:
        _, s = _fmt(self.ei_class, self.little)
        ident = (ELF_MAGIC + bytes([self.ei_class, ELFDATA2LSB if self.little else ELFDATA2MSB,
                                    self.ident_version, self.osabi, self.abiversion])
                 + self.ident_pad)
        shnum = len(self.sections) if len(self.sections) > 1 else 0
        end = max([s["ehdr"].size, self.e_phoff + len(self.program_headers) * s["phdr"].size,
                   self.e_shoff + shnum * s["shdr"].size]
                  + [sec.offset + len(sec.data) for sec in self.sections if sec.type != SHT_NOBITS])
        out = bytearray(end)
        out[:s["ehdr"].size] = s["ehdr"].pack(
            ident, self.e_type, self.e_machine, self.e_version, self.e_entry,
            self.e_phoff if self.program_headers else 0, self.e_shoff if shnum else 0, self.e_flags,
            s["ehdr"].size, s["phdr"].size if self.program_headers else 0, len(self.program_headers),
            s["shdr"].size if shnum else 0, shnum, self.e_shstrndx)
        for i, ph in enumerate(self.program_headers):
            if self.ei_class == ELFCLASS64:
                rec = s["phdr"].pack(ph.type, ph.flags, ph.offset, ph.vaddr, ph.paddr, ph.filesz,
                                     ph.memsz, ph.align)
            else:
                rec = s["phdr"].pack(ph.type, ph.offset, ph.vaddr, ph.paddr, ph.filesz, ph.memsz,
                                     ph.flags, ph.align)
            at = self.e_phoff + i * s["phdr"].size
            out[at:at + len(rec)] = rec
        for i, sec in enumerate(self.sections if shnum else []):
            if sec.type != SHT_NOBITS and sec.data:
                out[sec.offset:sec.offset + len(sec.data)] = sec.data
            size = sec.size if sec.type == SHT_NOBITS else len(sec.data)
            rec = s["shdr"].pack(sec.name_offset, sec.type, sec.flags, sec.addr, sec.offset, size,
                                 sec.link, sec.info, sec.addralign, sec.entsize)
            at = self.e_shoff + i * s["shdr"].size
            out[at:at + len(rec)] = rec
        return bytes(out)
