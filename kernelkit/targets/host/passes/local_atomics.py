"""Integer atomics on ``__local`` memory as plain read-modify-write sequences.

On the host a work-group runs on one thread and its work-items switch only at barriers, so no
other code can touch a work-group's local memory during one atomic operation: the ``lock``ed
instruction buys nothing there. The loaded value is named ``kk.la.<n>``; kernels containing
such names must not have their work-item loops marked parallel (two work-items' atomic updates
of the same local word do depend on each other). Runs on :mod:`kernelkit.ir` (SPIR address
spaces: local memory is address space 3).
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Function
from kernelkit.ir.values import Constant

MARK = "%kk.la."          # as printed
PREFIX = MARK[1:]         # the value names
LOCAL = 3
_OPERATIONS = ("add", "sub", "and", "or", "xor", "max", "min", "umax", "umin")
SELECT_PREDICATES = {"max": "sgt", "min": "slt", "umax": "ugt", "umin": "ult"}


def _lowerable(inst: I.Instruction) -> bool:
    if not isinstance(inst, I.AtomicRMWInst) or inst.operation not in _OPERATIONS:
        return False
    ptr, value = inst.operands
    return (isinstance(ptr.type, T.PointerType) and ptr.type.addrspace == LOCAL and not isinstance(ptr, Constant)
            and isinstance(value.type, T.IntType))


def lower_local_atomics(functions) -> None:
    """Rewrite the integer ``atomicrmw`` on address space 3 of every function."""
    n = 0
    for f in functions:
        for inst in [i for i in f.instructions() if _lowerable(i)]:
            ptr, value = inst.operands
            b = IRBuilder().position_before(inst)
            old = b.load(value.type, ptr, name=f"{PREFIX}{n}", align=inst.align)
            if inst.operation in SELECT_PREDICATES:
                keep = b.icmp(SELECT_PREDICATES[inst.operation], old, value, name=f"{PREFIX}{n}.cmp")
                new = b.select(keep, old, value, name=f"{PREFIX}{n}.new")
            else:
                new = b.binop(inst.operation, old, value, name=f"{PREFIX}{n}.new")
            b.store(new, ptr, align=inst.align)
            inst.replace_all_uses_with(old)
            inst.erase()
            n += 1


def has_local_atomics(f: Function) -> bool:
    return any(inst.name.startswith(PREFIX) for inst in f.instructions())

