"""``amd_kernel_code_t``: the 256-byte kernel header of code object V2 (and of AMD's CL2 binaries).

It sits at the kernel symbol (``STT_AMDGPU_HSA_KERNEL``) in ``.text``, the machine code follows at
``kernel_code_entry_byte_offset`` (256). Layout: AMD's ``amd_kernel_code_t`` (AMDGPUUsage
"amd_kernel_code_t", LLVM ``AMDKernelCodeT.h``). ``compute_pgm_rsrc1/2`` reuse the kernel
descriptor's bit-field tables.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields, replace

from kernelkit.formats.amdgpu.bitfields import BitField, merge_bits, unpack_bits, unpack_record
from kernelkit.formats.amdgpu.descriptor import COMPUTE_PGM_RSRC1, COMPUTE_PGM_RSRC2

AMD_KERNEL_CODE_T_SIZE = 256

# LLVM AMDKernelCodeT.h "amd_kernel_code_t": (field, struct format), packed little-endian
AMD_KERNEL_CODE_T_LAYOUT: tuple[tuple[str, str], ...] = (
    ("amd_kernel_code_version_major", "I"), ("amd_kernel_code_version_minor", "I"),
    ("amd_machine_kind", "H"), ("amd_machine_version_major", "H"), ("amd_machine_version_minor", "H"),
    ("amd_machine_version_stepping", "H"), ("kernel_code_entry_byte_offset", "q"),
    ("kernel_code_prefetch_byte_offset", "q"), ("kernel_code_prefetch_byte_size", "Q"),
    ("max_scratch_backing_memory_byte_size", "Q"), ("compute_pgm_rsrc1", "I"), ("compute_pgm_rsrc2", "I"),
    ("code_properties", "I"), ("workitem_private_segment_byte_size", "I"),
    ("workgroup_group_segment_byte_size", "I"), ("gds_segment_byte_size", "I"),
    ("kernarg_segment_byte_size", "Q"), ("workgroup_fbarrier_count", "I"), ("wavefront_sgpr_count", "H"),
    ("workitem_vgpr_count", "H"), ("reserved_vgpr_first", "H"), ("reserved_vgpr_count", "H"),
    ("reserved_sgpr_first", "H"), ("reserved_sgpr_count", "H"),
    ("debug_wavefront_private_segment_offset_sgpr", "H"), ("debug_private_segment_buffer_sgpr", "H"),
    ("kernarg_segment_alignment", "B"), ("group_segment_alignment", "B"),
    ("private_segment_alignment", "B"), ("wavefront_size", "B"), ("call_convention", "i"),
    ("reserved3", "12s"), ("runtime_loader_kernel_symbol", "Q"), ("control_directives", "128s"),
)
_STRUCT = struct.Struct("<" + "".join(f for _, f in AMD_KERNEL_CODE_T_LAYOUT))
assert _STRUCT.size == AMD_KERNEL_CODE_T_SIZE

# LLVM AMDKernelCodeT.h "amd_code_property_mask_t"
AMD_CODE_PROPERTIES: tuple[BitField, ...] = (
    ("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 0, 1), ("ENABLE_SGPR_DISPATCH_PTR", 1, 1),
    ("ENABLE_SGPR_QUEUE_PTR", 2, 1), ("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 3, 1),
    ("ENABLE_SGPR_DISPATCH_ID", 4, 1), ("ENABLE_SGPR_FLAT_SCRATCH_INIT", 5, 1),
    ("ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 6, 1), ("ENABLE_SGPR_GRID_WORKGROUP_COUNT_X", 7, 1),
    ("ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y", 8, 1), ("ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z", 9, 1),
    ("ENABLE_WAVEFRONT_SIZE32", 10, 1), ("RESERVED1", 11, 5), ("ENABLE_ORDERED_APPEND_GDS", 16, 1),
    ("PRIVATE_ELEMENT_SIZE", 17, 2), ("IS_PTR64", 19, 1), ("IS_DYNAMIC_CALLSTACK", 20, 1),
    ("IS_DEBUG_ENABLED", 21, 1), ("IS_XNACK_ENABLED", 22, 1), ("RESERVED2", 23, 9),
)
AMD_MACHINE_KIND_AMDGPU = 1


@dataclass(frozen=True)
class AmdKernelCode:
    amd_kernel_code_version_major: int = 1
    amd_kernel_code_version_minor: int = 2
    amd_machine_kind: int = AMD_MACHINE_KIND_AMDGPU
    amd_machine_version_major: int = 0
    amd_machine_version_minor: int = 0
    amd_machine_version_stepping: int = 0
    kernel_code_entry_byte_offset: int = AMD_KERNEL_CODE_T_SIZE
    kernel_code_prefetch_byte_offset: int = 0
    kernel_code_prefetch_byte_size: int = 0
    max_scratch_backing_memory_byte_size: int = 0
    compute_pgm_rsrc1: int = 0
    compute_pgm_rsrc2: int = 0
    code_properties: int = 0
    workitem_private_segment_byte_size: int = 0
    workgroup_group_segment_byte_size: int = 0
    gds_segment_byte_size: int = 0
    kernarg_segment_byte_size: int = 0
    workgroup_fbarrier_count: int = 0
    wavefront_sgpr_count: int = 0
    workitem_vgpr_count: int = 0
    reserved_vgpr_first: int = 0
    reserved_vgpr_count: int = 0
    reserved_sgpr_first: int = 0
    reserved_sgpr_count: int = 0
    debug_wavefront_private_segment_offset_sgpr: int = 0
    debug_private_segment_buffer_sgpr: int = 0
    kernarg_segment_alignment: int = 4     # log2
    group_segment_alignment: int = 4       # log2
    private_segment_alignment: int = 4     # log2
    wavefront_size: int = 6                # log2
    call_convention: int = -1
    reserved3: bytes = field(default=b"\0" * 12)
    runtime_loader_kernel_symbol: int = 0
    control_directives: bytes = field(default=b"\0" * 128)

    @classmethod
    def parse(cls, data: bytes, offset: int = 0) -> AmdKernelCode:
        return cls(*unpack_record(_STRUCT, data, offset, "amd_kernel_code_t"))

    def to_bytes(self) -> bytes:
        return _STRUCT.pack(*(getattr(self, f.name) for f in fields(self)))

    def rsrc1(self) -> dict[str, int]:
        return unpack_bits(self.compute_pgm_rsrc1, COMPUTE_PGM_RSRC1)

    def rsrc2(self) -> dict[str, int]:
        return unpack_bits(self.compute_pgm_rsrc2, COMPUTE_PGM_RSRC2)

    def properties(self) -> dict[str, int]:
        return unpack_bits(self.code_properties, AMD_CODE_PROPERTIES)

    def fields(self) -> dict:
        out: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bytes):
                continue
            out[f.name] = v
        out["compute_pgm_rsrc1"] = self.rsrc1()
        out["compute_pgm_rsrc2"] = self.rsrc2()
        out["code_properties"] = self.properties()
        return out

    def with_fields(self, *, rsrc1: dict | None = None, rsrc2: dict | None = None,
                    properties: dict | None = None, **plain: int) -> AmdKernelCode:
        upd: dict = dict(plain)
        for attr, new, table in (("compute_pgm_rsrc1", rsrc1, COMPUTE_PGM_RSRC1),
                                 ("compute_pgm_rsrc2", rsrc2, COMPUTE_PGM_RSRC2),
                                 ("code_properties", properties, AMD_CODE_PROPERTIES)):
            if new:
                upd[attr] = merge_bits(getattr(self, attr), table, new, where=attr)
        return replace(self, **upd)
