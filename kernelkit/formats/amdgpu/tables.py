"""Spec 001 tables as data (LLVM AMDGPU user guide); code reads these, never retypes them.

Where the spec text in ``shared/specs/001`` is cut short (generic processors, V5/V6 hidden
arguments, kernel descriptor), the rows come from the same guide's later revision
(AMDGPUUsage.rst, LLVM 20+) and are checked against ``reference/amdgpu``.
"""

from __future__ import annotations

from dataclasses import dataclass

# spec 001 "AMDGPU ELF Relocation Records"
RELOCATIONS: dict[str, int] = {
    "R_AMDGPU_NONE": 0, "R_AMDGPU_ABS32_LO": 1, "R_AMDGPU_ABS32_HI": 2, "R_AMDGPU_ABS64": 3,
    "R_AMDGPU_REL32": 4, "R_AMDGPU_REL64": 5, "R_AMDGPU_ABS32": 6, "R_AMDGPU_GOTPCREL": 7,
    "R_AMDGPU_GOTPCREL32_LO": 8, "R_AMDGPU_GOTPCREL32_HI": 9, "R_AMDGPU_REL32_LO": 10,
    "R_AMDGPU_REL32_HI": 11, "R_AMDGPU_RELATIVE64": 13, "R_AMDGPU_REL16": 14,
}

# spec 001 "AMDGPU ELF Header Enumeration Values"
EM_AMDGPU = 224
OSABI: dict[str, int] = {"ELFOSABI_NONE": 0, "ELFOSABI_AMDGPU_HSA": 64, "ELFOSABI_AMDGPU_PAL": 65,
                         "ELFOSABI_AMDGPU_MESA3D": 66}
# spec 001 "AMDGPU ELF Header Enumeration Values" (+ V6 = 4, AMDGPUUsage LLVM 19+)
HSA_ABI_VERSION: dict[int, int] = {2: 0, 3: 1, 4: 2, 5: 3, 6: 4}  # code object version -> EI_ABIVERSION
CODE_OBJECT_VERSIONS = (2, 3, 4, 5, 6)
DEFAULT_CODE_OBJECT_VERSION = 6   # what clang 22 / LLVM 22 write unless told otherwise (reference/README)

# spec 001 "AMDGPU Target Triples" (architectures, vendors, operating systems)
ARCHITECTURES = ("r600", "amdgcn")
VENDORS = ("amd", "mesa3d")
OPERATING_SYSTEMS = ("", "amdhsa", "amdpal", "mesa3d")

# spec 001 "AMDGPU Target Features": name -> controlled through the target ID (-mcpu)?
TARGET_FEATURES: dict[str, bool] = {"cumode": False, "sramecc": True, "tgsplit": False,
                                    "wavefrontsize64": False, "xnack": True}


@dataclass(frozen=True)
class Processor:
    name: str
    arch: str                       # "r600" | "amdgcn"
    mach: int                       # EF_AMDGPU_MACH value
    alt_names: tuple[str, ...] = ()
    apu: bool = False
    features: tuple[str, ...] = ()
    generic: tuple[str, ...] = ()   # for a generic target: the processors it runs on
    generic_version: int = 0        # EF_AMDGPU_GENERIC_VERSION the generic target requires
    wave32_only: bool = False       # GFX12.5: no wavefrontsize64

    @property
    def wavefront_sizes(self) -> tuple[int, ...]:
        """Native size first; wavefrontsize64 processors run wave32 natively (GFX10+)."""
        if self.wave32_only:
            return (32,)
        return (32, 64) if "wavefrontsize64" in self.features else (64,)

    @property
    def target_id_features(self) -> tuple[str, ...]:
        return tuple(f for f in self.features if TARGET_FEATURES[f])

    @property
    def is_generic(self) -> bool:
        return bool(self.generic)


