"""spec 001's DWARF tables for AMDGPU, as data, and the LLVM vendor encodings they rely on."""

from __future__ import annotations

# spec 001 "Register Identifier", table "AMDGPU DWARF Register Mapping":
# (first DWARF number, last, register name stem, first register index or None, wave size or None).
# The 32/64-lane vector registers and VCC/EXEC are distinct DWARF registers per wavefront size.
REGISTER_RANGES: tuple[tuple[int, int, str, int | None, int | None], ...] = (
    (0, 0, "PC_32", None, None),
    (1, 1, "EXEC_MASK_32", None, 32),
    (16, 16, "PC_64", None, None),
    (17, 17, "EXEC_MASK_64", None, 64),
    (32, 95, "SGPR", 0, None),
    (128, 128, "STATUS", None, None),
    (512, 512, "VCC_32", None, 32),
    (768, 768, "VCC_64", None, 64),
    (1088, 1129, "SGPR", 64, None),
    (1536, 1791, "VGPR", 0, 32),
    (2048, 2303, "AGPR", 0, 32),
    (2560, 2815, "VGPR", 0, 64),
    (3072, 3327, "AGPR", 0, 64),
)

# spec 001 "Memory Space Identifier", table "AMDGPU DWARF Memory Space Mapping"
MEMORY_SPACES: dict[int, str] = {0x0000: "DW_MSPACE_LLVM_none", 0x0001: "DW_MSPACE_LLVM_global",
                                 0x0002: "DW_MSPACE_LLVM_constant", 0x0003: "DW_MSPACE_LLVM_group",
                                 0x0004: "DW_MSPACE_LLVM_private", 0x8000: "DW_MSPACE_AMDGPU_region"}

# spec 001 "Address Space Identifier", table "AMDGPU DWARF Address Space Mapping":
# value -> (name, address bits in a 64-bit process, in a 32-bit process)
ADDRESS_SPACES: dict[int, tuple[str, int, int]] = {
    0x00: ("DW_ASPACE_LLVM_none", 64, 32), 0x01: ("DW_ASPACE_AMDGPU_generic", 64, 32),
    0x02: ("DW_ASPACE_AMDGPU_region", 32, 32), 0x03: ("DW_ASPACE_AMDGPU_local", 32, 32),
    0x05: ("DW_ASPACE_AMDGPU_private_lane", 32, 32), 0x06: ("DW_ASPACE_AMDGPU_private_wave", 32, 32)}

# spec 001 "Debugger Information Entry Attributes" names the DW_AT_LLVM_* attributes; their codes
# are LLVM's vendor encodings (llvm/BinaryFormat/Dwarf.def, heterogeneous debugging extension).
LLVM_ATTRIBUTES: dict[int, str] = {0x3e00: "DW_AT_LLVM_include_path", 0x3e01: "DW_AT_LLVM_config_macros",
                                   0x3e02: "DW_AT_LLVM_sysroot", 0x3e0f: "DW_AT_LLVM_memory_space",
                                   0x3e10: "DW_AT_LLVM_address_space", 0x3e11: "DW_AT_LLVM_lanes",
                                   0x3e12: "DW_AT_LLVM_lane_pc", 0x3e13: "DW_AT_LLVM_vector_size",
                                   0x3e14: "DW_AT_LLVM_virtual_call_origin"}
# attributes whose value is a DWARF expression (DW_AT_LLVM_lanes is a constant: the lanes per thread)
LLVM_EXPRESSION_ATTRIBUTES = frozenset({"DW_AT_LLVM_lane_pc"})

# spec 001 "Operation Expressions" names the DW_OP_LLVM_* operations; LLVM encodes them as
# DW_OP_LLVM_user (0xe9) followed by a ULEB128 sub-opcode, then the operands listed here
# ("uleb"/"sleb"), per llvm/BinaryFormat/Dwarf.def and DWARFExpression.cpp.
DW_OP_LLVM_USER = 0xE9
LLVM_USER_OPS: dict[int, tuple[str, tuple[str, ...]]] = {
    0x01: ("DW_OP_LLVM_nop", ()),
    0x02: ("DW_OP_LLVM_form_aspace_address", ()),
    0x03: ("DW_OP_LLVM_push_lane", ()),
    0x04: ("DW_OP_LLVM_offset", ()),
    0x05: ("DW_OP_LLVM_offset_uconst", ("uleb",)),
    0x06: ("DW_OP_LLVM_bit_offset", ()),
    0x07: ("DW_OP_LLVM_call_frame_entry_reg", ("uleb",)),
    0x08: ("DW_OP_LLVM_undefined", ()),
    0x09: ("DW_OP_LLVM_aspace_bregx", ("uleb", "uleb")),
    0x0A: ("DW_OP_LLVM_piece_end", ()),
    0x0B: ("DW_OP_LLVM_extend", ("uleb", "uleb")),
    0x0C: ("DW_OP_LLVM_select_bit_piece", ("uleb", "uleb")),
}

# spec 001 "Call Frame Information" uses the address-space CFA rules of its DWARF extensions; LLVM
# encodes them as these vendor CFA instructions (llvm/BinaryFormat/Dwarf.def): operands as above
LLVM_CFA_OPS: dict[int, tuple[str, tuple[str, ...]]] = {
    0x30: ("DW_CFA_LLVM_def_aspace_cfa", ("uleb", "uleb", "uleb")),
    0x31: ("DW_CFA_LLVM_def_aspace_cfa_sf", ("uleb", "sleb", "uleb")),
}

# spec 001 "Call Frame Information": the CIE augmentation and factors AMDGPU uses
CIE_AUGMENTATION = "[amd:v0.0]"
CU_AUGMENTATION = "[amdgpu:v0.0]"
CODE_ALIGNMENT_FACTOR = 4
DATA_ALIGNMENT_FACTOR = 4


def register_name(number: int, wave_size: int | None = None) -> str:
    """The AMDGPU register a DWARF register number denotes (spec 001 table); vector registers of
    the other wavefront size than ``wave_size`` are marked with it (e.g. ``VGPR3(wave32)``)."""
    for first, last, stem, base, wave in REGISTER_RANGES:
        if first <= number <= last:
            name = stem if base is None else f"{stem}{base + number - first}"
            if wave is not None and wave_size is not None and wave != wave_size and base is not None:
                name += f"(wave{wave})"
            return name
    return f"DWARF_REG{number}(reserved)"
