"""IRBuilder: create instructions at an insertion point (end of a block, or before an
instruction), computing result types the way LLVM does."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.module import BasicBlock, Function
from kernelkit.ir.values import ConstantFP, ConstantInt, Value


def const(ty: T.Type, value: int | float | bool) -> Value:
    """An integer or floating-point constant of `ty`."""
    if isinstance(ty, T.FloatType):
        return ConstantFP(ty, float(value))
    return ConstantInt(ty, int(value))


class IRBuilder:
    def __init__(self, block: BasicBlock | None = None) -> None:
        self.block = block
        self.before: I.Instruction | None = None

    # ---------------------------------------------------------------- position
    def position_at_end(self, block: BasicBlock) -> IRBuilder:
        self.block, self.before = block, None
        return self

    def position_at_start(self, block: BasicBlock) -> IRBuilder:
        """Before the first non-phi instruction."""
        self.block = block
        idx = block.first_insertion_index()
        self.before = block.instructions[idx] if idx < len(block.instructions) else None
        return self

    def position_before(self, inst: I.Instruction) -> IRBuilder:
        self.block, self.before = inst.parent, inst
        return self

    def position_after(self, inst: I.Instruction) -> IRBuilder:
        block = inst.parent
        assert block is not None
        idx = block.index_of(inst) + 1
        self.block = block
        self.before = block.instructions[idx] if idx < len(block.instructions) else None
        return self

    @property
    def function(self) -> Function | None:
        return self.block.parent if self.block is not None else None

    def insert(self, inst: I.Instruction) -> I.Instruction:
        if self.block is None:
            raise ValueError("IRBuilder has no insertion point")
        if self.before is None:
            self.block.append(inst)
        else:
            inst.insert_before(self.before)
        return inst

    # ---------------------------------------------------------------- arithmetic
    def binop(self, opcode: str, a: Value, b: Value, name: str = "", flags: Iterable[str] = ()) -> I.Instruction:
        return self.insert(I.BinaryOp(a.type, opcode, (a, b), name, flags))

    def add(self, a, b, name="", flags=()):
        return self.binop("add", a, b, name, flags)

    def sub(self, a, b, name="", flags=()):
        return self.binop("sub", a, b, name, flags)

    def mul(self, a, b, name="", flags=()):
        return self.binop("mul", a, b, name, flags)

    def udiv(self, a, b, name="", flags=()):
        return self.binop("udiv", a, b, name, flags)

    def sdiv(self, a, b, name="", flags=()):
        return self.binop("sdiv", a, b, name, flags)

    def urem(self, a, b, name=""):
        return self.binop("urem", a, b, name)

    def srem(self, a, b, name=""):
        return self.binop("srem", a, b, name)

    def shl(self, a, b, name="", flags=()):
        return self.binop("shl", a, b, name, flags)

    def lshr(self, a, b, name="", flags=()):
        return self.binop("lshr", a, b, name, flags)

    def ashr(self, a, b, name="", flags=()):
        return self.binop("ashr", a, b, name, flags)

    def and_(self, a, b, name=""):
        return self.binop("and", a, b, name)

    def or_(self, a, b, name="", flags=()):
        return self.binop("or", a, b, name, flags)

    def xor(self, a, b, name=""):
        return self.binop("xor", a, b, name)

    def fadd(self, a, b, name="", flags=()):
        return self.binop("fadd", a, b, name, flags)

    def fsub(self, a, b, name="", flags=()):
        return self.binop("fsub", a, b, name, flags)

    def fmul(self, a, b, name="", flags=()):
        return self.binop("fmul", a, b, name, flags)

    def fdiv(self, a, b, name="", flags=()):
        return self.binop("fdiv", a, b, name, flags)

    def frem(self, a, b, name="", flags=()):
        return self.binop("frem", a, b, name, flags)

    def fneg(self, a: Value, name: str = "", flags: Iterable[str] = ()) -> I.Instruction:
        return self.insert(I.BinaryOp(a.type, "fneg", (a,), name, flags))

    def icmp(self, predicate: str, a: Value, b: Value, name: str = "") -> I.Instruction:
        return self.insert(I.CompareInst("icmp", predicate, a, b, name))

    def fcmp(self, predicate: str, a: Value, b: Value, name: str = "", flags: Iterable[str] = ()) -> I.Instruction:
        return self.insert(I.CompareInst("fcmp", predicate, a, b, name, flags))

    def cast(self, opcode: str, v: Value, ty: T.Type, name: str = "", flags: Iterable[str] = ()) -> I.Instruction:
        return self.insert(I.CastInst(ty, opcode, (v,), name, flags))

    def trunc(self, v, ty, name=""):
        return self.cast("trunc", v, ty, name)

    def zext(self, v, ty, name=""):
        return self.cast("zext", v, ty, name)

    def sext(self, v, ty, name=""):
        return self.cast("sext", v, ty, name)

    def sitofp(self, v, ty, name=""):
        return self.cast("sitofp", v, ty, name)

    def uitofp(self, v, ty, name=""):
        return self.cast("uitofp", v, ty, name)

    def fptosi(self, v, ty, name=""):
        return self.cast("fptosi", v, ty, name)

    def fptoui(self, v, ty, name=""):
        return self.cast("fptoui", v, ty, name)

    def fpext(self, v, ty, name=""):
        return self.cast("fpext", v, ty, name)

    def fptrunc(self, v, ty, name=""):
        return self.cast("fptrunc", v, ty, name)

    def bitcast(self, v, ty, name=""):
        return self.cast("bitcast", v, ty, name)

    def ptrtoint(self, v, ty, name=""):
        return self.cast("ptrtoint", v, ty, name)

    def inttoptr(self, v, ty, name=""):
        return self.cast("inttoptr", v, ty, name)

    def addrspacecast(self, v, ty, name=""):
        return self.cast("addrspacecast", v, ty, name)

    def int_resize(self, v: Value, ty: T.IntType, signed: bool = False, name: str = "") -> Value:
        """zext/sext/trunc to `ty`, or `v` itself when it already has that width."""
        bits = v.type.bits  # type: ignore[attr-defined]
        if bits == ty.bits:
            return v
        if bits > ty.bits:
            return self.trunc(v, ty, name)
        return self.sext(v, ty, name) if signed else self.zext(v, ty, name)

    # ---------------------------------------------------------------- memory
    def alloca(self, ty: T.Type, count: Value | None = None, align: int | None = None,
               addrspace: int = 0, name: str = "") -> I.Instruction:
        return self.insert(I.AllocaInst(ty, count, align, addrspace, name))

    def load(self, ty: T.Type, ptr: Value, name: str = "", align: int | None = None,
             volatile: bool = False, ordering: str | None = None, syncscope: str | None = None) -> I.LoadInst:
        """A load; with ``ordering`` (``monotonic``, ``acquire``, ...) an atomic load."""
        inst = I.LoadInst(ty, "load", (ptr,), name)
        inst.align, inst.volatile = align, volatile
        if ordering is not None:
            inst.atomic, inst.ordering, inst.syncscope = True, ordering, syncscope
        return self.insert(inst)  # type: ignore[return-value]

    def store(self, value: Value, ptr: Value, align: int | None = None,
              volatile: bool = False) -> I.StoreInst:
        inst = I.StoreInst(T.void, "store", (value, ptr))
        inst.align, inst.volatile = align, volatile
        return self.insert(inst)  # type: ignore[return-value]

    def gep(self, source_type: T.Type, ptr: Value, indices: Sequence[Value], name: str = "",
            flags: Iterable[str] = ()) -> I.Instruction:
        return self.insert(I.GetElementPtrInst(source_type, ptr, indices, name, flags))

    def atomicrmw(self, operation: str, ptr: Value, value: Value, ordering: str = "seq_cst",
                  syncscope: str | None = None, align: int | None = None, name: str = "") -> I.Instruction:
        inst = I.AtomicRMWInst(value.type, "atomicrmw", (ptr, value), name)
        inst.operation, inst.ordering, inst.syncscope, inst.atomic = operation, ordering, syncscope, True
        inst.align = align
        return self.insert(inst)

    def cmpxchg(self, ptr: Value, cmp: Value, new: Value, success: str = "seq_cst",
                failure: str = "seq_cst", syncscope: str | None = None, align: int | None = None,
                name: str = "") -> I.Instruction:
        inst = I.CmpXchgInst(T.LiteralStructType((cmp.type, T.i1)), "cmpxchg", (ptr, cmp, new), name)
        inst.ordering, inst.failure_ordering, inst.syncscope = success, failure, syncscope
        inst.atomic, inst.weak, inst.align = True, False, align
        return self.insert(inst)

    def fence(self, ordering: str = "seq_cst", syncscope: str | None = None) -> I.Instruction:
        inst = I.FenceInst(T.void, "fence", ())
        inst.ordering, inst.syncscope, inst.atomic = ordering, syncscope, True
        return self.insert(inst)

    # ---------------------------------------------------------------- other
    def select(self, cond: Value, a: Value, b: Value, name: str = "") -> I.Instruction:
        return self.insert(I.SelectInst(a.type, "select", (cond, a, b), name))

    def phi(self, ty: T.Type, name: str = "") -> I.PhiInst:
        return self.insert(I.PhiInst(ty, "phi", (), name))  # type: ignore[return-value]

    def call(self, callee: Value, args: Sequence[Value], name: str = "",
             function_type: T.FunctionType | None = None) -> I.CallInst:
        if function_type is None:
            function_type = callee.function_type if isinstance(callee, Function) else \
                T.FunctionType(T.void, tuple(a.type for a in args))
        inst = I.CallInst(function_type, callee, args, name)
        if isinstance(callee, Function):
            inst.calling_conv = callee.calling_conv
        return self.insert(inst)  # type: ignore[return-value]

    def extract_element(self, vec: Value, index: Value, name: str = "") -> I.Instruction:
        return self.insert(I.VectorOpInst(vec.type.element, "extractelement", (vec, index), name))  # type: ignore[attr-defined]

    def insert_element(self, vec: Value, elt: Value, index: Value, name: str = "") -> I.Instruction:
        return self.insert(I.VectorOpInst(vec.type, "insertelement", (vec, elt, index), name))

    def shuffle_vector(self, a: Value, b: Value, mask: Value, name: str = "") -> I.Instruction:
        ty = T.VectorType(a.type.element, mask.type.count)  # type: ignore[attr-defined]
        return self.insert(I.VectorOpInst(ty, "shufflevector", (a, b, mask), name))

    def extract_value(self, agg: Value, indices: Sequence[int], name: str = "") -> I.Instruction:
        ty = I.result_type_of_extractvalue(agg.type, indices)
        return self.insert(I.AggregateOpInst(ty, "extractvalue", (agg,), indices, name))

    def insert_value(self, agg: Value, value: Value, indices: Sequence[int], name: str = "") -> I.Instruction:
        return self.insert(I.AggregateOpInst(agg.type, "insertvalue", (agg, value), indices, name))

    def freeze(self, v: Value, name: str = "") -> I.Instruction:
        return self.insert(I.FreezeInst(v.type, "freeze", (v,), name))

    # ---------------------------------------------------------------- terminators
    def br(self, dest: BasicBlock) -> I.Instruction:
        return self.insert(I.BranchInst(T.void, "br", (dest,)))

    def cbr(self, cond: Value, if_true: BasicBlock, if_false: BasicBlock) -> I.Instruction:
        return self.insert(I.BranchInst(T.void, "br", (cond, if_true, if_false)))

    def switch(self, value: Value, default: BasicBlock,
               cases: Iterable[tuple[Value, BasicBlock]] = ()) -> I.SwitchInst:
        ops: list[Value] = [value, default]
        for v, b in cases:
            ops += [v, b]
        return self.insert(I.SwitchInst(T.void, "switch", ops))  # type: ignore[return-value]

    def ret(self, value: Value | None = None) -> I.Instruction:
        return self.insert(I.ReturnInst(T.void, "ret", () if value is None else (value,)))

    def ret_void(self) -> I.Instruction:
        return self.ret(None)

    def unreachable(self) -> I.Instruction:
        return self.insert(I.UnreachableInst(T.void, "unreachable", ()))
