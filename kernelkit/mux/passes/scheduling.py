"""AddSchedulingParametersPass (spec 003 "Metadata": ``!mux_scheduled_fn``, ``!mux-scheduling-params``).

A target names the parameters it passes explicitly (e.g. pointers to its work-item and
work-group state). Every function that calls a mux builtin depending on the work-item being run,
directly or through other functions, gets those parameters appended; so do the builtin
declarations, and every call passes the caller's own. ``!mux-scheduling-params`` lists the names,
and each changed function's ``!mux_scheduled_fn`` gives, for each listed parameter in order, its
index in the function's parameter list (-1: absent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kernelkit.ir import types as T
from kernelkit.ir.instructions import CallInst
from kernelkit.ir.metadata import MDNode, MDString
from kernelkit.ir.module import Function, Module
from kernelkit.ir.transforms import add_parameters
from kernelkit.ir.values import poison
from kernelkit.mux.builtins import MUX_BUILTINS_WITHOUT_SCHEDULING, is_mux_builtin
from kernelkit.mux.names import MD_SCHEDULED_FN, MD_SCHEDULING_PARAMS
from kernelkit.mux.passes.kernel_attributes import md_i32_tuple


@dataclass(frozen=True)
class SchedulingParameter:
    name: str                                 # e.g. "MuxWorkItemInfo"
    type: T.Type = T.pointer(0)
    attributes: tuple[str, ...] = ("noalias", "nonnull")


def needs_scheduling(name: str) -> bool:
    return is_mux_builtin(name) and name not in MUX_BUILTINS_WITHOUT_SCHEDULING


def _functions_needing(module: Module) -> list[Function]:
    """Scheduled builtin declarations, then every definition reaching one (transitive callers)."""
    needing: dict[int, Function] = {}
    work: list[Function] = []
    for fn in module.functions:
        if fn.is_declaration and needs_scheduling(fn.name) and fn.uses:
            needing[id(fn)] = fn
            work.append(fn)
    while work:
        callee = work.pop()
        for use in callee.uses:
            call = use.user
            if not isinstance(call, CallInst) or use.index != 0 or call.function is None:
                continue
            caller = call.function
            if id(caller) not in needing:
                needing[id(caller)] = caller
                work.append(caller)
    return [fn for fn in module.functions if id(fn) in needing]


def add_scheduling_parameters(module: Module, params: Sequence[SchedulingParameter]) -> list[Function]:
    """Append ``params`` to every function that needs them; returns the changed functions."""
    if not params:
        return []
    if len(params) > 4:
        raise ValueError("!mux_scheduled_fn holds at most 4 scheduling parameter indices")
    names = [p.name for p in params]
    existing = module.named_metadata.get(MD_SCHEDULING_PARAMS)
    if existing:
        raise ValueError(f"module already has !{MD_SCHEDULING_PARAMS}; scheduling parameters were added before")
    changed = _functions_needing(module)
    first_index: dict[int, int] = {}
    for fn in changed:
        first_index[id(fn)] = len(fn.args)
        add_parameters(fn, [(p.type, p.name) for p in params], [list(p.attributes) for p in params],
                       call_args=lambda call: [poison(p.type) for p in params])
    # every call into a changed function now passes the caller's own parameters
    for fn in changed:
        if fn.is_declaration:
            continue
        mine = fn.args[first_index[id(fn)]:]
        for inst in fn.instructions():
            if isinstance(inst, CallInst) and id(inst.callee) in first_index:
                callee = inst.callee
                start = 1 + first_index[id(callee)]
                for k, arg in enumerate(mine):
                    inst.set_operand(start + k, arg)
        fn.metadata[MD_SCHEDULED_FN] = md_i32_tuple([first_index[id(fn)] + k for k in range(len(params))])
    module.add_named_metadata(MD_SCHEDULING_PARAMS, [MDNode([MDString(n) for n in names])])
    return changed


def scheduled_parameter_indices(fn: Function) -> list[int] | None:
    """The ``!mux_scheduled_fn`` indices of ``fn`` (None when it has none)."""
    from kernelkit.ir.metadata import md_int_values

    node = fn.metadata.get(MD_SCHEDULED_FN)
    return None if node is None else [v if v is not None else -1 for v in md_int_values(node)]
