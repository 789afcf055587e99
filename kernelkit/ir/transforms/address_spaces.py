"""Flatten address spaces: every pointer in one of the given address spaces becomes a pointer in
address space 0, for targets whose memories are all one flat memory (the host CPU).

Types are rewritten everywhere they occur (values, globals, function and call signatures,
allocas, GEP source types, named struct bodies, constants, type-carrying attributes such as
``byval(<ty>)``); ``addrspacecast`` becomes ``bitcast`` (between equal types now); overloaded
intrinsics are renamed to their flat mangling (``llvm.memcpy.p1.p0.i64`` -> ``llvm.memcpy.p0.p0.i64``)
and declarations that now coincide are merged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.module import Function, GlobalAlias, GlobalVariable, Module
from kernelkit.ir.transforms.type_map import StructuralTypeMap
from kernelkit.ir.values import Constant, ConstantExpr, Value

_MANGLED_SPACE = re.compile(r"\.p(\d+)(?=\.|$)")


class _TypeMap(StructuralTypeMap):
    def __init__(self, spaces: frozenset[int]) -> None:
        super().__init__()
        self.spaces = spaces

    def leaf(self, ty: T.Type) -> T.Type | None:
        if isinstance(ty, T.PointerType):
            return T.ptr if ty.addrspace in self.spaces else ty
        return None


def flatten_address_spaces(module: Module, spaces: Iterable[int]) -> None:
    """Rewrite ``module`` in place so that address spaces ``spaces`` become address space 0."""
    tmap = _TypeMap(frozenset(spaces))
    seen_constants: set[int] = set()

    def value(v: Value) -> None:
        v.type = tmap(v.type)

    def constant(c: Value) -> None:
        stack = [c]
        while stack:
            k = stack.pop()
            if id(k) in seen_constants or isinstance(k, GlobalVariable | Function | GlobalAlias):
                continue
            seen_constants.add(id(k))
            value(k)
            if isinstance(k, ConstantExpr):
                if k.opcode == "addrspacecast":
                    k.opcode = "bitcast"
                if k.source_type is not None:
                    k.source_type = tmap(k.source_type)
            stack.extend(getattr(k, "operands", ()))

    for st in module.struct_types.values():
        tmap(st)
    for g in [*module.globals, *module.aliases, *module.functions]:
        if g.addrspace in tmap.spaces:
            g.addrspace = 0
        value(g)
        if isinstance(g, GlobalVariable | GlobalAlias):
            g.value_type = tmap(g.value_type)
        for op in g.operands:
            constant(op)
    for f in module.functions:
        f.function_type = tmap(f.function_type)
        f.return_attributes = tmap.attributes(f.return_attributes)
        for a in f.args:
            value(a)
            a.attributes = tmap.attributes(a.attributes)
        for inst in f.instructions():
            _instruction(inst, tmap, constant)
    _rename_intrinsics(module, tmap.spaces)


def _instruction(inst: I.Instruction, tmap: _TypeMap, constant) -> None:
    inst.type = tmap(inst.type)
    if isinstance(inst, I.AllocaInst):
        inst.allocated_type = tmap(inst.allocated_type)
        if inst.addrspace in tmap.spaces:
            inst.addrspace = 0
    elif isinstance(inst, I.GetElementPtrInst):
        inst.source_type = tmap(inst.source_type)
    elif isinstance(inst, I.CallInst):
        inst.function_type = tmap(inst.function_type)
        inst.return_attributes = tmap.attributes(inst.return_attributes)
        inst.arg_attributes = [tmap.attributes(a) for a in inst.arg_attributes]
    elif isinstance(inst, I.CastInst) and inst.opcode == "addrspacecast":
        inst.opcode = "bitcast"
    for op in inst.operands:
        if isinstance(op, Constant):
            constant(op)


def _rename_intrinsics(module: Module, spaces: frozenset[int]) -> None:
    by_name = {f.name: f for f in module.functions}
    for f in list(module.functions):
        if not f.name.startswith("llvm.") or not _MANGLED_SPACE.search(f.name):
            continue
        flat = _MANGLED_SPACE.sub(lambda m: ".p0" if int(m.group(1)) in spaces else m.group(0), f.name)
        if flat == f.name:
            continue
        other = by_name.get(flat)
        if other is None:
            del by_name[f.name]
            f.name = flat
            by_name[flat] = f
        else:   # e.g. llvm.memcpy.p1.p0 and llvm.memcpy.p0.p0: one function now
            f.replace_all_uses_with(other)
            module.remove_function(f)
