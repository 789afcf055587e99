"""AMD OpenCL 2.0 ("CL2") binaries (spec 002; container per CLRX's documentation and the
binaries in reference/amdcl2): read into a model, write back.

Outer ELF (e_machine 0xaf5a 32-bit / 0xaf5b 64-bit, e_flags = device code): ``.comment`` holds
the compile options (``__OpenCL_compiler_options``) and ``acl_version_string``; ``.rodata`` the
per-kernel metadata blobs (``__OpenCL_&__OpenCL_<k>_kernel_metadata``); ``.text`` the inner HSA
ELF (new layout, driver >= 191205: ``.hsatext`` with ``&__OpenCL_<k>_kernel`` = 256-byte
amd_kernel_code_t + code, data/bss/sampler-init sections and relocations) or, for older drivers,
one ``__ISA_&__OpenCL_<k>_kernel_binary`` per kernel (stub, setup, code); ``.brig`` the HSAIL.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, replace

from kernelkit.errors import FormatError
from kernelkit.formats.amdcl2.devices import DEVICE_ISA
from kernelkit.formats.amdcl2.metadata import (
    ARCH_WORD_DRIVER,
    GENERIC_WORD,
    KernelMetadata,
    parse_kernel_metadata,
)
from kernelkit.formats.amdgpu.kernel_code_t import AMD_KERNEL_CODE_T_SIZE, AmdKernelCode
from kernelkit.formats.elf import (
    ELFCLASS32,
    ELFCLASS64,
    SHF_ALLOC,
    SHF_EXECINSTR,
    SHT_NOBITS,
    SHT_PROGBITS,
    SHT_REL,
    SHT_RELA,
    SHT_STRTAB,
    SHT_SYMTAB,
    ElfFile,
    Note,
    Section,
    Symbol,
    build_string_table,
    encode_notes,
    encode_relocations,
    encode_symbols,
    parse_notes,
)
from kernelkit.formats.limits import first_overlap

# the CL2 outer ELF machines
EM_AMDCL2 = {0xAF5A: 32, 0xAF5B: 64}
MACHINE_OF_BITS = {32: 0xAF5A, 64: 0xAF5B}
STT_AMDGPU_HSA_KERNEL = 10
INNER_DATA_SECTIONS = (".hsatext", ".hsadata_readonly_agent", ".hsadata_global_agent",
                       ".hsabss_global_agent", ".hsaimage_samplerinit")
KERNEL_ALIGN = 256            # kernels in .hsatext start on 256-byte boundaries

METADATA_PREFIX, METADATA_SUFFIX = "__OpenCL_&__OpenCL_", "_kernel_metadata"
ISA_PREFIX, ISA_BINARY_SUFFIX = "__ISA_&__OpenCL_", "_kernel_binary"
INNER_PREFIX, INNER_SUFFIX = "&__OpenCL_", "_kernel"

# CLRX (AmdCL2Binaries.cpp device code tables): e_flags -> device, keyed by the first driver
# version each table applies to (1801.05, 1912.05, 2004.06, 2036.3 = first AMDGPU-PRO, then the
# AMDGPU-PRO generations 2236, 2264, 2348, 2442, 2482, 2527, 2580)
_CL2_BASE = {1: "Spectre", 2: "Spooky", 3: "Kalindi", 4: "Mullins", 6: "Bonaire", 7: "Hawaii",
             8: "Iceland", 9: "Tonga"}
DEVICE_CODES: dict[int, dict[int, str]] = {
    180005: {**_CL2_BASE, 15: "Carrizo", 16: "Fiji"},
    191205: {**_CL2_BASE, 15: "Dummy", 16: "Carrizo", 17: "Fiji"},
    200406: {**_CL2_BASE, 12: "Horse", 13: "Goose", 15: "Carrizo", 16: "Fiji", 17: "Stoney"},
    203603: {**_CL2_BASE, 13: "Carrizo", 14: "Fiji", 15: "Stoney", 16: "Baffin", 17: "Ellesmere"},
    223600: {**_CL2_BASE, 12: "Carrizo", 13: "Fiji", 14: "Stoney", 15: "Baffin", 16: "Ellesmere",
             17: "GFX900", 18: "GFX804"},
    226400: {**_CL2_BASE, 13: "Carrizo", 14: "Fiji", 15: "Stoney", 16: "Baffin", 17: "Ellesmere",
             18: "GFX804", 19: "GFX900"},
    234800: {**_CL2_BASE, 14: "Carrizo", 15: "Fiji", 16: "Stoney", 17: "Baffin", 18: "Ellesmere",
             19: "GFX804", 20: "GFX900", 21: "GFX901"},
    244200: {**_CL2_BASE, 12: "Carrizo", 13: "Fiji", 14: "Stoney", 15: "Baffin", 16: "Ellesmere",
             17: "GFX900", 18: "GFX804", 19: "GFX901"},
    248200: {**_CL2_BASE, 12: "Carrizo", 13: "Fiji", 14: "Stoney", 16: "Baffin", 18: "Ellesmere",
             19: "GFX900", 20: "GFX804", 21: "GFX901"},
    252700: {**_CL2_BASE, 12: "Carrizo", 13: "Fiji", 14: "Stoney", 16: "Baffin", 18: "Ellesmere",
             20: "GFX900", 21: "GFX804", 23: "GFX901", 24: "GFX902", 25: "GFX903", 26: "GFX904",
             27: "GFX905"},
    258000: {**_CL2_BASE, 12: "Carrizo", 13: "Fiji", 14: "Stoney", 16: "Baffin", 18: "Ellesmere",
             20: "GFX900", 21: "GFX804", 23: "GFX901", 24: "GFX902", 25: "GFX903", 26: "GFX904",
             27: "GFX905", 28: "GFX906", 29: "GFX907"},
}
NEWEST_DRIVER = max(DEVICE_CODES)


def newest_driver_of(device: str) -> int:
    """The newest driver generation whose device table names the device (Goose and Horse exist
    in 2004.06's table only)."""
    found = [v for v, table in DEVICE_CODES.items() if any(n.lower() == device.lower() for n in table.values())]
    if not found:
        raise FormatError(f"device {device!r} is in no CL2 driver's device table", field="e_flags")
    return max(found)


def device_code(device: str, driver_version: int) -> int:
    """The e_flags of a device for a driver version (the inverse of ``device_name``)."""
    table = DEVICE_CODES[max(v for v in DEVICE_CODES if v <= driver_version)] \
        if driver_version >= min(DEVICE_CODES) else DEVICE_CODES[min(DEVICE_CODES)]
    for code, name in table.items():
        if name.lower() == device.lower():
            return code
    raise FormatError(f"device {device!r} has no CL2 code in driver {driver_version}'s table "
                      f"(devices: {', '.join(sorted(n.lower() for n in table.values() if n != 'Dummy'))})", field="e_flags")


def device_name(e_flags: int, driver_version: int) -> str:
    table = max((v for v in DEVICE_CODES if v <= driver_version), default=180005)
    return DEVICE_CODES[table].get(e_flags, f"unknown({e_flags})")


@dataclass
class Cl2Kernel:
    name: str
    metadata: KernelMetadata
    setup: bytes = b""              # amd_kernel_code_t (+ anything up to the code entry)
    code: bytes = b""
    stub: bytes = b""               # old layout only
    isa_metadata: bytes | None = None   # old layout only

    @property
    def kernel_code(self) -> AmdKernelCode | None:
        return AmdKernelCode.parse(self.setup) if len(self.setup) >= AMD_KERNEL_CODE_T_SIZE else None


@dataclass
class Cl2Binary:
    bits: int
    e_flags: int
    driver_version: int
    compile_options: str
    acl_version: str
    kernels: list[Cl2Kernel]
    brig: bytes | None = None
    brig_shndx: int | None = None        # as stored (old drivers may name a missing section)
    inner: ElfFile | None = None         # new layout: the inner HSA ELF (non-kernel parts)
    old_layout: bool = False
    has_text: bool = True
    extra: dict = field(default_factory=dict)

    @property
    def device(self) -> str:
        """The device e_flags names. From AMDGPU-PRO 2236 on, the tables of the later driver
        generations (which a binary does not tell apart) give the same e_flags other devices:
        the inner binary's ISA note picks the one of that ISA version (as CLRX does)."""
        name = device_name(self.e_flags, self.driver_version)
        isa = self.inner_isa() if self.driver_version >= ARCH_WORD_DRIVER else None
        if isa is None:
            return name
        candidates = {table[self.e_flags] for version, table in DEVICE_CODES.items()
                      if version >= ARCH_WORD_DRIVER and self.e_flags in table}
        matching = sorted(c for c in candidates if DEVICE_ISA.get(c.lower()) == isa)
        return matching[0] if len(matching) == 1 else name

    def inner_isa(self) -> tuple[int, int, int] | None:
        """(major, minor, stepping) of the inner binary's ISA note, if it has one."""
        note = self.inner.section(".note") if self.inner is not None else None
        if note is None:
            return None
        try:
            notes = parse_notes(note.data)
        except FormatError:
            return None
        for n in notes:
            if n.owner == "AMD" and n.type == NOTE_ISA and len(n.desc) >= 16:
                return struct.unpack_from("<3I", n.desc, 4)
        return None

    def inner_section(self, name: str) -> bytes | None:
        sec = self.inner.section(name) if self.inner is not None else None
        return sec.data if sec is not None else None

    def data_sections(self) -> dict[str, dict]:
        """Global data of the inner binary (CLRX: readonly ``.hsadata_readonly_agent``, rw
        ``.hsadata_global_agent``, ``.hsabss_global_agent``, ``.hsaimage_samplerinit``) with the
        relocations that patch ``.hsatext`` and the readonly data."""
        out: dict[str, dict] = {}
        if self.inner is None:
            return out
        for name in INNER_DATA_SECTIONS:
            sec = self.inner.section(name)
            if sec is None:
                continue
            entry: dict = {"size": sec.size if sec.type == SHT_NOBITS else len(sec.data),
                           "align": sec.addralign}
            rela = self.inner.section(".rela" + name)
            if rela is not None:
                entry["relocations"] = [(r.offset, r.type, r.symbol, r.addend)
                                        for r in self.inner.relocations(rela)]
            out[name] = entry
        return out

    def kernel(self, name: str) -> Cl2Kernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise FormatError(f"no kernel {name!r} (kernels: {', '.join(k.name for k in self.kernels)})",
                          field="kernel")

    # ------------------------------------------------------------------ writing
    def inner_bytes(self) -> bytes:
        if self.old_layout:
            return b"".join(k.stub + k.setup + k.code for k in self.kernels)
        base = self.inner if self.inner is not None else new_inner(
            [k.name for k in self.kernels], self.extra.get("isa", (7, 0, 0)), self.driver_version)
        inner = replace(base, sections=[replace(s) for s in base.sections])
        text_index = inner.section_index(".hsatext") if inner.section(".hsatext") else None
        symtab = inner.section(".symtab")
        syms = inner.symbols() if symtab is not None else []
        if text_index is not None:
            text = bytearray()
            places: dict[str, tuple[int, int]] = {}
            for k in self.kernels:
                pad = (-len(text)) % KERNEL_ALIGN
                text += b"\0" * pad
                places[k.name] = (len(text), len(k.setup) + len(k.code))
                text += k.setup + k.code
            inner.sections[text_index].data = bytes(text)
            moves: list[tuple[int, int, int]] = []       # old start, old end, shift
            for s in syms:
                if s.type == STT_AMDGPU_HSA_KERNEL and s.name.startswith(INNER_PREFIX):
                    name = s.name[len(INNER_PREFIX):-len(INNER_SUFFIX)]
                    if name not in places:
                        raise FormatError(f"inner kernel symbol {s.name!r} has no kernel in the model",
                                          field=".symtab")
                    moves.append((s.value, s.value + s.size, places[name][0] - s.value))
                    s.value, s.size = places[name]
            symtab.data = encode_symbols(syms, inner.ei_class, inner.little)
            _move_text_relocations(inner, text_index, moves)
        inner.layout()
        return inner.to_bytes()

    def to_bytes(self) -> bytes:
        """Write the binary: sections in the driver's order, fresh layout; symbols in the order
        CLRX's generator (AmdCL2BinGen, which rewrites driver output byte for byte) writes them:
        compile options (when any), kernel metadata, ``__BRIG__``, then per kernel of the old
        layout its binary and ISA metadata, then ``acl_version_string``."""
        ei_class = ELFCLASS32 if self.bits == 32 else ELFCLASS64
        options = self.compile_options.encode()
        comment_index = 4
        sections = [Section(), Section(".shstrtab", SHT_STRTAB, 0x20, addralign=1),
                    Section(".strtab", SHT_STRTAB, 0x20, addralign=1),
                    Section(".symtab", SHT_SYMTAB, 0, link=2, addralign=8,
                            entsize=0x18 if self.bits == 64 else 0x10),
                    Section(".comment", SHT_PROGBITS, 0, addralign=1,
                            data=options + self.acl_version.encode())]
        rodata = bytearray()
        metadata_places, isa_places = [], []
        for k in self.kernels:
            blob = k.metadata.to_bytes()
            metadata_places.append((len(rodata), len(blob)))
            rodata += blob
        for k in self.kernels if self.old_layout else []:
            isa_places.append((len(rodata), len(k.isa_metadata or b"")))
            rodata += k.isa_metadata or b""
        rodata_index = text_index = 0
        if self.kernels:
            rodata_index = len(sections)
            sections.append(Section(".rodata", SHT_PROGBITS, SHF_ALLOC, addralign=1, data=bytes(rodata)))
        if self.has_text:
            text_index = len(sections)
            sections.append(Section(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, addralign=1,
                                    data=self.inner_bytes()))
        brig_index = self.brig_shndx
        if self.brig is not None:
            sections.append(Section(".brig", SHT_PROGBITS, 0, addralign=4, data=self.brig))
            brig_index = brig_index if brig_index is not None else len(sections) - 1

        symbols = [Symbol("", 0, 0, 0, 0, 0, 0)]
        if options:
            symbols.append(Symbol("__OpenCL_compiler_options", 0, len(options), 0, 1, 0, comment_index))
        for k, (off, size) in zip(self.kernels, metadata_places, strict=True):
            symbols.append(Symbol(f"{METADATA_PREFIX}{k.name}{METADATA_SUFFIX}", off, size, 0, 1, 0,
                                  rodata_index))
        if brig_index is not None:
            size = len(self.brig) if self.brig is not None else self.extra.get("brig_size", 0)
            symbols.append(Symbol("__BRIG__", 0, size, 0, 1, 0, brig_index))
        if self.old_layout and self.has_text:
            pos = 0
            for k, (off, size) in zip(self.kernels, isa_places, strict=True):
                binary_size = len(k.stub) + len(k.setup) + len(k.code)
                symbols.append(Symbol(f"{ISA_PREFIX}{k.name}{ISA_BINARY_SUFFIX}", pos, binary_size,
                                      0, 2, 0, text_index))
                pos += binary_size
                if k.isa_metadata is not None:
                    symbols.append(Symbol(f"{ISA_PREFIX}{k.name}{METADATA_SUFFIX}", off, size, 0, 1, 0,
                                          rodata_index))
        symbols.append(Symbol("acl_version_string", len(options), len(self.acl_version.encode()),
                              0, 1, 0, comment_index))
        strtab, offsets = build_string_table(s.name for s in symbols)
        for s in symbols:
            s.name_offset = offsets[s.name]
        sections[2].data = strtab
        sections[3].data = encode_symbols(symbols, ei_class, True)
        elf = ElfFile(ei_class=ei_class, e_type=2, e_machine=MACHINE_OF_BITS[self.bits],
                      e_flags=self.e_flags, e_shstrndx=1, sections=sections)
        elf.layout()
        return elf.to_bytes()


def _move_text_relocations(inner: ElfFile, text_index: int, moves: list[tuple[int, int, int]]) -> None:
    """Relocations that patch a kernel's code move with the kernel."""
    if all(shift == 0 for _, _, shift in moves):
        return
    for sec in inner.sections:
        if sec.type not in (SHT_RELA, SHT_REL) or sec.info != text_index:
            continue
        relocs = inner.relocations(sec)
        for r in relocs:
            r.offset += next((shift for start, end, shift in moves if start <= r.offset < end), 0)
        sec.data = encode_relocations(relocs, sec.type == SHT_RELA, inner.ei_class, inner.little)


# AMD note types in the inner binary (as the driver writes them): code object version, HSAIL
# version, ISA (vendor "AMD", architecture "AMDGPU")
NOTE_CODE_OBJECT_VERSION, NOTE_HSAIL, NOTE_ISA = 1, 2, 3
# inner .hsatext flags as the driver sets them: WRITE|ALLOC|EXECINSTR|AMDGPU_HSA_CODE|AGENT
HSATEXT_FLAGS = 0xC00007
ELFOSABI_AMDGPU_HSA = 64


# the notes of drivers from 2036.3 (first AMDGPU-PRO) on, as reference binaries of that driver
# carry them: code object version, HSAIL version, ISA, producer ("AMD HSA Runtime Finalizer"),
# producer options ("-hsa_call_convention=0" plus two bytes, the second not zero: the detail by
# which CLRX tells a 203603 inner binary, a 200-byte .note whose byte 197 is not 0)
NOTE_PRODUCER, NOTE_PRODUCER_OPTIONS = 4, 5
PRODUCER = b"AMD HSA Runtime Finalizer"
PRODUCER_OPTIONS = b"-hsa_call_convention=0"
PRO_OPTIONS_TAIL = b"\0t"
FIRST_PRO_DRIVER, NULL_SYMBOL_DRIVER = 203603, 200406


def _inner_notes(isa: tuple[int, int, int], driver_version: int) -> list[Note]:
    pro = driver_version >= FIRST_PRO_DRIVER     # the ISA note's size leaves out the last NUL
    notes = [Note("AMD", NOTE_CODE_OBJECT_VERSION, struct.pack("<2I", 1, 0)),
             Note("AMD", NOTE_HSAIL, struct.pack("<2I4B", 1, 0, 1, 1, 1, 0)),
             Note("AMD", NOTE_ISA, struct.pack("<2H3I", 4, 7, *isa) + b"AMD\0AMDGPU" + (b"" if pro else b"\0"))]
    if pro:
        notes += [Note("AMD", NOTE_PRODUCER, struct.pack("<3I", len(PRODUCER), 1, 0) + PRODUCER + bytes(4)),
                  Note("AMD", NOTE_PRODUCER_OPTIONS, struct.pack("<H", len(PRODUCER_OPTIONS)) + PRODUCER_OPTIONS
                       + PRO_OPTIONS_TAIL)]
    return notes


def new_inner(kernel_names: list[str], isa: tuple[int, int, int], driver_version: int = 191205) -> ElfFile:
    """A fresh inner HSA ELF skeleton: for driver 191205 ``.hsatext``, ``.note``, ``.strtab``,
    ``.symtab``, ``.shstrtab``; from 200406 on ``.shstrtab``, ``.strtab``, ``.note``,
    ``.hsatext``, ``.symtab`` with a null first symbol (and from 203603 the AMDGPU-PRO notes),
    as those drivers' binaries are laid out. Kernel symbols are filled by
    ``Cl2Binary.inner_bytes``."""
    newer = driver_version >= NULL_SYMBOL_DRIVER
    text_index = 4 if newer else 1
    symbols = ([Symbol("", 0, 0, 0, 0, 0, 0)] if newer else []) + [
        Symbol(f"{INNER_PREFIX}{n}{INNER_SUFFIX}", 0, 0, 1, STT_AMDGPU_HSA_KERNEL, 0, text_index)
        for n in kernel_names] + [Symbol("__hsa_section.hsatext", 0, 0, 0, 3, 0, text_index)]
    strtab, offsets = build_string_table(s.name for s in symbols)
    for s in symbols:
        s.name_offset = offsets[s.name]
    notes = encode_notes(_inner_notes(isa, driver_version))
    text = Section(".hsatext", SHT_PROGBITS, HSATEXT_FLAGS, addralign=KERNEL_ALIGN)
    if newer:
        sections = [Section(), Section(".shstrtab", SHT_STRTAB, 0x20, addralign=8),
                    Section(".strtab", SHT_STRTAB, 0x20, addralign=8, data=strtab),
                    Section(".note", 7, 0, addralign=8, data=notes), text,
                    Section(".symtab", SHT_SYMTAB, 0, link=2, info=1, addralign=8, entsize=24,
                            data=encode_symbols(symbols, ELFCLASS64, True))]
        shstrndx = 1
    else:
        sections = [Section(), text, Section(".note", 7, 0, addralign=8, data=notes),
                    Section(".strtab", SHT_STRTAB, 0x20, addralign=1, data=strtab),
                    Section(".symtab", SHT_SYMTAB, 0, link=3, addralign=8, entsize=24,
                            data=encode_symbols(symbols, ELFCLASS64, True)),
                    Section(".shstrtab", SHT_STRTAB, 0x20, addralign=1)]
        shstrndx = 5
    return ElfFile(ei_class=ELFCLASS64, osabi=ELFOSABI_AMDGPU_HSA, e_type=1, e_machine=224,
                   e_shstrndx=shstrndx, sections=sections)


def is_cl2(data: bytes) -> bool:
    return (len(data) >= 20 and data[:4] == b"\x7fELF"
            and int.from_bytes(data[18:20], "little") in EM_AMDCL2)


def _symbol_bytes(elf: ElfFile, sym: Symbol, what: str) -> bytes:
    try:
        return elf.symbol_data(sym)
    except FormatError as exc:
        raise FormatError(f"{what} {sym.name!r}: {exc.message}", offset=exc.offset,
                          field=what) from None


def _check_disjoint_symbols(syms: list[Symbol], wanted, what: str) -> None:
    """The symbols ``wanted`` picks cover disjoint bytes (as the driver writes them), so a symbol
    table naming the same bytes many times cannot make reading quadratic."""
    found = first_overlap(((sym.shndx << 64) + sym.value, (sym.shndx << 64) + sym.value + sym.size, sym.name)
                          for sym in syms if wanted(sym))
    if found:
        raise FormatError(f"{what} {found[1][2]!r} overlaps {found[0][2]!r}", field="st_value")


def _old_kernels(elf: ElfFile, text: bytes, metadata: dict[str, KernelMetadata],
                 isa_metadata: dict[str, bytes]) -> list[Cl2Kernel]:
    kernels = []
    text_index = elf.section_index(".text")
    _check_disjoint_symbols(elf.symbols(), lambda sym: sym.shndx == text_index and sym.name.startswith(ISA_PREFIX)
                            and sym.name.endswith(ISA_BINARY_SUFFIX), "kernel binary")
    for sym in elf.symbols():
        if not (sym.name.startswith(ISA_PREFIX) and sym.name.endswith(ISA_BINARY_SUFFIX)):
            continue
        name = sym.name[len(ISA_PREFIX):-len(ISA_BINARY_SUFFIX)]
        if sym.shndx != elf.section_index(".text"):
            raise FormatError(f"kernel binary {sym.name!r} outside .text (section {sym.shndx})",
                              field="st_shndx")
        blob = _symbol_bytes(elf, sym, "kernel binary")
        if len(blob) < 8:
            raise FormatError(f"kernel binary of {name!r} too short", field="kernel_binary")
        setup_at = int.from_bytes(blob[:4], "little")
        if setup_at + 20 > len(blob):
            raise FormatError(f"kernel {name!r}: setup offset {setup_at} out of range",
                              field="kernel_binary.setup")
        code_at = setup_at + int.from_bytes(blob[setup_at + 16:setup_at + 20], "little")
        if code_at > len(blob):
            raise FormatError(f"kernel {name!r}: code offset out of range", field="kernel_binary.code")
        if name not in metadata:
            raise FormatError(f"kernel binary {name!r} has no metadata", field="kernel_metadata")
        kernels.append(Cl2Kernel(name, metadata[name], blob[setup_at:code_at], blob[code_at:],
                                 blob[:setup_at], isa_metadata.get(name)))
    return kernels


def _new_kernels(inner: ElfFile, metadata: dict[str, KernelMetadata], order: list[str]) -> list[Cl2Kernel]:
    found: dict[str, Cl2Kernel] = {}
    syms = inner.symbols() if inner.section(".symtab") else []
    _check_disjoint_symbols(syms, lambda sym: sym.type == STT_AMDGPU_HSA_KERNEL, "kernel")
    for sym in syms:
        if sym.type != STT_AMDGPU_HSA_KERNEL or not sym.name.startswith(INNER_PREFIX):
            continue
        name = sym.name[len(INNER_PREFIX):-len(INNER_SUFFIX)]
        blob = _symbol_bytes(inner, sym, "kernel")
        code = AmdKernelCode.parse(blob) if len(blob) >= AMD_KERNEL_CODE_T_SIZE else None
        if code is None:
            raise FormatError(f"kernel {name!r}: {len(blob)} bytes, shorter than amd_kernel_code_t",
                              field="amd_kernel_code_t")
        entry = code.kernel_code_entry_byte_offset
        if not AMD_KERNEL_CODE_T_SIZE <= entry <= len(blob):
            raise FormatError(f"kernel {name!r}: code entry {entry} outside the symbol",
                              field="kernel_code_entry_byte_offset")
        if name not in metadata:
            raise FormatError(f"inner kernel {name!r} has no metadata", field="kernel_metadata")
        found[name] = Cl2Kernel(name, metadata[name], blob[:entry], blob[entry:])
    missing = [n for n in order if n not in found]
    if missing:
        raise FormatError(f"kernels {missing} have metadata but no code", field=".hsatext")
    return [found[n] for n in order]


def read_cl2(data: bytes) -> Cl2Binary:
    if not is_cl2(data):
        raise FormatError("not an AMD CL2 binary (e_machine 0xaf5a/0xaf5b)", offset=18,
                          field="e_machine")
    elf = ElfFile.parse(data)
    bits = EM_AMDCL2[elf.e_machine]
    if (bits == 64) != (elf.ei_class == ELFCLASS64):
        raise FormatError(f"e_machine {elf.e_machine:#x} does not match ELF class", offset=4,
                          field="EI_CLASS")
    syms = elf.symbols() if elf.section(".symtab") else []
    _check_disjoint_symbols(syms, lambda sym: sym.name.endswith(METADATA_SUFFIX), "metadata")
    options = acl = ""
    metadata: dict[str, KernelMetadata] = {}
    isa_metadata: dict[str, bytes] = {}
    order: list[str] = []
    brig = None
    brig_shndx = None
    extra: dict = {}
    for sym in syms:
        if sym.name == "__OpenCL_compiler_options":
            options = _symbol_bytes(elf, sym, "compile options").decode("latin-1")
        elif sym.name == "acl_version_string":
            acl = _symbol_bytes(elf, sym, "acl version").decode("latin-1")
        elif sym.name == "__BRIG__":
            brig_shndx = sym.shndx
            extra["brig_size"] = sym.size
        elif sym.name.startswith(METADATA_PREFIX) and sym.name.endswith(METADATA_SUFFIX):
            name = sym.name[len(METADATA_PREFIX):-len(METADATA_SUFFIX)]
            sec = elf.sections[sym.shndx] if sym.shndx < len(elf.sections) else None
            blob = _symbol_bytes(elf, sym, "kernel metadata")
            metadata[name] = parse_kernel_metadata(blob, bits, (sec.offset if sec else 0) + sym.value)
            order.append(name)
        elif sym.name.startswith(ISA_PREFIX) and sym.name.endswith(METADATA_SUFFIX):
            isa_metadata[sym.name[len(ISA_PREFIX):-len(METADATA_SUFFIX)]] = _symbol_bytes(
                elf, sym, "ISA metadata")
    brig_sec = elf.section(".brig")
    if brig_sec is not None:
        brig = brig_sec.data
        if brig_shndx == elf.section_index(".brig"):
            brig_shndx = None     # the ordinary case: written as the .brig index
    text = elf.section(".text")
    old = any(s.name.startswith(ISA_PREFIX) and s.name.endswith(ISA_BINARY_SUFFIX) for s in syms)
    inner = None
    if text is None:
        if order:
            raise FormatError("kernels present but no .text section", field=".text")
        driver, kernels = 180005, []
    elif old:
        driver = 180005
        kernels = _old_kernels(elf, text.data, metadata, isa_metadata)
    else:
        inner = ElfFile.parse(text.data)
        kernels = _new_kernels(inner, metadata, order)
        isyms = inner.symbols() if inner.section(".symtab") else []
        driver = 200406 if isyms and isyms[0].name == "" else 191205
        note = inner.section(".note")
        if note is not None and len(note.data) == 200 and note.data[197] != 0:
            driver = 203603
    if any(k.metadata.vec_type_hint is not None for k in kernels) and driver < 200406:
        driver = 200406
    if any(k.metadata.second_name != GENERIC_WORD for k in kernels) and driver < ARCH_WORD_DRIVER:
        driver = ARCH_WORD_DRIVER
    return Cl2Binary(bits, elf.e_flags, driver, options, acl, kernels, brig, brig_shndx, inner,
                     old, text is not None, extra)
