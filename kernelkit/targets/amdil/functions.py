"""OpenCL functions kept out of line (``__attribute__((noinline))``) as IL functions with the
register calling convention of AMD's compiler: ``call N ; name`` into ``func N ; name`` …
``ret_dyn`` / ``endfunc``, arguments and results in the registers from ``r1`` on, filled as
AMD's AMDIL calling convention (AMDILCallingConv.td) assigns them — a 32-bit value takes the
next free component (``r1.x``, ``r1.y``, … ``r2.x``), a 64-bit value or two-element vector the
next free ``xy``/``zw`` pair, a three/four-element vector the next free whole register (wider
vectors several). IL registers are shared by all functions, so each function's own registers
are placed above those of every caller, and a body that calls copies its incoming argument
registers first; likewise a function's private arrays sit above its callers' frames in the
kernel's private array, which (with its ``;memory:hwprivate``) grows to cover them. Each
function has its own ``;ARGSTART`` block (``;uniqueid``, ``;function:`` for what it calls) and
its own literals, numbered after every kernel's."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.values import ConstantInt
from kernelkit.targets.amdil.isel import KernelSelector
from kernelkit.targets.amdil.regs import Slot, slot_count

FIRST_ARGUMENT_REGISTER = 1
MAX_ARGUMENT_REGISTERS = 128


def _pieces(ty: T.Type) -> list[int]:
    """The sizes (in 32-bit components) a value is passed in: 1, 2 or 4 per piece."""
    n = slot_count(ty)
    if isinstance(ty, T.VectorType):
        if n == 2:
            return [2]
        return [4] * ((n + 3) // 4)
    if n == 1:
        return [1]
    if n == 2:
        return [2]
    raise CompileError(f"amdil: a value of type {ty} cannot be passed to an IL function")


def assign(types: list[T.Type]) -> list[list[Slot]]:
    """The argument (or result) registers of each value, in the calling convention's order."""
    used: set[tuple[int, int]] = set()
    out = []
    for ty in types:
        n = slot_count(ty)
        slots: list[Slot] = []
        for size in _pieces(ty):
            found = None
            for reg in range(FIRST_ARGUMENT_REGISTER, MAX_ARGUMENT_REGISTERS):
                starts = {1: range(4), 2: (0, 2), 4: (0,)}[size]
                for c in starts:
                    comps = [(reg, c + k) for k in range(size)]
                    if not any(x in used for x in comps):
                        found = comps
                        break
                if found:
                    break
            if found is None:
                raise CompileError("amdil: too many arguments for the IL calling convention")
            used.update(found)
            slots += [Slot("r", r, c) for r, c in found]
        out.append(slots[:n])
    return out


def function_calls(fn) -> list:
    """The defined non-kernel functions ``fn`` calls (in order of first call)."""
    seen: list = []
    for b in fn.blocks:
        for i in b.instructions:
            callee = getattr(i, "called_function", None) if i.opcode == "call" else None
            if callee is not None and callee.blocks and callee.calling_conv != "spir_kernel" \
                    and callee not in seen:
                seen.append(callee)
    return seen


def out_of_line_problem(fn, module) -> str | None:
    """Why ``fn`` cannot be an IL function of its own (then it is inlined), or None."""
    for b in fn.blocks:
        for i in b.instructions:
            if isinstance(i, I.AllocaInst) and i.operands and \
                    not isinstance(i.operands[0], ConstantInt):
                return "a variable-sized private array"
            callee = getattr(i, "called_function", None) if i.opcode == "call" else None
            name = callee.name if callee is not None else ""
            if name == "printf" or "image" in name or "counter32" in name or \
                    "barrier" in name:
                return f"a call to {name}"
            for op in i.operands:
                if getattr(op, "addrspace", None) == 3 and op in module.globals:
                    return "__local variables"
    for a in fn.args:
        if any(isinstance(x, str) and x.startswith(("byval", "sret")) for x in a.attributes):
            return "an argument passed by value in memory"
    try:
        assign([a.type for a in fn.args])
        if not isinstance(fn.return_type, T.VoidType):
            assign([fn.return_type])
    except CompileError as exc:
        return exc.message
    return None


class FunctionSelector(KernelSelector):
    """Selects a non-kernel function: parameters from the calling convention's registers
    (copied into the function's own), results into them before ``ret_dyn``."""

    def prologue(self) -> None:
        for arg, regs in zip(self.fn.args, assign([a.type for a in self.fn.args]), strict=True):
            self.values[id(arg)] = self.em.new("mov", regs)

    def return_value(self, value) -> None:
        (regs,) = assign([value.type])
        self.em.mov(regs, self.val(value))
