"""Spec 004 (vISA object format) tables, as data.

Every table cites the section of ``specs/004_*.txt`` it comes from; values that the spec leaves
to the implementation are the ones established against IGC 1.0.12504 (vISA 4.1) and recorded in
``shared/reference/visa/README``.
"""

from __future__ import annotations

# spec 004 "Virtual ISA Header": magic_number 'CISA'
MAGIC = 0x41534943
# version IGC 1.0.12504 writes (reference/visa README): vISA 4.1
DEFAULT_VERSION = (4, 1)

# spec 004 "Virtual ISA Header" limits
MAX_KERNELS = 512
MAX_GEN_BINARIES = 4

# spec 004 "gen_binary_info": gen_platform codes; DG2 = 13 as observed in reference/visa/dg2-g10_saxpy
GEN_PLATFORMS: dict[int, str] = {3: "BDW", 5: "SKL", 6: "BXT", 10: "ICLLP", 12: "TGLLP", 13: "DG2"}

# spec 004 "file_scope_var_info"/"function_info": linkage
LINKAGES: dict[int, str] = {0: "extern", 1: "static", 2: "global"}

# reference/visa README (vISA 4.1 type codes): code -> (text name, size in bytes)
TYPES: dict[int, tuple[str, int]] = {
    0: ("ud", 4), 1: ("d", 4), 2: ("uw", 2), 3: ("w", 2), 4: ("ub", 1), 5: ("b", 1), 6: ("df", 8),
    7: ("f", 4), 8: ("v", 4), 9: ("vf", 4), 10: ("bool", 1), 11: ("uq", 8), 12: ("uv", 4),
    13: ("q", 8), 14: ("hf", 2), 15: ("bf", 2),
}
TYPE_BY_NAME: dict[str, int] = {name: code for code, (name, _size) in TYPES.items()}
# spec 004 "General Variables": types a general variable may have (no packed vectors, no bool)
VARIABLE_TYPES = frozenset(TYPE_BY_NAME[t] for t in ("ud", "d", "uw", "w", "ub", "b", "uq", "q", "df",
                                                     "hf", "f", "bf"))

# spec 004 "file_scope_var_info" alignment table: code -> (text name, bytes; 0 = GRF-relative)
ALIGNMENTS: dict[int, tuple[str, int]] = {
    0: ("byte", 1), 1: ("word", 2), 2: ("dword", 4), 3: ("qword", 8), 4: ("oword", 16),
    5: ("GRF", 0), 6: ("GRFx2", 0), 7: ("hword", 32), 8: ("wordx32", 64), 9: ("wordx64", 128),
}
ALIGN_BY_NAME: dict[str, int] = {name: code for code, (name, _b) in ALIGNMENTS.items()}

# spec 004 "Variables" table: storage class -> max count
MAX_COUNTS: dict[str, int] = {"general": 65536, "address": 4096, "predicate": 4096, "sampler": 32,
                              "surface": 256}
MAX_INPUTS = 256                       # spec 004 "Input Variables"
MAX_VARIABLE_BYTES = 4096              # spec 004 var_info num_elements: size < 4K
VAR_NUM_ELEMENTS = (1, 4096)           # spec 004 var_info
FILE_VAR_NUM_ELEMENTS = (1, 1024)      # spec 004 file_scope_var_info
ADDRESS_NUM_ELEMENTS = (1, 16)         # spec 004 address_info
PREDICATE_NUM_ELEMENTS = frozenset({1, 2, 4, 8, 16, 32})   # spec 004 predicate_info
STRING_COUNT = (1, 131072)             # spec 004 kernel_data string_count
NAME_LIMITS: dict[str, int] = {        # spec 004: maximum name lengths per object kind
    "kernel": 65535, "function": 65535, "file_variable": 255, "variable": 64, "attribute": 64,
    "label": 1024, "routine": 1023,
}
FUNCTION_ARG_GRFS = 32                 # spec 004 function_data input_size [0-32]
FUNCTION_RET_GRFS = 12                 # spec 004 function_data return_value_size [0-12]
GRF_BYTES = 32                         # GRF size of the platforms this format targets (SKL..DG2)

# spec 004 "Input Variables": kind bits 0-1
INPUT_CATEGORIES: dict[int, str] = {0: "general", 1: "sampler", 2: "surface"}
# spec 004 "Input Variables": provenance (bits 3-7) -> name (CM runtime implicit arguments)
PROVENANCES: dict[int, str] = {0: "none", 1: "local_size", 2: "group_count", 3: "local_id",
                               4: "scoreboarding_dependency", 5: "scoreboarding_bti"}
# spec 004 "Input Variables": text directive of implicit inputs with a mnemonic
IMPLICIT_DIRECTIVES: dict[int, str] = {1: ".implicit_LOCAL_SIZE", 2: ".implicit_GROUP_COUNT",
                                       3: ".implicit_LOCAL_ID"}

