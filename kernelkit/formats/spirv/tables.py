"""SPIR-V enumerants kernelkit reads, as data (SPIR-V Unified Specification 1.6, section 3).

Opcode names are those spirv-dis prints (without the ``Op`` prefix).
"""

from __future__ import annotations

# SPIR-V spec §3.52 "Instructions": opcode -> name.
OPCODES: dict[int, str] = {
    0: "Nop", 1: "Undef", 2: "SourceContinued", 3: "Source", 4: "SourceExtension", 5: "Name",
    6: "MemberName", 7: "String", 8: "Line", 10: "Extension", 11: "ExtInstImport", 12: "ExtInst",
    14: "MemoryModel", 15: "EntryPoint", 16: "ExecutionMode", 17: "Capability", 19: "TypeVoid",
    20: "TypeBool", 21: "TypeInt", 22: "TypeFloat", 23: "TypeVector", 25: "TypeImage", 26: "TypeSampler",
    27: "TypeSampledImage", 28: "TypeArray", 29: "TypeRuntimeArray", 30: "TypeStruct", 31: "TypeOpaque",
    32: "TypePointer", 33: "TypeFunction", 34: "TypeEvent", 35: "TypeDeviceEvent", 36: "TypeReserveId",
    37: "TypeQueue", 38: "TypePipe", 39: "TypeForwardPointer", 41: "ConstantTrue", 42: "ConstantFalse",
    43: "Constant", 44: "ConstantComposite", 45: "ConstantSampler", 46: "ConstantNull",
    48: "SpecConstantTrue", 49: "SpecConstantFalse", 50: "SpecConstant", 51: "SpecConstantComposite",
    52: "SpecConstantOp", 54: "Function", 55: "FunctionParameter", 56: "FunctionEnd", 57: "FunctionCall",
    59: "Variable", 61: "Load", 62: "Store", 63: "CopyMemory", 64: "CopyMemorySized", 65: "AccessChain",
    66: "InBoundsAccessChain", 67: "PtrAccessChain", 70: "InBoundsPtrAccessChain", 71: "Decorate",
    72: "MemberDecorate", 73: "DecorationGroup", 74: "GroupDecorate", 77: "VectorExtractDynamic",
    78: "VectorInsertDynamic", 79: "VectorShuffle", 80: "CompositeConstruct", 81: "CompositeExtract",
    82: "CompositeInsert", 83: "CopyObject", 86: "SampledImage", 88: "ImageSampleExplicitLod",
    98: "ImageRead", 99: "ImageWrite", 103: "ImageQuerySizeLod", 104: "ImageQuerySize",
    109: "ConvertFToU", 110: "ConvertFToS", 111: "ConvertSToF", 112: "ConvertUToF", 113: "UConvert",
    114: "SConvert", 115: "FConvert", 117: "ConvertPtrToU", 118: "SatConvertSToU", 119: "SatConvertUToS",
    120: "ConvertUToPtr", 121: "PtrCastToGeneric", 122: "GenericCastToPtr", 123: "GenericCastToPtrExplicit",
    124: "Bitcast", 126: "SNegate", 127: "FNegate", 128: "IAdd", 129: "FAdd", 130: "ISub", 131: "FSub",
    132: "IMul", 133: "FMul", 134: "UDiv", 135: "SDiv", 136: "FDiv", 137: "UMod", 138: "SRem", 139: "SMod",
    140: "FRem", 141: "FMod", 142: "VectorTimesScalar", 148: "Dot", 154: "Any", 155: "All", 156: "IsNan",
    157: "IsInf", 158: "IsFinite", 159: "IsNormal", 160: "SignBitSet", 162: "Ordered", 163: "Unordered",
    164: "LogicalEqual", 165: "LogicalNotEqual", 166: "LogicalOr", 167: "LogicalAnd", 168: "LogicalNot",
    169: "Select", 170: "IEqual", 171: "INotEqual", 172: "UGreaterThan", 173: "SGreaterThan",
    174: "UGreaterThanEqual", 175: "SGreaterThanEqual", 176: "ULessThan", 177: "SLessThan",
    178: "ULessThanEqual", 179: "SLessThanEqual", 180: "FOrdEqual", 181: "FUnordEqual",
    182: "FOrdNotEqual", 183: "FUnordNotEqual", 184: "FOrdLessThan", 185: "FUnordLessThan",
    186: "FOrdGreaterThan", 187: "FUnordGreaterThan", 188: "FOrdLessThanEqual",
    189: "FUnordLessThanEqual", 190: "FOrdGreaterThanEqual", 191: "FUnordGreaterThanEqual",
    194: "ShiftRightLogical", 195: "ShiftRightArithmetic", 196: "ShiftLeftLogical", 197: "BitwiseOr",
    198: "BitwiseXor", 199: "BitwiseAnd", 200: "Not", 204: "BitReverse", 205: "BitCount",
    224: "ControlBarrier", 225: "MemoryBarrier", 227: "AtomicLoad", 228: "AtomicStore",
    229: "AtomicExchange", 230: "AtomicCompareExchange", 231: "AtomicCompareExchangeWeak",
    232: "AtomicIIncrement", 233: "AtomicIDecrement", 234: "AtomicIAdd", 235: "AtomicISub",
    236: "AtomicSMin", 237: "AtomicUMin", 238: "AtomicSMax", 239: "AtomicUMax", 240: "AtomicAnd",
    241: "AtomicOr", 242: "AtomicXor", 245: "Phi", 246: "LoopMerge", 247: "SelectionMerge", 248: "Label",
    249: "Branch", 250: "BranchConditional", 251: "Switch", 253: "Return", 254: "ReturnValue",
    255: "Unreachable", 256: "LifetimeStart", 257: "LifetimeStop", 259: "GroupAsyncCopy",
    260: "GroupWaitEvents", 261: "GroupAll", 262: "GroupAny", 263: "GroupBroadcast", 264: "GroupIAdd",
    265: "GroupFAdd", 266: "GroupFMin", 267: "GroupUMin", 268: "GroupSMin", 269: "GroupFMax",
    270: "GroupUMax", 271: "GroupSMax",
    # §3.52.20 "Pipe Instructions"
    274: "ReadPipe", 275: "WritePipe", 276: "ReservedReadPipe", 277: "ReservedWritePipe",
    278: "ReserveReadPipePackets", 279: "ReserveWritePipePackets", 280: "CommitReadPipe", 281: "CommitWritePipe",
    282: "IsValidReserveId", 283: "GetNumPipePackets", 284: "GetMaxPipePackets",
    285: "GroupReserveReadPipePackets", 286: "GroupReserveWritePipePackets", 287: "GroupCommitReadPipe",
    288: "GroupCommitWritePipe",
    # §3.52.19 "Device-Side Enqueue Instructions"
    291: "EnqueueMarker", 292: "EnqueueKernel", 293: "GetKernelNDrangeSubGroupCount",
    294: "GetKernelNDrangeMaxSubGroupSize", 295: "GetKernelWorkGroupSize",
    296: "GetKernelPreferredWorkGroupSizeMultiple", 297: "RetainEvent", 298: "ReleaseEvent", 299: "CreateUserEvent",
    300: "IsValidEvent", 301: "SetUserEventStatus", 302: "CaptureEventProfilingInfo", 303: "GetDefaultQueue",
    304: "BuildNDRange",
    331: "ExecutionModeId", 332: "DecorateId",
}
OPCODE_OF = {name: code for code, name in OPCODES.items()}

