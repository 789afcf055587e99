"""Give ``__mux_dma_event_t`` a concrete type (spec 003 "Builtins": the event may be any type the
implementation chooses, used consistently across the module, and may change during compilation).

The front end types OpenCL's ``event_t`` as ``target("spirv.Event")``, which no CPU or GPU back
end can lower. ``retype_dma_events`` rewrites every value, constant, alloca, parameter, return
and call of that type to ``new_type`` (kernelkit's default: ``ptr``, an opaque pointer).
"""

from __future__ import annotations

from kernelkit.ir import types as T
from kernelkit.ir.module import Module
from kernelkit.ir.values import (
    Constant,
    ConstantAggregate,
    ConstantInt,
    ConstantSimple,
    Value,
    walk_constant_operands,
)

OPENCL_EVENT_TYPE = T.TargetExtType("spirv.Event")
DEFAULT_EVENT_TYPE: T.Type = T.pointer(0)


def _swap(ty: T.Type, old: T.Type, new: T.Type) -> T.Type:
    """``ty`` with ``old`` replaced by ``new`` inside it (functions, arrays, vectors, literal structs)."""
    if ty == old:
        return new
    if isinstance(ty, T.FunctionType):
        return T.FunctionType(_swap(ty.return_type, old, new), tuple(_swap(p, old, new) for p in ty.params),
                              ty.vararg)
    if isinstance(ty, T.ArrayType):
        return T.ArrayType(_swap(ty.element, old, new), ty.count)
    if isinstance(ty, T.LiteralStructType):
        return T.LiteralStructType(tuple(_swap(e, old, new) for e in ty.elements), ty.packed)
    if isinstance(ty, T.NamedStructType) and ty.elements is not None and any(
            _swap(e, old, new) != e for e in ty.elements):
        ty.elements = tuple(_swap(e, old, new) for e in ty.elements)  # named: identity kept, body changed
    return ty


def _retype_constant(c: Constant, old: T.Type, new: T.Type) -> Value:
    target = _swap(c.type, old, new)
    if isinstance(c, ConstantSimple) and c.keyword in ("zeroinitializer", "null"):
        if isinstance(target, T.PointerType):
            return ConstantSimple(target, "null")
        if isinstance(target, T.IntType):
            return ConstantInt(target, 0)
        return ConstantSimple(target, "zeroinitializer")
    if isinstance(c, ConstantSimple):
        return ConstantSimple(target, c.keyword)  # undef / poison
    if isinstance(c, ConstantAggregate):
        c.set_operands([_retype_constant(op, old, new) if isinstance(op, Constant) and _contains(op.type, old)
                        else op for op in list(c.operands)])
        c.type = target
        return c
    raise ValueError(f"cannot retype constant {c!r} of type {c.type}")


def _contains(ty: T.Type, old: T.Type) -> bool:
    return ty == old or _swap(ty, old, T.void) != ty


def retype_dma_events(module: Module, new_type: T.Type = DEFAULT_EVENT_TYPE,
                      old_type: T.Type = OPENCL_EVENT_TYPE) -> int:
    """Rewrite ``old_type`` to ``new_type`` everywhere; returns how many values changed."""
    if new_type == old_type:
        return 0
    changed = 0
    for fn in module.functions:
        fty = _swap(fn.function_type, old_type, new_type)
        if fty != fn.function_type:
            fn.function_type = fty
            for arg in fn.args:
                if _contains(arg.type, old_type):
                    arg.type = _swap(arg.type, old_type, new_type)
                    changed += 1
        for inst in fn.instructions():
            if _contains(inst.type, old_type):
                inst.type = _swap(inst.type, old_type, new_type)
                changed += 1
            for attr in ("allocated_type", "source_type", "function_type"):
                ty = getattr(inst, attr, None)
                if ty is not None and _contains(ty, old_type):
                    setattr(inst, attr, _swap(ty, old_type, new_type))
                    changed += 1
            for i, op in enumerate(inst.operands):
                if isinstance(op, Constant) and _contains(op.type, old_type):
                    inst.set_operand(i, _retype_constant(op, old_type, new_type))
                    changed += 1
                elif isinstance(op, Constant) and any(
                        _contains(v.type, old_type) for v in walk_constant_operands(op) if v is not op):
                    raise ValueError(f"@{fn.name}: event constant inside {op!r} cannot be retyped")
    for var in module.globals:
        if _contains(var.value_type, old_type):
            raise ValueError(f"@{var.name}: a global event_t variable cannot be retyped")
    return changed
