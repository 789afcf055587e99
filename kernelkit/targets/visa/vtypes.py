"""vISA value types of kernelkit.ir types and the code generator's shared tables (spec 004 type names)."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.abi.opencl_types import ir_size_align
from kernelkit.errors import CompileError
from kernelkit.ir import types as T

INT_TYPES = {1: "w", 8: "b", 16: "w", 32: "d", 64: "q"}
UNSIGNED = {"b": "ub", "w": "uw", "d": "ud", "q": "uq", "f": "f", "df": "df", "hf": "hf", "ub": "ub",
            "uw": "uw", "ud": "ud", "uq": "uq"}
FLOAT_TYPES = {"half": "hf", "float": "f", "double": "df"}
SIZES = {"b": 1, "ub": 1, "w": 2, "uw": 2, "d": 4, "ud": 4, "q": 8, "uq": 8, "hf": 2, "f": 4, "df": 8}
R0_GROUP_DWORD = (1, 6, 7)
CMP = {"eq": "eq", "ne": "ne", "sgt": "gt", "sge": "ge", "slt": "lt", "sle": "le", "ugt": "gt", "uge": "ge",
       "ult": "lt", "ule": "le", "oeq": "eq", "one": "ne", "ogt": "gt", "oge": "ge", "olt": "lt", "ole": "le",
       "ueq": "eq", "une": "ne"}
BINARY = {"add": "add", "sub": "add", "mul": "mul", "and": "and", "or": "or", "xor": "xor", "shl": "shl",
          "lshr": "shr", "ashr": "asr", "fadd": "add", "fsub": "add", "fmul": "mul", "fdiv": "div",
          "udiv": "div", "sdiv": "div", "urem": "mod", "srem": "mod"}
RAW = {1: "ub", 2: "uw", 4: "ud", 8: "uq"}
UNSIGNED_OPS = frozenset({"lshr", "udiv", "urem"})
NO_INTEGER_DIVISION = frozenset({"dg2"})    # GenX_IR: "int divide/remainder is not supported for this platform"
MAX_SVM_LANES = 16
POINTER_BYTES = 8                      # spir64                     # svm messages take up to 16 addresses
GLOBAL_SPACES = (1, 2, 4)              # __global, __constant, generic (cast from __global or private)
LOCAL_SPACE = 3
PRIVATE_SPACE = 0
GENERIC_SPACE = 4


def vtype_of(ty: T.Type) -> str:
    if isinstance(ty, T.VectorType):
        return vtype_of(ty.element)
    if isinstance(ty, T.IntType):
        if ty.bits > 64:
            raise CompileError(f"vISA code generation: i{ty.bits} values are not supported")
        return INT_TYPES[next(b for b in (1, 8, 16, 32, 64) if ty.bits <= b)]
    if isinstance(ty, T.FloatType) and ty.kind in FLOAT_TYPES:
        return FLOAT_TYPES[ty.kind]
    if isinstance(ty, T.PointerType):
        return "ud" if ty.addrspace == LOCAL_SPACE else "uq"
    raise CompileError(f"vISA code generation: values of type {ty} are not supported")


def _mask_values(mask, count: int) -> list[int | None]:
    """A shufflevector mask as element indices (None: poison)."""
    if isinstance(mask, ir.ConstantAggregate):
        return [op.value if isinstance(op, ir.ConstantInt) else None for op in mask.operands]
    if isinstance(mask, ir.ConstantSplat):
        return [mask.operands[0].value] * count
    if isinstance(mask, ir.ConstantSimple):
        return [0 if mask.keyword == "zeroinitializer" else None] * count
    raise CompileError(f"vISA code generation: shufflevector mask {mask} is not supported")


def lanes_of(ty: T.Type) -> int:
    """Elements of a vector type (1 for scalars): a vector lives as that many SIMD-wide parts."""
    return ty.count if isinstance(ty, T.VectorType) else 1


def element_constant(value, k: int):
    """Element ``k`` of a constant (a scalar constant is its own element 0)."""
    ty = value.type
    if isinstance(value, ir.ConstantAggregate | ir.ConstantSplat):
        elem = value.operands[k if isinstance(value, ir.ConstantAggregate) else 0]
        return element_constant(elem, 0) if isinstance(elem, ir.ConstantSimple) else elem   # (a poison element)
    if isinstance(value, ir.ConstantSimple):              # zeroinitializer, undef, poison: zero
        elem = ty.element if isinstance(ty, T.VectorType) else ty
        return ir.ConstantFP(elem, 0.0) if isinstance(elem, T.FloatType) else ir.ConstantInt(elem, 0)
    return value


def _size_of(ty: T.Type) -> int:
    return ir_size_align(ty, POINTER_BYTES)[0]
