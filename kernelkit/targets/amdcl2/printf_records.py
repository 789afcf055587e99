"""Each CL2 kernel's printf formats for its metadata (formats/amdcl2/printf.py): the records
LLVM's AMDGPU printf binding numbered (``!llvm.printf.fmts``: the IDs the code writes into the
printf buffer), each kernel getting those of the printf calls it reaches (its own and those of
the functions it calls), as AMD's runtime looks a kernel's printf IDs up in that kernel's list."""

from __future__ import annotations

from kernelkit.formats.amdcl2.printf import PrintfFormat, from_llvm_format
from kernelkit.ir.instructions import CallInst
from kernelkit.ir.metadata import MDNode, MDString
from kernelkit.ir.module import Function, GlobalVariable
from kernelkit.ir.values import ConstantBytes, ConstantExpr


def _format_text(value) -> str | None:
    while isinstance(value, ConstantExpr):
        value = value.operands[0]
    if isinstance(value, GlobalVariable) and isinstance(value.initializer, ConstantBytes):
        return value.initializer.data.split(b"\0", 1)[0].decode("latin-1")
    return None


def reached_formats(module) -> dict[str, set[str]]:
    """Kernel name -> format strings of the printf calls it reaches (before the printf binding)."""
    calls: dict[str, set[str]] = {}
    formats: dict[str, set[str]] = {}
    for fn in module.functions:
        for inst in fn.instructions():
            if not isinstance(inst, CallInst) or not isinstance(inst.callee, Function):
                continue
            if inst.callee.name == "printf" and inst.args:
                text = _format_text(inst.args[0])
                if text is not None:
                    formats.setdefault(fn.name, set()).add(text)
            else:
                calls.setdefault(fn.name, set()).add(inst.callee.name)
    out = {}
    for kernel in module.kernels():
        seen, todo, found = set(), [kernel.name], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            found |= formats.get(name, set())
            todo += calls.get(name, ())
        out[kernel.name] = found
    return out


def llvm_printf_formats(amdgpu_module) -> list[PrintfFormat]:
    """The module's ``!llvm.printf.fmts`` records."""
    out = []
    for node in amdgpu_module.named_metadata.get("llvm.printf.fmts", []):
        if isinstance(node, MDNode) and node.operands and isinstance(node.operands[0], MDString):
            out.append(from_llvm_format(node.operands[0].value))
    return sorted(out, key=lambda f: f.id)


def kernel_printf_formats(reached: dict[str, set[str]], amdgpu_ir_text: str) -> dict[str, list[PrintfFormat]]:
    from kernelkit.ir import parse

    records = llvm_printf_formats(parse(amdgpu_ir_text))
    return {k: [r for r in records if r.format in texts] for k, texts in reached.items()}
