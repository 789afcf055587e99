"""Spec 004 rules on symbols and control flow, checked on a routine: extern functions, predefined
variables, the reserved predicate P0, and the targets of jumps and calls. Each problem is
``(object, rule, detail)`` as in ``validate``."""

from __future__ import annotations

from collections.abc import Callable

from kernelkit.formats.visa.model import Routine
from kernelkit.formats.visa.operands import GENERAL, PREDICATE, VectorOperand
from kernelkit.formats.visa.tables import NUM_PREDEFINED_VARIABLES, PREDEFINED_SURFACES, PREDEFINED_VARIABLES

Check = Callable[[bool, str, str, str], None]

# spec 004 "General Variables" predefined table: the variables with R (not R/W) access
READ_ONLY_PREDEFINED = frozenset({1, 2, 3, 4, 5, 7, 12, 15, 17})
# spec 004: V20-V31 are reserved; IGC 1.0.12504 defines V20 (%msg0), so V21-V31 may not be used
FIRST_RESERVED_VARIABLE = len(PREDEFINED_VARIABLES)
# spec 004 "Labels": block labels are jump targets, subroutine labels call targets
JUMPS = frozenset({"jmp", "goto", "switchjmp"})
CALLS = frozenset({"call"})
LABEL_DEFINITIONS = {"label": 0, "func": 1}
DESTINATIONS = ("dst", "dst2")
EXTERN = 0                    # spec 004 function_info linkage


def check_rules(check: Check, owner: str, r: Routine) -> None:
    from kernelkit.formats.visa.validate_lsc import check_lsc

    _declarations(check, owner, r)
    _instructions(check, owner, r)
    check_lsc(check, owner, r)
    if not r.is_kernel and r.linkage == EXTERN:
        check(not r.instructions and not r.variables, owner,
              "a function with extern linkage has no body (offset and size 0)",
              f"{len(r.instructions or [])} instructions, {len(r.variables)} variables")


def _declarations(check: Check, owner: str, r: Routine) -> None:
    predefined = {name for name, _t, _n in PREDEFINED_VARIABLES} | {f"V{i}" for i in range(NUM_PREDEFINED_VARIABLES)}
    for v in r.variables:
        check(v.name not in predefined, f"{owner} variable {v.name}",
              "predefined variables may not be declared", v.name)
        if v.alias_index:
            check(not FIRST_RESERVED_VARIABLE <= v.alias_index < NUM_PREDEFINED_VARIABLES,
                  f"{owner} variable {v.name}", "reserved variables V20-V31 may not be used",
                  f"alias of V{v.alias_index}")
    surfaces = set(PREDEFINED_SURFACES) | {f"T{i}" for i in range(len(PREDEFINED_SURFACES))}
    for s in r.surfaces:
        check(s.name not in surfaces, f"{owner} surface {s.name}", "predefined surfaces may not be declared",
              s.name)
    for p in r.predicates:
        check(p.name != "P0", f"{owner} predicate P0", "P0 is predefined and may not be declared", "P0")


def _instructions(check: Check, owner: str, r: Routine) -> None:
    defined: dict[int, int] = {}
    for inst in r.instructions or []:
        kind = LABEL_DEFINITIONS.get(inst.name)
        if kind is not None:
            label = inst.fields["label"]
            defined[label] = defined.get(label, 0) + 1
    for label, count in defined.items():
        check(count == 1, f"{owner} label {_label_name(r, label)}", "a label is defined once",
              f"defined {count} times")
    for n, inst in enumerate(r.instructions or []):
        where = f"{owner} instruction #{n} ({inst.name})"
        for name, value in inst.fields.items():
            if not isinstance(value, VectorOperand):
                continue
            if value.cls == GENERAL:
                check(not FIRST_RESERVED_VARIABLE <= value.index < NUM_PREDEFINED_VARIABLES, where,
                      "reserved variables V20-V31 may not be used", f"{name} is V{value.index}")
                if name in DESTINATIONS:
                    check(value.index not in READ_ONLY_PREDEFINED, where,
                          "read-only predefined variables are not written",
                          f"{name} is {r.variable_name(value.index)}")
            elif value.cls == PREDICATE and name in DESTINATIONS:
                check(value.index & 0xFFF != 0, where, "P0 (no predication) is not written", name)
        kind = LABEL_DEFINITIONS.get(inst.name)
        if kind is not None:
            label = inst.fields["label"]
            if label < len(r.labels):
                check(r.labels[label].kind == kind, where,
                      f"a {inst.name} instruction defines a {'block' if kind == 0 else 'subroutine'} label",
                      f"{_label_name(r, label)} is kind {r.labels[label].kind}")
        targets = inst.fields.get("labels", []) if inst.name == "switchjmp" else [inst.fields.get("label")]
        if inst.name in JUMPS | CALLS:
            want = 0 if inst.name in JUMPS else 1
            for label in targets:
                if label is None or label >= len(r.labels):
                    continue
                name = _label_name(r, label)
                check(r.labels[label].kind == want, where,
                      "only block labels are jump targets" if want == 0 else
                      "only subroutine labels are call targets", f"{name} is kind {r.labels[label].kind}")
                check(label in defined, where, "a jump or call target is a label defined in the routine",
                      f"{name} is never defined")


def _label_name(r: Routine, index: int) -> str:
    return r.labels[index].name if index < len(r.labels) else f"label #{index}"
