"""The printf calls of a module (spec 003 "BaseModule::finalize": ``printf_calls``, one
``builtins::printf::descriptor`` per call): its format string and the types of its arguments.

``printf_descriptors(module)`` reads the calls to ``printf`` in module order; a format that is not
a constant string (OpenCL C 3.0 s6.15.14.2 requires a literal) gives ``format=None``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.ir.instructions import CallInst
from kernelkit.ir.module import GlobalVariable, Module
from kernelkit.ir.values import ConstantBytes, ConstantExpr


@dataclass(frozen=True)
class PrintfDescriptor:
    """builtins::printf::descriptor: the function calling printf, its format, its argument types."""

    function: str
    format: str | None
    argument_types: tuple[str, ...]


def _format_string(value) -> str | None:
    while isinstance(value, ConstantExpr) and value.operands:   # addrspacecast / getelementptr of the string
        value = value.operands[0]
    if isinstance(value, GlobalVariable) and isinstance(value.initializer, ConstantBytes):
        return value.initializer.data.split(b"\0", 1)[0].decode("utf-8", "replace")
    return None


def printf_descriptors(module: Module) -> list[PrintfDescriptor]:
    out = []
    for fn in module.functions:
        for inst in fn.instructions():
            callee = inst.called_function if isinstance(inst, CallInst) else None
            if callee is None or callee.name != "printf" or not inst.args:
                continue
            out.append(PrintfDescriptor(fn.name, _format_string(inst.args[0]),
                                        tuple(str(a.type) for a in inst.args[1:])))
    return out