_R = "r600"
_G = "amdgcn"
_W = ("cumode", "wavefrontsize64")
# spec 001 "AMDGPU Processors" + "AMDGPU EF_AMDGPU_MACH Values" (+ "AMDGPU Generic Processors",
# gfx950/gfx115x/gfx120x rows from AMDGPUUsage LLVM 20)
PROCESSORS: tuple[Processor, ...] = (
    Processor("r600", _R, 0x001), Processor("r630", _R, 0x002), Processor("rs880", _R, 0x003),
    Processor("rv670", _R, 0x004), Processor("rv710", _R, 0x005), Processor("rv730", _R, 0x006),
    Processor("rv770", _R, 0x007), Processor("cedar", _R, 0x008), Processor("cypress", _R, 0x009),
    Processor("juniper", _R, 0x00A), Processor("redwood", _R, 0x00B), Processor("sumo", _R, 0x00C),
    Processor("barts", _R, 0x00D), Processor("caicos", _R, 0x00E), Processor("cayman", _R, 0x00F),
    Processor("turks", _R, 0x010),
    Processor("gfx600", _G, 0x020, ("tahiti",)),
    Processor("gfx601", _G, 0x021, ("pitcairn", "verde")),
    Processor("gfx602", _G, 0x03A, ("hainan", "oland")),
    Processor("gfx700", _G, 0x022, ("kaveri",), apu=True),
    Processor("gfx701", _G, 0x023, ("hawaii",)),
    Processor("gfx702", _G, 0x024),
    Processor("gfx703", _G, 0x025, ("kabini", "mullins"), apu=True),
    Processor("gfx704", _G, 0x026, ("bonaire",)),
    Processor("gfx705", _G, 0x03B, apu=True),
    Processor("gfx801", _G, 0x028, ("carrizo",), apu=True, features=("xnack",)),
    Processor("gfx802", _G, 0x029, ("iceland", "tonga")),
    Processor("gfx803", _G, 0x02A, ("fiji", "polaris10", "polaris11")),
    Processor("gfx805", _G, 0x03C, ("tongapro",)),
    Processor("gfx810", _G, 0x02B, ("stoney",), apu=True, features=("xnack",)),
    Processor("gfx900", _G, 0x02C, features=("xnack",)),
    Processor("gfx902", _G, 0x02D, apu=True, features=("xnack",)),
    Processor("gfx904", _G, 0x02E, features=("xnack",)),
    Processor("gfx906", _G, 0x02F, features=("sramecc", "xnack")),
    Processor("gfx908", _G, 0x030, features=("sramecc", "xnack")),
    Processor("gfx909", _G, 0x031, apu=True, features=("xnack",)),
    Processor("gfx90a", _G, 0x03F, features=("sramecc", "tgsplit", "xnack")),
    Processor("gfx90c", _G, 0x032, apu=True, features=("xnack",)),
    Processor("gfx940", _G, 0x040, features=("sramecc", "tgsplit", "xnack")),
    Processor("gfx941", _G, 0x04B, features=("sramecc", "tgsplit", "xnack")),
    Processor("gfx942", _G, 0x04C, features=("sramecc", "tgsplit", "xnack")),
    Processor("gfx950", _G, 0x04F, features=("sramecc", "tgsplit", "xnack")),
    Processor("gfx1010", _G, 0x033, features=(*_W, "xnack")),
    Processor("gfx1011", _G, 0x034, features=(*_W, "xnack")),
    Processor("gfx1012", _G, 0x035, features=(*_W, "xnack")),
    Processor("gfx1013", _G, 0x042, apu=True, features=(*_W, "xnack")),
    Processor("gfx1030", _G, 0x036, features=_W),
    Processor("gfx1031", _G, 0x037, features=_W),
    Processor("gfx1032", _G, 0x038, features=_W),
    Processor("gfx1033", _G, 0x039, apu=True, features=_W),
    Processor("gfx1034", _G, 0x03E, features=_W),
    Processor("gfx1035", _G, 0x03D, apu=True, features=_W),
    Processor("gfx1036", _G, 0x045, apu=True, features=_W),
    Processor("gfx1100", _G, 0x041, features=_W),
    Processor("gfx1101", _G, 0x046, features=_W),
    Processor("gfx1102", _G, 0x047, features=_W),
    Processor("gfx1103", _G, 0x044, apu=True, features=_W),
    Processor("gfx1150", _G, 0x043, apu=True, features=_W),
    Processor("gfx1151", _G, 0x04A, apu=True, features=_W),
    Processor("gfx1152", _G, 0x055, apu=True, features=_W),
    Processor("gfx1153", _G, 0x058, apu=True, features=_W),
    Processor("gfx1200", _G, 0x048, features=_W),
    Processor("gfx1201", _G, 0x04E, features=_W),
    # LLVM 22 (clang 22 of the ziglang wheel, the LLVM llvmlite links): e_flags of its objects
    # (mach 0x049 / 0x05A, xnack and sramecc "any"), wave32 only (-mwavefrontsize64 refused)
    Processor("gfx1250", _G, 0x049, features=("cumode", "sramecc", "xnack"), wave32_only=True),
    Processor("gfx1251", _G, 0x05A, features=("cumode", "sramecc", "xnack"), wave32_only=True),
    Processor("gfx9-generic", _G, 0x051, features=("xnack",), generic_version=1,
              generic=("gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c")),
    Processor("gfx9-4-generic", _G, 0x05F, features=("sramecc", "xnack"), generic_version=1,
              generic=("gfx940", "gfx941", "gfx942", "gfx950")),
    Processor("gfx10-1-generic", _G, 0x052, features=(*_W, "xnack"), generic_version=1,
              generic=("gfx1010", "gfx1011", "gfx1012", "gfx1013")),
    Processor("gfx10-3-generic", _G, 0x053, features=_W, generic_version=1,
              generic=("gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036")),
    Processor("gfx11-generic", _G, 0x054, features=_W, generic_version=1,
              generic=("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152",
                       "gfx1153")),
    Processor("gfx12-generic", _G, 0x059, features=_W, generic_version=1,
              generic=("gfx1200", "gfx1201")),
)
PROCESSOR_BY_NAME: dict[str, Processor] = {p.name: p for p in PROCESSORS}
PROCESSOR_BY_ALIAS: dict[str, Processor] = {a: p for p in PROCESSORS for a in (p.name, *p.alt_names)}
PROCESSOR_BY_MACH: dict[int, Processor] = {p.mach: p for p in PROCESSORS}

