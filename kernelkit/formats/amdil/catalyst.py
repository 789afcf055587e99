"""Find AMD IL metadata blocks inside binaries (AMD Catalyst OpenCL 1.2 ``.clo`` files keep each
kernel's ``;ARGSTART:``…``;ARGEND:`` block as plain text in ``.rodata``)."""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.errors import FormatError
from kernelkit.formats.amdil.program import MetadataBlock, parse_metadata_block

START = b";ARGSTART:"
END = b";ARGEND:"


@dataclass
class EmbeddedBlock:
    offset: int          # byte offset of ";ARGSTART:" in the binary
    size: int            # bytes up to and including the newline after ";ARGEND:name"
    text: str
    block: MetadataBlock


def find_metadata_blocks(data: bytes) -> list[EmbeddedBlock]:
    """Every metadata block in ``data``, in file order. A block whose text is malformed raises
    ``FormatError`` naming the byte offset of its line."""
    out: list[EmbeddedBlock] = []
    pos = data.find(START)
    while pos >= 0:
        name_end = data.find(b"\n", pos)
        if name_end < 0:
            raise FormatError("unterminated ;ARGSTART line", offset=pos, field="ARGSTART")
        name = data[pos + len(START):name_end]
        closing = END + name + b"\n"
        end = data.find(closing, name_end)
        if end < 0:
            raise FormatError(f"metadata block {name.decode('latin-1')!r} has no matching ;ARGEND",
                              offset=pos, field="ARGEND")
        stop = end + len(closing)
        raw = data[pos:stop]
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError as exc:
            raise FormatError("metadata block holds non-ASCII bytes", offset=pos + exc.start,
                              field="ARGSTART") from None
        lines = text.split("\n")[:-1]
        try:
            block, _ = parse_metadata_block(lines, 0)
        except FormatError as exc:
            line = exc.line or 1
            offset = pos + sum(len(x) + 1 for x in lines[:line - 1])
            raise FormatError(f"embedded metadata: {exc.message}", offset=offset, line=line,
                              field=exc.field) from None
        out.append(EmbeddedBlock(pos, stop - pos, text, block))
        pos = data.find(START, stop)
    return out
