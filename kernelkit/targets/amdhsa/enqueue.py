"""Device-side enqueue on AMDGPU: the block kernels of ``enqueue_kernel`` as clang 22 emits them
for amdgcn (SPIR IR edited in place on kernelkit.ir; runs before the address-space mapping).

* the enqueued kernel gets its block literal by value in its kernarg segment (a ``byref``
  argument of the literal's type: metadata ``by_value``, named ``block_literal``);
* each block kernel has a runtime handle ``@K.runtime.handle`` = {kernel object, private segment
  size, group segment size} in section ``.amdgpu.kernel.runtime.handle``, which the loader fills
  in and LLVM names as the kernel's ``.device_enqueue_symbol`` (``!associated``);
* ``__enqueue_kernel_*`` and ``__get_kernel_*_impl`` receive that handle instead of the kernel's
  address (the device library, ``enqueue.cl``, dispatches through it).
"""

from __future__ import annotations

from kernelkit import ir
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import TypeAttribute
from kernelkit.ir.values import ConstantAggregate, ConstantExpr, const_int, null, zeroinitializer

RUNTIME_HANDLE_SECTION = ".amdgpu.kernel.runtime.handle"
RUNTIME_HANDLE_TYPE = T.LiteralStructType((T.pointer(1), T.i32, T.i32))
RUNTIME_HANDLE_SUFFIX = ".runtime.handle"
BLOCK_LITERAL_ARG = "block_literal"
GENERIC = T.pointer(4)     # SPIR's generic address space
# clang names a block's function `<enclosing>_block_invoke[_N]` (and its kernel `..._block_invoke[_N]_kernel`)
_BLOCK_NAME = "_block_invoke"
# what a block kernel's address is passed to (clang, and the SPIR-V reader as clang does)
_BLOCK_KERNEL_USERS = ("__enqueue_kernel_", "__get_kernel_")


def _generic_refs(fn: ir.Function) -> list[ConstantExpr]:
    """The constant expressions ``addrspacecast (ptr @fn to ptr addrspace(4))``."""
    return [u for u in fn.users if isinstance(u, ConstantExpr) and u.opcode == "addrspacecast"
            and u.type == GENERIC and u.operands[0] is fn]


def _literal_type(module: ir.Module, kernel: ir.Function, refs: list[ConstantExpr]) -> tuple[T.Type, int | None]:
    """(type, alignment) of the block literal a call passes along with ``kernel``'s address: a
    private copy (an alloca, perhaps behind a cast to generic) or, for a block that captures
    nothing, a constant global."""
    calls = [(call, i) for f in module.functions for call in f.instructions() if isinstance(call, ir.CallInst)
             for i, op in enumerate(call.operands[:-1]) if op in refs]
    for call, i in calls:
        source = call.operands[i + 1]
        if isinstance(source, ir.CastInst) and source.opcode == "addrspacecast" and source.type == GENERIC:
            source = source.operands[0]
        if isinstance(source, ir.AllocaInst):
            return source.allocated_type, source.align
    for call, i in calls:
        cast = call.operands[i + 1]
        if isinstance(cast, ConstantExpr) and cast.opcode == "addrspacecast" and cast.type == GENERIC \
                and isinstance(cast.operands[0], ir.GlobalVariable) and cast.operands[0].addrspace == 1 \
                and cast.operands[0].initializer is not None:
            return cast.operands[0].value_type, cast.operands[0].align
    raise CompileError(f"amdhsa: cannot find the block literal enqueued with {kernel.name}")


def _enqueues(module: ir.Module) -> bool:
    """Does the module declare a runtime call a block kernel is passed to? (Most do not.)"""
    return any(f.name.startswith(_BLOCK_KERNEL_USERS) for f in module.functions)


def for_code_object_v2(module: ir.Module) -> None:
    """Code object V2 holds nothing but kernels in .text (each behind its amd_kernel_code_t): the
    block literal's invoke-function field, which no AMDGPU code calls through (the block kernel
    calls the invoke function directly, and it is inlined there), is stored as null, and the block
    kernels lose ``!associated`` (which would put them in a section of their own); the V2 writer
    names the runtime handle (``RuntimeHandle``) from its symbol instead."""
    if not any(_BLOCK_NAME in f.name for f in module.functions):
        return
    for g in [*module.globals, *module.functions]:
        g.metadata.pop("associated", None)
    for fn in module.functions:
        if fn.is_declaration or fn.calling_conv != "spir_func" or not _is_block_invoke(fn.name):
            continue
        for ref in _generic_refs(fn):
            ref.replace_all_uses_with(null(GENERIC))


