"""Reading IGC 1.0.12504's .isa files: header, string pool, symbol tables, inputs, attributes
checked against IGC's own .visaasm dump of the same kernel (the oracle), and the damaged
instruction streams reported as FormatError at their offset (or kept raw when lenient)."""

from __future__ import annotations

import re
import struct
import subprocess

import pytest
from conftest import reference_path, require_tool
from visa_cases import CASES, PLATFORM_OF, igc_case  # noqa: F401 - fixture

from kernelkit.errors import FormatError
from kernelkit.formats.visa.binary import read_isa, write_isa
from kernelkit.formats.visa.operands import RawOperand, VectorOperand
from kernelkit.formats.visa.tables import ALIGNMENTS, GEN_PLATFORMS, TYPES


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
    # spec 004 kernel_info (read here by hand): the error lies inside the kernel object, past its
    # num_inputs field (input_offset), i.e. in the instruction stream, not in the tables before it
    name_len = struct.unpack_from("<H", data, 8)[0]
    offset, size, input_offset = struct.unpack_from("<III", data, 10 + name_len)
    assert err.value.offset is not None and input_offset < err.value.offset < offset + size
    assert err.value.field and "instruction #" in err.value.message
    lenient = read_isa(data, lenient=True)
    assert lenient.kernels[0].decode_error and lenient.kernels[0].instructions
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


def test_lenient_decoding_follows_igc_text(igc_case):  # noqa: F811
    """Best-effort decoding of the damaged stream (IGC 1.0.12504 writes only the leading fields of
    each instruction): the instruction sequence and every operand that survived equal IGC's text."""
    from kernelkit.formats.visa.tables import LSC_OPS
    from kernelkit.formats.visa.text_print import Printer

    data, text, _platform = igc_case
    kernel = read_isa(data, lenient=True).kernels[0]
    lines = re.findall(r"^    (\S.*?)\s+/// \$\d+$", text, re.M)
    insts = kernel.instructions
    assert insts[0].name == "func" and len(insts) == len(lines) + 1
    printer = Printer(kernel)
    for inst, line in zip(insts[1:], lines, strict=True):
        mnemonic = line.split()[0].split(".")[0]
        name = LSC_OPS[inst.sub][0] if inst.name == "lsc_untyped" else inst.name
        assert name == mnemonic, line
        assert inst.missing, "every instruction with an exec size lost trailing fields"
        tokens = line.split()
        for key in ("dst", "src0"):
            value = inst.get(key)
            if isinstance(value, VectorOperand):
                assert printer.vec(value) in tokens, line
            elif isinstance(value, RawOperand) and value.index:     # LSC payloads: "V0056:d32", "[V0054]"
                assert printer.var(value.index) in line, line


# iga64 -p names of the gen_platform codes of the reference files (iga64 --help)
IGA_PLATFORM = {"SKL": "9", "ICLLP": "11", "TGLLP": "12p1", "DG2": "12p71"}


def _asm_instructions(text: str) -> list[str]:
    lines = [" ".join(ln.split("//", 1)[0].split()) for ln in text.splitlines()]
    return [ln for ln in lines if ln and not ln.endswith(":")]


@pytest.mark.parametrize("case", CASES)
def test_gen_binary_is_the_kernels_finalized_code(case, tmp_path):
    """gen_binary_info (platform code, offset, size) read from IGC's .isa: the embedded bytes,
    disassembled by Intel's iga64 for that platform, are the instructions of IGC's .asm listing."""
    require_tool("iga64")
    isa = reference_path("visa", case + ".isa")
    platform = PLATFORM_OF[case.split("_")[0]]
    data = isa.read_bytes()
    (gen,) = read_isa(data, lenient=True).kernels[0].gen_binaries
    assert GEN_PLATFORMS[gen.platform] == platform
    assert gen.data == data[gen.offset:gen.offset + gen.size] and gen.size > 0
    (tmp_path / "k.bin").write_bytes(gen.data)
    proc = subprocess.run(["iga64", "-d", "-Xprint-ldst", f"-p={IGA_PLATFORM[platform]}", "k.bin"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    expected = _asm_instructions(isa.with_suffix(".asm").read_text())
    assert len(expected) > 5 and _asm_instructions(proc.stdout) == expected
