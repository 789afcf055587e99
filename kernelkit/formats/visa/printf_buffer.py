"""IGC's OpenCL printf buffer (the ``printf_buffer`` implicit input of a vISA kernel).

The buffer's first dword is the offset of its first free byte (the runtime sets it to 4); each
printf call adds its record's size to it with a 32-bit atomic add and writes, at the old offset,
the format's string index and then each argument as a type tag dword followed by its data (vector
tags are followed by the element count; ``%s`` arguments are string indices). A record that does
not fit is not written; when at least a dword is left, -1 is written there instead. Records hold no
padding: 8-byte values may sit at 4-byte offsets.

The tags and layouts are those IGC 1.0.12504 writes (its OpenCL printf resolution, seen in the
``_codegen.ll`` dumps of ``ocloc compile`` for tgllp and skl): the format and string literals are
numbered in the program, the numbering ships beside the kernels (kernelkit keeps it in the kernel's
``printf_strings``).
"""

from __future__ import annotations

import struct

from kernelkit.errors import FormatError

PRINTF_BUFFER_BYTES = 4 * 1024 * 1024     # the size IGC's code checks against
FIRST_RECORD = 4                          # the offset dword itself

# tag -> (name, element size in bytes, element type for the formatter, is a vector)
PRINTF_TAGS: dict[int, tuple[str, int, str, bool]] = {
    1: ("byte", 1, "i8", False), 2: ("short", 2, "i16", False), 3: ("int", 4, "i32", False),
    4: ("float", 4, "float", False), 5: ("string", 4, "string", False), 6: ("long", 8, "i64", False),
    7: ("pointer", 8, "ptr", False), 8: ("double", 8, "double", False),
    9: ("vector_byte", 1, "i8", True), 10: ("vector_short", 2, "i16", True), 11: ("vector_int", 4, "i32", True),
    12: ("vector_long", 8, "i64", True), 13: ("vector_float", 4, "float", True),
    14: ("vector_double", 8, "double", True),
}
TAG_OF: dict[str, int] = {name: tag for tag, (name, *_rest) in PRINTF_TAGS.items()}


def read_printf_buffer(data: bytes, strings: list[str], arguments: dict[int, int]
                       ) -> list[tuple[str, list[tuple[str, bytes]]]]:
    """The records of a printf buffer, in buffer order: (format, [(type, bytes)]) with the
    formatter's type names (``string`` arguments as their text's bytes). ``arguments`` gives the
    argument count of each format's string index. Stops at a -1 marker."""
    if len(data) < FIRST_RECORD:
        raise FormatError("printf buffer: offset 0: field used: the buffer is shorter than its offset dword")
    used = min(struct.unpack_from("<I", data, 0)[0], len(data))
    out = []
    off = FIRST_RECORD

    def dword(field: str) -> int:
        nonlocal off
        if off + 4 > used:
            raise FormatError(f"printf buffer: offset {off}: field {field}: the record ends past the used bytes")
        value = struct.unpack_from("<I", data, off)[0]
        off += 4
        return value

    while off + 4 <= used:
        index = dword("string index")
        if index == 0xFFFFFFFF:
            break
        if index not in arguments:
            raise FormatError(f"printf buffer: offset {off - 4}: field string index: {index} is not a format "
                              f"of the program")
        fmt = strings[index]
        values = []
        for _ in range(arguments[index]):
            if off >= used:
                break
            at = off
            tag = dword("type tag")
            if tag not in PRINTF_TAGS:
                raise FormatError(f"printf buffer: offset {at}: field type tag: unknown tag {tag}")
            _name, size, ty, vector = PRINTF_TAGS[tag]
            count = dword("vector size") if vector else 1
            nbytes = -(-size * count // 4) * 4
            if off + nbytes > used:
                raise FormatError(f"printf buffer: offset {off}: field argument data: the record ends past "
                                  f"the used bytes")
            raw = bytes(data[off:off + nbytes])
            off += nbytes
            if ty == "string":
                sindex = struct.unpack("<I", raw)[0]
                if sindex >= len(strings):
                    raise FormatError(f"printf buffer: offset {off - 4}: field string argument: {sindex} is not "
                                      f"a string of the program")
                values.append(("string", strings[sindex].encode() + b"\0"))
            else:
                values.append((f"<{count} x {ty}>" if vector else ty, raw[:size * count]))
        out.append((fmt, values))
    return out