# spec 001 "AMDGPU ELF Header e_flags for Code Object V2"
EF_V2 = {"EF_AMDGPU_FEATURE_XNACK_V2": 0x01, "EF_AMDGPU_FEATURE_TRAP_HANDLER_V2": 0x02}
# spec 001 "AMDGPU ELF Header e_flags for Code Object V3"
EF_V3 = {"EF_AMDGPU_MACH": 0x0FF, "EF_AMDGPU_FEATURE_XNACK_V3": 0x100, "EF_AMDGPU_FEATURE_SRAMECC_V3": 0x200}
# spec 001 "AMDGPU ELF Header e_flags for Code Object V4 and After" (+ generic version, V6)
EF_V4 = {"EF_AMDGPU_MACH": 0x0FF, "EF_AMDGPU_FEATURE_XNACK_V4": 0x300,
         "EF_AMDGPU_FEATURE_SRAMECC_V4": 0xC00, "EF_AMDGPU_GENERIC_VERSION": 0xFF000000}
EF_AMDGPU_GENERIC_VERSION_OFFSET = 24
# spec 001 "... e_flags for Code Object V4 and After": per-feature setting values (xnack, sramecc)
EF_V4_FEATURE_SETTINGS: dict[str, dict[str, int]] = {
    "xnack": {"unsupported": 0x000, "any": 0x100, "off": 0x200, "on": 0x300},
    "sramecc": {"unsupported": 0x000, "any": 0x400, "off": 0x800, "on": 0xC00},
}

# spec 001 "AMDGPU Address Spaces": name -> LLVM address space number (amdgcn)
ADDRESS_SPACES: dict[str, int] = {"generic": 0, "global": 1, "region": 2, "local": 3, "constant": 4,
                                  "private": 5, "constant_32bit": 6, "buffer_fat_pointer": 7,
                                  "buffer_resource": 8, "streamout": 128}
# spec 001 "AMDHSA LLVM Sync Scopes" (one-address-space variants add "-one-as")
SYNC_SCOPES = ("", "agent", "workgroup", "wavefront", "singlethread")

