"""Keyword tables of the LLVM IR language (LLVM LangRef, "Instruction Reference" and
"Module Structure"). Parser and printer both read these; nothing else retypes them."""

from __future__ import annotations

# LangRef "Binary Operations" + "Bitwise Binary Operations".
INT_BINARY_OPS = frozenset({"add", "sub", "mul", "udiv", "sdiv", "urem", "srem",
                            "shl", "lshr", "ashr", "and", "or", "xor"})
FLOAT_BINARY_OPS = frozenset({"fadd", "fsub", "fmul", "fdiv", "frem"})
BINARY_OPS = INT_BINARY_OPS | FLOAT_BINARY_OPS
# LangRef "Unary Operations".
UNARY_OPS = frozenset({"fneg"})
# LangRef "Conversion Operations".
CAST_OPS = frozenset({"trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp",
                      "sitofp", "ptrtoint", "ptrtoaddr", "inttoptr", "bitcast", "addrspacecast"})
# Poison-generating / exactness flags each opcode accepts (LangRef per instruction).
OPCODE_FLAGS: dict[str, frozenset[str]] = {
    "add": frozenset({"nuw", "nsw"}), "sub": frozenset({"nuw", "nsw"}),
    "mul": frozenset({"nuw", "nsw"}), "shl": frozenset({"nuw", "nsw"}),
    "udiv": frozenset({"exact"}), "sdiv": frozenset({"exact"}),
    "lshr": frozenset({"exact"}), "ashr": frozenset({"exact"}),
    "or": frozenset({"disjoint"}),
    "trunc": frozenset({"nuw", "nsw"}), "zext": frozenset({"nneg"}),
    "uitofp": frozenset({"nneg"}),
    "icmp": frozenset({"samesign"}),
    "getelementptr": frozenset({"inbounds", "nusw", "nuw"}),
}
# LangRef "Fast-Math Flags".
FAST_MATH_FLAGS = frozenset({"nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast"})
# Opcodes that carry fast-math flags (floating-point results / operands).
FMF_OPCODES = FLOAT_BINARY_OPS | UNARY_OPS | frozenset(
    {"fcmp", "fptrunc", "fpext", "select", "phi", "call"})
# LangRef "'icmp' Instruction" / "'fcmp' Instruction" condition codes.
ICMP_PREDICATES = frozenset({"eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"})
FCMP_PREDICATES = frozenset({"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                             "ugt", "uge", "ult", "ule", "une", "uno", "true"})
# LangRef "Atomic Memory Ordering Constraints".
ORDERINGS = frozenset({"unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst"})
# LangRef "'atomicrmw' Instruction" operations.
ATOMICRMW_OPS = frozenset({"xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax",
                           "umin", "fadd", "fsub", "fmax", "fmin", "fmaximum", "fminimum",
                           "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat"})
# LangRef "Linkage Types".
LINKAGES = frozenset({"private", "internal", "available_externally", "linkonce", "weak", "common",
                      "appending", "extern_weak", "linkonce_odr", "weak_odr", "external"})
# LangRef "Runtime Preemption Specifiers", "Visibility Styles", "DLL Storage Classes".
PREEMPTION = frozenset({"dso_local", "dso_preemptable"})
VISIBILITIES = frozenset({"default", "hidden", "protected"})
DLL_STORAGE = frozenset({"dllimport", "dllexport"})
UNNAMED_ADDR = frozenset({"unnamed_addr", "local_unnamed_addr"})
# LangRef "Calling Conventions" (the named ones LLParser accepts).
CALLING_CONVENTIONS = frozenset({
    "ccc", "fastcc", "coldcc", "cc", "webkit_jscc", "anyregcc", "preserve_mostcc",
    "preserve_allcc", "preserve_nonecc", "ghccc", "swiftcc", "swifttailcc", "x86_intrcc",
    "hhvmcc", "hhvm_ccc", "cxx_fast_tlscc", "tailcc", "cfguard_checkcc", "x86_stdcallcc",
    "x86_fastcallcc", "x86_thiscallcc", "x86_vectorcallcc", "x86_regcallcc", "arm_apcscc",
    "arm_aapcscc", "arm_aapcs_vfpcc", "aarch64_vector_pcs", "aarch64_sve_vector_pcs",
    "msp430_intrcc", "avr_intrcc", "avr_signalcc", "ptx_kernel", "ptx_device", "spir_kernel",
    "spir_func", "intel_ocl_bicc", "x86_64_sysvcc", "win64cc", "amdgpu_vs", "amdgpu_ls",
    "amdgpu_hs", "amdgpu_es", "amdgpu_gs", "amdgpu_ps", "amdgpu_cs", "amdgpu_cs_chain",
    "amdgpu_cs_chain_preserve", "amdgpu_kernel", "amdgpu_gfx", "amdgpu_gfx_whole_wave",
    "riscv_vector_cc", "m68k_rtdcc", "graalcc",
})
# Keywords that begin a value (so an attribute list before an operand stops there).
VALUE_KEYWORDS = frozenset({
    "null", "true", "false", "undef", "poison", "zeroinitializer", "none", "splat", "asm",
    "blockaddress", "dso_local_equivalent", "no_cfi", "ptrauth", "getelementptr",
    "extractelement", "insertelement", "shufflevector", "select", "icmp", "fcmp",
}) | CAST_OPS | INT_BINARY_OPS
# Keywords that begin a type.
TYPE_KEYWORDS = frozenset({"void", "label", "metadata", "token", "ptr", "target", "x86_amx",
                           "opaque"})
# Opcodes that end a basic block (LangRef "Terminator Instructions").
TERMINATORS = frozenset({"ret", "br", "switch", "indirectbr", "invoke", "callbr", "resume",
                         "catchswitch", "catchret", "cleanupret", "unreachable"})
