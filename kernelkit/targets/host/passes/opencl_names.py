"""OpenCL work-item functions that may reach the host target unlowered, and their mux builtins.

The mux pipeline lowers OpenCL builtins to ``__mux_*``; these forwarding definitions only
catch what a module still calls by its OpenCL name (e.g. IR handed straight to the target).
"""

from __future__ import annotations

from collections.abc import Callable

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Module
from kernelkit.ir.values import Value
from kernelkit.targets.host.builtins import BARRIER_SCOPE_WORK_GROUP as BARRIER_SCOPE
from kernelkit.targets.host.builtins import BARRIER_SEMANTICS_DEFAULT as BARRIER_SEMANTICS

# OpenCL C 3.0 s6.15.1 work-item functions (SPIR mangling, size_t = ulong) -> __mux builtin
WORK_ITEM_FUNCTIONS: dict[str, str] = {
    "_Z13get_global_idj": "__mux_get_global_id",
    "_Z12get_local_idj": "__mux_get_local_id",
    "_Z12get_group_idj": "__mux_get_group_id",
    "_Z15get_global_sizej": "__mux_get_global_size",
    "_Z14get_local_sizej": "__mux_get_local_size",
    "_Z14get_num_groupsj": "__mux_get_num_groups",
    "_Z17get_global_offsetj": "__mux_get_global_offset",
    "_Z23get_enqueued_local_sizej": "__mux_get_enqueued_local_size",
}
NO_ARG_FUNCTIONS: dict[str, tuple[str, str]] = {
    "_Z12get_work_dimv": ("i32", "__mux_get_work_dim"),
    "_Z20get_global_linear_idv": ("i64", "__mux_get_global_linear_id"),
    "_Z19get_local_linear_idv": ("i64", "__mux_get_local_linear_id"),
}
# barrier(flags) / work_group_barrier(flags[, scope]) / mem_fence(flags): OpenCL C 3.0 s6.15.9, s6.15.11
BARRIERS = ("_Z7barrierj", "_Z18work_group_barrierj", "_Z18work_group_barrierj12memory_scope")
FENCES = ("_Z9mem_fencej", "_Z14read_mem_fencej", "_Z15write_mem_fencej")


def _forwarder(module: Module, name: str, ret: T.Type, params: tuple[T.Type, ...], mux: str,
               mux_args: Callable[[list[Value]], list[Value]]) -> None:
    """``name(params..., wi, wg)`` returning ``mux(mux_args(params)..., wi, wg)``."""
    f = module.declare_function(name, T.FunctionType(ret, (*params, T.ptr, T.ptr)))
    f.linkage, f.attributes = "internal", ["alwaysinline"]
    *own, wi, wg = f.args
    wi.name, wg.name = "wi", "wg"
    args = [*mux_args(own), wi, wg]
    callee = module.declare_function(mux, T.FunctionType(ret, tuple(a.type for a in args)))
    b = IRBuilder(f.append_block("entry"))
    r = b.call(callee, args, "" if ret.is_void else "r")
    b.ret(None if ret.is_void else r)


def forwarding_definitions(names: set[str]) -> tuple[Module, set[str], set[str]]:
    """(module of definitions, names defined, mux builtins needed) for the OpenCL names among ``names``;
    link the module into the kernel's (``kernelkit.ir.transforms.link.link_into``)."""
    module, defined, needs = Module(), set(), set()
    i32 = T.i32
    for name in sorted(names):
        if name in WORK_ITEM_FUNCTIONS:
            mux = WORK_ITEM_FUNCTIONS[name]
            _forwarder(module, name, T.i64, (i32,), mux, lambda a: a)
        elif name in NO_ARG_FUNCTIONS:
            ty, mux = NO_ARG_FUNCTIONS[name]
            _forwarder(module, name, T.i64 if ty == "i64" else i32, (), mux, lambda a: a)
        elif name in BARRIERS:
            mux = "__mux_work_group_barrier"
            params = (i32, i32) if name.endswith("memory_scope") else (i32,)
            _forwarder(module, name, T.void, params, mux,
                       lambda a: [const(i32, 0), const(i32, BARRIER_SCOPE), const(i32, BARRIER_SEMANTICS)])
        elif name in FENCES:
            mux = "__mux_mem_barrier"
            _forwarder(module, name, T.void, (i32,), mux,
                       lambda a: [const(i32, BARRIER_SCOPE), const(i32, BARRIER_SEMANTICS)])
        else:
            continue
        defined.add(name)
        needs.add(mux)
    return module, defined, needs
