"""Instructions. Each class keeps its operands in `operands` (so use lists stay exact) and its
non-value properties (flags, alignment, orderings, ...) as attributes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from kernelkit.ir import types as T
from kernelkit.ir.opcodes import TERMINATORS
from kernelkit.ir.values import User, Value

if TYPE_CHECKING:
    from kernelkit.ir.metadata import DebugRecord, MDNode
    from kernelkit.ir.module import BasicBlock, Function


class Instruction(User):
    __slots__ = ("opcode", "parent", "flags", "metadata", "debug_records")

    def __init__(self, type: T.Type, opcode: str, operands: Iterable[Value] = (), name: str = "",
                 flags: Iterable[str] = ()) -> None:
        super().__init__(type, operands, name)
        self.opcode = opcode
        self.parent: BasicBlock | None = None
        self.flags: list[str] = list(flags)  # nuw/nsw/exact/disjoint/nneg/samesign/fast-math
        self.metadata: dict[str, MDNode] = {}
        self.debug_records: list[DebugRecord] = []  # `#dbg_*(...)` before this instruction

    @property
    def function(self) -> Function | None:
        return self.parent.parent if self.parent is not None else None

    def __str__(self) -> str:
        from kernelkit.ir.printer import value_text

        return value_text(self)

    @property
    def is_terminator(self) -> bool:
        return self.opcode in TERMINATORS

    # -- placement
    def remove_from_parent(self) -> None:
        if self.parent is not None:
            self.parent.instructions.remove(self)
            self.parent = None

    def erase(self) -> None:
        """Unlink from the block and drop the operands; the value must be unused."""
        if self.uses:
            raise ValueError(f"cannot erase {self.opcode} that still has {len(self.uses)} uses")
        self.remove_from_parent()
        self.drop_operands()

    def insert_before(self, other: Instruction) -> None:
        self.remove_from_parent()
        block = other.parent
        assert block is not None, "anchor instruction is not in a block"
        block.instructions.insert(block.index_of(other), self)
        self.parent = block

    def insert_after(self, other: Instruction) -> None:
        self.remove_from_parent()
        block = other.parent
        assert block is not None, "anchor instruction is not in a block"
        block.instructions.insert(block.index_of(other) + 1, self)
        self.parent = block

    move_before = insert_before
    move_after = insert_after

    def successors(self) -> list[BasicBlock]:
        from kernelkit.ir.module import BasicBlock

        return [op for op in self.operands if isinstance(op, BasicBlock)] if self.is_terminator else []


class BinaryOp(Instruction):
    """add/sub/.../fadd/.../xor and the unary fneg (one operand)."""

    __slots__ = ()


class CompareInst(Instruction):
    __slots__ = ("predicate",)

    def __init__(self, opcode: str, predicate: str, lhs: Value, rhs: Value, name: str = "",
                 flags: Iterable[str] = ()) -> None:
        ty = lhs.type
        result = T.VectorType(T.i1, ty.count, ty.scalable) if isinstance(ty, T.VectorType) else T.i1
        super().__init__(result, opcode, (lhs, rhs), name, flags)
        self.predicate = predicate


class CastInst(Instruction):
    __slots__ = ()


class AllocaInst(Instruction):
    __slots__ = ("allocated_type", "align", "addrspace", "keywords")

    def __init__(self, allocated_type: T.Type, count: Value | None = None, align: int | None = None,
                 addrspace: int = 0, name: str = "") -> None:
        super().__init__(T.PointerType(addrspace), "alloca", () if count is None else (count,), name)
        self.allocated_type = allocated_type
        self.align = align
        self.addrspace = addrspace
        self.keywords: list[str] = []  # inalloca, swifterror


class MemoryAccess(Instruction):
    """Shared fields of load, store, atomicrmw, cmpxchg and fence."""

    __slots__ = ("volatile", "atomic", "syncscope", "ordering", "align")

    def __init__(self, type: T.Type, opcode: str, operands: Iterable[Value], name: str = "") -> None:
        super().__init__(type, opcode, operands, name)
        self.volatile = False
        self.atomic = False
        self.syncscope: str | None = None
        self.ordering: str | None = None
        self.align: int | None = None


class LoadInst(MemoryAccess):
    __slots__ = ()

    @property
    def pointer(self) -> Value:
        return self.operands[0]


class StoreInst(MemoryAccess):
    __slots__ = ()

    @property
    def value(self) -> Value:
        return self.operands[0]

    @property
    def pointer(self) -> Value:
        return self.operands[1]


class AtomicRMWInst(MemoryAccess):
    __slots__ = ("operation",)


class CmpXchgInst(MemoryAccess):
    __slots__ = ("weak", "failure_ordering")


class FenceInst(MemoryAccess):
    __slots__ = ()


class GetElementPtrInst(Instruction):
    __slots__ = ("source_type",)

    def __init__(self, source_type: T.Type, pointer: Value, indices: Iterable[Value], name: str = "",
                 flags: Iterable[str] = (), result_type: T.Type | None = None) -> None:
        ops = [pointer, *indices]
        if result_type is None:
            result_type = pointer.type
            for op in ops:
                if isinstance(op.type, T.VectorType):
                    result_type = T.VectorType(pointer.type.scalar, op.type.count, op.type.scalable)
        super().__init__(result_type, "getelementptr", ops, name, flags)
        self.source_type = source_type


class SelectInst(Instruction):
    __slots__ = ()


class PhiInst(Instruction):
    """Operands alternate value, block: [v0, b0, v1, b1, ...]."""

    __slots__ = ()

    def incoming(self) -> Iterator[tuple[Value, BasicBlock]]:
        ops = self.operands
        for i in range(0, len(ops), 2):
            yield ops[i], ops[i + 1]  # type: ignore[misc]

    def add_incoming(self, value: Value, block: BasicBlock) -> None:
        self.append_operand(value)
        self.append_operand(block)

    def remove_incoming(self, block: BasicBlock) -> None:
        pairs = [(v, b) for v, b in self.incoming() if b is not block]
        self.set_operands([x for pair in pairs for x in pair])

    def value_for(self, block: BasicBlock) -> Value:
        for v, b in self.incoming():
            if b is block:
                return v
        raise KeyError(block.name)


class BranchInst(Instruction):
    """`br label %d` (operands [d]) or `br i1 %c, label %t, label %f` (operands [c, t, f])."""

    __slots__ = ()


class SwitchInst(Instruction):
    """Operands: [condition, default, case value 0, case block 0, ...]."""

    __slots__ = ()

    def cases(self) -> Iterator[tuple[Value, BasicBlock]]:
        ops = self.operands
        for i in range(2, len(ops), 2):
            yield ops[i], ops[i + 1]  # type: ignore[misc]


class IndirectBrInst(Instruction):
    """`indirectbr ptr %a, [label %x, ...]`: operands [address, destinations...]."""

    __slots__ = ()


class ReturnInst(Instruction):
    __slots__ = ()


class UnreachableInst(Instruction):
    __slots__ = ()


class CallInst(Instruction):
    """Operands: [callee, args..., bundle operands...]. Attributes are verbatim strings
    (`noundef`, `align 4`) or AttributeGroup objects (`#3`)."""

    __slots__ = ("function_type", "tail", "calling_conv", "return_attributes", "arg_attributes",
                 "attributes", "bundles", "addrspace", "explicit_type")

    def __init__(self, function_type: T.FunctionType, callee: Value, args: Iterable[Value],
                 name: str = "") -> None:
        args = list(args)
        super().__init__(function_type.return_type, "call", [callee, *args], name)
        self.function_type = function_type
        self.tail = ""  # "", "tail", "musttail", "notail"
        self.calling_conv = ""
        self.return_attributes: list[str] = []
        self.arg_attributes: list[list[str]] = [[] for _ in args]
        self.attributes: list = []
        self.bundles: list[tuple[str, int]] = []  # (tag, operand count), operands after args
        self.addrspace: int | None = None
        self.explicit_type = function_type.vararg  # print the function type, not just the return

    @property
    def callee(self) -> Value:
        return self.operands[0]

    @property
    def num_args(self) -> int:
        return len(self.arg_attributes)

    @property
    def args(self) -> list[Value]:
        return self.operands[1:1 + len(self.arg_attributes)]

    @property
    def called_function(self):
        from kernelkit.ir.module import Function

        callee = self.operands[0]
        return callee if isinstance(callee, Function) else None


class VectorOpInst(Instruction):
    """extractelement [vec, idx], insertelement [vec, elt, idx], shufflevector [a, b, mask]."""

    __slots__ = ()


class AggregateOpInst(Instruction):
    """extractvalue [agg] / insertvalue [agg, val] with constant `indices`."""

    __slots__ = ("indices",)

    def __init__(self, type: T.Type, opcode: str, operands: Iterable[Value], indices: Iterable[int],
                 name: str = "") -> None:
        super().__init__(type, opcode, operands, name)
        self.indices = list(indices)


class FreezeInst(Instruction):
    __slots__ = ()


class VAArgInst(Instruction):
    __slots__ = ()


def result_type_of_extractvalue(agg: T.Type, indices: Iterable[int]) -> T.Type:
    ty = agg
    for i in indices:
        ty = T.aggregate_element(ty, i)
    return ty
