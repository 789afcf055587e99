"""Specialisation by local size (spec 003 "BaseKernel::createSpecializedKernel", deferred compilation).

``specialise_local_size(module, kernel, local_size)`` edits finalized mux IR for launches of
``kernel`` with uniform work-groups of exactly ``local_size``: the other kernels leave the module,
``__mux_get_local_size(d)`` and ``__mux_get_enqueued_local_size(d)`` with a constant ``d`` become
that dimension's size (1 past dimension 2, spec 003 "Builtins"), and the kernel gets
``!reqd_work_group_size`` (spec 003 "Function Metadata") plus clang's
``"uniform-work-group-size"="true"``: together they tell a target its work-item loops have constant
bounds (the host's wrapper reads them), so loops over the group unroll and a vector loop's scalar
tail folds away when the size is a multiple of the vector width.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernelkit.ir import parse
from kernelkit.ir.instructions import CallInst
from kernelkit.ir.module import Module
from kernelkit.ir.values import ConstantInt
from kernelkit.mux.attributes import set_attribute
from kernelkit.mux.names import MD_REQD_WORK_GROUP_SIZE
from kernelkit.mux.passes.kernel_attributes import kernels, md_i32_tuple
from kernelkit.mux.result import MuxError, Result

LOCAL_SIZE_BUILTINS = ("__mux_get_local_size", "__mux_get_enqueued_local_size")
UNIFORM_WORK_GROUP_SIZE = "uniform-work-group-size"   # clang's attribute for -cl-uniform-work-group-size


# the frontend's OpenCL builtins (clang's mangling) that targets compiling frontend IR read the local size with
OPENCL_LOCAL_SIZE_BUILTINS = ("_Z14get_local_sizej", "_Z23get_enqueued_local_sizej")


def _kernels(module: Module) -> list:
    """The mux kernels (``mux-kernel``), or in frontend IR the ``spir_kernel`` functions."""
    return kernels(module) or [f for f in module.functions
                               if not f.is_declaration and f.calling_conv == "spir_kernel"]


def _only_kernel(module: Module, kernel: str) -> Module:
    """A copy of ``module`` without the kernels other than ``kernel`` that nothing calls."""
    entries = _kernels(module)
    keep = [f for f in module.functions
            if f.name == kernel or f not in entries or any(True for _ in f.uses)]
    if module.get_function(kernel) is None or module.get_function(kernel) not in entries:
        raise MuxError(Result.INVALID_VALUE, f"no kernel named {kernel!r} in the module")
    module.functions = keep
    return parse(str(module))   # fresh use lists


def specialise_local_size(module: Module, kernel: str, local_size: Sequence[int],
                          builtins: Sequence[str] = LOCAL_SIZE_BUILTINS) -> tuple[Module, int]:
    """The specialised copy of ``module`` and the number of local-size reads folded (calls of
    ``builtins``: the mux ones, or OPENCL_LOCAL_SIZE_BUILTINS in frontend IR)."""
    sizes = [int(v) for v in local_size]
    if len(sizes) != 3 or any(v <= 0 for v in sizes):
        raise MuxError(Result.INVALID_VALUE, f"local size {tuple(local_size)} is not three positive sizes")
    out = _only_kernel(parse(str(module)), kernel)
    reqd = out.get_function(kernel).metadata.get(MD_REQD_WORK_GROUP_SIZE)
    if reqd is not None:
        from kernelkit.ir.metadata import md_int_values

        if list(md_int_values(reqd)) != sizes:
            raise MuxError(Result.INVALID_VALUE, f"@{kernel} requires work-group size "
                                                 f"{tuple(md_int_values(reqd))}, not {tuple(sizes)}")
    folded = 0
    for fn in out.functions:
        for inst in list(fn.instructions()):
            callee = inst.called_function if isinstance(inst, CallInst) else None
            if callee is None or callee.name not in builtins:
                continue
            dim = inst.args[0]
            if not isinstance(dim, ConstantInt):
                continue
            value = sizes[dim.value] if 0 <= dim.value < 3 else 1
            inst.replace_all_uses_with(ConstantInt(inst.type, value))
            inst.erase()
            folded += 1
    fn = out.get_function(kernel)
    fn.metadata[MD_REQD_WORK_GROUP_SIZE] = md_i32_tuple(sizes)
    set_attribute(fn, UNIFORM_WORK_GROUP_SIZE, "true")
    return out, folded
