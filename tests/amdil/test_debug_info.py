"""``-g`` on AMD IL: the ``;DEBUGSTART`` sections laid out as in the driver's debug programs
(reference/amdil/hlc-juniper ``*.unlinked.il``), and the DWARF they carry read back by
pyelftools — checked first on the driver's own sections, then on kernelkit's."""

from __future__ import annotations

import io
import re
import struct

import pytest
from elftools.dwarf.dwarfinfo import DebugSectionDescriptor, DwarfConfig, DWARFInfo
from test_codegen import RECONSTRUCTED  # noqa: E402  (tests/amdil)

from kernelkit.formats.amdil import parse_program
from kernelkit.mux.registry import build_binary

DRIVER = ("amdil", "hlc-juniper", "test_thread_dimension_atomic.01.unlinked.il")
_LABEL = re.compile(r"^;\.(\w+):$")


def sections(text: str) -> list[list[str]]:
    return [s.lines for s in parse_program(text).debug_sections]


def assemble(lines: list[str]) -> dict[str, bytes]:
    """The DWARF sections of a closing debug section as bytes: a two-pass reading of the
    driver's assembler directives (.byte/.short/.long/.offset/.ascii/.asciz, ``;.label:``);
    labels outside the section (code addresses) get their order of appearance + 1."""
    parts: dict[str, list[str]] = {}
    current = None
    for line in lines:
        m = re.match(r"^\t\.section\t(\.\w+)$", line)
        if m:
            current = m.group(1)
            parts.setdefault(current, [])
        elif current is not None:
            parts[current].append(line)
    addresses: dict[str, int] = {}

    def items(body):
        for line in body:
            code = line.split(" ; ")[0].split(";", 1)[0] if not line.startswith(";.") else ""
            m = _LABEL.match(line.strip())
            if m:
                yield "label", m.group(1)
            elif line.startswith(".offset;."):
                yield "offset", line[len(".offset;."):].split()[0]
            elif code.strip():
                directive, _, value = line.partition("\t")
                value = value.split(" ; ")[0].rstrip() if " ; " in value else value.rstrip()
                yield directive.strip(), value.strip()

    label_at: dict[str, dict[str, int]] = {}
    sizes = {".byte": 1, ".short": 2, ".long": 4, "offset": 4}
    for name, body in parts.items():
        pos, where = 0, {}
        for kind, value in items(body):
            if kind == "label":
                where[value] = pos
            elif kind in sizes:
                pos += sizes[kind]
            elif kind in (".ascii", ".asciz"):
                pos += len(value.strip()[1:-1].encode()) + (kind == ".asciz")
        label_at[name] = where
    everywhere = {k: v for w in label_at.values() for k, v in w.items()}

    def resolve(expr: str, section: str) -> int:
        if "-" in expr:
            a, b = expr.split("-")
            return resolve(a, section) - resolve(b, section)
        name = expr.lstrip(";.")
        if name in label_at[section]:
            return label_at[section][name]
        if name in everywhere:
            return everywhere[name]
        if re.fullmatch(r"tmp\d+", name):            # code labels: ;.tmpN at address N + 1
            return int(name[3:]) + 1
        return addresses.setdefault(name, 100000 + len(addresses))

    out = {}
    for name, body in parts.items():
        data = bytearray()
        for kind, value in items(body):
            if kind == ".byte":
                data += bytes([int(value) & 0xFF])
            elif kind == ".short":
                data += struct.pack("<H", int(value))
            elif kind == ".long":
                data += struct.pack("<I", int(value) if value.lstrip("-").isdigit()
                                    else resolve(value, name) & 0xFFFFFFFF)
            elif kind == "offset":
                data += struct.pack("<I", resolve(value, name))
            elif kind in (".ascii", ".asciz"):
                data += value.strip()[1:-1].encode() + (b"\0" if kind == ".asciz" else b"")
        out[name] = bytes(data)
    return out


