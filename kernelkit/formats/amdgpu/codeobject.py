"""An AMDGPU code object (ET_REL or ET_DYN, V2..V6) read into one structure: version, target,
e_flags, notes, metadata model and each kernel's descriptor (V3+) or amd_kernel_code_t (V2).

``CodeObject.parse(data)``; ``.info()`` is the ``kernelkit inspect --json`` document.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu import notes as N
from kernelkit.formats.amdgpu.descriptor import KERNEL_DESCRIPTOR_SIZE, KernelDescriptor
from kernelkit.formats.amdgpu.eflags import EFlags, decode_eflags
from kernelkit.formats.amdgpu.kernel_code_t import AMD_KERNEL_CODE_T_SIZE, AmdKernelCode
from kernelkit.formats.amdgpu.metadata import ArgMeta, CodeObjectMetadata, KernelMeta, version_of
from kernelkit.formats.amdgpu.metadata_v2 import from_v2
from kernelkit.formats.amdgpu.tables import EM_AMDGPU, HSA_ABI_VERSION, OSABI, V2_ISA_NAMES
from kernelkit.formats.amdgpu.target_id import DEFAULT_TRIPLE, TargetID, TargetIDError

STT_AMDGPU_HSA_KERNEL = 10
_VERSION_BY_ABI = {v: k for k, v in HSA_ABI_VERSION.items()}
ARG_KEYS = ("name", "offset", "size", "value_kind", "address_space", "type_name")


@dataclass
class CodeObject:
    elf: E.ElfFile
    version: int
    eflags: EFlags
    target: TargetID
    metadata: CodeObjectMetadata
    notes: list = field(default_factory=list)

    @classmethod
    def parse(cls, data: bytes) -> CodeObject:
        elf = E.ElfFile.parse(data)
        if elf.e_machine != EM_AMDGPU:
            raise FormatError(f"e_machine {elf.e_machine} is not EM_AMDGPU ({EM_AMDGPU})", offset=18,
                              field="e_machine")
        records = [N.decode_note(n) for n in elf.all_notes()]
        meta_v2 = next((r for r in records if isinstance(r, N.MetadataV2Note)), None)
        meta_v3 = next((r for r in records if isinstance(r, N.MetadataV3Note)), None)
        if elf.osabi == OSABI["ELFOSABI_AMDGPU_HSA"] and elf.abiversion in _VERSION_BY_ABI:
            version = _VERSION_BY_ABI[elf.abiversion]
        elif meta_v3 is not None:
            version = version_of(meta_v3.document)
        elif meta_v2 is not None:
            version = 2
        else:
            raise FormatError(f"unknown code object version (OS/ABI {elf.osabi}, ABI version "
                              f"{elf.abiversion}, no metadata note)", offset=7, field="e_ident")
        if version == 2:
            if meta_v2 is None:
                raise FormatError("code object V2 without NT_AMD_HSA_METADATA", field="notes")
            metadata = from_v2(meta_v2.document())
        else:
            if meta_v3 is None:
                raise FormatError(f"code object V{version} without NT_AMDGPU_METADATA", field="notes")
            metadata = CodeObjectMetadata.from_v3(meta_v3.document)
        isa = next((r for r in records if isinstance(r, N.IsaVersionNote)), None)
        v2_proc = None
        if isa is not None:
            name = V2_ISA_NAMES.get(f"{isa.vendor}:{isa.architecture}:{isa.major}:{isa.minor}:{isa.stepping}")
            v2_proc = TargetID.parse(name).processor if name else None
        eflags = decode_eflags(elf.e_flags, version, v2_processor=v2_proc)
        if metadata.target:
            try:
                target = TargetID.parse(metadata.target)
            except TargetIDError as exc:
                raise FormatError(f"bad amdhsa.target: {exc}", field="amdhsa.target") from exc
        else:
            target = eflags.target_id(DEFAULT_TRIPLE)
        return cls(elf, version, eflags, target, metadata, records)

    # ------------------------------------------------------------------ symbols
    def _symbols(self) -> dict[str, E.Symbol]:
        """Defined symbols by name (read once: every kernel's descriptor lookup uses them)."""
        cached = self.__dict__.get("_symbol_table")
        if cached is not None:
            return cached
        out: dict[str, E.Symbol] = {}
        for stype in (E.SHT_DYNSYM, E.SHT_SYMTAB):
            for sec in self.elf.sections_of_type(stype):
                for s in self.elf.symbols(sec):
                    if s.shndx != E.SHN_UNDEF:
                        out.setdefault(s.name, s)
        self.__dict__["_symbol_table"] = out
        return out

    def descriptor(self, kernel: KernelMeta) -> KernelDescriptor | AmdKernelCode:
        syms = self._symbols()
        if self.version == 2:
            sym = syms.get(kernel.name)
            if sym is None:
                raise FormatError(f"no symbol for kernel {kernel.name!r}", field="symtab")
            return AmdKernelCode.parse(self.elf.symbol_data(sym, AMD_KERNEL_CODE_T_SIZE))
        sym = syms.get(kernel.symbol)
        if sym is None:
            raise FormatError(f"no kernel descriptor symbol {kernel.symbol!r}", field="symtab")
        return KernelDescriptor.parse(self.elf.symbol_data(sym, KERNEL_DESCRIPTOR_SIZE))

    # ------------------------------------------------------------------ JSON
    def kernel_info(self, k: KernelMeta) -> dict:
        info = {
            "name": k.name, "symbol": k.symbol, "kernarg_segment_size": k.kernarg_segment_size,
            "kernarg_segment_align": k.kernarg_segment_align,
            "group_segment_fixed_size": k.group_segment_fixed_size,
            "private_segment_fixed_size": k.private_segment_fixed_size,
            "wavefront_size": k.wavefront_size, "sgpr_count": k.sgpr_count, "vgpr_count": k.vgpr_count,
            "max_flat_workgroup_size": k.max_flat_workgroup_size,
        }
        for opt in ("agpr_count", "sgpr_spill_count", "vgpr_spill_count", "language", "language_version",
                    "reqd_workgroup_size", "workgroup_size_hint", "vec_type_hint", "device_enqueue_symbol",
                    "kind", "uses_dynamic_stack", "workgroup_processor_mode", "uniform_work_group_size",
                    "is_xnack_enabled", "is_dynamic_callstack"):
            if getattr(k, opt) is not None:
                info[opt] = getattr(k, opt)
        info["args"] = [arg_info(a) for a in k.args or []]
        desc = self.descriptor(k)
        if isinstance(desc, KernelDescriptor):
            info["descriptor"] = desc.fields(self.eflags.processor)
        else:
            info["amd_kernel_code_t"] = desc.fields()
        return info

    def info(self) -> dict:
        return {
            "format": "amdgpu-code-object",
            "code_object_version": self.version,
            "target": self.target.full(),
            "target_v2v3": self.target.v2v3() if self.version <= 3 else None,
            "e_type": "ET_" + E.ET_NAMES.get(self.elf.e_type, str(self.elf.e_type)),
            "e_flags": self.elf.e_flags,
            "e_flags_names": self.eflags.names(),
            "abi_version": self.elf.abiversion,
            "metadata_version": self.metadata.version,
            "printf": self.metadata.printf or [],
            "kernels": [self.kernel_info(k) for k in self.metadata.kernels],
        }


def arg_info(a: ArgMeta) -> dict:
    out = {key: getattr(a, key) for key in ARG_KEYS}
    for key in ("align", "pointee_align", "access", "actual_access", "is_const", "is_restrict",
                "is_volatile", "is_pipe", "value_type"):
        if getattr(a, key) is not None and not (key == "access" and a.access == "default"):
            out[key] = getattr(a, key)
    return out
