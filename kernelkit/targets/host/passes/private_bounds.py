"""Checked mode: the object each pointer was derived from, tracked statically.

Every pointer value of a function (after everything is inlined into the kernels) gets a *shadow*:
three i64 values ``(base, end, object)`` — the address range of the ``alloca`` (private array,
struct temporary, by-value struct copy, scalar variable) or ``byval`` kernel argument it points
into, and the index of that object in the pass's object table (for the error message); likewise a kernel's
``__global``/``__constant`` pointer parameter, whose buffer is read at run time
(``kk_arg_bounds``), so a pointer made from one buffer may not stray into another, and a
program-scope variable (``__global``, ``__constant``, static ``__local``). The shadow
follows the pointer through ``getelementptr``, ``bitcast``/``addrspacecast`` (a generic pointer
made from a private one keeps its object), ``phi`` and ``select`` (which get shadow ``phi``s and
``select``s), and through *pointer variables*: an ``alloca`` holding a pointer that is only loaded
and stored as a whole (every pointer variable at ``-O0``) gets three shadow slots written with
each store and read with each load.

Any other pointer (a ``__local`` parameter, whose allocation is per thread; a pointer loaded from
memory; ``inttoptr``) has the shadow ``(0, 0, 0)``: its accesses are looked up in the launch's table
of buffers, and a private access through it is refused at run time (``kk_check``), since nothing
bounds it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import Argument, Function, GlobalVariable, Module
from kernelkit.ir.values import ConstantExpr, ConstantInt, Value, null

ZERO = ConstantInt(T.i64, 0)
ARGUMENT_PREFIX = "argument:"   # object description of a kernel's buffer parameter (the runtime names it)


def size_of(ty: T.Type) -> Value:
    """``sizeof(ty)`` as an i64 constant expression (folded by LLVM with the final data layout)."""
    end = ConstantExpr(T.ptr, "getelementptr", [null(T.ptr), ConstantInt(T.i32, 1)], source_type=ty)
    return ConstantExpr(T.i64, "ptrtoint", [end])


@dataclass
class Shadow:
    base: Value
    end: Value
    object: Value


UNKNOWN = Shadow(ZERO, ZERO, ZERO)


class PrivateObjects:
    """Descriptions of the private objects of a module, by index (index 0: unknown)."""

    def __init__(self) -> None:
        self.descriptions: list[str] = ["an object of unknown origin"]

    def add(self, description: str) -> Value:
        self.descriptions.append(description)
        return ConstantInt(T.i64, len(self.descriptions) - 1)


def _variable_names(f: Function) -> dict[Value, str]:
    """alloca -> source variable name, from ``#dbg_declare`` records (``-g``)."""
    names: dict[Value, str] = {}
    for inst in f.instructions():
        for record in inst.debug_records:
            if record.kind not in ("dbg_declare", "declare") or len(record.operands) < 2:
                continue
            where, var = record.operands[0], record.operands[1]
            if isinstance(where, ValueAsMetadata) and isinstance(var, MDNode):
                name = var.field("name")
                text = name.value if isinstance(name, MDString) else name
                if isinstance(text, str):
                    names.setdefault(where.value, text.strip('"'))
    return names


_BYVAL_RE = re.compile(r"^byval\((%[-\w$.\"]+)\)$")


def _byval_type(arg: Argument, module: Module) -> T.Type | None:
    for attr in arg.attributes:
        m = _BYVAL_RE.match(attr) if isinstance(attr, str) else None
        if m:
            return module.get_struct(m.group(1)[1:].strip('"'))
    return None


def _pointer_variables(f: Function) -> list[I.AllocaInst]:
    """Allocas holding one pointer that are only loaded and stored as a whole."""
    out = []
    for inst in f.instructions():
        if not (isinstance(inst, I.AllocaInst) and isinstance(inst.allocated_type, T.PointerType)
                and not inst.operands):
            continue
        ok = bool(inst.uses)
        for use in inst.uses:
            user = use.user
            if isinstance(user, I.LoadInst) and use.index == 0 and not user.volatile:
                continue
            if isinstance(user, I.StoreInst) and use.index == 1 and user.operands[0] is not inst \
                    and not user.volatile:
                continue
            if isinstance(user, ValueAsMetadata):   # debug records (-g)
                continue
            if isinstance(user, I.CallInst) and user.called_function is not None \
                    and user.called_function.name.startswith(("llvm.lifetime.", "llvm.dbg.")):
                continue
            ok = False
            break
        if ok:
            out.append(inst)
    return out


