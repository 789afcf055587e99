"""The element type a byte-typed kernel pointer parameter really points to.

LLVM's SPIR-V backend (clang 22 ``-target spirv64``, llvmlite's ``--emit spirv``) writes no
``kernel_arg_type`` strings and, with opaque pointers, types some pointer parameters as pointers to
uchar when the kernel indexes them by bytes (``OpPtrAccessChain`` on the uchar pointer, then
``OpBitcast`` to the element's pointer type). The OpenCL C source said ``float *``: the accesses say
so too. ``accessed_pointee`` follows the parameter through access chains, bitcasts, copies, phis,
selects and calls of defined functions to the loads, stores and atomics that use it, and returns
the one type they all access (None when there is none or more than one, when it is the byte type
itself, or when any other use, such as a memory copy or ``vloadn``, leaves the element unsure).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kernelkit.formats.spirv import Instruction
    from kernelkit.frontend.spirv.translate import SpirvTranslator

# opcodes whose result is the same pointer moved (the result id is operand 1, the pointer an operand)
_FORWARDS = frozenset(("PtrAccessChain", "InBoundsPtrAccessChain", "Bitcast", "CopyObject", "Phi", "Select",
                       "PtrCastToGeneric", "GenericCastToPtr"))
# opcodes reading or writing memory through operand 2 (their result type is the accessed type)
_ACCESS_RESULT = frozenset(("Load", "AtomicLoad", "AtomicExchange", "AtomicCompareExchange", "AtomicIIncrement",
                            "AtomicIDecrement", "AtomicIAdd", "AtomicISub", "AtomicSMin", "AtomicUMin",
                            "AtomicSMax", "AtomicUMax", "AtomicAnd", "AtomicOr", "AtomicXor", "AtomicFAddEXT",
                            "AtomicFMinEXT", "AtomicFMaxEXT"))


def use_index(m: SpirvTranslator) -> tuple[dict, dict]:
    """(id -> instructions using it, function id -> its parameter ids), built once per module."""
    cached = getattr(m, "_pointee_index", None)
    if cached is None:
        uses: dict[int, list] = defaultdict(list)
        params: dict[int, list[int]] = {}
        current = None
        for inst in m.spv.instructions:
            if inst.name == "Function":
                current = inst.operands[1]
                params[current] = []
            elif inst.name == "FunctionParameter" and current is not None:
                params[current].append(inst.operands[1])
            elif current is not None:
                for op in inst.operands:
                    uses[op].append(inst)
        cached = m._pointee_index = (uses, params)
    return cached


def walk_uses(m: SpirvTranslator, start: int, step: Callable[[Instruction, int, Callable[[int], None]], bool]) -> bool:
    """Visit each instruction using ``start`` or a value it flows into: ``step(inst, value, follow)`` calls
    ``follow(id)`` for the values ``inst`` passes ``value`` on to, and returns False to stop the walk (then
    walk_uses returns False). A call of a defined function passes the value on to the callee's parameter."""
    uses, params = use_index(m)
    work, seen = [start], {start}

    def follow(value: int) -> None:
        if value not in seen:
            seen.add(value)
            work.append(value)

    while work:
        value = work.pop()
        for inst in uses.get(value, ()):
            ops = inst.operands
            if inst.name == "FunctionCall" and len(ops) > 2 and params.get(ops[2]):
                callee_params = params[ops[2]]
                for k, arg in enumerate(ops[3:]):
                    if arg == value and k < len(callee_params):
                        follow(callee_params[k])
            elif not step(inst, value, follow):
                return False
    return True


def accessed_pointee(m: SpirvTranslator, pid: int) -> int | None:
    """The SPIR-V type id every memory access through parameter ``pid`` uses, if there is one."""
    byte_type = m.types.pointee(m.value_types[pid])
    accessed: set[int] = set()

    def step(inst: Instruction, value: int, follow: Callable[[int], None]) -> bool:
        ops = inst.operands
        if inst.name not in ("Store", "AtomicStore") and len(ops) > 1 and ops[1] == value:
            return True   # the instruction defining ``value``
        if inst.name in _FORWARDS and len(ops) > 2 and value in ops[2:]:
            follow(ops[1])
        elif inst.name in _ACCESS_RESULT and len(ops) > 2 and ops[2] == value:
            accessed.add(ops[0])
        elif inst.name in ("Store", "AtomicStore") and ops and ops[0] == value:
            stored = ops[1] if inst.name == "Store" else ops[3]
            if stored in m.value_types:
                accessed.add(m.value_types[stored])
        else:   # a use that says nothing sure of the element (memcpy, vloadn, stored as a value...)
            return False
        return True

    if not walk_uses(m, pid, step) or len(accessed) != 1:
        return None
    (tid,) = accessed
    return None if tid == byte_type else tid
