"""Facts about what a function reaches through its calls, memoised over the call graph."""

from __future__ import annotations

from collections.abc import Callable

from kernelkit.ir.instructions import CallInst
from kernelkit.ir.module import Function


def reachable_max(fn: Function, local: Callable[[CallInst], int | None], unknown: int,
                  memo: dict[int, int] | None = None) -> int:
    """Max of ``local(call)`` over every call ``fn`` makes directly or through defined callees.

    ``local`` returns a value for a call, or None to look into the callee. Indirect calls and
    recursion count as ``unknown``.
    """
    memo = {} if memo is None else memo
    key = id(fn)
    if key in memo:
        return memo[key]
    memo[key] = unknown  # a cycle back to fn counts as unknown
    best = 0
    for inst in fn.instructions():
        if not isinstance(inst, CallInst):
            continue
        value = local(inst)
        if value is None:
            callee = inst.called_function
            if callee is None:
                value = 0 if inst.callee.__class__.__name__ == "InlineAsm" else unknown
            elif callee.is_declaration:
                value = 0
            else:
                value = reachable_max(callee, local, unknown, memo)
        best = max(best, value)
        if best >= unknown:
            break
    memo[key] = best
    return best
