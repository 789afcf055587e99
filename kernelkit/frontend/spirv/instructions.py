"""Function bodies: SPIR-V instructions -> kernelkit.ir instructions (SPIR-V spec §3.52)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import Instruction, malformed_operands
from kernelkit.formats.spirv import tables as S
from kernelkit.frontend.spirv.enqueue import ENQUEUE_NO_RESULT, ENQUEUE_OPS, enqueue_instruction
from kernelkit.frontend.spirv.pipes import (
    PIPE_CALLS,
    PIPE_NO_RESULT,
    is_valid_reserve_id,
    pipe_instruction,
)
from kernelkit.ir import Argument, IRBuilder
from kernelkit.ir import types as T
from kernelkit.ir.values import ConstantAggregate, const_int, poison
from kernelkit.mux.mangling import OclType, mangle

if TYPE_CHECKING:
    from kernelkit.frontend.spirv.translate import SpirvTranslator
    from kernelkit.ir import Function

_BINARY = {"IAdd": "add", "FAdd": "fadd", "ISub": "sub", "FSub": "fsub", "IMul": "mul", "FMul": "fmul",
           "UDiv": "udiv", "SDiv": "sdiv", "FDiv": "fdiv", "UMod": "urem", "SRem": "srem", "FRem": "frem",
           "ShiftRightLogical": "lshr", "ShiftRightArithmetic": "ashr", "ShiftLeftLogical": "shl",
           "BitwiseOr": "or", "BitwiseXor": "xor", "BitwiseAnd": "and", "LogicalOr": "or",
           "LogicalAnd": "and", "LogicalNotEqual": "xor"}
_ICMP = {"IEqual": "eq", "INotEqual": "ne", "UGreaterThan": "ugt", "SGreaterThan": "sgt",
         "UGreaterThanEqual": "uge", "SGreaterThanEqual": "sge", "ULessThan": "ult", "SLessThan": "slt",
         "ULessThanEqual": "ule", "SLessThanEqual": "sle", "LogicalEqual": "eq"}
_FCMP = {"FOrdEqual": "oeq", "FUnordEqual": "ueq", "FOrdNotEqual": "one", "FUnordNotEqual": "une",
         "FOrdLessThan": "olt", "FUnordLessThan": "ult", "FOrdGreaterThan": "ogt", "FUnordGreaterThan": "ugt",
         "FOrdLessThanEqual": "ole", "FUnordLessThanEqual": "ule", "FOrdGreaterThanEqual": "oge",
         "FUnordGreaterThanEqual": "uge", "Ordered": "ord", "Unordered": "uno"}
_CAST = {"ConvertFToU": "fptoui", "ConvertFToS": "fptosi", "ConvertSToF": "sitofp", "ConvertUToF": "uitofp",
         "ConvertPtrToU": "ptrtoint", "ConvertUToPtr": "inttoptr", "PtrCastToGeneric": "addrspacecast",
         "GenericCastToPtr": "addrspacecast"}
_ATOMIC_RMW = {"AtomicExchange": "xchg", "AtomicIAdd": "add", "AtomicISub": "sub", "AtomicSMin": "min",
               "AtomicUMin": "umin", "AtomicSMax": "max", "AtomicUMax": "umax", "AtomicAnd": "and",
               "AtomicOr": "or", "AtomicXor": "xor"}
_NO_RESULT = {"Store", "Branch", "BranchConditional", "Switch", "Return", "ReturnValue", "Unreachable",
              "ControlBarrier", "MemoryBarrier", "AtomicStore", "LifetimeStart", "LifetimeStop", "SelectionMerge",
              "LoopMerge", "Line", "NoLine", "Label", "Nop", "CopyMemory", "CopyMemorySized", "ImageWrite",
              *PIPE_NO_RESULT, *ENQUEUE_NO_RESULT}
# conversion opcode -> (source integers signed?, destination integers signed?); None: floats
_CONVERT_SIGNS = {"ConvertFToU": (None, False), "ConvertFToS": (None, True), "ConvertSToF": (True, None),
                  "ConvertUToF": (False, None), "UConvert": (False, False), "SConvert": (True, True),
                  "FConvert": (None, None), "SatConvertSToU": (True, False), "SatConvertUToS": (False, True)}
_SKIPPED = {"LifetimeStart", "LifetimeStop", "SelectionMerge", "LoopMerge", "Line", "Nop", "NoLine"}


class FunctionTranslator:
    def __init__(self, module: SpirvTranslator, fn: Function, body: list[Instruction]) -> None:
        self.m = module
        self.fn = fn
        self.body = body
        self.values = dict(module.values)
        self.blocks = {}
        self.b = IRBuilder()
        self.phis: list[tuple[object, Instruction]] = []
        self.sampled: dict[int, tuple[int, int]] = {}   # OpSampledImage result -> (image, sampler)
        self.entry = None

    def v(self, rid: int):
        try:
            value = self.values[rid]
        except KeyError:
            raise FormatError(f"%{rid} is used before it is defined", field="id") from None
        if isinstance(value, Argument) and value.parent is not self.fn:
            raise FormatError(f"%{rid} is a parameter of another function", field="id")
        return value

    def pointer(self, rid: int):
        """Value ``rid``, which must be a pointer (what a load or store goes through)."""
        value = self.v(rid)
        if not isinstance(value.type, T.PointerType):
            raise FormatError(f"%{rid} is a {value.type}, not a pointer", field="Pointer")
        return value

    def run(self) -> None:
        for inst in self.body:
            if inst.name == "Label":
                with malformed_operands(inst):
                    self.blocks[inst.operands[0]] = self.fn.append_block(self.m.names.get(inst.operands[0], ""))
        if not self.blocks:
            raise FormatError("function body has no OpLabel", offset=self.body[0].offset, field="OpLabel")
        self.entry = next(iter(self.blocks.values()))
        for inst in self.body:
            if inst.name == "Label":
                self.b.position_at_end(self.blocks[inst.operands[0]])
                continue
            if inst.name in _SKIPPED:
                continue
            if inst.name not in _NO_RESULT and len(inst.operands) >= 2:
                self.m.value_types[inst.operands[1]] = inst.operands[0]
            with malformed_operands(inst):
                self.instruction(inst)
        for phi, inst in self.phis:
            ops = inst.operands
            with malformed_operands(inst):
                for k in range(2, len(ops), 2):
                    phi.add_incoming(self.v(ops[k]), self.blocks[ops[k + 1]])

    def set(self, inst: Instruction, value) -> None:
        self.define(inst.operands[1], value)

    def define(self, rid: int, value) -> None:
        if rid in self.values:
            raise FormatError(f"%{rid} is defined twice", field="result id")
        self.values[rid] = value

    def rtype(self, inst: Instruction) -> T.Type:
        return self.m.types[inst.operands[0]]

    def instruction(self, inst: Instruction) -> None:  # noqa: C901 - one dispatch over opcodes
        name, ops, b = inst.name, inst.operands, self.b
        if name in _BINARY:
            self.set(inst, b.binop(_BINARY[name], self.v(ops[2]), self.v(ops[3])))
        elif name in _ICMP:
            self.set(inst, b.icmp(_ICMP[name], self.v(ops[2]), self.v(ops[3])))
        elif name in _FCMP:
            self.set(inst, b.fcmp(_FCMP[name], self.v(ops[2]), self.v(ops[3])))
        elif name in _CONVERT_SIGNS and self._decorated_conversion(inst):
            pass
        elif name in _CAST:
            self.set(inst, b.cast(_CAST[name], self.v(ops[2]), self.rtype(inst)))
        elif name in ("UConvert", "SConvert", "FConvert"):
            self.set(inst, self._resize(name, self.v(ops[2]), self.rtype(inst)))
        elif name == "Bitcast":
            self.set(inst, self._bitcast(self.v(ops[2]), self.rtype(inst)))
        elif name == "GenericCastToPtrExplicit":
            self.set(inst, b.addrspacecast(self.v(ops[2]), self.rtype(inst)))
        elif name == "SNegate":
            x = self.v(ops[2])
            self.set(inst, b.sub(_zero(x.type), x))
        elif name == "FNegate":
            self.set(inst, b.fneg(self.v(ops[2])))
        elif name in ("Not", "LogicalNot"):
            x = self.v(ops[2])
            self.set(inst, b.xor(x, _all_ones(x.type)))
        elif name == "BitCount":             # OpenCL C popcount (the translator's form of it)
            self.set(inst, self._builtin_call("popcount", self.rtype(inst), [self.v(ops[2])], [self._ocl(ops[2], False)]))
        elif name == "Select":
            self.set(inst, b.select(self.v(ops[2]), self.v(ops[3]), self.v(ops[4])))
        elif name == "IsNan":
            x = self.v(ops[2])
            self.set(inst, b.fcmp("uno", x, x))
        elif name == "CopyObject":
            self.set(inst, self.v(ops[2]))
        elif name == "Phi":
            phi = b.phi(self.rtype(inst))
            self.phis.append((phi, inst))
            self.set(inst, phi)
        elif name == "Variable":
            self._local_variable(inst)
        elif name == "Load":
            self._load(inst)
        elif name == "Store":
            align, volatile = _memory_access(ops, 2)
            b.store(self.v(ops[1]), self.pointer(ops[0]), align, volatile)
        elif name == "CopyMemory":        # Target, Source: one value of the target's pointee type
            align, volatile = _memory_access(ops, 2)
            pointee = self.m.types[self.m.types.pointee(self._type_id_of(ops[0]))]
            b.store(b.load(pointee, self.v(ops[1]), align=align, volatile=volatile), self.v(ops[0]), align, volatile)
        elif name == "CopyMemorySized":   # Target, Source, Size (bytes)
            self._copy_sized(inst)
        elif name in ("ImageRead", "ImageWrite", "SampledImage", "ImageSampleExplicitLod", "ImageQuerySize",
                      "ImageQuerySizeLod"):
            self._image(inst)
        elif name in ("PtrAccessChain", "InBoundsPtrAccessChain", "AccessChain", "InBoundsAccessChain"):
            self._access_chain(inst)
        elif name == "CompositeExtract":
            self.set(inst, self._extract(self.v(ops[2]), list(ops[3:])))
        elif name == "CompositeInsert":
            self.set(inst, self._insert(self.v(ops[3]), self.v(ops[2]), list(ops[4:])))
        elif name == "CompositeConstruct":
            self._construct(inst)
        elif name == "VectorExtractDynamic":
            self.set(inst, b.extract_element(self.v(ops[2]), self.v(ops[3])))
        elif name == "VectorInsertDynamic":
            self.set(inst, b.insert_element(self.v(ops[2]), self.v(ops[3]), self.v(ops[4])))
        elif name == "VectorShuffle":
            self._shuffle(inst)
        elif name == "Branch":
            b.br(self.blocks[ops[0]])
        elif name == "BranchConditional":
            b.cbr(self.v(ops[0]), self.blocks[ops[1]], self.blocks[ops[2]])
        elif name == "Switch":
            sel = self.v(ops[0])
            words = (sel.type.bits + 31) // 32
            cases, k = [], 2
            while k < len(ops):
                lit = ops[k] | (ops[k + 1] << 32 if words == 2 else 0)
                cases.append((const_int(sel.type, lit), self.blocks[ops[k + words]]))
                k += words + 1
            b.switch(sel, self.blocks[ops[1]], cases)
        elif name == "Return":
            b.ret_void()
        elif name == "ReturnValue":
            b.ret(self.v(ops[0]))
        elif name == "Unreachable":
            b.unreachable()
        elif name == "FunctionCall":
            callee = self.v(ops[2])
            call = b.call(callee, [self.v(a) for a in ops[3:]])
            self.set(inst, call)
        elif name == "ExtInst":
            self._ext_inst(inst)
        elif name == "ControlBarrier":
            self._builtin_call("barrier", T.void, [const_int(T.i32, self._fence_flags(ops[2]))],
                               [OclType.scalar("uint")])
        elif name == "MemoryBarrier":
            self._builtin_call("mem_fence", T.void, [const_int(T.i32, self._fence_flags(ops[1]))],
                               [OclType.scalar("uint")])
        elif name in _ATOMIC_RMW:
            self.set(inst, b.atomicrmw(_ATOMIC_RMW[name], self.v(ops[2]), self.v(ops[5]),
                                       syncscope=_syncscope(self.m.constant_int(ops[3]))))
        elif name in ("AtomicIIncrement", "AtomicIDecrement"):
            ty = self.rtype(inst)
            self.set(inst, b.atomicrmw("add" if name == "AtomicIIncrement" else "sub", self.v(ops[2]),
                                       const_int(ty, 1), syncscope=_syncscope(self.m.constant_int(ops[3]))))
        elif name in ("AtomicCompareExchange", "AtomicCompareExchangeWeak"):
            pair = b.cmpxchg(self.v(ops[2]), self.v(ops[7]), self.v(ops[6]),
                             syncscope=_syncscope(self.m.constant_int(ops[3])))
            self.set(inst, b.extract_value(pair, [0]))
        elif name == "AtomicLoad":
            load = b.load(self.rtype(inst), self.v(ops[2]), align=self.rtype(inst).bits // 8)
            load.atomic, load.ordering = True, "seq_cst"
            load.syncscope = _syncscope(self.m.constant_int(ops[3]))
            self.set(inst, load)
        elif name == "AtomicStore":
            value = self.v(ops[3])
            store = b.store(value, self.v(ops[0]), align=value.type.bits // 8)
            store.atomic, store.ordering = True, "seq_cst"
            store.syncscope = _syncscope(self.m.constant_int(ops[1]))
        elif name == "Dot":
            x = self.v(ops[2])
            self.set(inst, self._builtin_call("dot", self.rtype(inst), [x, self.v(ops[3])],
                                              [self._ocl(ops[2])] * 2))
        elif name in S.GROUP_ARITHMETIC:
            op, signed = S.GROUP_ARITHMETIC[name]
            fname = f"{_group_prefix(self.m.constant_int(ops[2]))}{S.GROUP_OPERATION_PREFIXES[ops[3]]}{op}"
            self.set(inst, self._builtin_call(fname, self.rtype(inst), [self.v(ops[4])], [self._ocl(ops[4], signed)]))
        elif name == "GroupBroadcast":
            ids = self.v(ops[4])
            ocl_ids = [self._ocl(ops[4], False)]
            args = [self.v(ops[3])]
            if isinstance(ids.type, T.VectorType):   # work_group_broadcast(x, size_t, size_t[, size_t])
                ocl_ids = [self.m.types.ocl_type(self.m.types.defs[self._type_id_of(ops[4])].operands[1], False)] \
                    * ids.type.count
                args += [b.extract_element(ids, const_int(T.i32, k)) for k in range(ids.type.count)]
            else:
                args.append(ids)
            scope = _group_prefix(self.m.constant_int(ops[2]))
            self.set(inst, self._builtin_call(f"{scope}broadcast", self.rtype(inst), args,
                                              [self._ocl(ops[3])] + ocl_ids))
        elif name in ("GroupAll", "GroupAny"):
            flag = b.zext(self.v(ops[3]), T.i32)
            scope = _group_prefix(self.m.constant_int(ops[2]))
            result = self._builtin_call(f"{scope}{name[5:].lower()}", T.i32, [flag], [OclType.scalar("int")])
            self.set(inst, b.icmp("ne", result, const_int(T.i32, 0)))
        elif name in ("Any", "All"):
            x = self.v(ops[2])
            acc = b.extract_element(x, const_int(T.i32, 0))
            for k in range(1, x.type.count):
                e = b.extract_element(x, const_int(T.i32, k))
                acc = b.or_(acc, e) if name == "Any" else b.and_(acc, e)
            self.set(inst, acc)
        elif name in PIPE_CALLS or name in ENQUEUE_OPS or name == "IsValidReserveId":
            (pipe_instruction if name in PIPE_CALLS else enqueue_instruction if name in ENQUEUE_OPS
             else is_valid_reserve_id)(self, inst)
        else:
            raise FormatError(f"Op{name} is not supported by kernelkit's SPIR-V reader", offset=inst.offset,
                              field="opcode")

    # -- pieces ------------------------------------------------------------------------------
    def _ocl(self, rid: int, signed: bool | None = None) -> OclType:
        """The mangling type of value ``rid`` (from its SPIR-V type)."""
        return self.m.types.ocl_type(self._type_id_of(rid), signed)

    def _type_id_of(self, rid: int) -> int:
        tid = self.m.value_types.get(rid)
        if tid is None:
            raise FormatError(f"type of %{rid} unknown", field="id")
        return tid

    def _builtin_call(self, name: str, ret: T.Type, args: list, params: list[OclType]):
        fn = self.m.declare_builtin(mangle(name, params), ret, [a.type for a in args])
        call = self.b.call(fn, args)
        return call

    def _fence_flags(self, semantics_id: int) -> int:
        sem = self.m.constant_int(semantics_id)
        return sum(flag for bit, flag in S.SEMANTICS_FENCE_FLAGS if sem & bit)

    def _decorated_conversion(self, inst: Instruction) -> bool:
        """A conversion with SaturatedConversion or FPRoundingMode: OpenCL C's convert_<type>[_sat][_<mode>]."""
        rid = inst.operands[1]
        saturated = inst.name.startswith("SatConvert") or self.m.decoration(rid, S.DEC_SATURATED_CONVERSION) is not None
        rounding = self.m.decoration(rid, S.DEC_FP_ROUNDING_MODE)
        if not saturated and rounding is None:
            return False
        src_signed, dst_signed = _CONVERT_SIGNS[inst.name]
        dest = self.m.types.opencl_name(inst.operands[0], dst_signed is not False)
        fname = f"convert_{dest}{'_sat' if saturated else ''}{S.ROUNDING_SUFFIXES[rounding[0]] if rounding else ''}"
        self.set(inst, self._builtin_call(fname, self.rtype(inst), [self.v(inst.operands[2])],
                                          [self._ocl(inst.operands[2], src_signed)]))
        return True

    def _resize(self, name: str, x, ty: T.Type):
        if x.type == ty:
            return x
        if name == "FConvert":
            return self.b.cast("fpext" if ty.scalar.bits > x.type.scalar.bits else "fptrunc", x, ty)
        if ty.scalar.bits < x.type.scalar.bits:
            return self.b.trunc(x, ty)
        return self.b.cast("sext" if name == "SConvert" else "zext", x, ty)

    def _bitcast(self, x, ty: T.Type):
        if x.type == ty:
            return x
        if isinstance(x.type, T.PointerType) and isinstance(ty, T.PointerType):
            return x if x.type.addrspace == ty.addrspace else self.b.addrspacecast(x, ty)
        return self.b.bitcast(x, ty)

    def _local_variable(self, inst: Instruction) -> None:
        ptr_tid, rid, storage = inst.operands[:3]
        if storage != S.STORAGE_FUNCTION:
            raise FormatError("a function-scope OpVariable must have Function storage", offset=inst.offset,
                              field="storage class")
        ty = self.m.types[self.m.types.pointee(ptr_tid)]
        align = self.m.decoration(rid, S.DEC_ALIGNMENT)
        b = IRBuilder().position_at_start(self.entry)
        slot = b.alloca(ty, align=align[0] if align else None)
        if len(inst.operands) > 3:
            self.b.store(self.v(inst.operands[3]), slot)
        self.define(rid, slot)

    def _load(self, inst: Instruction) -> None:
        ops = inst.operands
        src = ops[2]
        if src in self.m.builtin_vars or src in self.m.builtin_elements:
            self.set(inst, self._builtin_load(src, self.rtype(inst)))
            return
        align, volatile = _memory_access(ops, 3)
        self.set(inst, self.b.load(self.rtype(inst), self.pointer(src), align=align, volatile=volatile))

    def _builtin_load(self, src: int, ty: T.Type):
        if src in self.m.builtin_elements:
            var, index = self.m.builtin_elements[src]
            return self._work_item_call(self.m.builtin_vars[var], index, ty)
        builtin = self.m.builtin_vars[src]
        if not isinstance(ty, T.VectorType):
            return self._work_item_call(builtin, None, ty)
        vec = poison(ty)
        for k in range(ty.count):
            vec = self.b.insert_element(vec, self._work_item_call(builtin, k, ty.element), const_int(T.i32, k))
        return vec

    def _work_item_call(self, builtin: int, index: int | None, ty: T.Type):
        name = S.BUILTIN_FUNCTIONS[builtin]
        if index is None:
            return self._builtin_call(name, ty, [], [])
        return self._builtin_call(name, ty, [const_int(T.i32, index)], [OclType.scalar("uint")])

    def _access_chain(self, inst: Instruction) -> None:
        ops = inst.operands
        base_id = ops[2]
        if base_id in self.m.builtin_vars:   # &__spirv_BuiltInGlobalInvocationId[k]
            self.m.builtin_elements[ops[1]] = (base_id, self.m.constant_int(ops[-1]))
            return
        base = self.v(base_id)
        elem_tid = self.m.types.pointee(self._type_id_of(base_id))
        indices = [self.v(i) for i in ops[3:]]
        if inst.name in ("AccessChain", "InBoundsAccessChain"):
            indices = [const_int(T.i64, 0), *indices]
        flags = ("inbounds",) if inst.name.startswith("InBounds") else ()
        self.set(inst, self.b.gep(self.m.types[elem_tid], base, indices, flags=flags))

    def _extract(self, agg, path: list[int]):
        for index in path:
            if isinstance(agg.type, T.VectorType):
                agg = self.b.extract_element(agg, const_int(T.i32, index))
            else:
                agg = self.b.extract_value(agg, [index])
        return agg

    def _insert(self, agg, value, path: list[int]):
        if len(path) > 1:
            inner = self._extract(agg, path[:1])
            value = self._insert(inner, value, path[1:])
        if isinstance(agg.type, T.VectorType):
            return self.b.insert_element(agg, value, const_int(T.i32, path[0]))
        return self.b.insert_value(agg, value, [path[0]])

    def _construct(self, inst: Instruction) -> None:
        ty = self.rtype(inst)
        parts = [self.v(p) for p in inst.operands[2:]]
        agg = poison(ty)
        if isinstance(ty, T.VectorType):
            k = 0
            for part in parts:
                items = ([self.b.extract_element(part, const_int(T.i32, j)) for j in range(part.type.count)]
                         if isinstance(part.type, T.VectorType) else [part])
                for item in items:
                    agg = self.b.insert_element(agg, item, const_int(T.i32, k))
                    k += 1
        else:
            for k, part in enumerate(parts):
                agg = self.b.insert_value(agg, part, [k])
        self.set(inst, agg)

    def _shuffle(self, inst: Instruction) -> None:
        ops = inst.operands
        a, c = self.v(ops[2]), self.v(ops[3])
        mask_type = T.VectorType(T.i32, len(ops) - 4)
        mask = ConstantAggregate(mask_type, [poison(T.i32) if m == 0xFFFFFFFF else const_int(T.i32, m)
                                             for m in ops[4:]])
        if a.type != c.type:   # LLVM's shufflevector needs operands of one type
            self.set(inst, self._shuffle_unequal(a, c, list(ops[4:]), self.rtype(inst)))
            return
        self.set(inst, self.b.shuffle_vector(a, c, mask))

    def _shuffle_unequal(self, a, c, mask: list[int], ty: T.Type):
        out = poison(ty)
        for k, m in enumerate(mask):
            if m == 0xFFFFFFFF:
                continue
            src, j = (a, m) if m < a.type.count else (c, m - a.type.count)
            out = self.b.insert_element(out, self.b.extract_element(src, const_int(T.i32, j)), const_int(T.i32, k))
        return out

    def _image(self, inst: Instruction) -> None:
        """Image instructions as OpenCL C builtin calls (kernelkit.frontend.spirv.images)."""
        from kernelkit.frontend.spirv.images import IMAGE_OPERAND_ZERO_EXTEND, SAMPLER_TYPE, texel_suffix

        ops, name = inst.operands, inst.name
        if name == "SampledImage":   # (type, result, image, sampler): used by the sampling instruction
            self.sampled[ops[1]] = (ops[2], ops[3])
            return
        if name in ("ImageQuerySize", "ImageQuerySizeLod"):
            self._image_size(inst)
            return
        if name == "ImageWrite":     # image, coordinate, texel [, image operands]
            unsigned = len(ops) > 3 and bool(ops[3] & IMAGE_OPERAND_ZERO_EXTEND)
            texel = self.v(ops[2]).type
            fname = f"write_image{texel_suffix(texel.element if isinstance(texel, T.VectorType) else texel, unsigned)}"
            self._builtin_call(fname, T.void, [self.v(ops[0]), self.v(ops[1]), self.v(ops[2])],
                               [self._ocl(ops[0]), self._ocl(ops[1], True), self._ocl(ops[2], not unsigned)])
            return
        rtype = self.rtype(inst)
        unsigned = len(ops) > 4 and bool(ops[4] & IMAGE_OPERAND_ZERO_EXTEND)
        fname = f"read_image{texel_suffix(rtype.element if isinstance(rtype, T.VectorType) else rtype, unsigned)}"
        if name == "ImageRead":      # (type, result, image, coordinate [, operands])
            args, params = [self.v(ops[2]), self.v(ops[3])], [self._ocl(ops[2]), self._ocl(ops[3], True)]
        else:                        # ImageSampleExplicitLod (type, result, sampled image, coordinate, Lod, 0)
            image, sampler = self.sampled[ops[2]]
            sampler_value = self.m.values.get(sampler)
            if isinstance(sampler_value, int):   # an OpConstantSampler's bits
                init = self.m.declare_builtin("__translate_sampler_initializer", SAMPLER_TYPE, [T.i32])
                sampler_value = self.b.call(init, [const_int(T.i32, sampler_value)])
            else:
                sampler_value = self.v(sampler)
            coord_signed = not isinstance(self.v(ops[3]).type.scalar, T.FloatType)
            args = [self.v(image), sampler_value, self.v(ops[3])]
            params = [self._ocl(image), OclType("named", name="ocl_sampler"), self._ocl(ops[3], coord_signed or None)]
        self.set(inst, self._builtin_call(fname, rtype, args, params))

    def _image_size(self, inst: Instruction) -> None:
        """OpImageQuerySize[Lod]: one get_image_* call per component (width, height, depth; the array
        size last for arrayed images), widened or narrowed to the result's integer type."""
        ops = inst.operands
        image_ops = self.m.types.defs[self._type_id_of(ops[2])].operands
        dim, arrayed = image_ops[2], image_ops[4]
        queries = ["get_image_width", "get_image_height", "get_image_depth"][:{0: 1, 1: 2, 2: 3, 5: 1}.get(dim, 1)]
        if arrayed:
            queries.append("get_image_array_size")
        rtype = self.rtype(inst)
        element = rtype.element if isinstance(rtype, T.VectorType) else rtype
        values = []
        for q in queries:
            ret = T.i64 if q == "get_image_array_size" else T.i32
            v = self._builtin_call(q, ret, [self.v(ops[2])], [self._ocl(ops[2])])
            if v.type != element:
                v = self.b.cast("zext" if v.type.bits < element.bits else "trunc", v, element)
            values.append(v)
        if not isinstance(rtype, T.VectorType):
            self.set(inst, values[0])
            return
        out = poison(rtype)
        for k, v in enumerate(values[:rtype.count]):
            out = self.b.insert_element(out, v, const_int(T.i32, k))
        self.set(inst, out)

    def _copy_sized(self, inst: Instruction) -> None:
        dst, src, size = (self.v(o) for o in inst.operands[:3])
        _, volatile = _memory_access(inst.operands, 3)
        name = f"llvm.memcpy.p{dst.type.addrspace}.p{src.type.addrspace}.{size.type}"
        fn = self.m.ir.declare_function(name, T.FunctionType(T.void, (dst.type, src.type, size.type, T.i1)))
        self.b.call(fn, [dst, src, size, const_int(T.i1, int(volatile))])

    def _ext_inst(self, inst: Instruction) -> None:
        from kernelkit.frontend.spirv.translate import ext_inst_name

        ops = inst.operands
        if self.m.ext_sets.get(ops[2]) != "OpenCL.std":
            raise FormatError(f"extended instruction set {self.m.ext_sets.get(ops[2])!r} is not OpenCL.std",
                              offset=inst.offset + 12, field="OpExtInst set")
        name, signed = ext_inst_name(ops[3])
        if name in ("vloadn", "vstoren"):
            self._vector_memory(inst, name)
            return
        if name == "printf":
            self._printf(inst)
            return
        args = [self.v(a) for a in ops[4:]]
        params = [self._ocl(a, signed) for a in ops[4:]]
        self.set(inst, self._builtin_call(name, self.rtype(inst), args, params))

    def _printf(self, inst: Instruction) -> None:
        """OpenCL.std printf (format, args...): OpenCL C's variadic ``int printf(constant char *, ...)``;
        the format may point to the string's array (SPV_EXT_relaxed_printf_string_address_space)."""
        fmt, *args = (self.v(o) for o in inst.operands[4:])
        if not isinstance(fmt.type, T.PointerType):
            raise FormatError("OpenCL.std printf format is not a pointer", offset=inst.offset + 20,
                              field="OpExtInst printf format")
        fn = self.m.ir.declare_function("printf", T.FunctionType(T.i32, (fmt.type,), vararg=True))
        self.set(inst, self.b.call(fn, [fmt, *args]))

    def _vector_memory(self, inst: Instruction, name: str) -> None:
        """OpenCL.std vloadn (offset, p, n) / vstoren (data, offset, p): OpenCL C's vload<n>/vstore<n>
        (loads take a const pointer, as the OpenCL C declarations do)."""
        ops = inst.operands
        if name == "vloadn":
            offset, ptr, n = ops[4], ops[5], ops[6]
            pointer = self._ocl(ptr)
            pointer = OclType("pointer", element=pointer.element, address_space=pointer.address_space,
                              qualifiers=frozenset({"const"}))
            self.set(inst, self._builtin_call(f"vload{n}", self.rtype(inst), [self.v(offset), self.v(ptr)],
                                              [self._ocl(offset, False), pointer]))
            return
        data, offset, ptr = ops[4], ops[5], ops[6]
        width = self.v(data).type.count
        self._builtin_call(f"vstore{width}", T.void, [self.v(data), self.v(offset), self.v(ptr)],
                           [self._ocl(data), self._ocl(offset, False), self._ocl(ptr)])


def _memory_access(ops: tuple[int, ...], index: int) -> tuple[int | None, bool]:
    """(alignment, volatile) from an optional Memory Operands mask (§3.26)."""
    if len(ops) <= index:
        return None, False
    mask = ops[index]
    align = ops[index + 1] if mask & 0x2 and len(ops) > index + 1 else None
    return align, bool(mask & 0x1)


def _group_prefix(scope: int) -> str:
    if scope == S.SCOPE_WORKGROUP:
        return "work_group_"
    if scope == S.SCOPE_SUBGROUP:
        return "sub_group_"
    raise FormatError(f"group operation at scope {scope} (OpenCL has work-group and sub-group ones)",
                      field="Execution scope")


def _syncscope(scope: int) -> str | None:
    return {S.SCOPE_WORKGROUP: "workgroup", S.SCOPE_SUBGROUP: "subgroup"}.get(scope)


def _zero(ty: T.Type):
    from kernelkit.frontend.spirv.translate import zero_value

    return zero_value(ty)


def _all_ones(ty: T.Type):
    if isinstance(ty, T.VectorType):
        return ConstantAggregate(ty, [const_int(ty.element, -1)] * ty.count)
    return const_int(ty, -1)
