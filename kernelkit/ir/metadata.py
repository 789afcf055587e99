"""Metadata: strings, tuples, specialised nodes (DI*, kept field by field), values as metadata.

`MDNode.kind` is None for a tuple `!{...}`, else the specialised node's name (`DILocation`).
A specialised node keeps its fields as (name, value) pairs where a value is a Metadata
reference or the field's verbatim text (`DW_TAG_pointer_type`, `42`, `"file.cl"`), so any
node round-trips without kernelkit knowing its schema.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kernelkit.ir import types as T
from kernelkit.ir.values import RefWriter, User, Value


class Metadata:
    __slots__ = ()


class MDString(Metadata):
    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"MDString({self.value!r})"


class MDNode(Metadata):
    __slots__ = ("operands", "distinct", "kind", "fields")

    def __init__(self, operands: Iterable[Metadata | None] = (), *, distinct: bool = False,
                 kind: str | None = None,
                 fields: Iterable[tuple[str, Metadata | str | None]] = ()) -> None:
        self.operands: list[Metadata | None] = list(operands)
        self.distinct = distinct
        self.kind = kind
        self.fields: list[tuple[str, Metadata | str | None]] = list(fields)

    def field(self, name: str) -> Metadata | str | None:
        for key, value in self.fields:
            if key == name:
                return value
        raise KeyError(name)

    def children(self) -> Iterator[Metadata]:
        for op in self.operands:
            if isinstance(op, Metadata):
                yield op
        for _, value in self.fields:
            if isinstance(value, Metadata):
                yield value

    def __repr__(self) -> str:
        return f"MDNode({self.kind or 'tuple'}, {len(self.operands)} ops)"


class ValueAsMetadata(Metadata, User):
    """A value inside metadata (`i32 1`, `ptr @kernel`); a User, so RAUW reaches it."""

    __slots__ = ()

    def __init__(self, value: Value) -> None:
        User.__init__(self, T.metadata, (value,))

    @property
    def value(self) -> Value:
        return self.operands[0]

    def _ref(self, w: RefWriter) -> str:
        return w.typed(self.operands[0])


class MetadataAsValue(Value):
    """Metadata used as an instruction operand: `metadata !5`, `metadata !"round.dynamic"`."""

    __slots__ = ("metadata",)

    def __init__(self, md: Metadata) -> None:
        super().__init__(T.metadata)
        self.metadata = md

    def _ref(self, w: RefWriter) -> str:
        writer = getattr(w, "metadata_ref", None)
        return writer(self.metadata) if writer else repr(self.metadata)


class DebugRecord:
    """`#dbg_value(...)`, `#dbg_declare(...)`, `#dbg_assign(...)`, `#dbg_label(...)` before an
    instruction; operands are metadata (values inside are ValueAsMetadata, so RAUW reaches them)."""

    __slots__ = ("kind", "operands")

    def __init__(self, kind: str, operands: Iterable[Metadata | None]) -> None:
        self.kind = kind
        self.operands = list(operands)

    def __repr__(self) -> str:
        return f"DebugRecord({self.kind})"


def md_tuple(items: Iterable[Metadata | None]) -> MDNode:
    return MDNode(items)


def md_string_values(node: MDNode) -> list[str | None]:
    """Operands of a tuple of strings (e.g. kernel_arg_type) as Python strings."""
    return [op.value if isinstance(op, MDString) else None for op in node.operands]


def md_int_values(node: MDNode) -> list[int | None]:
    """Operands of a tuple of integer constants (e.g. reqd_work_group_size) as ints."""
    from kernelkit.ir.values import ConstantInt

    out: list[int | None] = []
    for op in node.operands:
        v = op.value if isinstance(op, ValueAsMetadata) else None
        out.append(v.value if isinstance(v, ConstantInt) else None)
    return out
