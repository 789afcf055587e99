"""SPIR-V (OpenCL environment) -> kernelkit.ir: the module the OpenCL C frontend would give.

``translate(data) -> ir.Module``: SPIR address spaces (1 global, 2 constant, 3 local, 4 generic),
BuiltIn variables read through the OpenCL work-item functions, OpenCL.std extended instructions
and barriers as OpenCL builtin calls with clang's mangling, kernels with kernel_arg_* metadata.
"""

from __future__ import annotations

import struct

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import Instruction, malformed_operands, read_module
from kernelkit.formats.spirv import tables as S
from kernelkit.frontend.spirv.enqueue import KERNEL_BODY_PREFIX
from kernelkit.frontend.spirv.extinst import OPENCL_STD, builtin_name
from kernelkit.frontend.spirv.instructions import FunctionTranslator
from kernelkit.frontend.spirv.kernel_args import add_kernel_metadata
from kernelkit.frontend.spirv.spec_constants import (
    BOOL,
    FLOAT,
    INT,
    SpecializationInfo,
    fold_spec_constant_op,
)
from kernelkit.frontend.spirv.types import TypeTable
from kernelkit.ir import Function, GlobalVariable, Module
from kernelkit.ir import types as T
from kernelkit.ir.metadata import ValueAsMetadata, md_tuple
from kernelkit.ir.values import (
    ConstantAggregate,
    ConstantBytes,
    ConstantExpr,
    ConstantInt,
    ConstantSimple,
    const_float,
    const_int,
    null,
    undef,
    zeroinitializer,
)

DATA_LAYOUT = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
_TYPE_OPS = {"TypeVoid", "TypeBool", "TypeInt", "TypeFloat", "TypeVector", "TypeArray", "TypeStruct",
             "TypePointer", "TypeFunction", "TypeEvent", "TypeSampler", "TypeImage", "TypeSampledImage",
             "TypeOpaque", "TypeQueue", "TypeReserveId", "TypeDeviceEvent", "TypePipe"}
_POINTER_CASTS = ("PtrCastToGeneric", "GenericCastToPtr", "Bitcast")
_VALUE_OPS = {"ConstantSampler", "Constant", "SpecConstant", "ConstantTrue", "SpecConstantTrue", "ConstantFalse", "SpecConstantFalse",
              "ConstantNull", "Undef", "ConstantComposite", "SpecConstantComposite", "SpecConstantOp", "Variable"}