def read_dwarf(data: dict[str, bytes]) -> DWARFInfo:
    def sec(name):
        raw = data.get(name)
        return None if raw is None else DebugSectionDescriptor(io.BytesIO(raw), name, None,
                                                               len(raw), 0)
    none = dict.fromkeys(["debug_aranges_sec", "debug_frame_sec", "eh_frame_sec", "debug_str_sec",
                          "debug_loc_sec", "debug_ranges_sec", "debug_pubtypes_sec",
                          "debug_pubnames_sec", "debug_addr_sec", "debug_str_offsets_sec",
                          "debug_line_str_sec", "debug_loclists_sec", "debug_rnglists_sec",
                          "debug_sup_sec", "gnu_debugaltlink_sec", "debug_types_sec"])
    return DWARFInfo(config=DwarfConfig(little_endian=True, machine_arch="AMDIL",
                                        default_address_size=4),
                     debug_info_sec=sec(".debug_info"), debug_abbrev_sec=sec(".debug_abbrev"),
                     debug_line_sec=sec(".debug_line"), **none)


def kernels_and_rows(text: str):
    closing = sections(text)[-1]
    start = closing.index(";.section_end1:")
    dwarf = read_dwarf(assemble(closing[start + 1:]))
    (cu,) = list(dwarf.iter_CUs())
    names = [die.attributes["DW_AT_name"].value.decode() for die in cu.iter_DIEs()
             if die.tag == "DW_TAG_subprogram"]
    rows = [(e.state.address, e.state.line) for e in dwarf.line_program_for_CU(cu).get_entries()
            if e.state is not None and not e.state.end_sequence]
    return names, rows


def without_numbers(lines: list[str]) -> list[str]:
    return [re.sub(r"tmp\d+", "tmpN", line) for line in lines]


@pytest.mark.parametrize("option", ["-g", "-gdwarf-4"])     # clang's spellings of asking for debug information
def test_the_debug_sections_are_laid_out_as_the_drivers(reference, option):
    driver = sections((reference.joinpath(*DRIVER)).read_text())
    ours = sections(build_binary(RECONSTRUCTED, "amdil:juniper", [option]).decode())
    assert len(ours) == len(driver) == 3          # before each kernel, and the tables at the end
    assert without_numbers(ours[0]) == without_numbers(driver[0])
    assert without_numbers(ours[1]) == without_numbers(driver[1])
    skeleton = re.compile(r"^(\t\.section\t\.\w+|;\.(?!tmp)\w+:|;DEBUG\w+)$")
    assert [x for x in ours[2] if skeleton.match(x)] == [x for x in driver[2] if skeleton.match(x)]
    prolog = slice(driver[2].index(";.line_prolog_begin:"), driver[2].index(";.line_prolog_end:"))
    mine = slice(ours[2].index(";.line_prolog_begin:"), ours[2].index(";.line_prolog_end:"))
    names = re.compile(r'"[^"]*"\s*')
    assert [names.sub("", x) for x in ours[2][mine]] == [names.sub("", x) for x in driver[2][prolog]]


def test_the_dwarf_reads_back_with_each_source_line_at_its_label(reference):
    # the reader is first checked on the driver's own tables
    names, rows = kernels_and_rows(reference.joinpath(*DRIVER).read_text())
    assert names == ["__OpenCL_test_thread_dimension_atomic_kernel", "__OpenCL_clear_memory_kernel"]
    assert rows[0][1] == 7 and len(rows) > 10
    text = build_binary(RECONSTRUCTED, "amdil:juniper", ["-g"]).decode()
    names, rows = kernels_and_rows(text)
    assert names == ["__OpenCL_test_thread_dimension_atomic_kernel", "__OpenCL_clear_memory_kernel"]
    # every ;.tmpN: label in a body is a row of the line table whose line is the one of the
    # instructions after the label
    source = RECONSTRUCTED.splitlines()
    lines = text.splitlines()
    labelled = {}
    for k, line in enumerate(lines):
        m = re.match(r"^;\.tmp(\d+):$", line)
        if m and k + 1 < len(lines) and "; source.cl:" in lines[k + 1]:
            labelled[int(m.group(1))] = int(lines[k + 1].rsplit(":", 2)[1])
    table = dict(rows)
    assert labelled
    for n, line in labelled.items():
        assert table[n + 1] == line, (n, line)
        assert 1 <= line <= len(source)
    assert rows[0] == (1, 2)          # ;.tmp0: the first kernel's declaration line


