"""printf formats in AMD CL2 kernel metadata (the ``aclPrintfFmt`` records of AMD's compiler
library metadata version 0.8, which the CL2 metadata blob serialises: RT_GPU_PRINTF_ARRAY).

Where they are: the header's ``numPrintf`` follows ``numArgs`` (64-bit: the first 8 bytes past
CLRX's known header fields; 32-bit: the upper half of the 8 bytes CLRX reads as argsNum); after
the argument names come ``numPrintf + 1`` records, the last all zero (the 48 / 24 zero bytes every
blob without printf ends with), then for each record its argument sizes (u32 each) and its
NUL-terminated format string. A record: struct size, ID, number of argument sizes, length of the
format string, and two pointers stored as zero (64-bit: Q, I + 4 padding bytes, Q, Q, Q, Q).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from kernelkit.errors import FormatError

PRINTF_STRUCTS = {32: struct.Struct("<IIIIII"), 64: struct.Struct("<QI4xQQQQ")}


@dataclass(frozen=True)
class PrintfFormat:
    id: int
    arg_sizes: tuple[int, ...]
    format: str


def printf_count(bits: int, args_num_field: int, header_tail: bytes) -> tuple[int, int]:
    """(numArgs, numPrintf) from the header (see the module docstring)."""
    if bits == 32:
        return args_num_field & 0xFFFFFFFF, args_num_field >> 32
    return args_num_field, (struct.unpack_from("<Q", header_tail, 0)[0] if len(header_tail) >= 8 else 0)


def encode_printf(formats: list[PrintfFormat], bits: int) -> bytes:
    """The records, the zero end record, then each record's sizes and string."""
    st = PRINTF_STRUCTS[bits]
    out = bytearray()
    for f in formats:
        out += st.pack(st.size, f.id, len(f.arg_sizes), len(f.format.encode("latin-1")), 0, 0)
    out += bytes(st.size)
    for f in formats:
        out += struct.pack(f"<{len(f.arg_sizes)}I", *f.arg_sizes) + f.format.encode("latin-1") + b"\0"
    return bytes(out)


def decode_printf(data: bytes, count: int, bits: int, base: int = 0) -> list[PrintfFormat]:
    """``count`` records from ``data`` (the bytes after the argument names; ``base`` their file
    offset, for errors)."""
    st = PRINTF_STRUCTS[bits]
    if st.size * (count + 1) > len(data):
        raise FormatError(f"{count} printf records do not fit in the metadata", offset=base,
                          field="metadata.numPrintf")
    heads = [st.unpack_from(data, k * st.size) for k in range(count)]
    at = st.size * (count + 1)
    out = []
    for k, (size, ident, nsizes, length, _, _) in enumerate(heads):
        if size != st.size:
            raise FormatError(f"printf record {k} has size {size}, expected {st.size}",
                              offset=base + k * st.size, field="metadata.printf.size")
        end = at + 4 * nsizes + length
        if end >= len(data) or data[end] != 0:
            raise FormatError(f"printf record {k}: sizes and format string run past the metadata",
                              offset=base + at, field="metadata.printf.fmtStr")
        sizes = struct.unpack_from(f"<{nsizes}I", data, at)
        out.append(PrintfFormat(ident, tuple(sizes), data[at + 4 * nsizes:end].decode("latin-1")))
        at = end + 1
    return out


# LLVM's AMDGPU printf runtime binding writes each format in "llvm.printf.fmts" as
# "ID:NumArgs:Size0:...:Format" with the C escapes spelled out again
_LLVM_ESCAPES = {"\\a": "\a", "\\b": "\b", "\\f": "\f", "\\n": "\n", "\\r": "\r", "\\t": "\t", "\\v": "\v",
                 "\\\\": "\\"}


def from_llvm_format(text: str) -> PrintfFormat:
    """One ``llvm.printf.fmts`` string as a CL2 record (the format string as the source wrote it)."""
    head = text.split(":")
    ident, nargs = int(head[0]), int(head[1])
    sizes = tuple(int(s) for s in head[2:2 + nargs])
    fmt = text.split(":", 2 + nargs)[2 + nargs]
    out, i = [], 0
    while i < len(fmt):
        pair = fmt[i:i + 2]
        if pair in _LLVM_ESCAPES:
            out.append(_LLVM_ESCAPES[pair])
            i += 2
        else:
            out.append(fmt[i])
            i += 1
    return PrintfFormat(ident, sizes, "".join(out))
