"""Call frame information (.debug_frame) with spec 001's AMDGPU extensions: pyelftools parses the
standard CFA instructions, this module adds LLVM's address-space CFA instructions
(tables.LLVM_CFA_OPS) and computes the rule rows itself (registers named by the AMDGPU DWARF
register mapping, CFA rules with their address space, expressions decoded with DW_OP_LLVM_*)."""

from __future__ import annotations

from elftools.common.utils import struct_parse
from elftools.dwarf.callframe import CIE, FDE, CallFrameInfo, CallFrameInstruction
from elftools.dwarf.constants import DW_CFA

from kernelkit.errors import FormatError
from kernelkit.formats.dwarf.expr import ExpressionDecoder
from kernelkit.formats.dwarf.tables import LLVM_CFA_OPS, register_name


class _AmdgpuCallFrameInfo(CallFrameInfo):
    """pyelftools' reader, one instruction at a time, with the LLVM vendor instructions added."""

    def _parse_instructions(self, structs, offset, end_offset):
        instructions = []
        while offset < end_offset:
            raw = struct_parse(structs.the_Dwarf_uint8, self.stream, offset)
            if raw in LLVM_CFA_OPS:
                _name, kinds = LLVM_CFA_OPS[raw]
                args = [struct_parse(structs.the_Dwarf_sleb128 if kind == "sleb" else structs.the_Dwarf_uleb128,
                                     self.stream) for kind in kinds]
                instructions.append(CallFrameInstruction(opcode=raw, args=args))
            else:
                instructions += super()._parse_instructions(structs, offset, offset + 1)
            offset = self.stream.tell()
        return instructions


def _cfa_text(cfa: dict, wave_size: int | None) -> str:
    if "expression" in cfa:
        return ", ".join(cfa["expression"])
    text = register_name(cfa["register"], wave_size)
    if cfa["offset"] or cfa.get("address_space") is not None:
        text += f"{cfa['offset']:+d}"
    if cfa.get("address_space") is not None:
        text += f" in addrspace{cfa['address_space']}"
    return text


