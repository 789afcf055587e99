"""Kernel attributes and metadata of spec 003 ("Function Attributes", "Function Metadata").

``mark_kernels``: every kernel becomes a ``"mux-kernel"="entry-point"`` with ``mux-orig-fn`` and
``mux-base-fn-name`` set to its name, ``mux-work-item-order`` (``xyz``) and, when it uses static
``__local`` variables (itself or through callees), ``mux-local-mem-usage``. It checks
``!reqd_work_group_size`` is the spec's (i32, i32, i32) and sets ``!max_work_dim`` when the
kernel provably uses fewer than 3 dimensions (runs after the builtin lowering).
"""

from __future__ import annotations

from kernelkit.ir import types as T
from kernelkit.ir.instructions import CallInst
from kernelkit.ir.metadata import MDNode, ValueAsMetadata, md_int_values
from kernelkit.ir.module import Function, Module
from kernelkit.ir.values import ConstantInt
from kernelkit.mux.attributes import get_attribute, set_attribute
from kernelkit.mux.names import (
    ATTR_BASE_FN_NAME,
    ATTR_KERNEL,
    ATTR_LOCAL_MEM_USAGE,
    ATTR_ORIG_FN,
    ATTR_WORK_ITEM_ORDER,
    DEFAULT_WORK_ITEM_ORDER,
    KERNEL_ENTRY_POINT,
    MD_MAX_WORK_DIM,
    MD_OPENCL_VERSION,
    MD_REQD_WORK_GROUP_SIZE,
)
from kernelkit.mux.passes.callgraph import reachable_max

KERNEL_CALLING_CONVENTIONS = ("spir_kernel", "amdgpu_kernel", "ptx_kernel")

# Mux builtins that read one dimension given by their i32 argument.
_DIMENSIONED = frozenset({"__mux_get_global_size", "__mux_get_global_id", "__mux_get_global_offset",
                          "__mux_get_local_size", "__mux_get_local_id", "__mux_get_num_groups",
                          "__mux_get_group_id", "__mux_get_enqueued_local_size"})
# Mux builtins that depend on every dimension.
_ALL_DIMENSIONS_PREFIXES = ("__mux_get_global_linear_id", "__mux_get_local_linear_id", "__mux_work_group_")


def is_kernel(fn: Function) -> bool:
    return get_attribute(fn, ATTR_KERNEL) is not None


def is_entry_point(fn: Function) -> bool:
    return get_attribute(fn, ATTR_KERNEL) == KERNEL_ENTRY_POINT


def kernels(module: Module) -> list[Function]:
    """Functions carrying ``mux-kernel`` (after ``mark_kernels``), in module order."""
    return [f for f in module.functions if not f.is_declaration and is_kernel(f)]


def md_i32_tuple(values: list[int]) -> MDNode:
    return MDNode([ValueAsMetadata(ConstantInt(T.i32, v)) for v in values])


def _dimension_of(call: CallInst) -> int | None:
    callee = call.called_function
    if callee is None or not callee.is_declaration:
        return None
    name = callee.name
    if name in _DIMENSIONED:
        dim = call.args[0]
        return dim.value + 1 if isinstance(dim, ConstantInt) and 0 <= dim.value < 3 else 3
    if name.startswith(_ALL_DIMENSIONS_PREFIXES) and name != "__mux_work_group_barrier":
        return 3
    return 0


def max_work_dim(fn: Function, memo: dict[int, int] | None = None) -> int:
    """1..3: highest work-item dimension ``fn`` reads (3 when it cannot be bounded)."""
    return max(1, reachable_max(fn, _dimension_of, 3, memo))


def local_memory_usage(fn: Function, pointer_size: int) -> int:
    """Bytes of static __local memory ``fn`` uses (each variable once, at its alignment)."""
    from kernelkit.abi.signature import static_local_memory

    return static_local_memory(fn, pointer_size)


def opencl_c_version(module: Module) -> tuple[int, int]:
    """``!opencl.ocl.version`` (spec 003 "Module Metadata"); 1.2 when unset."""
    named = module.named_metadata.get(MD_OPENCL_VERSION)
    if named:
        node = named[0]
        if isinstance(node, MDNode):
            values = md_int_values(node)
            if len(values) == 2 and None not in values:
                return values[0], values[1]  # type: ignore[return-value]
    return (1, 2)


def module_pointer_size(module: Module) -> int:
    triple = module.triple or ""
    return 4 if triple.startswith(("spir-", "spirv32", "r600", "nvptx-", "i386", "i686")) else 8


def mark_kernels(module: Module) -> list[Function]:
    marked = []
    memo: dict[int, int] = {}
    pointer_size = module_pointer_size(module)
    for fn in module.functions:
        if fn.is_declaration or fn.calling_conv not in KERNEL_CALLING_CONVENTIONS:
            continue
        set_attribute(fn, ATTR_KERNEL, KERNEL_ENTRY_POINT)
        if get_attribute(fn, ATTR_ORIG_FN) is None:
            set_attribute(fn, ATTR_ORIG_FN, fn.name)
        if get_attribute(fn, ATTR_BASE_FN_NAME) is None:
            set_attribute(fn, ATTR_BASE_FN_NAME, fn.name)
        if get_attribute(fn, ATTR_WORK_ITEM_ORDER) is None:
            set_attribute(fn, ATTR_WORK_ITEM_ORDER, DEFAULT_WORK_ITEM_ORDER)
        local_bytes = local_memory_usage(fn, pointer_size)
        if local_bytes > 0:
            set_attribute(fn, ATTR_LOCAL_MEM_USAGE, str(local_bytes))
        reqd = fn.metadata.get(MD_REQD_WORK_GROUP_SIZE)
        if reqd is not None:
            sizes = md_int_values(reqd)
            if len(sizes) != 3 or any(v is None or v <= 0 for v in sizes):
                raise ValueError(f"@{fn.name}: !reqd_work_group_size must be three positive i32, got {sizes}")
        dims = max_work_dim(fn, memo)
        if dims < 3:
            fn.metadata[MD_MAX_WORK_DIM] = md_i32_tuple([dims])
        marked.append(fn)
    return marked
