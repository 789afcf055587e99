"""Scalarisation of explicit vectors (OpenCL `float4`, `int3`, ...), run before packetising
(`transforms.packetise`): each fixed-width vector value becomes its components, one scalar value
per element, so that the packetiser widens every component to `<W x T>` (one lane per work-item)
instead of interleaving the work-items' vectors as `<W*n x T>` and shuffling elements in and out.

What is split, component by component: element-wise arithmetic, comparisons, casts between vectors
of the same length, selects, freezes, phis, loads and stores of whole vectors (one access per
element), element-wise LLVM intrinsics; `extractelement`/`insertelement` with constant indices and
`shufflevector` with a constant mask become plain renaming. Anything else that takes or makes a
vector (calls, bitcasts changing the length, variable indices, aggregates) keeps its vector form:
its operands are rebuilt from the components with `insertelement` and its result is read back with
`extractelement` where a split user needs a component.

`scalarise(f)` edits `f` in place and returns the number of vector instructions it split.
"""

from __future__ import annotations

import math

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis import CFG
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Function
from kernelkit.ir.values import Constant, ConstantAggregate, ConstantInt, ConstantSimple, ConstantSplat, Value

_SPLIT_CASTS = frozenset("trunc zext sext fptrunc fpext fptoui fptosi uitofp sitofp ptrtoint inttoptr bitcast "
                         "addrspacecast".split())


def _vector(ty: T.Type) -> T.VectorType | None:
    if isinstance(ty, T.VectorType) and not ty.scalable and isinstance(
            ty.element, T.IntType | T.FloatType | T.PointerType):
        return ty
    return None


def _suffix(ty: T.Type) -> str:
    from kernelkit.ir.transforms.packetise import type_suffix

    return type_suffix(ty)


def _byte_sized(ty: T.Type) -> bool:
    return not isinstance(ty, T.IntType) or ty.bits % 8 == 0


def _element_size(ty: T.Type, pointer_size: int) -> int:
    if isinstance(ty, T.IntType):
        return ty.bits // 8
    if isinstance(ty, T.PointerType):
        return pointer_size
    return {"half": 2, "bfloat": 2, "float": 4, "double": 8}[ty.kind]  # type: ignore[attr-defined]