class _RuleTable:
    """The DWARF 5 6.4.2 table of one FDE: rows of (pc, CFA rule, register rules)."""

    def __init__(self, cie, decoder: ExpressionDecoder, wave_size: int | None):
        self.code_factor = cie.header.get("code_alignment_factor") or 1
        self.data_factor = cie.header.get("data_alignment_factor") or 1
        self.decoder, self.wave_size = decoder, wave_size
        self.cfa: dict = {"register": None, "offset": 0}
        self.rules: dict[int, str] = {}
        self.initial: dict[int, str] = {}
        self.stack: list = []
        self.rows: list[dict] = []

    def _expression(self, block) -> str:
        return ", ".join(op.text() for op in self.decoder.decode(bytes(block)))

    def _register(self, number: int) -> str:
        return register_name(number, self.wave_size)

    def row(self, pc: int) -> None:
        rules = {self._register(reg): rule for reg, rule in sorted(self.rules.items())}
        cfa = None if self.cfa.get("register") is None and "expression" not in self.cfa else \
            _cfa_text(self.cfa, self.wave_size)
        self.rows.append({"pc": pc, "cfa": cfa, "rules": rules})

    def run(self, instructions, pc: int | None) -> int | None:   # noqa: C901 - one branch per instruction
        for ins in instructions:
            op, args = ins.opcode, list(ins.args)
            if op in LLVM_CFA_OPS:                 # DW_CFA_LLVM_def_aspace_cfa(_sf)
                offset = args[1] * (self.data_factor if LLVM_CFA_OPS[op][1][1] == "sleb" else 1)
                self.cfa = {"register": args[0], "offset": offset, "address_space": args[2]}
                continue
            match op:
                case DW_CFA.advance_loc | DW_CFA.advance_loc1 | DW_CFA.advance_loc2 | DW_CFA.advance_loc4:
                    if pc is not None:
                        self.row(pc)
                        pc += args[-1] * self.code_factor
                case DW_CFA.set_loc:
                    if pc is not None:
                        self.row(pc)
                        pc = args[0]
                case DW_CFA.def_cfa:
                    self.cfa = {"register": args[0], "offset": args[1]}
                case DW_CFA.def_cfa_sf:
                    self.cfa = {"register": args[0], "offset": args[1] * self.data_factor}
                case DW_CFA.def_cfa_register:
                    self.cfa = {**{k: v for k, v in self.cfa.items() if k != "expression"}, "register": args[0]}
                case DW_CFA.def_cfa_offset:
                    self.cfa = {**self.cfa, "offset": args[0]}
                case DW_CFA.def_cfa_offset_sf:
                    self.cfa = {**self.cfa, "offset": args[0] * self.data_factor}
                case DW_CFA.def_cfa_expression:
                    self.cfa = {"expression": [op.text() for op in self.decoder.decode(bytes(args[0]))]}
                case DW_CFA.undefined:
                    self.rules[args[0]] = "undefined"
                case DW_CFA.same_value:
                    self.rules[args[0]] = "same"
                case DW_CFA.offset | DW_CFA.offset_extended | DW_CFA.offset_extended_sf:
                    self.rules[args[0]] = f"[CFA{args[1] * self.data_factor:+d}]" if args[1] else "[CFA]"
                case DW_CFA.val_offset | DW_CFA.val_offset_sf:
                    self.rules[args[0]] = f"CFA{args[1] * self.data_factor:+d}" if args[1] else "CFA"
                case DW_CFA.register:
                    self.rules[args[0]] = self._register(args[1])
                case DW_CFA.expression:
                    self.rules[args[0]] = f"[{self._expression(args[1])}]"
                case DW_CFA.val_expression:
                    self.rules[args[0]] = self._expression(args[1])
                case DW_CFA.restore | DW_CFA.restore_extended:
                    if args[0] in self.initial:
                        self.rules[args[0]] = self.initial[args[0]]
                    else:
                        self.rules.pop(args[0], None)
                case DW_CFA.remember_state:
                    self.stack.append((dict(self.cfa), dict(self.rules)))
                case DW_CFA.restore_state:
                    if not self.stack:
                        raise FormatError("DW_CFA_restore_state without a remembered state", field=".debug_frame")
                    self.cfa, self.rules = self.stack.pop()
                case DW_CFA.nop | DW_CFA.GNU_args_size:
                    pass
                case _:
                    raise FormatError(f"CFA instruction {op!r} is not AMDGPU's", field=".debug_frame")
        return pc


def read_frames(dwarf, wave_size: int | None) -> list[dict]:
    """Every CIE and FDE of .debug_frame; per FDE its rule rows."""
    if not dwarf.has_CFI():
        return []
    section = dwarf.debug_frame_sec
    cfi = _AmdgpuCallFrameInfo(stream=section.stream, size=section.size, address=section.address,
                               base_structs=dwarf.structs)
    decoder = ExpressionDecoder(dwarf.structs, wave_size)
    out = []
    for entry in cfi.get_entries():
        header = entry.header
        if isinstance(entry, CIE):
            out.append({"kind": "CIE", "offset": entry.offset,
                        "augmentation": header.get("augmentation", b"").decode("utf-8", "replace"),
                        "code_alignment_factor": header.get("code_alignment_factor"),
                        "data_alignment_factor": header.get("data_alignment_factor"),
                        "return_address_register": register_name(header.get("return_address_register", 0),
                                                                 wave_size)})
            continue
        if not isinstance(entry, FDE):
            continue                                   # a zero terminator
        table = _RuleTable(entry.cie, decoder, wave_size)
        table.run(entry.cie.instructions, None)
        table.initial = dict(table.rules)
        pc = table.run(entry.instructions, header["initial_location"])
        if entry.instructions:
            table.row(pc)
        out.append({"kind": "FDE", "offset": entry.offset, "initial_location": header["initial_location"],
                    "address_range": header["address_range"], "rows": table.rows})
    return out
