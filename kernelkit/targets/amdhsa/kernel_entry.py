"""Kernel-entry edits of the AMDGPU module on kernelkit.ir: kernel aggregates by reference into
the kernarg segment, every hidden argument kept, and code object V2's one-piece kernels."""

from __future__ import annotations

import re

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Argument, Module, TypeAttribute
from kernelkit.ir.values import InlineAsm

IMPLICIT_ARG_POINTER = "llvm.amdgcn.implicitarg.ptr"
# the helpers LLVM adds calls to while optimising (printf binding): left alone until it has
LATE_HELPER = re.compile(r"__kk_\w+|__printf_alloc")
_ALIGN = re.compile(r"align (\d+)")


def kernel_byval_to_byref(module: Module) -> None:
    """Kernel aggregates arrive by reference into the kernarg segment on AMDGPU (clang's
    ``byref`` in the constant address space, SPIR's 2); the SPIR IR passes them ``byval``. The
    kernel gets ``%x.kkarg`` and copies it into a private ``%x`` at entry."""
    for f in module.functions:
        if f.is_declaration or f.calling_conv != "spir_kernel":
            continue
        copies = []
        args = []
        for a in f.args:
            byval = next((x for x in a.attributes if isinstance(x, TypeAttribute) and x.kind == "byval"), None)
            if byval is None:
                args.append(a)
                continue
            align = next((int(m.group(1)) for x in a.attributes if (m := _ALIGN.fullmatch(x))), 1)
            attributes = [TypeAttribute("byref", byval.type) if x is byval else x
                          for x in a.attributes if x != "captures(none)"]
            by_reference = Argument(T.pointer(2), f"{a.name}.kkarg" if a.name else "", a.index, attributes)
            copies.append((a, by_reference, byval.type, align))
            args.append(by_reference)
        if not copies:
            continue
        f.set_signature(T.FunctionType(f.return_type, tuple(a.type for a in args), f.function_type.vararg), args)
        b = IRBuilder()
        b.block, b.before = f.entry, (f.entry.instructions[0] if f.entry.instructions else None)
        for old, by_reference, ty, align in copies:
            copy = b.alloca(ty, align=align, name=old.name)
            value = b.load(ty, by_reference, f"{old.name}.kkval" if old.name else "", align)
            b.store(value, copy, align)
            old.replace_all_uses_with(copy)


def keep_implicit_args(module: Module, but: frozenset[str] = frozenset()) -> None:
    """The kernels (all but those in ``but``) keep all their hidden (implicit) arguments, as
    clang's kernels that call external builtins have them: the implicit argument pointer is handed
    to an empty inline asm statement, so LLVM cannot prove it unused and size the kernarg segment
    without it. The statement touches no memory, so loads stay scalar where LLVM can prove
    them unclobbered."""
    kernels = [f for f in module.functions
               if not f.is_declaration and f.calling_conv == "amdgpu_kernel" and f.name not in but]
    if not kernels:
        return
    constant = T.pointer(4)
    intrinsic = module.declare_function(IMPLICIT_ARG_POINTER, T.FunctionType(constant, ()))
    asm_type = T.FunctionType(T.void, (constant,))
    for f in kernels:
        b = IRBuilder()
        b.block, b.before = f.entry, (f.entry.instructions[0] if f.entry.instructions else None)
        pointer = b.call(intrinsic, [], "kk.implicitarg")
        use = b.call(InlineAsm(T.ptr, "", "s", ["sideeffect"]), [pointer], function_type=asm_type)
        use.attributes = ["memory(none)"]


def force_inline(module: Module) -> None:
    """Code object V2 needs each kernel's code in one piece after its amd_kernel_code_t: every
    other function becomes internal and always-inline (``__kk_*``/``__printf_alloc`` are left
    alone until LLVM has added the calls to them), and nothing is noinline or optnone."""
    for f in module.functions:
        if f.is_declaration or f.calling_conv == "amdgpu_kernel":
            continue
        if LATE_HELPER.fullmatch(f.name) and f.linkage != "internal":
            continue
        f.linkage, f.preemption, f.visibility = "internal", "", ""
        if "alwaysinline" not in f.all_attributes():
            f.attributes.append("alwaysinline")
    for group in module.attribute_groups:
        group.attributes = [a for a in group.attributes if a not in ("noinline", "optnone")]



def with_attribute_everywhere(module: Module, key: str, value: str) -> None:
    """Every attribute group of the module says ``"key"="value"`` (e.g. the f32 denormal mode, which
    all functions must share for the inliner to inline them into each other)."""
    own = f'"{key}"='
    for group in module.attribute_groups:
        group.attributes = [a for a in group.attributes if not (isinstance(a, str) and a.startswith(own))]
        group.attributes.append(f'"{key}"="{value}"')