def _type_text(die) -> str:
    """A DIE's type as text, following typedefs: ``uint=unsigned int/7/4``, ``pointer/4``."""
    if die.tag == "DW_TAG_pointer_type":
        return f"pointer/{die.attributes['DW_AT_byte_size'].value}"
    name = die.attributes["DW_AT_name"].value.decode()
    if die.tag == "DW_TAG_typedef":       # without DW_AT_type: an incomplete type
        under = die.attributes.get("DW_AT_type")
        return f"{name}={_type_text(die.get_DIE_from_attribute('DW_AT_type'))}" if under else name
    return f"{name}/{die.attributes['DW_AT_encoding'].value}/{die.attributes['DW_AT_byte_size'].value}"


def parameters_of(text: str) -> dict[str, list[tuple]]:
    closing = sections(text)[-1]
    dwarf = read_dwarf(assemble(closing[closing.index(";.section_end1:") + 1:]))
    (cu,) = list(dwarf.iter_CUs())
    out = {}
    for sub in cu.get_top_DIE().iter_children():
        if sub.tag != "DW_TAG_subprogram":
            continue
        out[sub.attributes["DW_AT_name"].value.decode()] = [
            (p.attributes["DW_AT_name"].value.decode(), _type_text(p.get_DIE_from_attribute("DW_AT_type")),
             p.attributes["DW_AT_decl_line"].value, p.attributes["DW_AT_location"].value)
            for p in sub.iter_children() if p.tag == "DW_TAG_formal_parameter"]
    return out


def test_kernel_parameters_carry_names_types_and_registers(reference):
    driver = parameters_of(reference.joinpath(*DRIVER).read_text())
    text = build_binary(RECONSTRUCTED, "amdil:juniper", ["-g"]).decode()
    ours = parameters_of(text)
    assert list(ours) == list(driver)
    for kernel, params in ours.items():
        # names and types as the driver's (uint a typedef of unsigned int, ulong of unsigned
        # long, pointers 4 bytes)
        assert [(n, t) for n, t, _, _ in params] == [(n, t) for n, t, _, _ in driver[kernel]]
        # declared on the source line that names them
        source = RECONSTRUCTED.split("\n")
        for name, _, line, _ in params:
            assert re.search(rf"\b{name}\b", source[line - 1]), (name, line)
        # in the register the wrapper copies the argument's cb1 slot into (DW_OP_reg<n>),
        # as the driver's first two (dst in r1, final_x_size in r2)
        block = parse_program(text).find_kernel(kernel[len("__OpenCL_"):-len("_kernel")])
        assert [loc for *_, loc in params] == [[0x50 + 1 + a.offset // 16] for a in block.arguments]
    assert [loc for *_, loc in driver["__OpenCL_test_thread_dimension_atomic_kernel"]][:2] == [[0x51], [0x52]]


def test_parameters_past_register_31_and_of_other_types():
    src = ("kernel void k(float16 a, float16 b, float16 c, float16 d, float16 e, float16 f,\n"
           "              float16 g, float16 h, read_only image2d_t im, global float *o, short s)\n"
           "{ o[0] = a.x + h.y + s + read_imagef(im, (int2)(0, 0)).x; }")
    text = build_binary(src, "amdil:cayman", ["-g"]).decode()
    (params,) = parameters_of(text).values()
    block = parse_program(text).find_kernel("k")
    regs = [1 + a.offset // 16 for a in block.arguments]           # the wrapper's copies
    assert regs[-2:] == [33 + 2, 33 + 3] and regs[0] == 1           # 8 x 4 slots, image 2 slots
    assert [loc for *_, loc in params] == [[0x50 + n] if n < 32 else [0x90, n] for n in regs]
    assert [t for _, t, _, _ in params] == ["float16"] * 8 + ["image2d_t", "pointer/4",
                                                               "short/5/2"]
    assert [line for _, _, line, _ in params] == [1] * 6 + [2] * 5
