"""vISA instructions: one record per instruction and its binary encode/decode, driven by the
layouts of ``opcodes.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kernelkit.errors import FormatError
from kernelkit.formats.visa.byteio import ByteReader, ByteWriter
from kernelkit.formats.visa.opcodes import OPCODES, Layout, sub_layout
from kernelkit.formats.visa.operands import (
    Predicate,
    RawOperand,
    VectorOperand,
    read_raw,
    read_vector,
    write_raw,
    write_vector,
)


@dataclass
class Instruction:
    """``opcode`` plus the named fields of its layout (``sub`` for svm / lsc_untyped).
    ``exec`` fields are the raw byte (size code | mask << 4); ``pred`` is a Predicate or None."""
    opcode: int
    fields: dict[str, Any] = field(default_factory=dict)
    sub: int | None = None
    missing: tuple[str, ...] = ()   # fields lost by a truncating writer (lenient decoding only)

    @property
    def name(self) -> str:
        return OPCODES[self.opcode].name

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


def layout_of(inst: Instruction) -> Layout:
    info = OPCODES[inst.opcode]
    if inst.sub is None:
        return info.layout
    layout = sub_layout(inst.opcode, inst.sub)
    if layout is None:
        raise FormatError(f"{info.name}: unknown sub-opcode {inst.sub}", field="sub_opcode")
    return layout


def decode_instruction(r: ByteReader, *, truncated: bool = False) -> Instruction:
    """Decode one instruction. ``truncated`` applies the defect of IGC 1.0.12504's writer: of an
    instruction's layout (sub-opcode included) it writes only as many leading fields as the layout has
    fields other than exec size and predicate; the remaining fields are listed in ``missing``."""
    start = r.pos
    opcode = r.u8("opcode")
    info = OPCODES.get(opcode)
    if info is None:
        raise FormatError(f"opcode {opcode:#x} is not a vISA 4.1 instruction kernelkit decodes",
                          offset=start, field="opcode")
    inst = Instruction(opcode)
    layout = info.layout
    if info.family in ("svm", "lsc"):
        sub_pos = r.pos
        inst.sub = r.u8("sub_opcode")
        found = sub_layout(opcode, inst.sub)
        if found is None:
            raise FormatError(f"{info.name}: unknown sub-opcode {inst.sub}", offset=sub_pos,
                              field="sub_opcode")
        layout = found
    if truncated:
        full = len(layout) + (1 if inst.sub is not None else 0)
        keep = full - sum(1 for _n, k in layout if k in ("exec", "pred"))
        keep -= 1 if inst.sub is not None else 0
        inst.missing = tuple(name for name, _k in layout[keep:])
        layout = layout[:keep]
    for name, kind in layout:
        where = f"{info.name}.{name}"
        if kind == "exec":
            value: Any = r.u8(where)
            if value & 0xF > 5:
                raise FormatError(f"exec size code {value & 0xF} is not 1..32", offset=r.pos - 1,
                                  field=where)
        elif kind == "pred":
            value = Predicate.decode(r.u16(where))
        elif kind == "u8":
            value = r.u8(where)
        elif kind == "u16":
            value = r.u16(where)
        elif kind == "u32":
            value = r.u32(where)
        elif kind == "i32":
            value = r.i32(where)
        elif kind == "vec":
            value = read_vector(r, where)
        elif kind == "raw":
            value = read_raw(r, where)
        elif kind == "labels":
            count = r.u8(where)
            index = read_vector(r, where)
            inst.fields["index"] = index
            value = [r.u16(where) for _ in range(count)]
        else:  # pragma: no cover - table error
            raise AssertionError(kind)
        inst.fields[name] = value
    return inst


def encode_instruction(w: ByteWriter, inst: Instruction) -> None:
    w.u8(inst.opcode, "opcode")
    if inst.sub is not None:
        w.u8(inst.sub, "sub_opcode")
    for name, kind in layout_of(inst):
        if name not in inst.fields and kind != "pred":
            raise FormatError(f"{inst.name}: field {name} missing", offset=len(w), field=name)
        value = inst.fields.get(name)
        if kind == "exec":
            w.u8(value, name)
        elif kind == "pred":
            w.u16(value.encode() if isinstance(value, Predicate) else 0, name)
        elif kind == "u8":
            w.u8(value, name)
        elif kind == "u16":
            w.u16(value, name)
        elif kind == "u32":
            w.u32(value, name)
        elif kind == "i32":
            w.i32(value, name)
        elif kind == "vec":
            if not isinstance(value, VectorOperand):
                raise FormatError(f"{inst.name}: {name} is not a vector operand", field=name)
            write_vector(w, value)
        elif kind == "raw":
            if not isinstance(value, RawOperand):
                raise FormatError(f"{inst.name}: {name} is not a raw operand", field=name)
            write_raw(w, value)
        elif kind == "labels":
            w.u8(len(value), name)
            write_vector(w, inst.fields["index"])
            for label in value:
                w.u16(label, name)


def decode_stream(code: bytes, base: int = 0, valid: Callable[[Instruction], list[str]] | None = None
                  ) -> list[Instruction]:
    """Decode a whole instruction stream; errors name the file offset (``base`` + position).
    ``valid`` lists the fields of an instruction that name undeclared symbols (a damaged stream)."""
    r = ByteReader(code)
    out: list[Instruction] = []
    while r.pos < len(code):
        start = r.pos
        try:
            inst = decode_instruction(r)
        except FormatError as exc:
            offset = base + (exc.offset if exc.offset is not None else start)
            raise FormatError(f"instruction #{len(out)} (at {base + start:#x}): {exc.message}",
                              offset=offset, field=exc.field) from None
        bad = valid(inst) if valid else []
        if bad:
            raise FormatError(f"instruction #{len(out)} ({inst.name}) names undeclared symbols in "
                              f"{', '.join(bad)}", offset=base + start, field=f"{inst.name}.{bad[0]}")
        out.append(inst)
    return out


def decode_truncated_stream(code: bytes, valid: Callable[[Instruction], bool]) -> list[Instruction]:
    """Best-effort decoding of a stream written by IGC 1.0.12504 (see ``decode_instruction``): stops
    at the zero- or garbage-filled gap the defect leaves at the end (all-zero bytes, an undecodable
    instruction, or one that ``valid`` rejects because it names undeclared symbols)."""
    r = ByteReader(code)
    out: list[Instruction] = []
    end = len(bytes(code).rstrip(b"\0"))     # the zero-filled tail (computed once: linear time)
    while r.pos < end:
        try:
            inst = decode_instruction(r, truncated=True)
        except FormatError:
            break
        if not valid(inst):
            break
        out.append(inst)
    return out


def encode_stream(instructions: list[Instruction]) -> bytes:
    w = ByteWriter()
    for inst in instructions:
        encode_instruction(w, inst)
    return bytes(w.buf)
