"""Text of each instruction (without the `%x = ` prefix and the metadata attachments)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kernelkit.ir import instructions as I
from kernelkit.ir.names import quote_string

if TYPE_CHECKING:
    from kernelkit.ir.printer import ModulePrinter


def _head(inst: I.Instruction) -> str:
    return " ".join([inst.opcode, *inst.flags]) if inst.flags else inst.opcode


def _atomic_tail(inst: I.MemoryAccess) -> str:
    out = ""
    if inst.syncscope is not None:
        out += f' syncscope("{quote_string(inst.syncscope)}")'
    if inst.ordering is not None:
        out += " " + inst.ordering
    return out


def _align(inst) -> str:
    return f", align {inst.align}" if inst.align is not None else ""


def _binary(p: ModulePrinter, inst: I.Instruction) -> str:
    ops = inst.operands
    text = f"{_head(inst)} {p.typed(ops[0])}"
    if len(ops) > 1:
        text += f", {p.ref(ops[1])}"
    return text


def _cast(p: ModulePrinter, inst: I.Instruction) -> str:
    return f"{_head(inst)} {p.typed(inst.operands[0])} to {p.type_text(inst.type)}"


def _compare(p: ModulePrinter, inst: I.CompareInst) -> str:
    a, b = inst.operands
    return f"{_head(inst)} {inst.predicate} {p.typed(a)}, {p.ref(b)}"


def _alloca(p: ModulePrinter, inst: I.AllocaInst) -> str:
    text = " ".join(["alloca", *inst.keywords, p.type_text(inst.allocated_type)])
    if inst.operands:
        text += f", {p.typed(inst.operands[0])}"
    text += _align(inst)
    if inst.addrspace:
        text += f", addrspace({inst.addrspace})"
    return text


def _load(p: ModulePrinter, inst: I.LoadInst) -> str:
    kw = "load" + (" atomic" if inst.atomic else "") + (" volatile" if inst.volatile else "")
    return f"{kw} {p.type_text(inst.type)}, {p.typed(inst.operands[0])}{_atomic_tail(inst)}{_align(inst)}"


def _store(p: ModulePrinter, inst: I.StoreInst) -> str:
    kw = "store" + (" atomic" if inst.atomic else "") + (" volatile" if inst.volatile else "")
    v, ptr = inst.operands
    return f"{kw} {p.typed(v)}, {p.typed(ptr)}{_atomic_tail(inst)}{_align(inst)}"


def _atomicrmw(p: ModulePrinter, inst: I.AtomicRMWInst) -> str:
    kw = "atomicrmw" + (" volatile" if inst.volatile else "")
    ptr, v = inst.operands
    return f"{kw} {inst.operation} {p.typed(ptr)}, {p.typed(v)}{_atomic_tail(inst)}{_align(inst)}"


def _cmpxchg(p: ModulePrinter, inst: I.CmpXchgInst) -> str:
    kw = "cmpxchg" + (" weak" if inst.weak else "") + (" volatile" if inst.volatile else "")
    ptr, cmp, new = inst.operands
    return (f"{kw} {p.typed(ptr)}, {p.typed(cmp)}, {p.typed(new)}{_atomic_tail(inst)} "
            f"{inst.failure_ordering}{_align(inst)}")


def _fence(p: ModulePrinter, inst: I.FenceInst) -> str:
    return "fence" + _atomic_tail(inst)


def _gep(p: ModulePrinter, inst: I.GetElementPtrInst) -> str:
    return f"{_head(inst)} {p.type_text(inst.source_type)}, " + ", ".join([p.typed(o) for o in inst.operands])


def _select(p: ModulePrinter, inst: I.Instruction) -> str:
    return f"{_head(inst)} " + ", ".join(p.typed(o) for o in inst.operands)


def _phi(p: ModulePrinter, inst: I.PhiInst) -> str:
    pairs = ", ".join(f"[ {p.ref(v)}, {p.ref(b)} ]" for v, b in inst.incoming())
    return f"{_head(inst)} {p.type_text(inst.type)} {pairs}"


def _br(p: ModulePrinter, inst: I.Instruction) -> str:
    ops = inst.operands
    if len(ops) == 1:
        return f"br label {p.ref(ops[0])}"
    return f"br {p.typed(ops[0])}, label {p.ref(ops[1])}, label {p.ref(ops[2])}"


def _switch(p: ModulePrinter, inst: I.SwitchInst) -> str:
    ops = inst.operands
    cases = "".join(f"\n    {p.typed(v)}, label {p.ref(b)}" for v, b in inst.cases())
    return f"switch {p.typed(ops[0])}, label {p.ref(ops[1])} [{cases}\n  ]"


def _indirectbr(p: ModulePrinter, inst: I.Instruction) -> str:
    dests = ", ".join(f"label {p.ref(b)}" for b in inst.operands[1:])
    return f"indirectbr {p.typed(inst.operands[0])}, [{dests}]"


def _ret(p: ModulePrinter, inst: I.Instruction) -> str:
    return f"ret {p.typed(inst.operands[0])}" if inst.operands else "ret void"


def _unreachable(p: ModulePrinter, inst: I.Instruction) -> str:
    return "unreachable"


def _call(p: ModulePrinter, inst: I.CallInst) -> str:
    parts = [inst.tail + " call" if inst.tail else "call", *inst.flags]
    if inst.calling_conv:
        parts.append(inst.calling_conv)
    parts.extend(inst.return_attributes)
    if inst.addrspace is not None:
        parts.append(f"addrspace({inst.addrspace})")
    fnty = inst.function_type
    parts.append(p.type_text(fnty) if inst.explicit_type or fnty.vararg else p.type_text(fnty.return_type))
    n = inst.num_args
    ops = inst.operands
    args = []
    for i in range(n):
        arg = ops[1 + i]
        args.append(" ".join([p.type_text(arg.type), *inst.arg_attributes[i], p.ref(arg)]))
    text = " ".join(parts) + f" {p.ref(ops[0])}({', '.join(args)})"
    if inst.attributes:
        text += " " + p.attrs_text(inst.attributes)
    if inst.bundles:
        k = 1 + n
        bundles = []
        for tag, count in inst.bundles:
            bundles.append(f'"{quote_string(tag)}"(' + ", ".join(p.typed(o) for o in ops[k:k + count]) + ")")
            k += count
        text += " [ " + ", ".join(bundles) + " ]"
    return text


def _vector_op(p: ModulePrinter, inst: I.Instruction) -> str:
    return f"{inst.opcode} " + ", ".join(p.typed(o) for o in inst.operands)


def _aggregate_op(p: ModulePrinter, inst: I.AggregateOpInst) -> str:
    text = f"{inst.opcode} " + ", ".join(p.typed(o) for o in inst.operands)
    return text + "".join(f", {i}" for i in inst.indices)


def _freeze(p: ModulePrinter, inst: I.Instruction) -> str:
    return f"freeze {p.typed(inst.operands[0])}"


def _va_arg(p: ModulePrinter, inst: I.Instruction) -> str:
    return f"va_arg {p.typed(inst.operands[0])}, {inst.type}"


_BY_CLASS: dict[type, Callable] = {
    I.BinaryOp: _binary, I.CastInst: _cast, I.CompareInst: _compare, I.AllocaInst: _alloca,
    I.LoadInst: _load, I.StoreInst: _store, I.AtomicRMWInst: _atomicrmw,
    I.CmpXchgInst: _cmpxchg, I.FenceInst: _fence, I.GetElementPtrInst: _gep,
    I.SelectInst: _select, I.PhiInst: _phi, I.BranchInst: _br, I.SwitchInst: _switch,
    I.ReturnInst: _ret, I.IndirectBrInst: _indirectbr, I.UnreachableInst: _unreachable, I.CallInst: _call,
    I.VectorOpInst: _vector_op, I.AggregateOpInst: _aggregate_op, I.FreezeInst: _freeze,
    I.VAArgInst: _va_arg,
}


def instruction_body(p: ModulePrinter, inst: I.Instruction) -> str:
    return _BY_CLASS[type(inst)](p, inst)
