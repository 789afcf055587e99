"""SPIR-V binary modules: header, instruction stream, literal strings (SPIR-V spec §2.3, §2.2.1).

``read_module(data)`` decodes a module of either endianness into a ``SpirvModule``; a malformed
module raises FormatError naming the byte offset and the field.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats.spirv.tables import OPCODES

MAGIC = 0x07230203   # §3.1 "Magic Number"
HEADER_WORDS = 5     # §2.3 "Physical Layout": magic, version, generator, bound, schema


@dataclass
class Instruction:
    """One instruction: its opcode, its operand words (after the first word) and byte offset."""

    opcode: int
    operands: tuple[int, ...]
    offset: int

    @property
    def name(self) -> str:
        return OPCODES.get(self.opcode, f"Unknown{self.opcode}")

    def string(self, start: int) -> tuple[str, int]:
        """The literal string starting at operand ``start`` and the operand index after it."""
        return decode_string(self.operands, start, self.offset + 4 * (start + 1))


@dataclass
class SpirvModule:
    version: tuple[int, int]
    generator: int
    bound: int
    schema: int
    instructions: list[Instruction] = field(default_factory=list)


@contextmanager
def malformed_operands(inst: Instruction) -> Iterator[None]:
    """Reading ``inst``: operands that do not fit its opcode (too few words, an id naming nothing or the
    wrong kind of thing) are a FormatError at the instruction's offset (so is one raised without an offset)."""
    try:
        yield
    except FormatError as exc:
        if exc.offset is not None or exc.line is not None:
            raise
        raise FormatError(f"Op{inst.name}: {exc.message}", offset=inst.offset, field=exc.field) from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise FormatError(f"Op{inst.name}: {type(exc).__name__}: {exc}", offset=inst.offset,
                          field="operands") from None


def decode_string(words: tuple[int, ...], start: int, offset: int = 0) -> tuple[str, int]:
    """A nul-terminated UTF-8 literal packed little-end first into ``words[start:]`` (§2.2.1)."""
    out = bytearray()
    for i in range(start, len(words)):
        chunk = words[i].to_bytes(4, "little")
        end = chunk.find(b"\0")
        if end >= 0:
            out += chunk[:end]
            try:
                return out.decode("utf-8"), i + 1
            except UnicodeDecodeError:
                raise FormatError("literal string is not UTF-8", offset=offset, field="literal string") from None
        out += chunk
    raise FormatError("literal string has no terminating nul", offset=offset, field="literal string")


def read_module(data: bytes) -> SpirvModule:
    data = bytes(data)
    if len(data) % 4:
        raise FormatError(f"size {len(data)} is not a multiple of 4", offset=len(data) & ~3, field="word")
    if len(data) < 4 * HEADER_WORDS:
        raise FormatError("shorter than the 5-word SPIR-V header", offset=len(data), field="header")
    for order in "<>":
        if struct.unpack_from(order + "I", data)[0] == MAGIC:
            break
    else:
        raise FormatError(f"magic number {data[:4].hex()} is not SPIR-V's 0x07230203", offset=0, field="magic")
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    version = words[1]
    if version & 0xFF0000FF or not 0x10000 <= version <= 0x10600:
        raise FormatError(f"version word {version:#x} is not SPIR-V 1.0-1.6", offset=4, field="version")
    module = SpirvModule(((version >> 16) & 0xFF, (version >> 8) & 0xFF), words[2], words[3], words[4])
    if module.bound == 0:
        raise FormatError("id bound is 0", offset=12, field="bound")
    i = HEADER_WORDS
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            raise FormatError(f"instruction word count 0 (opcode {opcode})", offset=4 * i, field="word count")
        if i + count > len(words):
            raise FormatError(f"instruction of {count} words runs past the end of the module", offset=4 * i,
                              field="word count")
        module.instructions.append(Instruction(opcode, words[i + 1:i + count], 4 * i))
        i += count
    return module