# OpenCL SPIR-V Environment spec §2.3 "Data Types": integer widths and vector component counts
INT_WIDTHS = (8, 16, 32, 64)
VECTOR_COUNTS = (2, 3, 4, 8, 16)
# §3.3 "Addressing Model"
ADDRESSING_PHYSICAL32, ADDRESSING_PHYSICAL64 = 1, 2
# §3.4 "Memory Model"
MEMORY_MODEL_OPENCL = 2
# §3.5 "Execution Model"
EXECUTION_MODEL_KERNEL = 6
# §3.6 "Execution Mode": the kernel ones kernelkit reads.
EXEC_LOCAL_SIZE, EXEC_LOCAL_SIZE_HINT, EXEC_VEC_TYPE_HINT, EXEC_SUBGROUP_SIZE = 17, 18, 30, 35
# §3.7 "Storage Class" -> SPIR address space (OpenCL: 1 global, 2 constant, 3 local, 4 generic).
STORAGE_CLASS_ADDRSPACE: dict[int, int] = {
    0: 2,   # UniformConstant
    1: 0,   # Input (builtin variables)
    4: 3,   # Workgroup
    5: 1,   # CrossWorkgroup
    7: 0,   # Function
    8: 4,   # Generic
}
STORAGE_INPUT = 1
STORAGE_FUNCTION = 7
# §3.20 "Decoration"
DEC_SPEC_ID, DEC_BUILTIN, DEC_FUNC_PARAM_ATTR, DEC_ALIGNMENT = 1, 11, 38, 44
DEC_SATURATED_CONVERSION, DEC_FP_ROUNDING_MODE = 28, 39
DEC_CPACKED, DEC_VOLATILE, DEC_CONSTANT, DEC_LINKAGE_ATTRIBUTES = 10, 21, 22, 41
# §3.19 "Function Parameter Attribute"
PARAM_ZEXT, PARAM_SEXT, PARAM_BYVAL, PARAM_SRET, PARAM_NOALIAS, PARAM_NOCAPTURE = 0, 1, 2, 3, 4, 5
PARAM_NOWRITE, PARAM_NOREADWRITE = 6, 7
# §3.18 "Linkage Type"
LINKAGE_EXPORT, LINKAGE_IMPORT = 0, 1
# §3.21 "BuiltIn" -> the OpenCL C work-item function that reads it (OpenCL SPIR-V environment §2.9).
BUILTIN_FUNCTIONS: dict[int, str] = {
    24: "get_num_groups", 25: "get_local_size", 26: "get_group_id", 27: "get_local_id",
    28: "get_global_id", 29: "get_local_linear_id", 30: "get_work_dim", 31: "get_global_size",
    32: "get_enqueued_local_size", 33: "get_global_offset", 34: "get_global_linear_id",
    36: "get_sub_group_size", 37: "get_max_sub_group_size", 38: "get_num_sub_groups",
    39: "get_enqueued_num_sub_groups", 40: "get_sub_group_id", 41: "get_sub_group_local_id",
}
# §3.25 "Memory Semantics" bits -> OpenCL cl_mem_fence_flags (CLK_LOCAL/GLOBAL/IMAGE_MEM_FENCE).
SEMANTICS_FENCE_FLAGS = ((0x100, 1), (0x200, 2), (0x800, 4))
# §3.16 "FP Rounding Mode" -> the OpenCL C conversion suffix
ROUNDING_SUFFIXES = {0: "_rte", 1: "_rtz", 2: "_rtp", 3: "_rtn"}
# §3.27 "Scope"
SCOPE_CROSS_DEVICE, SCOPE_DEVICE, SCOPE_WORKGROUP, SCOPE_SUBGROUP = 0, 1, 2, 3
# §3.28 "Group Operation"
GROUP_OPERATION_PREFIXES = {0: "reduce_", 1: "scan_inclusive_", 2: "scan_exclusive_"}
# §3.52.21 "Group and Subgroup Instructions": opcode -> (OpenCL C operation, integer operands signed?)
GROUP_ARITHMETIC = {"GroupIAdd": ("add", True), "GroupFAdd": ("add", None), "GroupFMin": ("min", None),
                    "GroupUMin": ("min", False), "GroupSMin": ("min", True), "GroupFMax": ("max", None),
                    "GroupUMax": ("max", False), "GroupSMax": ("max", True)}