class Provenance:
    """Shadows of the pointers of one function, created on demand next to their pointers."""

    def __init__(self, f: Function, module: Module, objects: PrivateObjects,
                 arg_bounds: Function | None = None) -> None:
        self.f = f
        self.module = module
        self.objects = objects
        self.arg_bounds = arg_bounds   # kk_arg_bounds, for a kernel's buffer parameters
        self.memo: dict[Value, Shadow | None] = {}
        self.names = _variable_names(f)
        self.slots: dict[Value, tuple[Value, Value, Value]] = {}
        for var in _pointer_variables(f):
            self._add_slots(var)

    # -- pointer variables
    def _add_slots(self, var: I.AllocaInst) -> None:
        b = IRBuilder()
        b.position_after(var)
        slots = tuple(b.alloca(T.i64, align=8) for _ in range(3))
        for s in slots:
            b.store(ZERO, s, align=8)
        self.slots[var] = slots

    def record_pointer_stores(self) -> None:
        """After each store to a pointer variable, store the stored pointer's shadow."""
        for var, slots in self.slots.items():
            for use in list(var.uses):
                user = use.user
                if isinstance(user, I.StoreInst) and use.index == 1:
                    shadow = self.of(user.operands[0]) or UNKNOWN
                    b = IRBuilder()
                    b.position_after(user)
                    for slot, value in zip(slots, (shadow.base, shadow.end, shadow.object), strict=True):
                        b.store(value, slot, align=8)

    # -- shadows
    def of(self, v: Value) -> Shadow | None:
        if v in self.memo:
            return self.memo[v]
        shadow = self._compute(v)
        self.memo[v] = shadow
        return shadow

    def _object(self, what: str, inst: Value, ty: T.Type) -> Value:
        name = self.names.get(inst)
        label = f"private variable '{name}'" if name else f"private {what} ({ty})"
        return self.objects.add(label)

    def _compute(self, v: Value) -> Shadow | None:
        if not isinstance(v.type, T.PointerType):
            return None
        if isinstance(v, I.AllocaInst):
            b = IRBuilder()
            b.position_after(v)
            size = size_of(v.allocated_type)
            if v.operands:
                size = b.mul(b.int_resize(v.operands[0], T.i64), size)
            base = b.ptrtoint(v, T.i64)
            return Shadow(base, b.add(base, size), self._object("array" if isinstance(
                v.allocated_type, T.ArrayType) else "object", v, v.allocated_type))
        if isinstance(v, Argument):
            if v.parent is not self.f:
                return None
            ty = _byval_type(v, self.module)
            if ty is None:
                return self._buffer_argument(v)
            b = IRBuilder()
            b.position_at_start(self.f.entry)
            base = b.ptrtoint(v, T.i64)
            name = f"by-value argument {v.index}" + (f" '{v.name}'" if v.name and not v.name.isdigit() else "")
            return Shadow(base, b.add(base, size_of(ty)), self.objects.add(f"{name} ({ty})"))
        if isinstance(v, I.GetElementPtrInst) or (isinstance(v, I.CastInst | ConstantExpr)
                                                  and v.opcode in ("bitcast", "addrspacecast", "getelementptr")):
            return self.of(v.operands[0])
        if isinstance(v, GlobalVariable) and not v.is_declaration:
            base = ConstantExpr(T.i64, "ptrtoint", [v])
            return Shadow(base, ConstantExpr(T.i64, "add", [base, size_of(v.value_type)]),
                          self.objects.add(f"program variable '{v.name}' ({v.value_type})"))
        if isinstance(v, I.PhiInst):
            return self._phi(v)
        if isinstance(v, I.SelectInst):
            a, c = self.of(v.operands[1]), self.of(v.operands[2])
            if a is None and c is None:
                return None
            a, c = a or UNKNOWN, c or UNKNOWN
            b = IRBuilder()
            b.position_after(v)
            cond = v.operands[0]
            return Shadow(b.select(cond, a.base, c.base), b.select(cond, a.end, c.end),
                          b.select(cond, a.object, c.object))
        if isinstance(v, I.LoadInst) and v.operands[0] in self.slots:
            b = IRBuilder()
            b.position_after(v)
            base_slot, end_slot, obj_slot = self.slots[v.operands[0]]
            return Shadow(b.load(T.i64, base_slot, align=8), b.load(T.i64, end_slot, align=8),
                          b.load(T.i64, obj_slot, align=8))
        return None

    def _buffer_argument(self, v: Argument) -> Shadow | None:
        """A kernel's ``__global``/``__constant`` pointer parameter: the buffer passed for it
        (``kk_arg_bounds`` reads it from the launch's CheckTable)."""
        if self.arg_bounds is None or v.type.addrspace not in (1, 2):
            return None
        b = IRBuilder()
        b.position_at_start(self.f.entry)
        index = ConstantInt(T.i64, v.index)
        bounds = [b.call(self.arg_bounds, [index, ConstantInt(T.i64, which)]) for which in (0, 1)]
        return Shadow(bounds[0], bounds[1], self.objects.add(f"{ARGUMENT_PREFIX}{v.index}"))

    def _phi(self, v: I.PhiInst) -> Shadow | None:
        b = IRBuilder()
        b.position_after(v)
        shadow = Shadow(b.phi(T.i64), b.phi(T.i64), b.phi(T.i64))
        self.memo[v] = shadow
        for value, block in list(v.incoming()):
            s = self.of(value) or UNKNOWN
            shadow.base.add_incoming(s.base, block)
            shadow.end.add_incoming(s.end, block)
            shadow.object.add_incoming(s.object, block)
        return shadow   # (LLVM folds the phis of pointers of unknown origin to 0)
