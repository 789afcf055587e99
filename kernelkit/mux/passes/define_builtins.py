"""Target-independent definitions of mux builtins that follow from others (opt-in late passes).

``define_linear_ids``: ``__mux_get_global_linear_id`` / ``__mux_get_local_linear_id`` by the
formulas of spec 003 "Builtins". ``define_trivial_sub_groups``: every sub-group builtin for the
spec's "trivial" sub-group size of 1 ("ComputeMux only defines these builtins with a trivial
sub-group size of 1"), for targets that have no hardware sub-groups. Run them before
``add_scheduling_parameters`` (they call the builtins they are defined with).
"""

from __future__ import annotations

import math

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Function, Module
from kernelkit.ir.values import ConstantFP, ConstantInt, Value
from kernelkit.mux.builtins import parse_group_builtin

DEFINITION_ATTRIBUTES = ("alwaysinline", "nounwind")


def _start(fn: Function, linkage: str) -> IRBuilder:
    fn.linkage = linkage
    fn.attributes = list(DEFINITION_ATTRIBUTES) + (["convergent"] if "convergent" in fn.attributes else [])
    return IRBuilder(fn.append_block("entry"))


def _query(module: Module, b: IRBuilder, name: str, size_t: T.Type, dim: int | None = None) -> Value:
    params = () if dim is None else (T.i32,)
    callee = module.get_function(name)
    if callee is None:
        callee = module.declare_function(name, T.FunctionType(size_t, params))
        callee.attributes = ["nounwind"]
    elif callee.function_type.params != params:
        raise ValueError(f"@{name} has type {callee.function_type}; expected parameters {params}")
    return b.call(callee, [] if dim is None else [ConstantInt(T.i32, dim)])


def define_linear_ids(module: Module, linkage: str = "internal") -> list[str]:
    defined = []
    for name in ("__mux_get_global_linear_id", "__mux_get_local_linear_id"):
        fn = module.get_function(name)
        if fn is None or not fn.is_declaration or fn.args:
            continue
        size_t = fn.return_type
        b = _start(fn, linkage)
        if name == "__mux_get_global_linear_id":
            ids = [b.sub(_query(module, b, "__mux_get_global_id", size_t, d),
                         _query(module, b, "__mux_get_global_offset", size_t, d)) for d in range(3)]
            sizes = [_query(module, b, "__mux_get_global_size", size_t, d) for d in range(2)]
        else:
            ids = [_query(module, b, "__mux_get_local_id", size_t, d) for d in range(3)]
            sizes = [_query(module, b, "__mux_get_local_size", size_t, d) for d in range(2)]
        # id2 * size1 * size0 + id1 * size0 + id0
        plane = b.mul(sizes[1], sizes[0])
        total = b.add(b.add(b.mul(ids[2], plane), b.mul(ids[1], sizes[0])), ids[0])
        b.ret(total)
        defined.append(name)
    return defined


def identity(op: str, ty: T.Type) -> Value:
    """The identity of a group operation (exclusive scans start from it)."""
    if isinstance(ty, T.FloatType):
        value = {"fadd": 0.0, "fmul": 1.0, "fmin": math.inf, "fmax": -math.inf}[op]
        return ConstantFP(ty, value)
    assert isinstance(ty, T.IntType)
    bits = ty.bits
    value = {"add": 0, "mul": 1, "smin": (1 << (bits - 1)) - 1, "umin": -1, "smax": -(1 << (bits - 1)),
             "umax": 0, "and": -1, "or": 0, "xor": 0, "logical_and": 1, "logical_or": 0,
             "logical_xor": 0}[op]
    return ConstantInt(ty, 1 if value == -1 and bits == 1 else value)


def _define_sub_group_op(module: Module, fn: Function, kind: str, linkage: str) -> None:
    b = _start(fn, linkage)
    args = fn.args
    if kind.startswith("scan_exclusive_"):
        b.ret(identity(kind[len("scan_exclusive_"):], fn.return_type))
    elif kind == "shuffle_up":       # (prev, curr, delta): index 0 - delta; 0 -> curr, -1 -> prev
        b.ret(b.select(b.icmp("eq", args[2], ConstantInt(T.i32, 0)), args[1], args[0]))
    elif kind == "shuffle_down":     # (curr, next, delta): index 0 + delta; 0 -> curr, 1 -> next
        b.ret(b.select(b.icmp("eq", args[2], ConstantInt(T.i32, 0)), args[0], args[1]))
    else:  # any/all/broadcast/reduce/inclusive scan/shuffle/shuffle_xor: the invocation's own value
        b.ret(args[0])


def define_trivial_sub_groups(module: Module, linkage: str = "internal") -> list[str]:
    from kernelkit.mux.passes.kernel_attributes import module_pointer_size

    size_t = T.i64 if module_pointer_size(module) == 8 else T.i32
    defined = []
    for fn in list(module.functions):
        if not fn.is_declaration:
            continue
        name = fn.name
        builtin = parse_group_builtin(name)
        if builtin is not None and builtin.scope == "sub":
            _define_sub_group_op(module, fn, builtin.kind, linkage)
        elif name in ("__mux_get_sub_group_size", "__mux_get_max_sub_group_size"):
            _start(fn, linkage).ret(ConstantInt(T.i32, 1))
        elif name == "__mux_get_sub_group_local_id":
            _start(fn, linkage).ret(ConstantInt(T.i32, 0))
        elif name in ("__mux_get_sub_group_id", "__mux_get_num_sub_groups"):
            # one invocation per sub-group: ids are local linear ids, the count is the group size
            b = _start(fn, linkage)
            if name == "__mux_get_sub_group_id":
                value = _query(module, b, "__mux_get_local_linear_id", size_t)
            else:
                sizes = [_query(module, b, "__mux_get_local_size", size_t, d) for d in range(3)]
                value = b.mul(b.mul(sizes[0], sizes[1]), sizes[2])
            b.ret(b.int_resize(value, T.i32))
        elif name == "__mux_sub_group_barrier":
            b = _start(fn, linkage)
            fence = module.declare_function("__mux_mem_barrier", T.FunctionType(T.void, (T.i32, T.i32)))
            if not fence.attributes:
                fence.attributes = ["nounwind"]
            b.call(fence, [fn.args[1], fn.args[2]])
            b.ret_void()
        else:
            continue
        defined.append(name)
    return defined