class SpirvTranslator:
    def __init__(self, data: bytes, spec_info: SpecializationInfo | None = None) -> None:
        self.spv = read_module(data)
        self.spec_info = spec_info
        self.ir = Module("spirv")
        self.names: dict[int, str] = {}
        self.decorations: dict[int, list[tuple[int, tuple[int, ...], Instruction]]] = {}
        self.strings: list[str] = []
        self.entry_points: dict[int, str] = {}
        self.exec_modes: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self.ext_sets: dict[int, str] = {}
        self.values: dict[int, object] = {}
        self.builtin_vars: dict[int, int] = {}
        self.builtin_elements: dict[int, tuple[int, int]] = {}
        self.value_types: dict[int, int] = {}
        self.pointer_bits = 64
        self.types = TypeTable(self.names, self)
        self.ocl_version = (1, 2)
        self.function_heads: dict[int, Instruction] = {}
        self.block_kernels: set[str] = set()   # kernels enqueued as blocks: no kernel_arg_* metadata (as clang's)

    # -- helpers used by the instruction translator -----------------------------------------
    def constant_int(self, cid: int) -> int:
        value = self.values.get(cid)
        if value is None or not hasattr(value, "value"):
            raise FormatError(f"%{cid} is not an integer constant", field="constant id")
        return int(value.value)

    def decoration(self, rid: int, kind: int) -> tuple[int, ...] | None:
        for dec, args, _ in self.decorations.get(rid, ()):
            if dec == kind:
                return args
        return None

    def declare_builtin(self, name: str, ret: T.Type, params: list[T.Type]) -> Function:
        fn = self.ir.declare_function(name, T.FunctionType(ret, tuple(params)), "spir_func")
        return fn

    # -- module ------------------------------------------------------------------------------
    def run(self) -> Module:
        insts = self.spv.instructions
        self.ir.triple = "spir64-unknown-unknown"
        self.ir.data_layout = DATA_LAYOUT
        i = 0
        declared = False
        while i < len(insts):
            inst = insts[i]
            with malformed_operands(inst):
                if inst.name == "Function":
                    if not declared:        # calls may name functions defined further down (SPIR-V 2.4)
                        self._declare_functions(insts, i)
                        declared = True
                    i = self._function(insts, i)
                    continue
                self._global(inst)
            i += 1
        for fid, fn in list(self.values.items()):
            if isinstance(fn, Function) and fid in self.entry_points and fn.name not in self.block_kernels:
                with malformed_operands(self.function_heads[fid]):
                    add_kernel_metadata(self, fid, fn)
        ver = md_tuple([ValueAsMetadata(const_int(T.i32, v)) for v in self.ocl_version])
        self.ir.add_named_metadata("opencl.ocl.version", [ver])
        self.ir.add_named_metadata("opencl.spir.version", [ver])
        return self.ir

    def _global(self, inst: Instruction) -> None:
        name, ops = inst.name, inst.operands
        if name == "MemoryModel":
            if ops[0] == S.ADDRESSING_PHYSICAL32:
                self.pointer_bits = 32
                self.ir.triple = "spir-unknown-unknown"
                self.ir.data_layout = DATA_LAYOUT.replace("e-i64:64", "e-p:32:32-i64:64")
            elif ops[0] != S.ADDRESSING_PHYSICAL64:
                raise FormatError(f"addressing model {ops[0]} is not Physical32/64 (OpenCL)",
                                  offset=inst.offset + 4, field="addressing model")
        elif name == "Source":
            if len(ops) > 1 and ops[0] in (3, 4):   # OpenCL_C, OpenCL_CPP
                self.ocl_version = (ops[1] // 100000, ops[1] // 1000 % 100)
        elif name == "Name":
            self.names[ops[0]] = inst.string(1)[0]
        elif name == "String":
            self.strings.append(inst.string(1)[0])
        elif name == "EntryPoint":
            if ops[0] == S.EXECUTION_MODEL_KERNEL:
                self.entry_points[ops[1]] = inst.string(2)[0]
        elif name == "ExecutionMode":
            self.exec_modes.setdefault(ops[0], []).append((ops[1], ops[2:]))
        elif name == "ExtInstImport":
            self.ext_sets[ops[0]] = inst.string(1)[0]
        elif name == "Decorate":
            self.decorations.setdefault(ops[0], []).append((ops[1], ops[2:], inst))
        elif name in _TYPE_OPS:
            self.types.define(inst)
        else:
            self._value(inst)

    def _value(self, inst: Instruction) -> None:
        name, ops = inst.name, inst.operands
        if name in _VALUE_OPS:
            self.value_types[ops[1]] = ops[0]
        if name in ("Constant", "SpecConstant"):
            self.values[ops[1]] = self._scalar_constant(inst, self._specialised_words(inst))
        elif name in ("ConstantTrue", "SpecConstantTrue", "ConstantFalse", "SpecConstantFalse"):
            given = self._specialised_words(inst)
            value = given[0] & 0xFF if given is not None else 1 if "True" in name else 0
            self.values[ops[1]] = const_int(T.i1, 1 if value else 0)
        elif name == "SpecConstantOp":
            self.values[ops[1]] = self._spec_constant_op(inst)
        elif name == "ConstantSampler":   # its OpenCL sampler bits; a function builds the sampler value
            from kernelkit.frontend.spirv.images import sampler_bits

            self.values[ops[1]] = sampler_bits(ops[2], ops[3], ops[4])
        elif name == "ConstantNull":
            self.values[ops[1]] = zero_value(self.types[ops[0]])
        elif name == "Undef":
            self.values[ops[1]] = undef(self.types[ops[0]])
        elif name == "ConstantComposite":
            self.values[ops[1]] = constant_composite(self.types[ops[0]], [self.values[c] for c in ops[2:]])
        elif name == "SpecConstantComposite":
            self.values[ops[1]] = ConstantAggregate(self.types[ops[0]], [self.values[c] for c in ops[2:]])
        elif name == "Variable":
            self._variable(inst)
        elif name not in ("Capability", "Extension", "SourceExtension", "SourceContinued", "MemberName",
                          "Line", "Nop", "ModuleProcessed", "DecorationGroup", "MemberDecorate"):
            raise FormatError(f"Op{name} is not supported at module scope", offset=inst.offset, field="opcode")

    def _specialised_words(self, inst: Instruction) -> tuple[int, ...] | None:
        """The value words ``spec_info`` gives a SpecId-decorated OpSpecConstant*, else None."""
        spec_id = self.decoration(inst.operands[1], S.DEC_SPEC_ID) if inst.name.startswith("Spec") else None
        if spec_id is None or self.spec_info is None:
            return None
        raw = self.spec_info.value_bytes(spec_id[0])
        if raw is None:
            return None
        raw = raw + b"\0" * (-len(raw) % 4)
        return struct.unpack(f"<{len(raw) // 4}I", raw)

    def _scalar_kind(self, type_id: int, inst: Instruction) -> tuple[str, int]:
        ty = self.types[type_id]
        if ty == T.i1:
            return (BOOL, 1)
        if isinstance(ty, T.IntType):
            return (INT, ty.bits)
        if isinstance(ty, T.FloatType):
            return (FLOAT, ty.bits)
        raise FormatError(f"OpSpecConstantOp on a {ty} (only scalar bool, integer and float are supported)",
                          offset=inst.offset, field="result type")

    def _spec_constant_op(self, inst: Instruction):
        rtype, rid, opcode = inst.operands[:3]
        op = S.OPCODES.get(opcode, f"Unknown{opcode}")
        if op in _POINTER_CASTS and len(inst.operands) == 4:
            return self._constant_pointer_cast(inst, self.types[rtype], self.values.get(inst.operands[3]))
        args = []
        for oid in inst.operands[3:]:
            value = self.values.get(oid)
            if value is None or not hasattr(value, "value") or oid not in self.value_types:
                raise FormatError(f"OpSpecConstantOp %{rid}: operand %{oid} is not a scalar constant",
                                  offset=inst.offset, field="operand")
            args.append((self._scalar_kind(self.value_types[oid], inst), value.value))
        kind, bits = self._scalar_kind(rtype, inst)
        result = fold_spec_constant_op(op, (kind, bits), args, inst.offset)
        ty = self.types[rtype]
        if kind == FLOAT:
            return const_float(ty, float(result))
        return const_int(ty, int(result) & ((1 << bits) - 1))

    @staticmethod
    def _constant_pointer_cast(inst: Instruction, ty: T.Type, value):
        """OpSpecConstantOp PtrCastToGeneric/GenericCastToPtr/Bitcast of a constant pointer (the Khronos
        translator's null invoke field of a global block literal): null stays null, else a constant cast."""
        if not (isinstance(ty, T.PointerType) and isinstance(getattr(value, "type", None), T.PointerType)):
            raise FormatError(f"OpSpecConstantOp %{inst.operands[1]}: a pointer cast of a non-pointer",
                              offset=inst.offset, field="operand")
        if isinstance(value, ConstantSimple) and value.keyword == "null":
            return null(ty)
        if value.type == ty:
            return value
        return ConstantExpr(ty, "addrspacecast", [value])

    def _scalar_constant(self, inst: Instruction, given: tuple[int, ...] | None = None):
        ty = self.types[inst.operands[0]]
        words = given if given is not None else inst.operands[2:]
        raw = words[0] | (words[1] << 32 if len(words) > 1 else 0)
        if isinstance(ty, T.IntType):
            return const_int(ty, raw & ((1 << ty.bits) - 1))
        fmt = {16: "<e", 32: "<f", 64: "<d"}[ty.bits]
        return const_float(ty, struct.unpack(fmt, raw.to_bytes(ty.bits // 8, "little"))[0])

    def _variable(self, inst: Instruction) -> None:
        ptr_type, rid, storage = inst.operands[:3]
        builtin = self.decoration(rid, S.DEC_BUILTIN)
        if storage == S.STORAGE_INPUT:
            if builtin is None or builtin[0] not in S.BUILTIN_FUNCTIONS:
                raise FormatError(f"Input variable %{rid} is not an OpenCL BuiltIn", offset=inst.offset,
                                  field="BuiltIn")
            self.builtin_vars[rid] = builtin[0]
            return
        value_type = self.types[self.types.pointee(ptr_type)]
        init = self.values[inst.operands[3]] if len(inst.operands) > 3 else None
        addrspace = TypeTable.addrspace(storage, inst)
        name = self.names.get(rid) or f"__spirv_global_{rid}"
        gv = GlobalVariable(name, value_type, init, addrspace=addrspace,
                            constant=self.decoration(rid, S.DEC_CONSTANT) is not None or addrspace == 2)
        if init is None and addrspace == 3:
            gv.initializer = undef(value_type)
        gv.linkage = "internal" if addrspace in (2, 3) or init is not None else ""
        align = self.decoration(rid, S.DEC_ALIGNMENT)
        if align:
            gv.align = align[0]
        self.ir.add_global(gv)
        self.values[rid] = gv

    def _declare_functions(self, insts: list[Instruction], start: int) -> None:
        """Every function of the module, declared before any body is translated."""
        i = start
        while i < len(insts):
            if insts[i].name == "Function":
                with malformed_operands(insts[i]):
                    i = self._declare_function(insts, i)
            else:
                i += 1

    def _function_extent(self, insts: list[Instruction], start: int) -> int:
        end = start + 1
        while end < len(insts) and insts[end].name != "FunctionEnd":
            end += 1
        if end == len(insts):
            head = insts[start]
            raise FormatError("OpFunction without OpFunctionEnd", offset=head.offset, field="OpFunctionEnd")
        return end

    def _function(self, insts: list[Instruction], start: int) -> int:
        end = self._function_extent(insts, start)
        fn = self.values[insts[start].operands[1]]
        blocks = [i for i in insts[start + 1:end] if i.name != "FunctionParameter"]
        if blocks:
            FunctionTranslator(self, fn, blocks).run()
        return end + 1

    def _declare_function(self, insts: list[Instruction], start: int) -> int:
        head = insts[start]
        fid, ftype_id = head.operands[1], head.operands[3]
        end = self._function_extent(insts, start)
        params = [i for i in insts[start + 1:end] if i.name == "FunctionParameter"]
        if fid in self.function_heads:
            raise FormatError(f"function %{fid} is defined twice", offset=head.offset, field="result id")
        linkage = self.decoration(fid, S.DEC_LINKAGE_ATTRIBUTES)
        if fid in self.entry_points:
            name = self.entry_points[fid]
        elif linkage is not None:
            name = _linkage_name(linkage)
        else:
            name = self.names.get(fid) or f"__spirv_function_{fid}"
        if fid not in self.entry_points and name in self.entry_points.values():
            # the Khronos translator exports the kernel's body under the kernel's name and makes the entry
            # point a wrapper calling it: the kernel keeps the name, the body gets its own
            name = f"{KERNEL_BODY_PREFIX}{name}"
        fn = Function(name, self.types[ftype_id], arg_names=[self.names.get(p.operands[1], "") for p in params])
        fn.calling_conv = "spir_kernel" if fid in self.entry_points else "spir_func"
        self.ir.add_function(fn)
        self.values[fid] = fn
        self.function_heads[fid] = head
        if len(params) != len(fn.args):
            raise FormatError(f"function %{fid} has {len(params)} OpFunctionParameter for a type of {len(fn.args)}",
                              offset=head.offset, field="OpFunctionParameter")
        for p, arg in zip(params, fn.args, strict=True):
            self.values[p.operands[1]] = arg
            self.value_types[p.operands[1]] = p.operands[0]
            self._param_attributes(p.operands[1], arg, p.operands[0])
        return end + 1

    def _param_attributes(self, pid: int, arg, type_id: int) -> None:
        for dec, args, _ in self.decorations.get(pid, ()):
            if dec == S.DEC_ALIGNMENT and isinstance(arg.type, T.PointerType):
                arg.attributes.append(f"align {args[0]}")
            elif dec == S.DEC_FUNC_PARAM_ATTR:
                if args[0] == S.PARAM_BYVAL:
                    st = self.types[self.types.pointee(type_id)]
                    arg.attributes.append(f"byval({st})")
                elif args[0] == S.PARAM_ZEXT:
                    arg.attributes.append("zeroext")
                elif args[0] == S.PARAM_SEXT:
                    arg.attributes.append("signext")


def zero_value(ty: T.Type):
    """OpConstantNull of ``ty`` (§3.52.7): null pointers, 0, 0.0, zeroinitializer for aggregates."""
    if isinstance(ty, T.PointerType):
        return null(ty)
    if isinstance(ty, T.IntType):
        return const_int(ty, 0)
    if isinstance(ty, T.FloatType):
        return const_float(ty, 0.0)
    return zeroinitializer(ty)


def constant_composite(ty: T.Type, elements: list):
    """OpConstantComposite: an array of i8 constants is a string (``c"..."``, as clang writes a string
    literal, which printf's format must be); any other composite an aggregate."""
    if (isinstance(ty, T.ArrayType) and ty.element == T.i8
            and all(isinstance(e, ConstantInt) for e in elements)):
        return ConstantBytes(ty, bytes(e.value & 0xFF for e in elements))
    return ConstantAggregate(ty, elements)


def _linkage_name(args: tuple[int, ...]) -> str:
    from kernelkit.formats.spirv import decode_string

    return decode_string(args, 0)[0]


def ext_inst_name(number: int) -> tuple[str, bool | None]:
    if number not in OPENCL_STD:
        raise FormatError(f"OpenCL.std instruction {number} is not supported", field="OpExtInst instruction")
    return builtin_name(OPENCL_STD[number])


def translate(data: bytes, spec_info: SpecializationInfo | None = None) -> Module:
    """SPIR-V binary -> kernelkit.ir Module (raises FormatError for what it cannot read); ``spec_info``
    gives specialisation constants their values (the others keep their defaults)."""
    return SpirvTranslator(data, spec_info).run()
