"""Reading IGC 1.0.12504's .isa files: header, string pool, symbol tables, inputs, attributes
checked against IGC's own .visaasm dump of the same kernel (the oracle), and the damaged
instruction streams reported as FormatError at their offset (or kept raw when lenient)."""

from __future__ import annotations

import re

import pytest
from visa_cases import igc_case  # noqa: F401 - fixture

from kernelkit.errors import FormatError
from kernelkit.formats.visa.binary import read_isa, write_isa
from kernelkit.formats.visa.tables import ALIGNMENTS, TYPES


def _dump_decls(text: str) -> dict[str, dict[str, str]]:
    out = {}
    for line in text.splitlines():
        m = re.match(r"\.decl (\S+) v_type=G (.*)", line)
        if m:
            out[m.group(1)] = dict(kv.split("=", 1) for kv in re.findall(r"(\w+=(?:<[^>]*>|\S+))", m.group(2)))
    return out


def test_header_strings_symbols_inputs_attributes(igc_case):  # noqa: F811
    data, text, _platform = igc_case
    obj = read_isa(data, lenient=True)
    assert obj.version == re.search(r"\.version (\S+)", text).group(1)
    (kernel,) = obj.kernels
    assert kernel.name == re.search(r'\.kernel "([^"]+)"', text).group(1)
    assert kernel.strings[0] == kernel.name          # README: string 0 is the kernel name
    decls = _dump_decls(text)
    assert [v.name for v in kernel.variables] == list(decls)
    for v in kernel.variables:
        d = decls[v.name]
        assert TYPES[v.type][0] == d["type"] and str(v.num_elements) == d["num_elts"]
        assert ALIGNMENTS[v.align][0] == d["align"]
        if "alias" in d:
            base, off = re.match(r"<(\S+), (\d+)>", d["alias"]).groups()
            assert kernel.variable_name(v.alias_index) == base and v.alias_offset == int(off)
        else:
            assert v.alias_index == 0
    inputs = re.findall(r"\.input (\S+) offset=(\d+) size=(\d+)", text)
    assert [(kernel.variable_name(i.id), str(i.offset), str(i.size)) for i in kernel.inputs] == inputs
    assert all(i.category == 0 and i.provenance == 0 for i in kernel.inputs)
    assert len(kernel.samplers) == text.count("v_type=S") and len(kernel.surfaces) == text.count(
        "v_type=T num_elts")
    attrs = {a.name: a for a in kernel.attributes}
    for name, value in re.findall(r"\.kernel_attr (\w+)=(\S+)", text):
        if value == '"3d"':
            assert attrs[name].as_int() == 1
        else:
            assert attrs[name].as_int() == int(value)
    assert attrs["OutputAsmPath"].as_str().endswith(".asm")
    (gen,) = kernel.gen_binaries
    assert gen.offset + gen.size == len(data)


def test_damaged_instruction_stream_is_a_format_error(igc_case):  # noqa: F811
    data, _text, _platform = igc_case
    with pytest.raises(FormatError) as err:
        read_isa(data)
    assert err.value.offset is not None and 0 < err.value.offset < len(data)
    lenient = read_isa(data, lenient=True)
    assert lenient.kernels[0].instructions is None and lenient.kernels[0].decode_error
    assert write_isa(lenient) == data     # raw stream kept: reading then writing gives the same bytes


def test_truncated_and_corrupted_files_never_crash(igc_case):  # noqa: F811
    data, _text, _platform = igc_case
    for cut in range(0, len(data), 7):
        try:
            read_isa(data[:cut], lenient=True)
        except FormatError as exc:
            assert exc.offset is not None or exc.field
    for pos in range(0, 0x200, 3):
        broken = bytearray(data)
        broken[pos] ^= 0xFF
        try:
            read_isa(bytes(broken), lenient=True)
        except FormatError:
            pass
