"""Spec 004's rules on symbols and control flow (kernelkit.formats.visa.validate_rules): each broken
rule of a valid object is reported naming the object and the rule."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from kernelkit.formats.visa.model import Routine, SymbolVar, Variable
from kernelkit.formats.visa.operands import PREDICATE, VectorOperand
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.validate import validate

KERNELS = Path(__file__).parent / "kernels"


@pytest.fixture
def obj():
    return parse_visaasm((KERNELS / "control.visaasm").read_text())


def _first(kernel: Routine, name: str):
    return next(i for i in kernel.instructions if i.name == name)


def _label(kernel: Routine, name: str) -> int:
    return next(n for n, lab in enumerate(kernel.labels) if lab.name == name)


def _retarget(opcode: str, label: str):
    def change(k):
        _first(k, opcode).fields["label"] = _label(k, label)
    return change


def _write_dst(index: int):
    def change(k):
        mov = _first(k, "mov")
        mov.fields["dst"] = VectorOperand(0, index, region=mov.fields["dst"].region)
    return change


def _cmp_to_p0(k):
    _first(k, "cmp").fields["dst"] = VectorOperand(PREDICATE, 0)


def _define_twice(k):
    label = _first(k, "label")
    k.instructions.append(copy.deepcopy(label))


CASES = [
    (_retarget("jmp", "SUB"), "only block labels are jump targets"),
    (_retarget("goto", "SUB"), "only block labels are jump targets"),
    (_retarget("call", "AFTER"), "only subroutine labels are call targets"),
    (_write_dst(7), "read-only predefined variables are not written"),      # %r0
    (_write_dst(3), "read-only predefined variables are not written"),      # %group_id_x
    (_write_dst(25), "reserved variables V20-V31 may not be used"),
    (_cmp_to_p0, "P0 (no predication) is not written"),
    (lambda k: k.predicates.append(SymbolVar("P0", 16)), "P0 is predefined and may not be declared"),
    (lambda k: k.variables.append(Variable("%r0", 0, 2, 8)), "predefined variables may not be declared"),
    (lambda k: k.variables.append(Variable("X9", 0, 2, 8, alias_index=27)), "reserved variables V20-V31"),
    (lambda k: k.surfaces.append(SymbolVar("%slm", 1)), "predefined surfaces may not be declared"),
    (_define_twice, "a label is defined once"),
]


def test_valid_objects_pass(obj):
    assert validate(obj) == []
    for path in KERNELS.glob("*.visaasm"):
        assert validate(parse_visaasm(path.read_text())) == [], path.name


@pytest.mark.parametrize("change,rule", CASES)
def test_each_rule_is_reported(obj, change, rule):
    broken = copy.deepcopy(obj)
    change(broken.kernels[0])
    problems = validate(broken)
    assert any(rule in p and p.startswith("kernel control") for p in problems), problems


def test_extern_function_has_no_body():
    obj = parse_visaasm((KERNELS / "calls.visaasm").read_text())
    assert validate(obj) == []                               # .global_function: defined (global linkage)
    obj.functions[0].linkage = 0
    problems = validate(obj)
    assert any("function twice: a function with extern linkage has no body" in p for p in problems), problems
    obj.functions[0].instructions = []
    obj.functions[0].variables = []
    assert not any("extern linkage" in p for p in validate(obj))
