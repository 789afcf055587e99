"""Damaged DWARF the fuzzer found, rebuilt by hand from a -g code object: each is a FormatError naming its
field, or (where the damage leaves a readable unit) is listed as such instead of crashing the listing. A .debug_line program header is checked against DWARF 5 6.2.4 before pyelftools parses it (a unit length
past the section, or directory/file counts that cannot fit the header's bytes: one such header made pyelftools
parse ~220,000 phantom entries for seconds); a subprogram's pc range must be addresses."""

from __future__ import annotations

import struct

import pytest
from elftools.elf.elffile import ELFFile

from fuzz.targets import dwarf_seeds
from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu import inspect as amdgpu


@pytest.fixture(scope="module")
def line_program() -> tuple[bytes, int]:
    """A DWARF 5 -g code object and the file offset of its first line program (DWARF 5 6.2.4 layout)."""
    import io

    data = dwarf_seeds()[0]
    section = ELFFile(io.BytesIO(data)).get_section_by_name(".debug_line")
    start = section["sh_offset"]
    assert struct.unpack_from("<H", data, start + 4)[0] == 5
    return data, start


def _patched(data: bytes, offset: int, value: bytes) -> bytes:
    return data[:offset] + value + data[offset + len(value):]


def _directory_format_count_offset(data: bytes, start: int) -> int:
    # unit_length 4, version 2, address_size 1, segment_selector_size 1, header_length 4,
    # minimum_instruction_length, maximum_operations_per_instruction, default_is_stmt, line_base, line_range,
    # opcode_base, then opcode_base - 1 standard_opcode_lengths
    opcode_base = data[start + 17]
    return start + 18 + opcode_base - 1


def test_the_undamaged_line_program_reads(line_program):
    data, _ = line_program
    rows = [row for unit in amdgpu.debug_info(data, "k")["units"] for row in unit["lines"]]
    assert rows and all(row["file"] for row in rows if not row["end_sequence"])


def test_a_unit_length_past_the_section_is_a_format_error(line_program):
    data, start = line_program
    with pytest.raises(FormatError, match="unit_length"):
        amdgpu.debug_info(_patched(data, start, struct.pack("<I", 0x61000BBE)), "k")


def test_directories_without_fields_are_a_format_error(line_program):
    data, start = line_program
    at = _directory_format_count_offset(data, start)
    assert data[at] >= 1                       # clang writes DW_LNCT_path at least
    with pytest.raises(FormatError, match="directories_count"):
        amdgpu.debug_info(_patched(data, at, b"\0"), "k")


def test_more_directories_than_header_bytes_is_a_format_error(line_program):
    data, start = line_program
    at = _directory_format_count_offset(data, start)
    count_at = at + 1 + 2 * data[at]           # one (content type, form) ULEB pair per format, each one byte here
    assert data[count_at] < 0x80
    with pytest.raises(FormatError, match="directories_count"):
        amdgpu.debug_info(_patched(data, count_at, b"\x7f"), "k")


def test_a_subprogram_high_pc_that_is_no_address_is_a_format_error(line_program):
    """Fuzzer find (TypeError in the function list): a subprogram's DW_AT_high_pc read through another form
    (here DW_FORM_strp, as a flipped abbreviation byte gives) is not an address (DWARF 5 2.17.2)."""
    import io

    data, _ = line_program
    abbrev = ELFFile(io.BytesIO(data)).get_section_by_name(".debug_abbrev")
    start, end = abbrev["sh_offset"], abbrev["sh_offset"] + abbrev["sh_size"]
    high_pc_data4 = bytes([0x12, 0x06])            # (DW_AT_high_pc, DW_FORM_data4), DWARF 5 7.5.4/7.5.6
    first = data.index(high_pc_data4, start, end)  # the compile unit's own range stays as it is
    later = data.index(high_pc_data4, first + 2, end)
    damaged = _patched(data, later, bytes([0x12, 0x0E]))   # DW_FORM_strp: same size, a string
    with pytest.raises(FormatError, match="DW_AT_high_pc"):
        amdgpu.debug_info(damaged, "k")


def _uleb(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def _abbrev_attribute_offsets(data: bytes, start: int, end: int, tag: int, attribute: int) -> list[int]:
    """File offsets of (attribute, form) pairs of abbreviations with ``tag`` (DWARF 5 7.5.3 layout)."""
    found, pos = [], start
    while pos < end:
        code, pos = _uleb(data, pos)
        if code == 0:
            continue
        entry_tag, pos = _uleb(data, pos)
        pos += 1                                        # DW_CHILDREN_yes/no
        while True:
            at = pos
            name, pos = _uleb(data, pos)
            form, pos = _uleb(data, pos)
            if form == 0x21:                            # DW_FORM_implicit_const carries its value here
                _, pos = _uleb(data, pos)
            if name == 0 and form == 0:
                break
            if entry_tag == tag and name == attribute:
                found.append(at)
    return found


def test_a_variable_name_of_another_form_is_listed_not_a_crash(line_program):
    """Fuzzer find (TypeError in the --debug listing): a parameter's DW_AT_name read through a reference form
    (DW_FORM_ref1, as a flipped abbreviation byte gives) is listed as not a name."""
    import io

    data, _ = line_program
    abbrev = ELFFile(io.BytesIO(data)).get_section_by_name(".debug_abbrev")
    start = abbrev["sh_offset"]
    pairs = _abbrev_attribute_offsets(data, start, start + abbrev["sh_size"], 0x05, 0x03)  # formal_parameter, name
    assert pairs and data[pairs[0] + 1] == 0x25                                          # DW_FORM_strx1 (1 byte)
    damaged = _patched(data, pairs[0] + 1, bytes([0x11]))                                # DW_FORM_ref1 (1 byte)
    info = amdgpu.debug_info(damaged, "k")
    assert "(not a name: {'ref': " in amdgpu.render_debug(info)
