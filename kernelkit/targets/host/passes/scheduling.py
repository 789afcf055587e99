"""Add the scheduling parameters (spec 003 AddSchedulingParametersPass, ``!mux_scheduled_fn``,
``!mux-scheduling-params``) to every function of a host module.

Each definition gets two trailing parameters, ``ptr %kk.wi`` (MuxWorkItemInfo) and ``ptr %kk.wg``
(MuxWorkGroupInfo), and every call to a defined function or to a host-defined builtin passes
them on. The metadata records their indices. Runs on :mod:`kernelkit.ir`.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import Argument, Module
from kernelkit.ir.transforms.editing import append_call_args
from kernelkit.ir.values import ConstantInt
from kernelkit.targets.host.sched import SCHEDULING_PARAMS, WG_PARAM, WI_PARAM


def add_scheduling_parameters(module: Module, extra_callees: set[str], scheduled: set[str] = frozenset()) -> None:
    """Give every definition (except ``scheduled``, which already take them) the two parameters;
    calls to definitions and to ``extra_callees`` pass them (declarations of those grow to match)."""
    defined = [f for f in module.functions if not f.is_declaration and f.name not in scheduled]
    callees = {f.name for f in defined} | set(extra_callees)
    nodes: dict[int, MDNode] = {}
    params: dict[int, tuple[Argument, Argument]] = {}
    for f in defined:
        n = len(f.args)
        wi = Argument(T.ptr, WI_PARAM[1:], 0, ["noalias"])
        wg = Argument(T.ptr, WG_PARAM[1:], 0, ["noalias"])
        old = f.function_type
        f.set_signature(T.FunctionType(old.return_type, (*old.params, T.ptr, T.ptr), old.vararg), [*f.args, wi, wg])
        params[id(f)] = (wi, wg)
        # !mux_scheduled_fn: indices of the work-item and work-group info parameters
        if n not in nodes:
            nodes[n] = MDNode([ValueAsMetadata(ConstantInt(T.i32, n)), ValueAsMetadata(ConstantInt(T.i32, n + 1))])
        f.metadata["mux_scheduled_fn"] = nodes[n]
    for f in defined:
        wi, wg = params[id(f)]
        for inst in f.instructions():
            if isinstance(inst, I.CallInst):
                callee = inst.called_function
                if callee is not None and callee.name in callees:
                    append_call_args(inst, (wi, wg))
    for f in module.functions:
        if f.is_declaration and f.name in extra_callees:
            old = f.function_type
            f.set_signature(T.FunctionType(old.return_type, (*old.params, T.ptr, T.ptr), old.vararg),
                            [*f.args, Argument(T.ptr), Argument(T.ptr)])
    module.add_named_metadata("mux-scheduling-params", [MDNode([MDString(p) for p in SCHEDULING_PARAMS])])
