"""OpenCL C builtins -> spec 003 ``__mux_*`` builtins (target independent).

Recognised by demangling the callee's name (``kernelkit.mux.mangling``): work-item queries,
barriers and fences (with the spec's scope/semantics encoding), async copies (DMA), and
work-group/sub-group collectives. Each call is replaced in place; the OpenCL declaration is
removed once unused. Barrier ids are unique per module (what PrepareBarriersPass guarantees).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from kernelkit.abi.opencl_types import value_size
from kernelkit.ir import types as T
from kernelkit.ir.instructions import (
    BinaryOp,
    CallInst,
    CastInst,
    CompareInst,
    GetElementPtrInst,
    Instruction,
)
from kernelkit.ir.module import Function, Module
from kernelkit.ir.values import ConstantInt, Value
from kernelkit.mux.builtins import (
    OPENCL_WORK_ITEM_BUILTINS,
    GroupBuiltin,
    builtin_type,
    group_builtin_type,
    mux_group_operation,
    parse_opencl_group_function,
    type_suffix,
)
from kernelkit.mux.mangling import OclType, try_demangle
from kernelkit.mux.names import (
    FENCE_FLAG_SEMANTICS,
    OPENCL_ORDER_TO_MUX,
    OPENCL_SCOPE_TO_MUX,
    MemScope,
    MemSemantics,
)

CONVERGENT_BUILTIN_ATTRIBUTES = ("convergent", "nounwind")
PLAIN_BUILTIN_ATTRIBUTES = ("nounwind",)


@dataclass
class LoweringState:
    module: Module
    next_barrier_id: int = 0
    lowered: dict[str, int] = field(default_factory=dict)  # OpenCL name -> calls replaced

    def barrier_id(self) -> ConstantInt:
        value = ConstantInt(T.i32, self.next_barrier_id)
        self.next_barrier_id += 1
        return value

    def declare(self, name: str, fty: T.FunctionType, convergent: bool = False) -> Function:
        existing = self.module.get_function(name)
        if existing is not None:
            if existing.function_type != fty:
                raise ValueError(f"@{name} is declared as {existing.function_type}, lowering needs {fty}")
            return existing
        fn = self.module.declare_function(name, fty)
        fn.attributes = list(CONVERGENT_BUILTIN_ATTRIBUTES if convergent else PLAIN_BUILTIN_ATTRIBUTES)
        return fn


def _i32(v: int) -> ConstantInt:
    return ConstantInt(T.i32, v)


def _insert(inst: Instruction, before: Instruction) -> Instruction:
    inst.insert_before(before)
    return inst


def _call(state: LoweringState, name: str, fty: T.FunctionType, args: list[Value], before: CallInst,
          convergent: bool = False) -> CallInst:
    fn = state.declare(name, fty, convergent)
    call = CallInst(fty, fn, args)
    if convergent:
        call.attributes = list(CONVERGENT_BUILTIN_ATTRIBUTES)
    return _insert(call, before)  # type: ignore[return-value]


def _replace(old: CallInst, new: Value | None) -> None:
    if new is not None and old.uses:
        if new.type != old.type:
            raise ValueError(f"lowered value has type {new.type}, the call had {old.type}")
        new.name, old.name = old.name, ""
        old.replace_all_uses_with(new)
    old.erase()


def _const(value: Value) -> int | None:
    return value.value if isinstance(value, ConstantInt) else None


def _fence_semantics(flags: Value) -> MemSemantics:
    """cl_mem_fence_flags -> memory bits; an unknown (non-constant) value fences all memory."""
    v = _const(flags)
    if v is None:
        return MemSemantics.WORK_GROUP_MEMORY | MemSemantics.CROSS_WORK_GROUP_MEMORY
    out = MemSemantics(0)
    for bit, sem in FENCE_FLAG_SEMANTICS.items():
        if v & bit:
            out |= sem
    return out


def _scope(value: Value, default: MemScope) -> MemScope:
    v = _const(value)
    return OPENCL_SCOPE_TO_MUX.get(v, default) if v is not None else default


# -- handlers: (state, call, OpenCL name, demangled parameter types) -> replacement or None -----------

def _work_item(state: LoweringState, call: CallInst, name: str, params: list[OclType]) -> Value | None:
    mux = OPENCL_WORK_ITEM_BUILTINS[name]
    expected = builtin_type(mux, call.type)  # size_t results: the call's own type
    fty = T.FunctionType(call.type, tuple(a.type for a in call.args))
    if fty != expected:
        raise ValueError(f"{name} is called as {fty}, {mux} is {expected}")
    return _call(state, mux, fty, list(call.args), call)


def _barrier(state: LoweringState, call: CallInst, name: str, params: list[OclType]) -> Value | None:
    args = call.args
    sub = name == "sub_group_barrier"
    default_scope = MemScope.SUB_GROUP if sub else MemScope.WORK_GROUP
    scope = _scope(args[1], default_scope) if len(args) > 1 else default_scope
    semantics = MemSemantics.SEQUENTIALLY_CONSISTENT | _fence_semantics(args[0])
    mux = "__mux_sub_group_barrier" if sub else "__mux_work_group_barrier"
    _call(state, mux, builtin_type(mux, T.i64), [state.barrier_id(), _i32(scope), _i32(int(semantics))],
          call, convergent=True)
    return None


def _fence(state: LoweringState, call: CallInst, name: str, params: list[OclType]) -> Value | None:
    args = call.args
    scope = MemScope.WORK_GROUP
    order = {"mem_fence": MemSemantics.ACQUIRE_RELEASE, "read_mem_fence": MemSemantics.ACQUIRE,
             "write_mem_fence": MemSemantics.RELEASE}.get(name, MemSemantics.SEQUENTIALLY_CONSISTENT)
    if name == "atomic_work_item_fence":
        o = _const(args[1])
        order = OPENCL_ORDER_TO_MUX.get(o, order) if o is not None else order
        scope = _scope(args[2], scope)
    semantics = order | _fence_semantics(args[0])
    _call(state, "__mux_mem_barrier", builtin_type("__mux_mem_barrier", T.i64),
          [_i32(scope), _i32(int(semantics))], call)
    return None


def _element_bytes(t: OclType) -> int:
    """Size of the pointee of an async copy (3-vectors occupy 4 elements, OpenCL C §6.1.5)."""
    pointee = t.element
    if pointee is None:
        raise ValueError(f"{t} is not a pointer")
    if pointee.kind in ("vector", "scalar"):
        return value_size(pointee.scalar_name, pointee.width)
    raise ValueError(f"async copy of {pointee} is not supported")


def _as_pointer(state: LoweringState, value: Value, addrspace: int, before: CallInst) -> Value:
    if isinstance(value.type, T.PointerType) and value.type.addrspace != addrspace:
        return _insert(CastInst(T.pointer(addrspace), "addrspacecast", (value,)), before)
    return value


def _mul(value: Value, factor: int, before: CallInst) -> Value:
    if factor == 1:
        return value
    if isinstance(value, ConstantInt):
        return ConstantInt(value.type, value.value * factor)
    return _insert(BinaryOp(value.type, "mul", (value, ConstantInt(value.type, factor))), before)


def _async_copy(state: LoweringState, call: CallInst, name: str, params: list[OclType]) -> Value | None:
    args = call.args
    if name == "prefetch":  # a hint without effect on results (OpenCL C 3.0 §6.15.11)
        return None
    if name == "wait_group_events":
        events = _as_pointer(state, args[1], 0, call)
        _call(state, "__mux_dma_wait", builtin_type("__mux_dma_wait", T.i64), [args[0], events], call,
              convergent=True)
        return None
    if name in ("async_work_group_copy_2D2D", "async_work_group_copy_3D3D"):
        return _async_copy_lines(state, call, name, params)
    dst, src, count = args[0], args[1], args[2]
    event = args[-1]
    size_t = count.type
    esize = _element_bytes(params[0])
    read = params[0].address_space == 3
    direction = "read" if read else "write"
    dst = _as_pointer(state, dst, 3 if read else 1, call)
    src = _as_pointer(state, src, 1 if read else 3, call)
    if name == "async_work_group_copy":
        mux = f"__mux_dma_{direction}_1D"
        margs = [dst, src, _mul(count, esize, call), event]
    else:
        stride = _mul(args[3], esize, call)
        unit = ConstantInt(size_t, esize)
        mux = f"__mux_dma_{direction}_2D"
        dst_stride, src_stride = (unit, stride) if read else (stride, unit)
        margs = [dst, src, ConstantInt(size_t, esize), dst_stride, src_stride, count, event]
    return _call(state, mux, builtin_type(mux, size_t, event.type), margs, call, convergent=True)


def _async_copy_lines(state: LoweringState, call: CallInst, name: str, params: list[OclType]) -> Value | None:
    """cl_khr_extended_async_copies: offsets, line lengths and plane spacings count elements of
    ``num_bytes_per_element`` bytes; the mux builtins take bytes (spec 003 "Builtins")."""
    args = call.args
    read = params[0].address_space == 3
    direction = "read" if read else "write"
    esize = args[4]

    def nbytes(v: Value) -> Value:
        if isinstance(v, ConstantInt) and isinstance(esize, ConstantInt):
            return ConstantInt(v.type, v.value * esize.value)
        return _insert(BinaryOp(v.type, "mul", (v, esize)), call)

    def at(ptr: Value, offset: Value, addrspace: int) -> Value:
        ptr = _as_pointer(state, ptr, addrspace, call)
        return _insert(GetElementPtrInst(T.i8, ptr, [nbytes(offset)], flags=("inbounds",)), call)

    dst, src = at(args[0], args[1], 3 if read else 1), at(args[2], args[3], 1 if read else 3)
    width, lines, event = nbytes(args[5]), args[6], args[-1]
    size_t = args[5].type
    if name == "async_work_group_copy_2D2D":
        mux = f"__mux_dma_{direction}_2D"
        margs = [dst, src, width, nbytes(args[8]), nbytes(args[7]), lines, event]
    else:
        mux = f"__mux_dma_{direction}_3D"
        margs = [dst, src, width, nbytes(args[10]), nbytes(args[8]), lines, nbytes(args[11]), nbytes(args[9]),
                 args[7], event]
    return _call(state, mux, builtin_type(mux, size_t, event.type), margs, call, convergent=True)


def _group(state: LoweringState, call: CallInst, name: str, params: list[OclType]) -> Value | None:
    parsed = parse_opencl_group_function(name)
    assert parsed is not None
    scope, kind = parsed
    args = call.args
    lead: list[Value] = [state.barrier_id()] if scope == "work" else []
    if kind in ("all", "any"):
        pred = _insert(CompareInst("icmp", "ne", args[0], ConstantInt(args[0].type, 0)), call)
        builtin = GroupBuiltin(scope, kind, "i1")
        result = _call(state, builtin.name, group_builtin_type(builtin, T.i1, T.i64), [*lead, pred], call,
                       convergent=True)
        return _insert(CastInst(call.type, "zext", (result,)), call)
    value = args[0]
    if isinstance(value.type, T.VectorType):
        raise ValueError(f"{name} on vector values has no {scope}-group mux builtin")
    suffix = type_suffix(value.type)
    if kind == "broadcast":
        builtin = GroupBuiltin(scope, kind, suffix)
        if scope == "work":
            size_t = args[1].type
            ids = [*args[1:], *(ConstantInt(size_t, 0) for _ in range(4 - len(args)))]
            fty = group_builtin_type(builtin, value.type, size_t)
            return _call(state, builtin.name, fty, [*lead, value, *ids], call, convergent=True)
        lid = args[1]
        return _call(state, builtin.name, group_builtin_type(builtin, value.type, T.i64), [value, lid], call,
                     convergent=True)
    if kind.startswith("shuffle"):
        builtin = GroupBuiltin(scope, kind, suffix)
        fty = group_builtin_type(builtin, value.type, T.i64)
        margs = [value, value, args[1]] if kind in ("shuffle_up", "shuffle_down") else [value, args[1]]
        return _call(state, builtin.name, fty, margs, call, convergent=True)
    prefix = next(p for p in ("reduce", "scan_inclusive", "scan_exclusive") if kind.startswith(p + "_"))
    op = kind[len(prefix) + 1:]
    mux_kind = f"{prefix}_{mux_group_operation(op, params[0].scalar_name)}"
    builtin = GroupBuiltin(scope, mux_kind, suffix)
    return _call(state, builtin.name, group_builtin_type(builtin, value.type, T.i64), [*lead, value], call,
                 convergent=True)


Handler = Callable[[LoweringState, CallInst, str, list[OclType]], Value | None]


def _handler(name: str) -> Handler | None:
    from kernelkit.mux.builtins import OPENCL_ASYNC_COPIES, OPENCL_BARRIERS, OPENCL_FENCES

    if name in OPENCL_WORK_ITEM_BUILTINS:
        return _work_item
    if name in OPENCL_BARRIERS:
        return _barrier
    if name in OPENCL_FENCES:
        return _fence
    if name in OPENCL_ASYNC_COPIES:
        return _async_copy
    if parse_opencl_group_function(name) is not None:
        return _group
    return None


def lower_opencl_builtins(module: Module) -> dict[str, int]:
    """Replace every call of a recognised OpenCL builtin; returns ``{name: calls replaced}``."""
    state = LoweringState(module)
    for fn in list(module.functions):
        if not fn.is_declaration or not fn.name.startswith("_Z"):
            continue
        demangled = try_demangle(fn.name)
        if demangled is None:
            continue
        name, params = demangled
        handler = _handler(name)
        if handler is None:
            continue
        for call in [u for u in fn.users if isinstance(u, CallInst) and u.callee is fn]:
            _replace(call, handler(state, call, name, params))
            state.lowered[name] = state.lowered.get(name, 0) + 1
        if not fn.uses:
            module.remove_function(fn)
    return state.lowered
