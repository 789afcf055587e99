"""AMD CL2's kernel argument ABI on the finalized (SPIR address space) module, before amdgcn
code generation (spec 002 "Argument passing and kernel setup"):

* the six setup arguments (global offsets x/y/z, printf buffer, vqueue, aqlwrap; 64-bit) lead
  every kernel's arguments; the device library reads them through the kernarg segment pointer
  (``mux_builtins.cl`` with ``KK_CL2``), so ``get_global_offset`` and ``printf`` use them;
* structs arrive by pointer (a global pointer to the value, which the kernel copies);
* vectors are aligned to their element (LLVM would align them to their size): they become
  ``byref`` kernel arguments with that alignment;
* no hidden arguments (``"amdgpu-implicitarg-num-bytes"="0"``); the kernel_arg_* metadata goes
  (kernelkit writes CL2's own metadata from the kernel signature);
* a kernel that reads none of its arguments gets no parameters: LLVM sets up the kernarg
  segment pointer for every kernel with parameters, AMD's driver only for those that read it
  (reference/amdcl2 ksetup1: ``kernelSetup1(uint n)`` has 4 user SGPRs). That is seen once
  LLVM has optimised the kernels (clang's kernel stubs forward every argument to the kernel's
  body): ``without_unread_parameters`` on the optimised amdgcn IR.
"""

from __future__ import annotations

from kernelkit.abi.cl2 import SETUP_ARGUMENTS
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Argument
from kernelkit.mux.attributes import set_attribute

SPIR_GLOBAL, SPIR_CONSTANT, SPIR_PRIVATE = 1, 2, 0
KERNEL_ARG_METADATA = ("kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
                       "kernel_arg_base_type", "kernel_arg_type_qual", "kernel_arg_name")
IMPLICIT_ARG_BYTES = "amdgpu-implicitarg-num-bytes"


def _memcpy(module):
    name = "llvm.memcpy.p0.p1.i64"
    fn = module.get_function(name)
    if fn is None:
        fnty = T.FunctionType(T.void, (T.pointer(SPIR_PRIVATE), T.pointer(SPIR_GLOBAL), T.i64, T.i1))
        fn = module.declare_function(name, fnty)
    return fn


def _without(attributes: list, prefixes: tuple[str, ...]) -> list:
    return [a for a in attributes if not (isinstance(a, str) and a.startswith(prefixes))]


def add_setup_arguments(module, signatures) -> None:
    for sig in signatures:
        fn = module.get_function(sig.name)
        if fn is None or fn.is_declaration:
            continue
        if len(fn.args) != len(sig.args):
            raise CompileError(f"amdcl2: kernel {sig.name} has {len(fn.args)} parameters, its signature "
                               f"{len(sig.args)}")
        entry = fn.entry
        builder = IRBuilder().position_at_start(entry)
        params: list[Argument] = [Argument(T.i64, f"_.{n}") for n in SETUP_ARGUMENTS]
        for arg, kernel_arg in zip(list(fn.args), sig.args, strict=True):
            byval = next((a for a in arg.attributes if isinstance(a, str) and a.startswith("byval(")), None)
            if byval is not None:                         # struct: a global pointer to the value
                new = Argument(T.pointer(SPIR_GLOBAL), f"{arg.name or 'arg'}.cl2",
                               attributes=["noundef"])
                align = max(kernel_arg.align, 1)
                copy = builder.alloca(T.ArrayType(T.i8, kernel_arg.size), align=align)
                builder.call(_memcpy(module), [copy, new, const(T.i64, kernel_arg.size), const(T.i1, 0)])
                arg.replace_all_uses_with(copy)
                params.append(new)
            elif isinstance(arg.type, T.VectorType) and kernel_arg.kind == "vector":
                element = max(kernel_arg.size // (4 if kernel_arg.vector_width == 3 else kernel_arg.vector_width), 1)
                new = Argument(T.pointer(SPIR_CONSTANT), f"{arg.name or 'arg'}.cl2",
                               attributes=["noundef", f"byref({arg.type})", f"align {element}"])
                value = builder.load(arg.type, new, align=element)
                arg.replace_all_uses_with(value)
                params.append(new)
            else:
                params.append(arg)
        fnty = T.FunctionType(fn.function_type.return_type, tuple(p.type for p in params),
                              fn.function_type.vararg)
        fn.set_signature(fnty, params)
        for key in KERNEL_ARG_METADATA:
            fn.metadata.pop(key, None)
        set_attribute(fn, IMPLICIT_ARG_BYTES, "0")


def without_unread_parameters(amdgpu_ir_text: str) -> str:
    """The optimised amdgcn IR with no parameters for the kernels that read none of theirs."""
    from kernelkit.ir import parse

    module = parse(amdgpu_ir_text)
    changed = False
    for fn in module.kernels():
        if fn.args and not any(a.uses for a in fn.args):
            fn.set_signature(T.FunctionType(fn.function_type.return_type, (), fn.function_type.vararg), [])
            changed = True
    return str(module) if changed else amdgpu_ir_text
