"""A type -> type map applied through every type constructor, for passes that retype a module
(address-space flattening on the host, the SPIR -> AMDGPU address-space mapping).

A subclass says how the leaves it changes map (``leaf``); vectors, arrays, literal structs,
function types and target extension types are rebuilt around the mapped parts, results are
memoised, and named struct bodies are rewritten once, in place, so the struct keeps its identity
(and its name) wherever it is referenced.
"""

from __future__ import annotations

from kernelkit.ir import types as T
from kernelkit.ir.module import TypeAttribute


class StructuralTypeMap:
    def __init__(self) -> None:
        self.memo: dict[T.Type, T.Type] = {}
        self.structs_done: set[int] = set()

    def leaf(self, ty: T.Type) -> T.Type | None:
        """The mapped type of ``ty`` when this map changes it as a whole; None to map its parts."""
        return None

    def __call__(self, ty: T.Type) -> T.Type:
        if isinstance(ty, T.NamedStructType):
            if id(ty) not in self.structs_done:   # identity kept; the body is rewritten once
                self.structs_done.add(id(ty))
                if ty.elements is not None:
                    ty.elements = tuple(self(e) for e in ty.elements)
            return ty
        out = self.memo.get(ty)
        if out is None:
            out = self.memo[ty] = self._map(ty)
        return out

    def _map(self, ty: T.Type) -> T.Type:
        out = self.leaf(ty)
        if out is not None:
            return out
        if isinstance(ty, T.VectorType):
            return T.VectorType(self(ty.element), ty.count, ty.scalable)
        if isinstance(ty, T.ArrayType):
            return T.ArrayType(self(ty.element), ty.count)
        if isinstance(ty, T.LiteralStructType):
            return T.LiteralStructType(tuple(self(e) for e in ty.elements), ty.packed)
        if isinstance(ty, T.FunctionType):
            return T.FunctionType(self(ty.return_type), tuple(self(p) for p in ty.params), ty.vararg)
        if isinstance(ty, T.TargetExtType):
            return T.TargetExtType(ty.name, tuple(self(t) for t in ty.types), ty.ints)
        return ty

    def attributes(self, attrs: list) -> list:
        """``attrs`` with the types of its type-carrying attributes (``byval(<ty>)``...) mapped."""
        return [a.with_type(self(a.type)) if isinstance(a, TypeAttribute) else a for a in attrs]