class Scalariser:
    """Splits the vector values of `f` (see the module docstring)."""

    def __init__(self, f: Function, pointer_size: int = 8) -> None:
        self.f = f
        self.pointer_size = pointer_size
        self.parts: dict[Value, list[Value]] = {}
        self.split: list[I.Instruction] = []
        self.phis: list[tuple[I.PhiInst, list[I.PhiInst]]] = []

    def run(self) -> int:
        for block in CFG(self.f).reverse_post_order():
            for inst in list(block.instructions):
                self._instruction(inst)
        for old, new in self.phis:
            for v, pred in old.incoming():
                b = IRBuilder().position_before(pred.terminator)
                for k, phi in enumerate(new):
                    phi.add_incoming(self.component(v, k, b), pred)
        self._rebuild_remaining_uses()
        return len(self.split)

    # ------------------------------------------------------------------ components
    def component(self, v: Value, k: int, b: IRBuilder) -> Value:
        """Element `k` of vector value `v` as a scalar."""
        got = self.parts.get(v)
        if got is not None:
            return got[k]
        ty = v.type
        elt = ty.element  # type: ignore[attr-defined]
        if isinstance(v, ConstantAggregate):
            return v.operands[k]
        if isinstance(v, ConstantSplat):
            return v.operands[0]
        if isinstance(v, ConstantSimple) and v.keyword in ("zeroinitializer", "null"):
            return _zero(elt)
        if isinstance(v, ConstantSimple) and v.keyword in ("poison", "undef"):
            return ConstantSimple(elt, v.keyword)
        if isinstance(v, I.Instruction) and v.parent is not None:
            # an unsplit vector instruction: read its elements once, right after it
            parts = self._extract_all(v)
            return parts[k]
        return b.extract_element(v, ConstantInt(T.i32, k))

    def _extract_all(self, v: I.Instruction) -> list[Value]:
        block = v.parent
        assert block is not None
        if isinstance(v, I.PhiInst):
            first = next(i for i in block.instructions if not isinstance(i, I.PhiInst))
            b = IRBuilder().position_before(first)
        else:
            b = IRBuilder().position_after(v)
        parts = [b.extract_element(v, ConstantInt(T.i32, k)) for k in range(v.type.count)]  # type: ignore[attr-defined]
        self.parts[v] = parts
        return parts

    def _record(self, inst: I.Instruction, parts: list[Value]) -> None:
        self.parts[inst] = parts
        self.split.append(inst)

    # ------------------------------------------------------------------ instructions
    def _instruction(self, inst: I.Instruction) -> None:
        vt = _vector(inst.type)
        b = IRBuilder().position_before(inst)
        if isinstance(inst, I.VectorOpInst):
            self._vector_op(inst, b)
            return
        if isinstance(inst, I.StoreInst):
            st = _vector(inst.value.type)
            if st is not None and not inst.volatile and not inst.atomic and _byte_sized(st.element):
                size = _element_size(st.element, self.pointer_size)
                for k in range(st.count):
                    ptr = inst.pointer if k == 0 else b.gep(st.element, inst.pointer, [ConstantInt(T.i64, k)])
                    b.store(self.component(inst.value, k, b), ptr, _align(inst.align, k * size))
                self.split.append(inst)
            return
        if vt is None:
            return
        n = vt.count
        if isinstance(inst, I.BinaryOp):
            x, y = inst.operands
            parts = [b.insert(I.BinaryOp(vt.element, inst.opcode, [self.component(x, k, b), self.component(y, k, b)],
                                         "", inst.flags)) for k in range(n)]
        elif inst.opcode == "fneg":
            parts = [b.fneg(self.component(inst.operands[0], k, b), "", inst.flags) for k in range(n)]
        elif isinstance(inst, I.CompareInst):
            x, y = inst.operands
            parts = [b.insert(I.CompareInst(inst.opcode, inst.predicate, self.component(x, k, b),
                                            self.component(y, k, b), "", inst.flags)) for k in range(n)]
        elif isinstance(inst, I.CastInst) and inst.opcode in _SPLIT_CASTS:
            src = _vector(inst.operands[0].type)
            if src is None or src.count != n:
                return
            parts = [b.cast(inst.opcode, self.component(inst.operands[0], k, b), vt.element, "", inst.flags)
                     for k in range(n)]
        elif isinstance(inst, I.SelectInst):
            c, x, y = inst.operands
            vector_cond = _vector(c.type) is not None
            parts = [b.select(self.component(c, k, b) if vector_cond else c, self.component(x, k, b),
                              self.component(y, k, b)) for k in range(n)]
        elif isinstance(inst, I.FreezeInst):
            parts = [b.freeze(self.component(inst.operands[0], k, b)) for k in range(n)]
        elif isinstance(inst, I.PhiInst):
            new = []
            for _ in range(n):
                phi = I.PhiInst(vt.element, "phi", (), "")
                phi.insert_before(inst)
                new.append(phi)
            self.phis.append((inst, new))
            parts = list(new)
        elif isinstance(inst, I.LoadInst):
            if inst.volatile or inst.atomic or not _byte_sized(vt.element):
                return
            size = _element_size(vt.element, self.pointer_size)
            parts = []
            for k in range(n):
                ptr = inst.pointer if k == 0 else b.gep(vt.element, inst.pointer, [ConstantInt(T.i64, k)])
                load = b.load(vt.element, ptr, "", _align(inst.align, k * size))
                for key in ("tbaa", "noalias", "alias.scope", "nontemporal", "invariant.load"):
                    if key in inst.metadata:
                        load.metadata[key] = inst.metadata[key]
                parts.append(load)
        elif isinstance(inst, I.CallInst):
            parts = self._call(inst, vt, b)
            if parts is None:
                return
        else:
            return
        self._record(inst, parts)

    def _call(self, inst: I.CallInst, vt: T.VectorType, b: IRBuilder) -> list[Value] | None:
        fn = inst.called_function
        if fn is None or not fn.name.startswith("llvm."):
            return None
        from kernelkit.ir.transforms.packetise import ELEMENTWISE_INTRINSICS

        base = fn.name[5:].rsplit(".", 1)[0]
        if base not in ELEMENTWISE_INTRINSICS or fn.name != f"llvm.{base}.{_suffix(vt)}":
            return None
        if any(_vector(a.type) is not None and a.type != vt for a in inst.args):
            return None
        module = self.f.module
        assert module is not None
        types = tuple(vt.element if a.type == vt else a.type for a in inst.args)
        fnty = T.FunctionType(vt.element, types)
        scalar = module.declare_function(f"llvm.{base}.{_suffix(vt.element)}", fnty)
        parts: list[Value] = []
        for k in range(vt.count):
            args = [self.component(a, k, b) if a.type == vt else a for a in inst.args]
            call = b.call(scalar, args, function_type=fnty)
            call.arg_attributes = [list(x) for x in inst.arg_attributes]
            call.flags = list(inst.flags)
            parts.append(call)
        return parts

    def _vector_op(self, inst: I.Instruction, b: IRBuilder) -> None:
        if inst.opcode == "extractelement":
            vec, index = inst.operands
            if _vector(vec.type) is None or not isinstance(index, ConstantInt):
                return
            if index.value >= vec.type.count:  # type: ignore[attr-defined]
                return
            inst.replace_all_uses_with(self.component(vec, index.value, b))
            self.split.append(inst)
            return
        vt = _vector(inst.type)
        if vt is None:
            return
        if inst.opcode == "insertelement":
            vec, elt, index = inst.operands
            if not isinstance(index, ConstantInt) or index.value >= vt.count:
                return
            parts = [elt if k == index.value else self.component(vec, k, b) for k in range(vt.count)]
        else:
            x, y, mask = inst.operands
            from kernelkit.ir.transforms.packetise import shuffle_mask

            values = shuffle_mask(mask)
            src = _vector(x.type)
            if values is None or src is None:
                return
            m = src.count
            parts = [ConstantSimple(vt.element, "poison") if s < 0 else
                     self.component(x, s, b) if s < m else self.component(y, s - m, b) for s in values]
        self._record(inst, parts)

    # ------------------------------------------------------------------ what keeps the vector form
    def _rebuild_remaining_uses(self) -> None:
        for inst in self.split:   # (split instructions go away: their own operands do not count)
            inst.drop_operands()
        for inst in self.split:
            if not inst.uses or inst.type.is_void:
                continue
            block = inst.parent
            assert block is not None
            anchor = inst
            if isinstance(inst, I.PhiInst):
                anchor = next(i for i in block.instructions if not isinstance(i, I.PhiInst))
                b = IRBuilder().position_before(anchor)
            else:
                b = IRBuilder().position_after(inst)
            acc: Value = ConstantSimple(inst.type, "poison")
            for k, part in enumerate(self.parts[inst]):
                acc = b.insert_element(acc, part, ConstantInt(T.i32, k))
            inst.replace_all_uses_with(acc)
        for inst in self.split:
            inst.remove_from_parent()


def _align(align: int | None, offset: int) -> int | None:
    if not align:
        return align
    return math.gcd(align, offset) if offset else align


def _zero(ty: T.Type) -> Constant:
    from kernelkit.ir.values import ConstantFP

    if isinstance(ty, T.IntType):
        return ConstantInt(ty, 0)
    if isinstance(ty, T.FloatType):
        return ConstantFP(ty, 0.0)
    return ConstantSimple(ty, "null")


def scalarise(f: Function, pointer_size: int = 8) -> int:
    """Split the explicit vectors of `f` into their components (see the module docstring)."""
    return Scalariser(f, pointer_size).run()


__all__ = ["Scalariser", "scalarise"]