# spec 004 "General Variables" predefined table; names as IGC 1.0.12504 prints them (reference dumps)
PREDEFINED_VARIABLES: tuple[tuple[str, str, int], ...] = (   # (name, type, num_elements)
    ("%null", "ud", 1), ("%thread_x", "uw", 1), ("%thread_y", "uw", 1), ("%group_id_x", "ud", 1),
    ("%group_id_y", "ud", 1), ("%group_id_z", "ud", 1), ("%tsc", "ud", 5), ("%r0", "ud", 8),
    ("%arg", "ud", 256), ("%retval", "ud", 96), ("%sp", "ud", 1), ("%fp", "ud", 1),
    ("%hw_id", "ud", 1), ("%sr0", "ud", 4), ("%cr0", "ud", 1), ("%ce0", "ud", 1), ("%dbg0", "ud", 2),
    ("%color", "uw", 1), ("%impl_arg_buf_ptr", "uq", 1), ("%local_id_buf_ptr", "uq", 1),
    ("%msg0", "ud", 12),
)
# reference/visa README: general variable ids start at 32 (V0-V31 are predefined/reserved)
NUM_PREDEFINED_VARIABLES = 32
# spec 004 "Surface Variables": T0-T5 predefined; names as IGC prints them
PREDEFINED_SURFACES: tuple[str, ...] = ("%slm", "T1", "T2", "TSS", "%bss", "%scratch")
NUM_PREDEFINED_SURFACES = len(PREDEFINED_SURFACES)
BINDLESS_SAMPLER = 31                  # spec 004 "Sampler Variables": S31
NUM_PREDEFINED_PREDICATES = 1          # spec 004 predicate_info: P0 reserved

# spec 004 "Pre-defined Attributes" (+ the finalizer's attribute list): name -> value kind
ATTRIBUTE_KINDS: dict[str, str] = {
    "OutputAsmPath": "str", "AsmName": "str", "Target": "int", "SimdSize": "int", "SLMSize": "int",
    "SpillMemOffset": "int", "ArgSize": "int", "RetValSize": "int", "Scope": "int", "Output": "bool",
    "PerThreadInputSize": "int", "SurfaceUsage": "int", "CrossThreadInputSize": "int",
    "NBarrierCnt": "int", "Extern": "bool", "NoBarrier": "bool", "Callable": "bool",
    "Caller": "bool", "Composable": "bool", "Entry": "bool", "Input": "bool",
    "PayloadLiveOut": "bool", "Input_Output": "bool", "NoWidening": "bool", "DoNotSpill": "bool",
    "SepSpillPvtSS": "bool", "LTO_InvokeOptTarget": "bool",
}
# spec 004 "Target" attribute values and their text spelling
TARGET_NAMES: dict[int, str] = {0: "cm", 1: "3d", 2: "cs"}
# spec 004 pre-defined attributes: allowed integer ranges
ATTRIBUTE_RANGES: dict[str, tuple[int, ...]] = {
    "Target": (0, 1, 2), "SimdSize": (0, 8, 16, 32), "SLMSize": tuple(range(0, 65)),
    "ArgSize": tuple(range(0, 33)), "RetValSize": tuple(range(0, 13)),
}

# spec 004 "Labels": kind
LABEL_KINDS: dict[int, str] = {0: "block", 1: "subroutine", 2: "fc"}

# operand encodings (IGC visa/Common_ISA.h, read by the finalizer)
OPERAND_CLASSES: dict[int, str] = {0: "general", 1: "address", 2: "predicate", 3: "indirect",
                                   4: "addressof", 5: "immediate", 6: "state"}
MODIFIERS: dict[int, str] = {0: "", 1: "(abs)", 2: "(-)", 3: "(-abs)", 4: "sat", 5: "(~)"}
MODIFIER_BY_TEXT: dict[str, int] = {"(abs)": 1, "(-)": 2, "(-abs)": 3, "(~)": 5}
# region field codes: code -> value (0 = absent)
REGION_VALUES: dict[int, int] = {1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 6: 16, 7: 32}
REGION_CODES: dict[int, int] = {v: k for k, v in REGION_VALUES.items()}
STATE_CLASSES: dict[int, str] = {0: "surface", 1: "sampler"}
# exec size codes and masks
EXEC_SIZES: dict[int, int] = {0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 32}
EXEC_CODES: dict[int, int] = {v: k for k, v in EXEC_SIZES.items()}
EMASKS: tuple[str, ...] = ("M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M1_NM", "M2_NM", "M3_NM",
                           "M4_NM", "M5_NM", "M6_NM", "M7_NM", "M8_NM")