# spec 001 "AMDGPU Code Object V2 ELF Note Record Enumeration Values"
NT_AMD_HSA = {"NT_AMD_HSA_CODE_OBJECT_VERSION": 1, "NT_AMD_HSA_HSAIL": 2, "NT_AMD_HSA_ISA_VERSION": 3,
              "NT_AMD_HSA_METADATA": 10, "NT_AMD_HSA_ISA_NAME": 11, "NT_AMD_PAL_METADATA": 12,
              "NT_AMD_HSA_PRODUCER": 4, "NT_AMD_HSA_PRODUCER_OPTIONS": 5, "NT_AMD_HSA_EXTENSION": 6}
# spec 001 "AMDGPU Code Object V3 and Above ELF Note Record Enumeration Values"
NT_AMDGPU_METADATA = 32
NOTE_OWNER_V2 = "AMD"
NOTE_OWNER_V3 = "AMDGPU"

# spec 001 "AMDGPU Code Object V2 Supported Processors and Fixed Target Feature Settings"
V2_ISA_NAMES: dict[str, str] = {
    "AMD:AMDGPU:6:0:0": "gfx600", "AMD:AMDGPU:6:0:1": "gfx601", "AMD:AMDGPU:6:0:2": "gfx602",
    "AMD:AMDGPU:7:0:0": "gfx700", "AMD:AMDGPU:7:0:1": "gfx701", "AMD:AMDGPU:7:0:2": "gfx702",
    "AMD:AMDGPU:7:0:3": "gfx703", "AMD:AMDGPU:7:0:4": "gfx704", "AMD:AMDGPU:7:0:5": "gfx705",
    "AMD:AMDGPU:8:0:0": "gfx802", "AMD:AMDGPU:8:0:1": "gfx801:xnack+", "AMD:AMDGPU:8:0:2": "gfx802",
    "AMD:AMDGPU:8:0:3": "gfx803", "AMD:AMDGPU:8:0:4": "gfx803", "AMD:AMDGPU:8:0:5": "gfx805",
    "AMD:AMDGPU:8:1:0": "gfx810:xnack+", "AMD:AMDGPU:9:0:0": "gfx900:xnack-",
    "AMD:AMDGPU:9:0:1": "gfx900:xnack+", "AMD:AMDGPU:9:0:2": "gfx902:xnack-",
    "AMD:AMDGPU:9:0:3": "gfx902:xnack+", "AMD:AMDGPU:9:0:4": "gfx904:xnack-",
    "AMD:AMDGPU:9:0:5": "gfx904:xnack+", "AMD:AMDGPU:9:0:6": "gfx906:sramecc-:xnack-",
    "AMD:AMDGPU:9:0:7": "gfx906:sramecc-:xnack+", "AMD:AMDGPU:9:0:12": "gfx90c:xnack-",
}

# spec 001 V2 "ValueKind" / V3 ".value_kind" values, paired (V2 name, V3 name); V5 additions
# (hidden_block_count_x ... hidden_queue_ptr) from AMDGPUUsage "Code Object V5 Metadata"
VALUE_KINDS: tuple[tuple[str | None, str], ...] = (
    ("ByValue", "by_value"), ("GlobalBuffer", "global_buffer"),
    ("DynamicSharedPointer", "dynamic_shared_pointer"), ("Sampler", "sampler"), ("Image", "image"),
    ("Pipe", "pipe"), ("Queue", "queue"),
    ("HiddenGlobalOffsetX", "hidden_global_offset_x"), ("HiddenGlobalOffsetY", "hidden_global_offset_y"),
    ("HiddenGlobalOffsetZ", "hidden_global_offset_z"), ("HiddenNone", "hidden_none"),
    ("HiddenPrintfBuffer", "hidden_printf_buffer"), ("HiddenHostcallBuffer", "hidden_hostcall_buffer"),
    ("HiddenDefaultQueue", "hidden_default_queue"), ("HiddenCompletionAction", "hidden_completion_action"),
    ("HiddenMultiGridSyncArg", "hidden_multigrid_sync_arg"),
    (None, "hidden_block_count_x"), (None, "hidden_block_count_y"), (None, "hidden_block_count_z"),
    (None, "hidden_group_size_x"), (None, "hidden_group_size_y"), (None, "hidden_group_size_z"),
    (None, "hidden_remainder_x"), (None, "hidden_remainder_y"), (None, "hidden_remainder_z"),
    (None, "hidden_grid_dims"), (None, "hidden_heap_v1"), (None, "hidden_dynamic_lds_size"),
    (None, "hidden_private_base"), (None, "hidden_shared_base"), (None, "hidden_queue_ptr"),
)
VALUE_KIND_V2_TO_V3 = {v2: v3 for v2, v3 in VALUE_KINDS if v2}
VALUE_KIND_V3_TO_V2 = {v3: v2 for v2, v3 in VALUE_KINDS if v2}
VALUE_KINDS_V3 = tuple(v3 for _, v3 in VALUE_KINDS)
VALUE_KINDS_V5_ONLY = tuple(v3 for v2, v3 in VALUE_KINDS if v2 is None)

