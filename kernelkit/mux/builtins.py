"""The ``__mux_*`` builtins of spec 003 ("Builtins", "Group operation builtins") as data, and the
OpenCL C builtins the mux lowering recognises (by their demangled names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernelkit.ir import types as T

SIZE_T = "size_t"  # i32 or i64 by the target's pointer size
EVENT = "event"    # __mux_dma_event_t: kernelkit keeps the front end's event type
PTR_GLOBAL, PTR_LOCAL, PTR_PRIVATE = "ptr addrspace(1)", "ptr addrspace(3)", "ptr"

# spec 003 "Builtins": name -> (return type, parameter types). __mux_dma_write_2D/3D take
# (global dst, local src) like __mux_dma_write_1D (the spec's text swaps address spaces there).
MUX_BUILTINS: dict[str, tuple[str, tuple[str, ...]]] = {
    "__mux_isftz": ("i1", ()),
    "__mux_usefast": ("i1", ()),
    "__mux_isembeddedprofile": ("i1", ()),
    "__mux_get_global_size": (SIZE_T, ("i32",)),
    "__mux_get_global_id": (SIZE_T, ("i32",)),
    "__mux_get_global_offset": (SIZE_T, ("i32",)),
    "__mux_get_local_size": (SIZE_T, ("i32",)),
    "__mux_get_local_id": (SIZE_T, ("i32",)),
    "__mux_get_sub_group_id": ("i32", ()),
    "__mux_get_num_groups": (SIZE_T, ("i32",)),
    "__mux_get_num_sub_groups": ("i32", ()),
    "__mux_get_max_sub_group_size": ("i32", ()),
    "__mux_get_sub_group_size": ("i32", ()),
    "__mux_get_sub_group_local_id": ("i32", ()),
    "__mux_get_group_id": (SIZE_T, ("i32",)),
    "__mux_get_work_dim": ("i32", ()),
    "__mux_dma_read_1D": (EVENT, (PTR_LOCAL, PTR_GLOBAL, SIZE_T, EVENT)),
    "__mux_dma_read_2D": (EVENT, (PTR_LOCAL, PTR_GLOBAL, SIZE_T, SIZE_T, SIZE_T, SIZE_T, EVENT)),
    "__mux_dma_read_3D": (EVENT, (PTR_LOCAL, PTR_GLOBAL, SIZE_T, SIZE_T, SIZE_T, SIZE_T, SIZE_T, SIZE_T,
                                  SIZE_T, EVENT)),
    "__mux_dma_write_1D": (EVENT, (PTR_GLOBAL, PTR_LOCAL, SIZE_T, EVENT)),
    "__mux_dma_write_2D": (EVENT, (PTR_GLOBAL, PTR_LOCAL, SIZE_T, SIZE_T, SIZE_T, SIZE_T, EVENT)),
    "__mux_dma_write_3D": (EVENT, (PTR_GLOBAL, PTR_LOCAL, SIZE_T, SIZE_T, SIZE_T, SIZE_T, SIZE_T, SIZE_T,
                                   SIZE_T, EVENT)),
    "__mux_dma_wait": ("void", ("i32", PTR_PRIVATE)),
    "__mux_get_global_linear_id": (SIZE_T, ()),
    "__mux_get_local_linear_id": (SIZE_T, ()),
    "__mux_get_enqueued_local_size": (SIZE_T, ("i32",)),
    "__mux_mem_barrier": ("void", ("i32", "i32")),
    "__mux_work_group_barrier": ("void", ("i32", "i32", "i32")),
    "__mux_sub_group_barrier": ("void", ("i32", "i32", "i32")),
}

# Builtins whose value depends on the work-item/work-group being run (they need scheduling
# parameters on targets that pass that state explicitly); the rest are module constants.
MUX_BUILTINS_WITHOUT_SCHEDULING = frozenset({"__mux_isftz", "__mux_usefast", "__mux_isembeddedprofile",
                                             "__mux_mem_barrier"})

# spec 003 "Group operation builtins".
GROUP_SCOPES: tuple[str, ...] = ("sub", "work", "vec")
GROUP_OPERATIONS: tuple[str, ...] = ("add", "fadd", "mul", "fmul", "smin", "umin", "fmin", "smax", "umax",
                                     "fmax", "and", "or", "xor", "logical_and", "logical_or", "logical_xor")
GROUP_KINDS: tuple[str, ...] = (
    "any", "all", "broadcast",
    *(f"{k}_{op}" for k in ("reduce", "scan_inclusive", "scan_exclusive") for op in GROUP_OPERATIONS),
    "shuffle", "shuffle_up", "shuffle_down", "shuffle_xor",  # sub-group only
)
SHUFFLE_KINDS = frozenset({"shuffle", "shuffle_up", "shuffle_down", "shuffle_xor"})

_GROUP_NAME = re.compile(r"^__mux_(?P<scope>sub|work|vec)_group_(?P<kind>[a-z_]+?)_(?P<suffix>(?:nx)?(?:v\d+)?[if]\d+)$")


@dataclass(frozen=True)
class GroupBuiltin:
    scope: str   # sub | work | vec
    kind: str    # an entry of GROUP_KINDS
    suffix: str  # type suffix: i32, f16, v4i1, nxv1i64

    @property
    def name(self) -> str:
        return f"__mux_{self.scope}_group_{self.kind}_{self.suffix}"


def parse_group_builtin(name: str) -> GroupBuiltin | None:
    m = _GROUP_NAME.match(name)
    if not m or m.group("kind") not in GROUP_KINDS:
        return None
    if m.group("kind") in SHUFFLE_KINDS and m.group("scope") != "sub":
        return None
    return GroupBuiltin(m.group("scope"), m.group("kind"), m.group("suffix"))


def is_mux_builtin(name: str) -> bool:
    return name in MUX_BUILTINS or parse_group_builtin(name) is not None


def uses_sub_groups(name: str) -> bool:
    """A known mux builtin that makes a function explicitly use sub-groups (``mux-no-subgroups``)."""
    return name.startswith("__mux_sub_group_") or name in (
        "__mux_get_sub_group_id", "__mux_get_num_sub_groups", "__mux_get_max_sub_group_size",
        "__mux_get_sub_group_size", "__mux_get_sub_group_local_id")


def type_suffix(ty: T.Type) -> str:
    """The overload suffix of a group builtin: i32, f16, f64, v4i1, nxv1i64."""
    if isinstance(ty, T.IntType):
        return f"i{ty.bits}"
    if isinstance(ty, T.FloatType):
        return {"half": "f16", "float": "f32", "double": "f64", "bfloat": "bf16"}[ty.kind]
    if isinstance(ty, T.VectorType):
        return f"{'nx' if ty.scalable else ''}v{ty.count}{type_suffix(ty.element)}"
    raise ValueError(f"no group builtin overload for type {ty}")


def _resolve(text: str, size_t: T.Type, event: T.Type) -> T.Type:
    fixed: dict[str, T.Type] = {"i1": T.i1, "i32": T.i32, "void": T.void, PTR_PRIVATE: T.pointer(0),
                                PTR_GLOBAL: T.pointer(1), PTR_LOCAL: T.pointer(3)}
    if text == SIZE_T:
        return size_t
    if text == EVENT:
        return event
    return fixed[text]


def builtin_type(name: str, size_t: T.Type, event: T.Type = T.i32) -> T.FunctionType:
    """The function type of a fixed-signature mux builtin."""
    ret, params = MUX_BUILTINS[name]
    return T.FunctionType(_resolve(ret, size_t, event), tuple(_resolve(p, size_t, event) for p in params))


def group_builtin_type(builtin: GroupBuiltin, value: T.Type, size_t: T.Type) -> T.FunctionType:
    """Function type of a group builtin over ``value`` (spec 003 "Group operation builtins")."""
    scope, kind = builtin.scope, builtin.kind
    lead: tuple[T.Type, ...] = (T.i32,) if scope == "work" else ()  # the barrier id
    element = value.element if isinstance(value, T.VectorType) else value
    if kind in ("any", "all"):
        return T.FunctionType(T.i1, (*lead, value))
    if kind == "broadcast":
        if scope == "work":
            return T.FunctionType(value, (T.i32, value, size_t, size_t, size_t))
        return T.FunctionType(element if scope == "vec" else value, (value, T.i32))
    if kind in ("shuffle", "shuffle_xor"):
        return T.FunctionType(value, (value, T.i32))
    if kind in ("shuffle_up", "shuffle_down"):
        return T.FunctionType(value, (value, value, T.i32))
    result = element if scope == "vec" and kind.startswith("reduce") else value
    return T.FunctionType(result, (*lead, value))


# -- OpenCL C builtins the lowering replaces (OpenCL C 3.0 §6.15.1, §6.15.8-9, §6.15.11, §6.15.15) --

# Work-item functions whose mux builtin has the same signature.
OPENCL_WORK_ITEM_BUILTINS: dict[str, str] = {
    "get_work_dim": "__mux_get_work_dim",
    "get_global_size": "__mux_get_global_size",
    "get_global_id": "__mux_get_global_id",
    "get_local_size": "__mux_get_local_size",
    "get_enqueued_local_size": "__mux_get_enqueued_local_size",
    "get_local_id": "__mux_get_local_id",
    "get_num_groups": "__mux_get_num_groups",
    "get_group_id": "__mux_get_group_id",
    "get_global_offset": "__mux_get_global_offset",
    "get_global_linear_id": "__mux_get_global_linear_id",
    "get_local_linear_id": "__mux_get_local_linear_id",
    "get_sub_group_size": "__mux_get_sub_group_size",
    "get_max_sub_group_size": "__mux_get_max_sub_group_size",
    "get_num_sub_groups": "__mux_get_num_sub_groups",
    "get_enqueued_num_sub_groups": "__mux_get_num_sub_groups",  # uniform work-groups: the same
    "get_sub_group_id": "__mux_get_sub_group_id",
    "get_sub_group_local_id": "__mux_get_sub_group_local_id",
}
# Work-item functions that take a dimension index.
DIMENSIONED_WORK_ITEM_BUILTINS = frozenset({
    "get_global_size", "get_global_id", "get_local_size", "get_enqueued_local_size", "get_local_id",
    "get_num_groups", "get_group_id", "get_global_offset"})

# Synchronisation functions: OpenCL barrier name -> mux barrier builtin; fences; async copies.
OPENCL_BARRIERS: dict[str, str] = {
    "barrier": "__mux_work_group_barrier",
    "work_group_barrier": "__mux_work_group_barrier",
    "sub_group_barrier": "__mux_sub_group_barrier",
}
OPENCL_FENCES = ("mem_fence", "read_mem_fence", "write_mem_fence", "atomic_work_item_fence")
OPENCL_ASYNC_COPIES = ("async_work_group_copy", "async_work_group_strided_copy", "wait_group_events",
                       "prefetch", "async_work_group_copy_2D2D", "async_work_group_copy_3D3D")

# OpenCL work-group / sub-group collective functions (OpenCL C 3.0 §6.15.16-17, cl_khr_subgroup_*).
_OPENCL_GROUP = re.compile(
    r"^(?P<scope>work|sub)_group_(?P<kind>all|any|broadcast|shuffle|shuffle_xor|shuffle_up|shuffle_down|"
    r"(?:reduce|scan_inclusive|scan_exclusive)_(?:add|mul|min|max|and|or|xor|logical_and|logical_or|"
    r"logical_xor))$")


def parse_opencl_group_function(name: str) -> tuple[str, str] | None:
    """``(scope, kind)`` of an OpenCL work_group_*/sub_group_* collective, else None."""
    m = _OPENCL_GROUP.match(name)
    if not m or (m.group("kind").startswith("shuffle") and m.group("scope") != "sub"):
        return None
    return m.group("scope"), m.group("kind")


def mux_group_operation(op: str, element: str) -> str:
    """The mux operation for OpenCL ``op`` on the OpenCL scalar type ``element``."""
    from kernelkit.mux.mangling import FLOAT_TYPES, UNSIGNED_TYPES

    if op in ("add", "mul"):
        return f"f{op}" if element in FLOAT_TYPES else op
    if op in ("min", "max"):
        return f"f{op}" if element in FLOAT_TYPES else (f"u{op}" if element in UNSIGNED_TYPES else f"s{op}")
    return op


def is_opencl_lowered_name(name: str) -> bool:
    """True for every OpenCL builtin the mux lowering replaces (by demangled name)."""
    return (name in OPENCL_WORK_ITEM_BUILTINS or name in OPENCL_BARRIERS or name in OPENCL_FENCES
            or name in OPENCL_ASYNC_COPIES or parse_opencl_group_function(name) is not None)
