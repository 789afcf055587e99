"""The 64-byte AMDHSA kernel descriptor of code object V3+ (AMDGPUUsage "Kernel Descriptor").

``KernelDescriptor.parse(data)`` / ``.to_bytes()``; the register words are kept raw and named
through ``rsrc1()``, ``rsrc2()``, ``rsrc3(processor)``, ``code_properties()``, ``kernarg_preload_fields()``
(and ``with_fields(...)`` writes named fields back). ``COMPUTE_PGM_RSRC1/2`` tables are shared
with ``amd_kernel_code_t`` (V2).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, replace

from kernelkit.formats.amdgpu.bitfields import BitField, merge_bits, unpack_bits, unpack_record
from kernelkit.formats.amdgpu.tables import Processor

KERNEL_DESCRIPTOR_SIZE = 64
KERNEL_DESCRIPTOR_ALIGN = 64

# AMDGPUUsage "Kernel Descriptor for GFX6-GFX12": (field, byte offset, struct format)
KERNEL_DESCRIPTOR_LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("group_segment_fixed_size", 0, "I"), ("private_segment_fixed_size", 4, "I"),
    ("kernarg_size", 8, "I"), ("reserved0", 12, "4s"), ("kernel_code_entry_byte_offset", 16, "q"),
    ("reserved1", 24, "20s"), ("compute_pgm_rsrc3", 44, "I"), ("compute_pgm_rsrc1", 48, "I"),
    ("compute_pgm_rsrc2", 52, "I"), ("kernel_code_properties", 56, "H"), ("kernarg_preload", 58, "H"),
    ("reserved2", 60, "4s"),
)
_STRUCT = struct.Struct("<" + "".join(f for _, _, f in KERNEL_DESCRIPTOR_LAYOUT))

# AMDGPUUsage "compute_pgm_rsrc1 for GFX6-GFX12"
COMPUTE_PGM_RSRC1: tuple[BitField, ...] = (
    ("GRANULATED_WORKITEM_VGPR_COUNT", 0, 6), ("GRANULATED_WAVEFRONT_SGPR_COUNT", 6, 4),
    ("PRIORITY", 10, 2), ("FLOAT_ROUND_MODE_32", 12, 2), ("FLOAT_ROUND_MODE_16_64", 14, 2),
    ("FLOAT_DENORM_MODE_32", 16, 2), ("FLOAT_DENORM_MODE_16_64", 18, 2), ("PRIV", 20, 1),
    ("ENABLE_DX10_CLAMP", 21, 1), ("DEBUG_MODE", 22, 1), ("ENABLE_IEEE_MODE", 23, 1), ("BULKY", 24, 1),
    ("CDBG_USER", 25, 1), ("FP16_OVFL", 26, 1), ("RESERVED0", 27, 2), ("WGP_MODE", 29, 1),
    ("MEM_ORDERED", 30, 1), ("FWD_PROGRESS", 31, 1),
)
# AMDGPUUsage "compute_pgm_rsrc2 for GFX6-GFX12"
COMPUTE_PGM_RSRC2: tuple[BitField, ...] = (
    ("ENABLE_PRIVATE_SEGMENT", 0, 1), ("USER_SGPR_COUNT", 1, 5), ("ENABLE_TRAP_HANDLER", 6, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_X", 7, 1), ("ENABLE_SGPR_WORKGROUP_ID_Y", 8, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_Z", 9, 1), ("ENABLE_SGPR_WORKGROUP_INFO", 10, 1),
    ("ENABLE_VGPR_WORKITEM_ID", 11, 2), ("ENABLE_EXCEPTION_ADDRESS_WATCH", 13, 1),
    ("ENABLE_EXCEPTION_MEMORY", 14, 1), ("GRANULATED_LDS_SIZE", 15, 9),
    ("ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", 24, 1),
    ("ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", 25, 1), ("ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", 26, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", 27, 1), ("ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", 28, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", 29, 1), ("ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", 30, 1),
    ("RESERVED0", 31, 1),
)
# AMDGPUUsage "compute_pgm_rsrc3 for GFX90A, GFX942"
# GFX12 renames three bits (AMDHSAKernelDescriptor.h / AMDGPUUsage "compute_pgm_rsrc1 GFX6-GFX12",
# "compute_pgm_rsrc2 GFX6-GFX12"): 21 DX10 clamp -> WG round-robin, 23 IEEE mode -> DISABLE_PERF,
# rsrc2 6 trap handler -> reserved
_GFX12_RENAMES_RSRC1 = {"ENABLE_DX10_CLAMP": "ENABLE_WG_RR_EN", "ENABLE_IEEE_MODE": "DISABLE_PERF"}
COMPUTE_PGM_RSRC1_GFX12: tuple[BitField, ...] = tuple(
    (_GFX12_RENAMES_RSRC1.get(name, name), shift, width) for name, shift, width in COMPUTE_PGM_RSRC1)
COMPUTE_PGM_RSRC2_GFX12: tuple[BitField, ...] = tuple(
    ("RESERVED1" if name == "ENABLE_TRAP_HANDLER" else name, shift, width) for name, shift, width in COMPUTE_PGM_RSRC2)
COMPUTE_PGM_RSRC3_GFX90A: tuple[BitField, ...] = (
    ("ACCUM_OFFSET", 0, 6), ("RESERVED0", 6, 10), ("TG_SPLIT", 16, 1), ("RESERVED1", 17, 15))
# AMDGPUUsage "compute_pgm_rsrc3 for GFX10-GFX11"
COMPUTE_PGM_RSRC3_GFX10: tuple[BitField, ...] = (
    ("SHARED_VGPR_COUNT", 0, 4), ("INST_PREF_SIZE", 4, 6), ("TRAP_ON_START", 10, 1),
    ("TRAP_ON_END", 11, 1), ("RESERVED0", 12, 19), ("IMAGE_OP", 31, 1))
# AMDGPUUsage "compute_pgm_rsrc3 for GFX12"
COMPUTE_PGM_RSRC3_GFX12: tuple[BitField, ...] = (
    ("RESERVED0", 0, 4), ("INST_PREF_SIZE", 4, 8), ("RESERVED1", 12, 1), ("GLG_EN", 13, 1),
    ("RESERVED2", 14, 17), ("IMAGE_OP", 31, 1))
COMPUTE_PGM_RSRC3_NONE: tuple[BitField, ...] = (("RESERVED0", 0, 32),)
# AMDGPUUsage "Kernel Descriptor" kernel_code_properties bits 448-463
KERNEL_CODE_PROPERTIES: tuple[BitField, ...] = (
    ("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 0, 1), ("ENABLE_SGPR_DISPATCH_PTR", 1, 1),
    ("ENABLE_SGPR_QUEUE_PTR", 2, 1), ("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 3, 1),
    ("ENABLE_SGPR_DISPATCH_ID", 4, 1), ("ENABLE_SGPR_FLAT_SCRATCH_INIT", 5, 1),
    ("ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 6, 1), ("RESERVED0", 7, 3), ("ENABLE_WAVEFRONT_SIZE32", 10, 1),
    ("USES_DYNAMIC_STACK", 11, 1), ("RESERVED1", 12, 4),
)
# AMDGPUUsage "Kernel Descriptor" kernarg_preload bits 464-479
KERNARG_PRELOAD: tuple[BitField, ...] = (("KERNARG_PRELOAD_SPEC_LENGTH", 0, 7),
                                         ("KERNARG_PRELOAD_SPEC_OFFSET", 7, 9))


def _is_gfx12(processor: Processor | None) -> bool:
    return bool(processor) and processor.name.startswith("gfx12")


def rsrc1_table(processor: Processor | None) -> tuple[BitField, ...]:
    return COMPUTE_PGM_RSRC1_GFX12 if _is_gfx12(processor) else COMPUTE_PGM_RSRC1


def rsrc2_table(processor: Processor | None) -> tuple[BitField, ...]:
    return COMPUTE_PGM_RSRC2_GFX12 if _is_gfx12(processor) else COMPUTE_PGM_RSRC2


def rsrc3_table(processor: Processor | None) -> tuple[BitField, ...]:
    name = processor.name if processor else ""
    if name.startswith(("gfx90a", "gfx94", "gfx95", "gfx9-4")):
        return COMPUTE_PGM_RSRC3_GFX90A
    if name.startswith(("gfx10", "gfx11")):
        return COMPUTE_PGM_RSRC3_GFX10
    if name.startswith("gfx12"):
        return COMPUTE_PGM_RSRC3_GFX12
    return COMPUTE_PGM_RSRC3_NONE


@dataclass(frozen=True)
class KernelDescriptor:
    group_segment_fixed_size: int = 0
    private_segment_fixed_size: int = 0
    kernarg_size: int = 0
    reserved0: bytes = b"\0" * 4
    kernel_code_entry_byte_offset: int = 0
    reserved1: bytes = b"\0" * 20
    compute_pgm_rsrc3: int = 0
    compute_pgm_rsrc1: int = 0
    compute_pgm_rsrc2: int = 0
    kernel_code_properties: int = 0
    kernarg_preload: int = 0
    reserved2: bytes = b"\0" * 4

    @classmethod
    def parse(cls, data: bytes, offset: int = 0) -> KernelDescriptor:
        return cls(*unpack_record(_STRUCT, data, offset, "kernel_descriptor"))

    def to_bytes(self) -> bytes:
        return _STRUCT.pack(*(getattr(self, name) for name, _, _ in KERNEL_DESCRIPTOR_LAYOUT))

    def rsrc1(self, processor: Processor | None = None) -> dict[str, int]:
        return unpack_bits(self.compute_pgm_rsrc1, rsrc1_table(processor))

    def rsrc2(self, processor: Processor | None = None) -> dict[str, int]:
        return unpack_bits(self.compute_pgm_rsrc2, rsrc2_table(processor))

    def rsrc3(self, processor: Processor | None) -> dict[str, int]:
        return unpack_bits(self.compute_pgm_rsrc3, rsrc3_table(processor))

    def code_properties(self) -> dict[str, int]:
        return unpack_bits(self.kernel_code_properties, KERNEL_CODE_PROPERTIES)

    def kernarg_preload_fields(self) -> dict[str, int]:
        return unpack_bits(self.kernarg_preload, KERNARG_PRELOAD)

    def fields(self, processor: Processor | None = None) -> dict:
        """Every field and bit-field by name (JSON-ready)."""
        return {
            "group_segment_fixed_size": self.group_segment_fixed_size,
            "private_segment_fixed_size": self.private_segment_fixed_size,
            "kernarg_size": self.kernarg_size,
            "kernel_code_entry_byte_offset": self.kernel_code_entry_byte_offset,
            "compute_pgm_rsrc1": self.rsrc1(processor), "compute_pgm_rsrc2": self.rsrc2(processor),
            "compute_pgm_rsrc3": self.rsrc3(processor), "kernel_code_properties": self.code_properties(),
            "kernarg_preload": self.kernarg_preload_fields(),
        }

    def with_fields(self, processor: Processor | None = None, *, rsrc1: dict | None = None,
                    rsrc2: dict | None = None, rsrc3: dict | None = None,
                    code_properties: dict | None = None, kernarg_preload: dict | None = None,
                    **plain: int) -> KernelDescriptor:
        """A copy with named bit-fields merged in (others kept)."""
        upd: dict = dict(plain)
        for attr, new, table in (("compute_pgm_rsrc1", rsrc1, rsrc1_table(processor)),
                                 ("compute_pgm_rsrc2", rsrc2, rsrc2_table(processor)),
                                 ("compute_pgm_rsrc3", rsrc3, rsrc3_table(processor)),
                                 ("kernel_code_properties", code_properties, KERNEL_CODE_PROPERTIES),
                                 ("kernarg_preload", kernarg_preload, KERNARG_PRELOAD)):
            if new:
                upd[attr] = merge_bits(getattr(self, attr), table, new, where=attr)
        return replace(self, **upd)
