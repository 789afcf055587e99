"""DWARF expressions with spec 001's AMDGPU extensions: pyelftools decodes the standard operations,
DW_OP_LLVM_user adds the DW_OP_LLVM_* ones (tables.LLVM_USER_OPS), and register operands are named
by the AMDGPU DWARF register mapping for the code's wavefront size."""

from __future__ import annotations

import re
from dataclasses import dataclass
from io import BytesIO

from elftools.common.exceptions import DWARFError
from elftools.dwarf.dwarf_expr import DWARFExprParser

from kernelkit.errors import FormatError
from kernelkit.formats.dwarf.tables import DW_OP_LLVM_USER, LLVM_USER_OPS, register_name

# operations whose first operand is a DWARF register number
_REGISTER_OPS = {"DW_OP_regx", "DW_OP_bregx", "DW_OP_regval_type", "DW_OP_LLVM_aspace_bregx",
                 "DW_OP_LLVM_call_frame_entry_reg"}

_NUMBERED_REGISTER = re.compile(r"DW_OP_b?reg(\d+)")


@dataclass(frozen=True)
class Operation:
    name: str
    operands: tuple
    register: str | None = None        # the AMDGPU register a register operation names
    llvm_user: bool = False            # encoded as DW_OP_LLVM_user + sub-operation

    def text(self) -> str:
        """llvm-dwarfdump's spelling: the name, then the register, then the other operands."""
        words = ["DW_OP_LLVM_user", self.name] if self.llvm_user else [self.name]
        operands = list(self.operands)
        if self.register is not None:
            if self.name in _REGISTER_OPS:
                operands = operands[1:]
            if _NUMBERED_REGISTER.fullmatch(self.name) or self.name == "DW_OP_bregx":
                if self.name.startswith("DW_OP_breg") and operands:     # llvm-dwarfdump: "SGPR33+8"
                    return " ".join([*words, f"{self.register}{operands[0]:+d}",
                                     *(f"{v:#x}" for v in operands[1:])])
            words.append(self.register)
        if self.name.startswith("DW_OP_breg") or self.name in ("DW_OP_fbreg", "DW_OP_bregx",
                                                                "DW_OP_consts"):
            words += [f"{v:+d}" for v in operands]
        else:
            words += [f"{v:#x}" if isinstance(v, int) else str(v) for v in operands]
        return " ".join(words)


def _leb(stream: BytesIO, signed: bool) -> int:
    value = shift = 0
    while True:
        byte = stream.read(1)
        if not byte:
            raise FormatError("DWARF expression ends inside a LEB128 operand", field="expression")
        value |= (byte[0] & 0x7F) << shift
        shift += 7
        if byte[0] < 0x80:
            return value - (1 << shift) if signed and byte[0] & 0x40 else value


def _llvm_user(stream: BytesIO) -> list:
    sub = _leb(stream, False)
    if sub not in LLVM_USER_OPS:
        raise FormatError(f"DW_OP_LLVM_user: unknown sub-operation {sub:#x}", offset=stream.tell(),
                          field="expression")
    name, kinds = LLVM_USER_OPS[sub]
    return [name] + [_leb(stream, kind == "sleb") for kind in kinds]


class ExpressionDecoder:
    """Decodes the expressions of one DWARF unit (its address and offset sizes)."""

    def __init__(self, structs, wave_size: int | None):
        self._parser = DWARFExprParser(structs)
        self._parser._dispatch_table[DW_OP_LLVM_USER] = _llvm_user     # the vendor multiplexer
        self.wave_size = wave_size

    def decode(self, expr: bytes | list[int]) -> list[Operation]:
        try:
            parsed = self._parser.parse_expr(expr)
        except (DWARFError, KeyError, ValueError) as exc:
            raise FormatError(f"undecodable DWARF expression {bytes(expr).hex()}: {exc}",
                              field="expression") from None
        return [self._operation(op) for op in parsed]

    def _operation(self, op) -> Operation:
        if op.op == DW_OP_LLVM_USER:
            name, *operands = op.args
            register = register_name(operands[0], self.wave_size) if name in _REGISTER_OPS else None
            return Operation(name, tuple(operands), register, llvm_user=True)
        name, operands = op.op_name, tuple(op.args)
        register = None
        numbered = _NUMBERED_REGISTER.fullmatch(name)
        if numbered:                                   # DW_OP_reg0..31, DW_OP_breg0..31
            register = register_name(int(numbered.group(1)), self.wave_size)
        elif name in _REGISTER_OPS:
            register = register_name(operands[0], self.wave_size)
        return Operation(name, operands, register)
