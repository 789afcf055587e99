"""vISA instruction operands: vector operands (general, address, predicate, indirect, immediate,
state), raw operands and the instruction predicate; their binary encoding (vISA >= 3.4)."""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.errors import FormatError
from kernelkit.formats.visa.byteio import ByteReader, ByteWriter
from kernelkit.formats.visa.tables import OPERAND_CLASSES, TYPES

GENERAL, ADDRESS, PREDICATE, INDIRECT, ADDRESSOF, IMMEDIATE, STATE = range(7)


@dataclass
class VectorOperand:
    """One vector operand. Fields used depend on ``cls``:
    general: index,row,col,region; address: index,offset,width; predicate: index;
    indirect: index,offset(addr),imm_offset,type,region; immediate: type,value; state: state_class,index,offset.
    ``modifier`` is the tag's bits 3-5 (sat on destinations)."""
    cls: int
    index: int = 0
    modifier: int = 0
    row: int = 0
    col: int = 0
    region: int = 0
    offset: int = 0
    width: int = 0
    imm_offset: int = 0
    type: int = 0
    value: int = 0
    state_class: int = 0

    @property
    def tag(self) -> int:
        return (self.cls & 7) | ((self.modifier & 7) << 3)


@dataclass
class RawOperand:
    index: int
    offset: int = 0


@dataclass
class Predicate:
    """The instruction predicate (UW): id bits 0-11, control bits 13-14, inverse bit 15."""
    id: int
    control: int = 0
    inverse: bool = False

    def encode(self) -> int:
        return (self.id & 0xFFF) | ((self.control & 3) << 13) | (0x8000 if self.inverse else 0)

    @staticmethod
    def decode(value: int) -> Predicate | None:
        if value == 0:
            return None
        return Predicate(value & 0xFFF, (value >> 13) & 3, bool(value & 0x8000))


def read_vector(r: ByteReader, field: str) -> VectorOperand:
    start = r.pos
    tag = r.u8(field)
    cls, mod = tag & 7, (tag >> 3) & 7
    if cls == GENERAL:
        return VectorOperand(GENERAL, r.u32(field), mod, r.u8(field), r.u8(field), region=r.u16(field))
    if cls == ADDRESS:
        return VectorOperand(ADDRESS, r.u16(field), mod, offset=r.u8(field), width=r.u8(field))
    if cls == PREDICATE:
        return VectorOperand(PREDICATE, r.u16(field), mod)
    if cls == INDIRECT:
        index, addr_off, imm = r.u16(field), r.u8(field), r.i16(field)
        bits, region = r.u8(field), r.u16(field)
        return VectorOperand(INDIRECT, index, mod, offset=addr_off, imm_offset=imm, type=bits,
                             region=region)
    if cls == IMMEDIATE:
        ty = r.u8(field) & 0xF
        size = 8 if TYPES[ty][1] == 8 else 4
        value = r.u64(field) if size == 8 else r.u32(field)
        return VectorOperand(IMMEDIATE, modifier=mod, type=ty, value=value)
    if cls == STATE:
        state_class, index, offset = r.u8(field), r.u16(field), r.u8(field)
        if state_class > 1:
            raise FormatError(f"state operand class {state_class} is neither surface nor sampler",
                              offset=start, field=field)
        return VectorOperand(STATE, index, mod, offset=offset, state_class=state_class)
    raise FormatError(f"operand class {cls} ({OPERAND_CLASSES.get(cls, 'invalid')}) cannot be read",
                      offset=start, field=field)


def write_vector(w: ByteWriter, op: VectorOperand) -> None:
    w.u8(op.tag, "tag")
    if op.cls == GENERAL:
        w.u32(op.index, "index")
        w.u8(op.row, "row_offset")
        w.u8(op.col, "col_offset")
        w.u16(op.region, "region")
    elif op.cls == ADDRESS:
        w.u16(op.index, "index")
        w.u8(op.offset, "offset")
        w.u8(op.width, "width")
    elif op.cls == PREDICATE:
        w.u16(op.index, "index")
    elif op.cls == INDIRECT:
        w.u16(op.index, "index")
        w.u8(op.offset, "addr_offset")
        w.i16(op.imm_offset, "indirect_offset")
        w.u8(op.type, "bit_property")
        w.u16(op.region, "region")
    elif op.cls == IMMEDIATE:
        w.u8(op.type, "type")
        if TYPES[op.type][1] == 8:
            w.u64(op.value & 0xFFFFFFFFFFFFFFFF, "value")
        else:
            w.u32(op.value & 0xFFFFFFFF, "value")
    elif op.cls == STATE:
        w.u8(op.state_class, "state_class")
        w.u16(op.index, "index")
        w.u8(op.offset, "offset")
    else:
        raise FormatError(f"operand class {op.cls} cannot be written", offset=len(w), field="tag")


def read_raw(r: ByteReader, field: str) -> RawOperand:
    return RawOperand(r.u32(field), r.u16(field))


def write_raw(w: ByteWriter, op: RawOperand) -> None:
    w.u32(op.index, "raw.index")
    w.u16(op.offset, "raw.offset")