def _is_block_invoke(name: str) -> bool:
    head, _, tail = name.rpartition(_BLOCK_NAME)
    return bool(head) and (tail == "" or (tail[:1] == "_" and tail[1:].isdigit()))


def _kernel_arg_metadata(n_local: int) -> dict[str, MDNode]:
    """The ``kernel_arg_*`` metadata of a block kernel: its literal, then ``n_local`` ``local void *``."""
    def strings(first: str, rest: str) -> MDNode:
        return MDNode([MDString(first)] + [MDString(rest)] * n_local)

    type_ = strings("__block_literal", "void*")
    return {"kernel_arg_addr_space": MDNode([ValueAsMetadata(const_int(T.i32, s)) for s in [0] + [3] * n_local]),
            "kernel_arg_access_qual": strings("none", "none"),
            "kernel_arg_type": type_, "kernel_arg_base_type": type_,
            "kernel_arg_type_qual": strings("", ""),
            "kernel_arg_name": MDNode([MDString(BLOCK_LITERAL_ARG)]
                                      + [MDString(f"local_arg{i}") for i in range(1, n_local + 1)])}


def _literal_by_value(kernel: ir.Function, ty: T.Type, align: int | None) -> None:
    """The kernel's first parameter (its block literal, a generic pointer) becomes the literal
    itself, ``byref`` in the constant address space; the body gets a generic pointer to it."""
    if not kernel.args or kernel.args[0].type != GENERIC:
        raise CompileError(f"amdhsa: block kernel {kernel.name} does not take its literal as its first argument")
    old = kernel.args[0]
    attributes = [TypeAttribute("byref", ty)] + ([f"align {align}"] if align is not None else [])
    literal = ir.Argument(T.pointer(2), f"{old.name}.kklit", 0, attributes)
    cast = IRBuilder().position_at_start(kernel.entry).addrspacecast(literal, GENERIC, old.name)
    old.replace_all_uses_with(cast)
    kernel.set_signature(T.FunctionType(kernel.return_type, (literal.type, *kernel.function_type.params[1:]),
                                        kernel.function_type.vararg), [literal, *kernel.args[1:]])


def block_kernels_to_amdgpu(module: ir.Module) -> None:
    if not _enqueues(module):
        return
    blocks = sorted((fn for fn in module.functions if not fn.is_declaration and fn.calling_conv == "spir_kernel"
                     and _generic_refs(fn)), key=lambda fn: fn.name)
    if not blocks:
        return
    literals = {fn.name: _literal_type(module, fn, _generic_refs(fn)) for fn in blocks}
    handles = []
    for kernel in blocks:
        handle = ir.GlobalVariable(f"{kernel.name}{RUNTIME_HANDLE_SUFFIX}", RUNTIME_HANDLE_TYPE,
                                   zeroinitializer(RUNTIME_HANDLE_TYPE), addrspace=1, constant=True)
        handle.linkage = "internal"
        handle.externally_initialized = True
        handle.section = RUNTIME_HANDLE_SECTION
        for ref in _generic_refs(kernel):
            ref.set_operand(0, handle)
        _literal_by_value(kernel, *literals[kernel.name])
        kernel.metadata["associated"] = MDNode([ValueAsMetadata(handle)])
        if "kernel_arg_addr_space" not in kernel.metadata:
            n_local = sum(1 for a in kernel.args[1:] if a.type == T.pointer(3))
            kernel.metadata.update(_kernel_arg_metadata(n_local))
        handles.append(handle)
    if module.get_global("llvm.used") is not None:
        raise CompileError("amdhsa: modules with @llvm.used and device-side enqueue are not supported")
    for handle in handles:
        module.add_global(handle)
    # SPIR's generic pointers (address space 4) become AMDGPU's flat ones
    used_type = T.ArrayType(GENERIC, len(handles))
    used = ir.GlobalVariable("llvm.used", used_type, ConstantAggregate(
        used_type, [ConstantExpr(GENERIC, "addrspacecast", (h,)) for h in handles]))
    used.linkage = "appending"
    used.section = "llvm.metadata"
    module.add_global(used)
