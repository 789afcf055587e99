"""``mux-no-subgroups`` (spec 003 "Function Attributes"): set on every defined function that
neither calls a mux sub-group builtin nor reaches one through its callees."""

from __future__ import annotations

from kernelkit.ir.instructions import CallInst
from kernelkit.ir.module import Module
from kernelkit.mux.attributes import remove_attribute, set_attribute
from kernelkit.mux.builtins import uses_sub_groups
from kernelkit.mux.names import ATTR_NO_SUBGROUPS
from kernelkit.mux.passes.callgraph import reachable_max


def _sub_group_use(call: CallInst) -> int | None:
    callee = call.called_function
    if callee is None or not callee.is_declaration:
        return None
    return 1 if uses_sub_groups(callee.name) else 0


def mark_no_subgroups(module: Module) -> int:
    """Set or clear the attribute on every definition; returns how many carry it."""
    memo: dict[int, int] = {}
    count = 0
    for fn in module.functions:
        if fn.is_declaration:
            continue
        if reachable_max(fn, _sub_group_use, 1, memo):
            remove_attribute(fn, ATTR_NO_SUBGROUPS)
        else:
            set_attribute(fn, ATTR_NO_SUBGROUPS)
            count += 1
    return count
