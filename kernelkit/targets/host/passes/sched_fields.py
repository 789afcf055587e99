"""The scheduling structures (MuxWorkItemInfo, MuxWorkGroupInfo; see :mod:`kernelkit.targets.host.sched`)
as kernelkit.ir types, and IRBuilder access to their fields."""

from __future__ import annotations

import re

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.values import Value
from kernelkit.targets.host.sched import WORK_GROUP_FIELDS, WORK_ITEM_FIELDS, field_index

_SCALARS = {"i64": T.i64, "i32": T.i32, "ptr": T.ptr}


def field_type(text: str) -> T.Type:
    """The kernelkit.ir type of a field type of the sched.py tables (``i64``, ``ptr``, ``[3 x i64]``)."""
    m = re.fullmatch(r"\[(\d+) x (.+)\]", text)
    if m:
        return T.ArrayType(field_type(m.group(2)), int(m.group(1)))
    return _SCALARS[text]


def struct_type(fields: tuple[tuple[str, str, object], ...]) -> T.LiteralStructType:
    return T.LiteralStructType(tuple(field_type(t) for _, t, _ in fields))


WI_TYPE = struct_type(WORK_ITEM_FIELDS)
WG_TYPE = struct_type(WORK_GROUP_FIELDS)


def _field(b: IRBuilder, st: T.Type, fields, base: Value, name: str, dim: Value | int | None, tag: str) -> Value:
    idx = [const(T.i32, 0), const(T.i32, field_index(fields, name))]
    if dim is not None:
        idx.append(const(T.i32, dim) if isinstance(dim, int) else dim)
    return b.gep(st, base, idx, tag, ["inbounds"])


def wg_field(b: IRBuilder, wg: Value, name: str, dim: Value | int | None = None, tag: str = "") -> Value:
    """Pointer to MuxWorkGroupInfo field ``name`` (element ``dim`` of an array field) of ``*wg``."""
    return _field(b, WG_TYPE, WORK_GROUP_FIELDS, wg, name, dim, tag)


def wi_field(b: IRBuilder, wi: Value, name: str, dim: Value | int | None = None, tag: str = "") -> Value:
    """Pointer to MuxWorkItemInfo field ``name`` (element ``dim`` of an array field) of ``*wi``."""
    return _field(b, WI_TYPE, WORK_ITEM_FIELDS, wi, name, dim, tag)