# spec 001 V2 "AddrSpaceQual" / V3 ".address_space" values
ADDRESS_SPACE_QUALS: tuple[tuple[str, str], ...] = (
    ("Private", "private"), ("Global", "global"), ("Constant", "constant"), ("Local", "local"),
    ("Generic", "generic"), ("Region", "region"))
# spec 001 V2 "AccQual"/"ActualAccQual" / V3 ".access"/".actual_access" values
ACCESS_QUALS: tuple[tuple[str, str], ...] = (
    ("Default", "default"), ("ReadOnly", "read_only"), ("WriteOnly", "write_only"),
    ("ReadWrite", "read_write"))

# Hidden arguments of code object V2-V4 (clang's OpenCL layout: 56 bytes after the explicit
# arguments, 8-aligned): slot -> kinds allowed there, else hidden_none (spec 001 V2/V3 tables)
HIDDEN_SLOTS_V2_V4: tuple[tuple[str, ...], ...] = (
    ("hidden_global_offset_x",), ("hidden_global_offset_y",), ("hidden_global_offset_z",),
    ("hidden_printf_buffer", "hidden_hostcall_buffer"), ("hidden_default_queue",),
    ("hidden_completion_action",), ("hidden_multigrid_sync_arg",),
)
HIDDEN_SLOT_SIZE_V2_V4 = 8

# Code object V5+ implicit kernel arguments: kind -> (offset from the hidden block, size)
# (AMDGPUUsage "Code Object V5 Metadata", "amdgpu-amdhsa-code-object-kernel-argument-metadata-map-table-v5")
HIDDEN_ARGS_V5: dict[str, tuple[int, int]] = {
    "hidden_block_count_x": (0, 4), "hidden_block_count_y": (4, 4), "hidden_block_count_z": (8, 4),
    "hidden_group_size_x": (12, 2), "hidden_group_size_y": (14, 2), "hidden_group_size_z": (16, 2),
    "hidden_remainder_x": (18, 2), "hidden_remainder_y": (20, 2), "hidden_remainder_z": (22, 2),
    "hidden_global_offset_x": (40, 8), "hidden_global_offset_y": (48, 8),
    "hidden_global_offset_z": (56, 8), "hidden_grid_dims": (64, 2),
    "hidden_printf_buffer": (72, 8), "hidden_hostcall_buffer": (80, 8),
    "hidden_multigrid_sync_arg": (88, 8), "hidden_heap_v1": (96, 8), "hidden_default_queue": (104, 8),
    "hidden_completion_action": (112, 8), "hidden_dynamic_lds_size": (120, 4),
    "hidden_private_base": (192, 4), "hidden_shared_base": (196, 4), "hidden_queue_ptr": (200, 8),
}
HIDDEN_BLOCK_SIZE_V5 = 256

