"""Which global values (functions, global variables, aliases) a piece of IR refers to.

A value refers to a global directly as an operand, or inside constants (constant expressions,
aggregates, initialisers), or — when asked — inside metadata (``metadata ptr @g`` call operands and
the ``ValueAsMetadata`` leaves of metadata nodes). Library subsetting uses this to keep only the
definitions a module reaches (mux/clc/definitions.py, targets/amdhsa/library_index.py)."""

from __future__ import annotations

from collections.abc import Iterable

from kernelkit.ir.metadata import MDNode, MetadataAsValue, ValueAsMetadata
from kernelkit.ir.module import GlobalValue
from kernelkit.ir.values import Constant


def referenced_globals(roots: Iterable, *, through_metadata: bool = False) -> list[GlobalValue]:
    """The global values among ``roots`` (values, e.g. instruction operands) and inside the constants
    (and, with ``through_metadata``, the metadata) they hold, each once, globals not expanded."""
    found: list[GlobalValue] = []
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, GlobalValue):
            found.append(value)
        elif isinstance(value, Constant):
            stack.extend(value.operands)
        elif through_metadata:
            if isinstance(value, MetadataAsValue):
                stack.extend(metadata_values([value.metadata]))
            elif isinstance(value, ValueAsMetadata):
                stack.append(value.value)
    return found


def metadata_values(roots: Iterable) -> list:
    """The values (``ValueAsMetadata`` leaves) inside the metadata ``roots``."""
    out, stack, seen = [], list(roots), set()
    while stack:
        md = stack.pop()
        if id(md) in seen:
            continue
        seen.add(id(md))
        if isinstance(md, ValueAsMetadata):
            out.append(md.value)
        elif isinstance(md, MDNode):
            stack.extend(md.children())
    return out
