"""Retarget SPIR-style IR to the host CPU (on :mod:`kernelkit.ir`).

- triple and data layout become the host's (llvmlite's default triple and target data);
- SPIR calling conventions go (``spir_kernel``/``spir_func`` mean nothing on x86-64);
- the SPIR address spaces 1..4 collapse into the flat address space 0 (on the host global,
  constant, local, private and generic memory are all ordinary memory), ``addrspacecast``
  becomes ``bitcast`` and intrinsic names are re-mangled accordingly
  (:func:`kernelkit.ir.transforms.address_spaces.flatten_address_spaces`);
- every function except the kernel entry points becomes ``internal`` + ``alwaysinline``
  (OpenCL C has no recursion and no function pointers), ``noinline``/``optnone`` go.
"""

from __future__ import annotations

import re

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.module import Function, Module
from kernelkit.ir.transforms.address_spaces import flatten_address_spaces

SPIR_SPACES = (1, 2, 3, 4)
SPIR_CONVENTIONS = ("spir_kernel", "spir_func")
KERNEL_ATTRIBUTE = '"mux-kernel"="entry-point"'
_MEMORY_INTRINSICS = ("llvm.memcpy", "llvm.memmove", "llvm.memset")
_ALIGN_RE = re.compile(r"^align \d+$")


def is_kernel(f: Function) -> bool:
    return f.calling_conv == "spir_kernel" or KERNEL_ATTRIBUTE in f.all_attributes()


def _relax_alignment(inst: I.Instruction) -> None:
    """Vector loads/stores and memory intrinsics get ``align 1``: buffers from numpy (or views into
    them) need not have the alignment of OpenCL vector types, and x86 aligned moves fault on a
    misaligned address."""
    if isinstance(inst, I.LoadInst | I.StoreInst):
        ty = inst.type if isinstance(inst, I.LoadInst) else inst.value.type
        if not inst.atomic and isinstance(ty, T.VectorType) and inst.align is not None:
            inst.align = 1
    elif isinstance(inst, I.CallInst):
        callee = inst.called_function
        if callee is not None and callee.name.startswith(_MEMORY_INTRINSICS):
            inst.arg_attributes = [["align 1" if _ALIGN_RE.match(a) else a for a in attrs]
                                   for attrs in inst.arg_attributes]


def retarget(module: Module, triple: str, datalayout: str) -> list[str]:
    """Rewrite ``module`` in place; returns the names of the kernel entry points."""
    module.triple, module.data_layout = triple, datalayout
    for group in module.attribute_groups:
        group.attributes = [a for a in group.attributes if a not in ("noinline", "optnone")]
    kernels = []
    for f in module.functions:
        kernel = is_kernel(f)
        if f.calling_conv in SPIR_CONVENTIONS:
            f.calling_conv = ""
        if f.is_declaration:
            continue
        if kernel:
            kernels.append(f.name)
        else:
            f.linkage, f.preemption, f.visibility, f.dll_storage = "internal", "", "", ""
            f.attributes.insert(0, "alwaysinline")
        for inst in f.instructions():
            if isinstance(inst, I.CallInst) and inst.calling_conv in SPIR_CONVENTIONS:
                inst.calling_conv = ""
    flatten_address_spaces(module, SPIR_SPACES)
    for f in module.functions:
        for inst in f.instructions():
            _relax_alignment(inst)
    return kernels