# spec 001 "AMDHSA Code Object V2 Metadata Map" and nested V2 tables: key -> python type name
V2_KEYS = {
    "top": {"Version": "seq-int", "Printf": "seq-str", "Kernels": "seq"},
    "kernel": {"Name": "str", "SymbolName": "str", "Language": "str", "LanguageVersion": "seq-int",
               "Attrs": "map", "Args": "seq", "CodeProps": "map", "DebugProps": "map"},
    "attrs": {"ReqdWorkGroupSize": "seq-int", "WorkGroupSizeHint": "seq-int", "VecTypeHint": "str",
              "RuntimeHandle": "str"},
    "arg": {"Name": "str", "TypeName": "str", "Size": "int", "Align": "int", "ValueKind": "str",
            "ValueType": "str", "PointeeAlign": "int", "AddrSpaceQual": "str", "AccQual": "str",
            "ActualAccQual": "str", "IsConst": "bool", "IsRestrict": "bool", "IsVolatile": "bool",
            "IsPipe": "bool"},
    "code_props": {"KernargSegmentSize": "int", "GroupSegmentFixedSize": "int",
                   "PrivateSegmentFixedSize": "int", "KernargSegmentAlign": "int",
                   "WavefrontSize": "int", "NumSGPRs": "int", "NumVGPRs": "int",
                   "MaxFlatWorkGroupSize": "int", "IsDynamicCallStack": "bool", "IsXNACKEnabled": "bool",
                   "NumSpilledSGPRs": "int", "NumSpilledVGPRs": "int"},
}
V2_REQUIRED = {"top": ("Version", "Kernels"), "kernel": ("Name", "SymbolName"),
               "arg": ("Size", "Align", "ValueKind"), "attrs": (),
               "code_props": ("KernargSegmentSize", "GroupSegmentFixedSize", "PrivateSegmentFixedSize",
                              "KernargSegmentAlign", "WavefrontSize", "NumSGPRs", "NumVGPRs",
                              "MaxFlatWorkGroupSize")}

# spec 001 "AMDHSA Code Object V3 Metadata Map", "... V3 Kernel Metadata Map", "... V3 Kernel
# Argument Metadata Map", V4 and V5 changes: key -> (type, first code object version with it);
# "flag" = boolean that LLVM writes as integer 0/1 (.workgroup_processor_mode in the references);
# "seq-int" / "seq-str" = sequence of integers / strings
V3_KEYS = {
    "top": {"amdhsa.version": ("seq-int", 3), "amdhsa.printf": ("seq-str", 3), "amdhsa.kernels": ("seq", 3),
            "amdhsa.target": ("str", 4)},
    "kernel": {".name": ("str", 3), ".symbol": ("str", 3), ".language": ("str", 3),
               ".language_version": ("seq-int", 3), ".args": ("seq", 3), ".reqd_workgroup_size": ("seq-int", 3),
               ".workgroup_size_hint": ("seq-int", 3), ".vec_type_hint": ("str", 3),
               ".device_enqueue_symbol": ("str", 3), ".kernarg_segment_size": ("int", 3),
               ".group_segment_fixed_size": ("int", 3), ".private_segment_fixed_size": ("int", 3),
               ".kernarg_segment_align": ("int", 3), ".wavefront_size": ("int", 3),
               ".sgpr_count": ("int", 3), ".vgpr_count": ("int", 3), ".agpr_count": ("int", 3),
               ".max_flat_workgroup_size": ("int", 3), ".sgpr_spill_count": ("int", 3),
               ".vgpr_spill_count": ("int", 3), ".kind": ("str", 3), ".uses_dynamic_stack": ("bool", 5),
               ".workgroup_processor_mode": ("flag", 5), ".uniform_work_group_size": ("flag", 5)},
    "arg": {".name": ("str", 3), ".type_name": ("str", 3), ".size": ("int", 3), ".offset": ("int", 3),
            ".value_kind": ("str", 3), ".value_type": ("str", 3), ".pointee_align": ("int", 3),
            ".address_space": ("str", 3), ".access": ("str", 3), ".actual_access": ("str", 3),
            ".is_const": ("bool", 3), ".is_restrict": ("bool", 3), ".is_volatile": ("bool", 3),
            ".is_pipe": ("bool", 3)},
}
V3_REQUIRED = {"top": ("amdhsa.version", "amdhsa.kernels"),
               "kernel": (".name", ".symbol", ".kernarg_segment_size", ".group_segment_fixed_size",
                          ".private_segment_fixed_size", ".kernarg_segment_align", ".wavefront_size",
                          ".sgpr_count", ".vgpr_count", ".max_flat_workgroup_size"),
               "arg": (".size", ".offset", ".value_kind")}
# spec 001 "amdhsa.version" per code object version (V3 1.0, V4 1.1, V5 1.2; V6 1.2)
METADATA_VERSION: dict[int, tuple[int, int]] = {2: (1, 0), 3: (1, 0), 4: (1, 1), 5: (1, 2), 6: (1, 2)}
# spec 001 V3 ".kind" values
KERNEL_KINDS = ("normal", "init", "fini")
