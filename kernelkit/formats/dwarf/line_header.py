"""Bounds of a .debug_line program header, checked before pyelftools parses it.

pyelftools parses a line program header's directory and file tables entry by entry, trusting the
counts: a DWARF 5 header claiming millions of entries of zero-size formats, or a unit length past
the section, costs seconds before it fails. This walk reads only the fixed fields, the entry
formats and the entry sizes (DWARF 5 6.2.4), and raises FormatError naming the offset and field of
the first value that cannot fit the bytes that are there.
"""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats.dwarf.cursor import ByteCursor

# DWARF 5 7.5.6 form codes with a fixed size, and those that take a ULEB or a length prefix (7.5.5).
_FIXED_FORM_SIZES = {0x0b: 1, 0x05: 2, 0x06: 4, 0x07: 8, 0x1e: 16,       # data1/2/4/8/16
                     0x0c: 1, 0x25: 1, 0x26: 2, 0x27: 3, 0x28: 4,           # flag, strx1..4
                     0x19: 0}                                               # flag_present
_OFFSET_FORMS = {0x0e, 0x1f, 0x1d, 0x17}  # strp, line_strp, strp_sup, sec_offset: one offset (4 or 8 bytes)
_LEB_FORMS = {0x0f, 0x1a, 0x0d}           # udata, strx, sdata (LEB128: same length rule)
_STRING_FORM = 0x08
_BLOCK_FORMS = {0x0a: 1, 0x03: 2, 0x04: 4, 0x09: None}   # block1/2/4: length prefix; block: ULEB length


class _Cursor(ByteCursor):
    def skip_form(self, form: int, offset_size: int, field: str) -> None:
        if form in _FIXED_FORM_SIZES:
            self.need(_FIXED_FORM_SIZES[form], field)
            self.pos += _FIXED_FORM_SIZES[form]
        elif form in _OFFSET_FORMS:
            self.need(offset_size, field)
            self.pos += offset_size
        elif form in _LEB_FORMS:
            self.uleb(field)
        elif form == _STRING_FORM:
            nul = self.data.find(b"\0", self.pos, self.end)
            if nul < 0:
                raise FormatError(f"{field} string has no terminating NUL", offset=self.pos, field=field)
            self.pos = nul + 1
        elif form in _BLOCK_FORMS:
            size = self.uleb(field) if _BLOCK_FORMS[form] is None else self.uint(_BLOCK_FORMS[form], field)
            self.need(size, field)
            self.pos += size
        else:
            raise FormatError(f"{field} uses form 0x{form:x}, which a line table entry cannot have",
                              offset=self.pos, field=field)


def check_line_program_header(section: bytes, offset: int) -> None:
    """Raise FormatError unless the line program at ``offset`` has a header whose counts fit its bytes."""
    cursor = _Cursor(section, offset, len(section))
    length, offset_size = cursor.uint(4, "unit_length"), 4
    if length == 0xFFFFFFFF:
        length, offset_size = cursor.uint(8, "unit_length"), 8
    cursor.need(length, "unit_length")
    cursor.end = cursor.pos + length
    version_at = cursor.pos
    version = cursor.uint(2, "version")
    if not 2 <= version <= 5:
        raise FormatError(f"line table version {version} (DWARF 2..5 define it)", offset=version_at, field="version")
    if version >= 5:
        cursor.uint(2, "address_size")            # address_size, segment_selector_size
    header_length = cursor.uint(offset_size, "header_length")
    cursor.need(header_length, "header_length")
    cursor.end = cursor.pos + header_length
    cursor.uint(3 if version >= 4 else 2, "minimum_instruction_length")
    cursor.uint(2, "line_base")                   # line_base, line_range
    opcode_base = cursor.uint(1, "opcode_base")
    cursor.need(max(opcode_base - 1, 0), "standard_opcode_lengths")
    cursor.pos += max(opcode_base - 1, 0)
    if version < 5:
        return                                    # NUL-terminated lists: bounded by the bytes themselves
    for table in ("directories", "file_names"):
        format_count = cursor.uint(1, f"{table} entry_format_count")
        forms = []
        for _ in range(format_count):
            cursor.uleb(f"{table} entry_format content type")
            forms.append(cursor.uleb(f"{table} entry_format form"))
        count_at = cursor.pos
        count = cursor.uleb(f"{table}_count")
        if count and not forms:
            raise FormatError(f"{count} {table} entries with no fields", offset=count_at, field=f"{table}_count")
        if count > cursor.end - cursor.pos:
            raise FormatError(f"{count} {table} entries in {cursor.end - cursor.pos} header bytes",
                              offset=count_at, field=f"{table}_count")
        for _ in range(count):
            for form in forms:
                cursor.skip_form(form, offset_size, f"{table} entry")