PRED_CONTROLS: dict[int, str] = {0: "", 1: ".any", 2: ".all"}
CMP_OPS: tuple[str, ...] = ("eq", "ne", "gt", "ge", "lt", "le")
ATOMIC_OPS: dict[int, str] = {
    0x0: "add", 0x1: "sub", 0x2: "inc", 0x3: "dec", 0x4: "min", 0x5: "max", 0x6: "xchg",
    0x7: "cmpxchg", 0x8: "and", 0x9: "or", 0xA: "xor", 0xB: "minsint", 0xC: "maxsint",
    0x10: "fmax", 0x11: "fmin", 0x12: "fcmpwr", 0x13: "fadd", 0x14: "fsub",
}
ATOMIC_BY_NAME: dict[str, int] = {v: k for k, v in ATOMIC_OPS.items()}
CHANNEL_MASKS: tuple[str, ...] = ("", "R", "G", "RG", "B", "RB", "GB", "RGB", "A", "RA", "GA", "RGA",
                                  "BA", "RBA", "GBA", "RGBA")
SVM_BLOCK_TYPES: dict[int, int] = {0: 1, 1: 4, 2: 8}     # block type code -> bytes per block
SVM_BLOCK_NUMS: dict[int, int] = {0: 1, 1: 2, 2: 4, 3: 8}
OWORD_NUMS: dict[int, int] = {0: 1, 1: 2, 2: 4, 3: 8, 4: 16}
FENCE_FLAGS: tuple[tuple[int, str], ...] = ((1, "E"), (2, "I"), (4, "S"), (8, "C"), (16, "R"),
                                            (64, "L1"))
# LSC enumerations (DG2 and later)
LSC_SFIDS: tuple[str, ...] = ("ugm", "ugml", "tgm", "slm")
LSC_CACHING: tuple[str, ...] = ("df", "uc", "ca", "wb", "wt", "st", "ri")
LSC_ADDR_TYPES: dict[int, str] = {1: "flat", 2: "bss", 3: "ss", 4: "bti", 5: "arg"}
LSC_ADDR_SIZES: dict[int, str] = {1: "a16", 2: "a32", 3: "a64"}
LSC_DATA_SIZES: dict[int, str] = {1: "d8", 2: "d16", 3: "d32", 4: "d64", 5: "d8c32", 6: "d16c32",
                                  7: "d16c32h"}
# lsc_load_quad/lsc_store_quad channel mask bits and their text letters
LSC_QUAD_CHANNELS: tuple[tuple[int, str], ...] = ((1, "x"), (2, "y"), (4, "z"), (8, "w"))
# atomic operand width suffix (bits 5-6 of the atomic op byte): text -> bits
ATOMIC_WIDTHS: dict[str, int] = {"32": 0, "16": 0x20, "64": 0x40}
LSC_DATA_ELEMS: dict[int, int] = {1: 1, 2: 2, 3: 3, 4: 4, 5: 8, 6: 16, 7: 32, 8: 64}
LSC_FENCE_OPS: tuple[str, ...] = ("none", "evict", "invalidate", "discard", "clean", "flushl3", "type6")
LSC_SCOPES: tuple[str, ...] = ("group", "local", "tile", "gpu", "gpus", "sysrel", "sysacq")
# LSC untyped sub-operations: code -> (mnemonic, kind) with kind load/store/atomic/strided_*
LSC_OPS: dict[int, tuple[str, str]] = {
    0x00: ("lsc_load", "load"), 0x01: ("lsc_load_strided", "load_strided"),
    0x02: ("lsc_load_quad", "load_quad"), 0x04: ("lsc_store", "store"),
    0x05: ("lsc_store_strided", "store_strided"), 0x06: ("lsc_store_quad", "store_quad"),
    0x08: ("lsc_atomic_iinc", "atomic"), 0x09: ("lsc_atomic_idec", "atomic"),
    0x0A: ("lsc_atomic_load", "atomic"), 0x0B: ("lsc_atomic_store", "atomic"),
    0x0C: ("lsc_atomic_iadd", "atomic"), 0x0D: ("lsc_atomic_isub", "atomic"),
    0x0E: ("lsc_atomic_smin", "atomic"), 0x0F: ("lsc_atomic_smax", "atomic"),
    0x10: ("lsc_atomic_umin", "atomic"), 0x11: ("lsc_atomic_umax", "atomic"),
    0x12: ("lsc_atomic_icas", "atomic"), 0x13: ("lsc_atomic_fadd", "atomic"),
    0x14: ("lsc_atomic_fsub", "atomic"), 0x15: ("lsc_atomic_fmin", "atomic"),
    0x16: ("lsc_atomic_fmax", "atomic"), 0x17: ("lsc_atomic_fcas", "atomic"),
    0x18: ("lsc_atomic_and", "atomic"), 0x19: ("lsc_atomic_or", "atomic"),
    0x1A: ("lsc_atomic_xor", "atomic"),
}
LSC_OP_BY_NAME: dict[str, int] = {name: code for code, (name, _k) in LSC_OPS.items()}
