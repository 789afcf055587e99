"""Spec 004 limits: valid objects pass; each violated limit yields a message naming the object and
the rule (limits taken from the spec text, specs/004)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from kernelkit.errors import FormatError
from kernelkit.formats.visa.model import Attribute, Input, Label, SymbolVar, Variable
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.validate import check, validate

KERNELS = Path(__file__).parent / "kernels"


@pytest.fixture
def obj():
    return parse_visaasm((KERNELS / "control.visaasm").read_text())


def test_suite_and_reference_objects_are_valid(obj):
    assert validate(obj) == []
    for path in KERNELS.glob("*.visaasm"):
        assert validate(parse_visaasm(path.read_text())) == [], path.name


def _mutated(obj, change):
    new = copy.deepcopy(obj)
    change(new.kernels[0])
    return validate(new)


CASES = [
    # (mutation, object named, rule phrase) -- values from spec 004's limits
    (lambda k: setattr(k.variables[0], "num_elements", 4097), "variable A", "num_elements in [1, 4096]"),
    (lambda k: setattr(k.variables[0], "num_elements", 0), "variable A", "num_elements in [1, 4096]"),
    (lambda k: setattr(k.variables[0], "num_elements", 2048), "variable A", "within 4K bytes"),
    (lambda k: setattr(k.variables[0], "type", 8), "variable A", "type is one of"),
    (lambda k: setattr(k.variables[0], "align", 12), "variable A", "alignment code"),
    (lambda k: setattr(k.variables[0], "name", "x" * 65), "variable", "name length 1..64"),
    (lambda k: (setattr(k.variables[1], "alias_index", 32), setattr(k.variables[1], "alias_offset", 2)),
     "variable B", "alias_offset aligned"),
    (lambda k: setattr(k.variables[1], "alias_offset", 4), "variable B", "alias_offset is zero"),
    (lambda k: setattr(k.variables[1], "alias_index", 999), "variable B", "alias_index names"),
    (lambda k: k.addresses.append(SymbolVar("A9", 17)), "address A9", "num_elements in [1, 16]"),
    (lambda k: k.predicates.append(SymbolVar("P9", 3)), "predicate P9", "{1, 2, 4, 8, 16, 32}"),
    (lambda k: k.samplers.extend(SymbolVar(f"S{i}", 1) for i in range(32)), "kernel control", "fewer than 32"),
    (lambda k: k.surfaces.extend(SymbolVar(f"T{i}", 1) for i in range(251)), "kernel control", "256 surfaces"),
    (lambda k: k.labels.append(Label("L" * 1025, 0)), "label", "label name length 1..1024"),
    (lambda k: k.labels.append(Label("odd", 7)), "label odd", "label kind"),
    (lambda k: k.inputs.append(Input(0, 0, 32, 40, 64)), "input A", "GRF-aligned offset"),
    (lambda k: k.inputs.append(Input(0, 0, 32, 32, 64)), "input A", "inputs do not overlap"),
    (lambda k: k.inputs.append(Input(0, 0, 32, 512, 60)), "input A", "size equals type size * num_elements"),
    (lambda k: (k.variables.append(Variable("SM", 1, 2, 4)), k.inputs.append(Input(0, 0, 32 + len(k.variables) - 1,
                                                                                     540, 16))),
     "input SM", "does not cross a GRF boundary"),
    (lambda k: (k.variables.append(Variable("SM", 1, 2, 4)), k.inputs.append(Input(0, 0, 32 + len(k.variables) - 1,
                                                                                     514, 16))),
     "input SM", "natural alignment"),
    (lambda k: (setattr(k.variables[5], "alias_index", 32), k.inputs.append(Input(0, 0, 32 + 5, 1024, 64))),
     "input S", "not an alias"),
    (lambda k: k.inputs.append(Input(3, 0, 0, 1024, 4)), "input #", "category 0 (general)"),
    (lambda k: k.inputs.append(Input(2, 0, 1, 1026, 4)), "input #", "dword-aligned"),
    (lambda k: k.inputs.insert(0, Input(0, 1, 32, 2048, 64)), "input", "user arguments come before"),
    (lambda k: k.inputs.extend(Input(2, 0, 1, 4096 + 4 * i, 4) for i in range(257)), "kernel control",
     "at most 256 inputs"),
    (lambda k: k.attributes.append(Attribute("SimdSize", bytes([12]))), "attribute SimdSize", "value in"),
    (lambda k: k.attributes.append(Attribute("SLMSize", bytes([65]))), "attribute SLMSize", "value in 0..64"),
    (lambda k: k.attributes.append(Attribute("ArgSize", bytes([33]))), "attribute ArgSize", "value in 0..32"),
    (lambda k: k.attributes.append(Attribute("RetValSize", bytes([13]))), "attribute RetValSize", "0..12"),
    (lambda k: k.attributes.append(Attribute("SpillMemOffset", (40).to_bytes(4, "little"))),
     "attribute SpillMemOffset", "multiple of the GRF size"),
    (lambda k: k.attributes.append(Attribute("Target", bytes(5))), "attribute Target", "0-4 bytes"),
    (lambda k: k.attributes.append(Attribute("bad\x01name", b"")), "attribute bad", "printable ASCII"),
    (lambda k: setattr(k, "name", "k" * 1024), "kernel kkk", "routine name length 1..1023"),
    (lambda k: k.variables.pop(), "instruction #1 (lifetime)", "operands name declared symbols"),
    (lambda k: k.labels.clear(), "(func)", "operands name declared symbols"),
    (lambda k: k.predicates.pop(), "(cmp)", "operands name declared symbols"),
]


@pytest.mark.parametrize(("change", "named", "rule"), CASES, ids=[c[2] for c in CASES])
def test_each_limit_is_reported_naming_object_and_rule(obj, change, named, rule):
    problems = _mutated(obj, change)
    assert any(named in p and rule in p for p in problems), problems


def test_function_and_header_limits(obj):
    calls = parse_visaasm((KERNELS / "calls.visaasm").read_text())
    calls.functions[0].input_size = 33
    calls.functions[0].return_value_size = 13
    problems = validate(calls)
    assert any("function twice" in p and "input_size in [0, 32]" in p for p in problems)
    assert any("function twice" in p and "return_value_size in [0, 12]" in p for p in problems)
    many = copy.deepcopy(obj)
    many.kernels = many.kernels * 513
    assert any("at most 512 kernels" in p for p in validate(many))
    with pytest.raises(FormatError, match="at most 512 kernels"):
        check(many)


def test_header_gen_binary_file_variable_and_string_pool_limits(obj):
    """spec 004: num_gen_binaries 0-4 with a gen_platform code from its table; file_scope_var_info name
    1-255 characters, num_elements [1, 1024], linkage 0-2, alignment code from the table; kernel_data
    string_count [1, 131072]; function_info linkage 0-2; kernel name 1-65535 characters."""
    from kernelkit.formats.visa.model import FileVariable, GenBinary

    new = copy.deepcopy(obj)
    kernel = new.kernels[0]
    kernel.gen_binaries = [GenBinary(12, 0, 1, b"\0")] * 5 + [GenBinary(4, 0, 1, b"\0")]
    kernel.strings = kernel.strings + ["s"] * 131072
    new.file_variables = [FileVariable(0, "g" * 256, 1, 2, 1025), FileVariable(3, "", 1, 12, 0)]
    problems = validate(new)
    for named, rule in (("kernel control", "num_gen_binaries in 0..4"), ("kernel control gen binary", "gen_platform"),
                        ("kernel control", "string_count in [1, 131072]"),
                        ("file variable ggg", "file_variable name length 1..255"),
                        ("file variable ggg", "num_elements in [1, 1024]"),
                        ("file variable :", "file_variable name length 1..255"),
                        ("file variable :", "linkage 0 (extern), 1 (static) or 2 (global)"),
                        ("file variable :", "alignment code"), ("file variable :", "num_elements in [1, 1024]")):
        assert any(p.startswith(named) and rule in p for p in problems), (named, rule, problems)
    assert sum("gen_platform" in p for p in problems) == 1          # 12 (TGLLP) is known, 4 is not
    calls = parse_visaasm((KERNELS / "calls.visaasm").read_text())
    calls.functions[0].linkage = 3
    calls.kernels[0].name = "k" * 65536
    problems = validate(calls)
    assert any(p.startswith("function twice") and "linkage 0 (extern)" in p for p in problems)
    assert any(p.startswith("kernel kkk") and "kernel name length 1..65535" in p for p in problems)
