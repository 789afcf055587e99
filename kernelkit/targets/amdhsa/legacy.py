"""Code objects V2 and V3, which LLVM 22 no longer writes: rewrite LLVM's V4 relocatable object
before ld.lld links it, the way ``reference/amdgpu/clang14`` shows them.

V3: EI_ABIVERSION 1, V3 ``e_flags`` (xnack/sramecc bits on for *on* and *any*), the
``NT_AMDGPU_METADATA`` map with ``amdhsa.version`` 1.0 and no ``amdhsa.target``.
V2: EI_ABIVERSION 0, the four ``"AMD"`` notes (CODE_OBJECT_VERSION 2.1, ISA_VERSION, ISA_NAME,
METADATA as LLVM-style YAML), and each kernel's 256-byte ``amd_kernel_code_t`` in front of its
code at the kernel symbol (``STT_AMDGPU_HSA_KERNEL``), built from LLVM's kernel descriptor.
"""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu import notes as N
from kernelkit.formats.amdgpu.descriptor import KernelDescriptor
from kernelkit.formats.amdgpu.eflags import encode_eflags
from kernelkit.formats.amdgpu.kernel_code_t import AMD_KERNEL_CODE_T_SIZE, AmdKernelCode
from kernelkit.formats.amdgpu.metadata import CodeObjectMetadata, KernelMeta
from kernelkit.formats.amdgpu.metadata_v2 import as_llvm14_wrote_it, to_v2, v3_to_v2
from kernelkit.formats.amdgpu.tables import HSA_ABI_VERSION, METADATA_VERSION, V2_ISA_NAMES
from kernelkit.formats.amdgpu.target_id import TargetID, TargetIDError, v2_isa_version
from kernelkit.targets.amdhsa.enqueue import RUNTIME_HANDLE_SUFFIX

STT_AMDGPU_HSA_KERNEL = 10
V2_CODE_OBJECT_VERSION = (2, 1)   # NT_AMD_HSA_CODE_OBJECT_VERSION as LLVM wrote it (reference/clang14)


def _notes_section(elf: E.ElfFile) -> E.Section:
    secs = elf.sections_of_type(E.SHT_NOTE)
    if not secs:
        raise CompileError("amdhsa: LLVM's object has no .note section")
    return secs[0]


def _metadata(elf: E.ElfFile) -> CodeObjectMetadata:
    for n in elf.notes(_notes_section(elf)):
        rec = N.decode_note(n)
        if isinstance(rec, N.MetadataV3Note):
            return CodeObjectMetadata.from_v3(rec.document)
    raise CompileError("amdhsa: LLVM's object has no NT_AMDGPU_METADATA note")


def v2_isa(tid: TargetID) -> tuple[int, int, int]:
    """(major, minor, stepping) of the spec's V2 table entry for a target ID (any = on)."""
    want = tid.processor.name + "".join(
        f":{f}{'+' if tid.setting(f) in ('on', 'any') else '-'}" for f in tid.processor.target_id_features)
    for isa, target in V2_ISA_NAMES.items():
        t = TargetID.parse(target)
        full = t.processor.name + "".join(
            f":{f}{'+' if t.setting(f) in ('on', 'any') else '-'}" for f in t.processor.target_id_features)
        if full == want:
            major, minor, stepping = (int(x) for x in isa.split(":")[2:])
            return major, minor, stepping
    # not in the spec's V2 table (processors newer than V2): the ISA version of the processor
    # name, as LLVM's V2 writer derived it
    try:
        return v2_isa_version(tid.processor)
    except TargetIDError as exc:
        raise CompileError(f"amdhsa: code object V2 cannot describe {tid.canonical()}: {exc}") from exc


def downgrade(obj: bytes, tid: TargetID, version: int, *, uses_device_queue: bool = False) -> bytes:
    elf = E.ElfFile.parse(obj)
    meta = _metadata(elf)
    as_llvm14_wrote_it(meta.kernels, uses_device_queue)
    elf.abiversion = HSA_ABI_VERSION[version]
    elf.e_flags = encode_eflags(tid, version)
    note = _notes_section(elf)
    if version == 3:
        meta.version = list(METADATA_VERSION[3])
        meta.target = None
        note.data = E.encode_notes([N.encode_note(N.MetadataV3Note(meta.to_v3()))], note.addralign)
    else:
        _to_v2(elf, meta, tid, note)
    elf.layout()
    return elf.to_bytes()


def _processor_isa(tid: TargetID) -> tuple[int, int, int]:
    try:
        return v2_isa_version(tid.processor)
    except TargetIDError as exc:
        raise CompileError(f"amdhsa: code object V2 cannot describe {tid.canonical()}: {exc}") from exc


def _kernel_code(kd: KernelDescriptor, k: KernelMeta, isa: tuple[int, int, int], xnack: bool) -> AmdKernelCode:
    props = kd.code_properties()
    return AmdKernelCode(
        amd_machine_version_major=isa[0], amd_machine_version_minor=isa[1], amd_machine_version_stepping=isa[2],
        compute_pgm_rsrc1=kd.compute_pgm_rsrc1, compute_pgm_rsrc2=kd.compute_pgm_rsrc2,
        workitem_private_segment_byte_size=kd.private_segment_fixed_size,
        workgroup_group_segment_byte_size=kd.group_segment_fixed_size, kernarg_segment_byte_size=kd.kernarg_size,
        wavefront_sgpr_count=k.sgpr_count, workitem_vgpr_count=k.vgpr_count,
        kernarg_segment_alignment=max(k.kernarg_segment_align, 16).bit_length() - 1,
        wavefront_size=k.wavefront_size.bit_length() - 1,
    ).with_fields(properties={
        **{name: props[name] for name in ("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", "ENABLE_SGPR_DISPATCH_PTR",
                                          "ENABLE_SGPR_QUEUE_PTR", "ENABLE_SGPR_KERNARG_SEGMENT_PTR",
                                          "ENABLE_SGPR_DISPATCH_ID", "ENABLE_SGPR_FLAT_SCRATCH_INIT",
                                          "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", "ENABLE_WAVEFRONT_SIZE32")},
        "PRIVATE_ELEMENT_SIZE": 1, "IS_PTR64": 1, "IS_XNACK_ENABLED": int(xnack),
        "IS_DYNAMIC_CALLSTACK": props["USES_DYNAMIC_STACK"]})


def _to_v2(elf: E.ElfFile, meta: CodeObjectMetadata, tid: TargetID, note: E.Section) -> None:
    isa = v2_isa(tid)
    # amd_kernel_code_t names the processor's own ISA version, the ISA note the V2 table entry
    # of the target ID (clang14's gfx900 objects: note 9.0.1 "gfx901", amd_machine_version 9.0.0)
    machine = _processor_isa(tid)
    xnack = tid.setting("xnack") in ("on", "any")
    symtab_sec = elf.sections_of_type(E.SHT_SYMTAB)[0]
    syms = elf.symbols(symtab_sec)
    by_name = {s.name: (i, s) for i, s in enumerate(syms)}
    text_index = elf.section_index(".text")
    text = elf.sections[text_index]
    kernels = {k.name: k for k in meta.kernels}
    starts: dict[int, AmdKernelCode] = {}
    for k in meta.kernels:
        if k.device_enqueue_symbol is None and f"{k.name}{RUNTIME_HANDLE_SUFFIX}" in by_name:
            k.device_enqueue_symbol = f"{k.name}{RUNTIME_HANDLE_SUFFIX}"   # enqueue.for_code_object_v2
        if k.name not in by_name or k.symbol not in by_name:
            raise CompileError(f"amdhsa: no symbols for kernel {k.name}")
        kd_sym = by_name[k.symbol][1]
        kd = KernelDescriptor.parse(elf.symbol_data(kd_sym))
        entry = by_name[k.name][1]
        if entry.shndx != text_index or entry.value % 256:
            raise CompileError(f"amdhsa: kernel {k.name} is not 256-aligned in .text")
        starts[entry.value] = _kernel_code(kd, k, machine, xnack)
    others = [s for s in syms if s.shndx == text_index and s.type == 2 and s.name not in kernels]
    if others:   # the assembler may have resolved calls between functions of one section
        raise CompileError("amdhsa: code object V2 needs every function inlined into its kernel "
                           f"(left: {', '.join(s.name for s in others)})")

    def shift(offset: int) -> int:
        return offset + AMD_KERNEL_CODE_T_SIZE * sum(1 for s in starts if s <= offset)

    data = bytearray()
    prev = 0
    for start in sorted(starts):
        data += text.data[prev:start] + starts[start].to_bytes()
        prev = start
    data += text.data[prev:]
    text.data = bytes(data)
    for s in syms:
        if s.shndx == text_index:
            if s.name in kernels and s.value in starts:
                s.value = shift(s.value) - AMD_KERNEL_CODE_T_SIZE
                s.size += AMD_KERNEL_CODE_T_SIZE
                s.type = STT_AMDGPU_HSA_KERNEL
            elif s.type != 3:   # not the section symbol
                s.value = shift(s.value)
    # V2 has no kernel descriptor symbols: drop them and renumber relocation symbol indices
    kd_names = {k.symbol for k in meta.kernels}
    keep = [i for i, s in enumerate(syms) if s.name not in kd_names]
    new_index = {old: new for new, old in enumerate(keep)}
    symtab_sec.data = E.encode_symbols([syms[i] for i in keep])
    symtab_sec.info = sum(1 for i in keep if syms[i].bind == 0)
    kd_offsets = {by_name[k.symbol][1].value + 16 for k in meta.kernels}
    for sec in elf.sections_of_type(E.SHT_RELA):
        target = sec.info
        relocs = elf.relocations(sec)
        if target == text_index:
            for r in relocs:
                r.offset = shift(r.offset)
                if syms[r.symbol].type == 3 and syms[r.symbol].shndx == text_index:
                    r.addend = shift(r.addend)
        elif elf.sections[target].name == ".rodata":   # the dead V3+ descriptors' entry offsets
            relocs = [r for r in relocs if r.offset not in kd_offsets]
        for r in relocs:
            if r.symbol not in new_index:
                raise CompileError(f"amdhsa: a relocation refers to a kernel descriptor ({syms[r.symbol].name})")
            r.symbol = new_index[r.symbol]
        sec.data = E.encode_relocations(relocs, True)
    v2 = v3_to_v2(meta)
    for k in v2.kernels:
        k.is_xnack_enabled = True if xnack else None
    from kernelkit.formats.amdgpu import llvm_yaml
    records = [N.CodeObjectVersionNote(*V2_CODE_OBJECT_VERSION), N.IsaVersionNote("AMD", "AMDGPU", *isa),
               N.IsaNameNote(f"amdgcn-amd-amdhsa--gfx{isa[0]}{isa[1]:x}{isa[2]:x}"),
               N.MetadataV2Note(llvm_yaml.dump(to_v2(v2)))]
    note.data = E.encode_notes([N.encode_note(r) for r in records], note.addralign)
