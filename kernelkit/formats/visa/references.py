"""Symbol references of instructions: every operand must name a declared (or predefined) symbol."""

from __future__ import annotations

from kernelkit.formats.visa.instructions import Instruction
from kernelkit.formats.visa.model import Routine
from kernelkit.formats.visa.operands import (
    ADDRESS,
    GENERAL,
    INDIRECT,
    PREDICATE,
    STATE,
    RawOperand,
    VectorOperand,
)
from kernelkit.formats.visa.tables import (
    BINDLESS_SAMPLER,
    NUM_PREDEFINED_PREDICATES,
    NUM_PREDEFINED_SURFACES,
    NUM_PREDEFINED_VARIABLES,
)

_LABEL_FIELDS = ("label",)


def _vector_ok(r: Routine, op: VectorOperand) -> bool:
    if op.cls == GENERAL:
        return op.index < NUM_PREDEFINED_VARIABLES + len(r.variables)
    if op.cls in (ADDRESS, INDIRECT):
        return op.index < len(r.addresses)
    if op.cls == PREDICATE:
        return (op.index & 0xFFF) < NUM_PREDEFINED_PREDICATES + len(r.predicates)
    if op.cls == STATE:
        if op.state_class == 0:
            return op.index < NUM_PREDEFINED_SURFACES + len(r.surfaces)
        return op.index < len(r.samplers) or op.index == BINDLESS_SAMPLER
    return True


def unresolved(r: Routine, inst: Instruction) -> list[str]:
    """Fields of ``inst`` naming symbols ``r`` does not declare."""
    bad = []
    nvars = NUM_PREDEFINED_VARIABLES + len(r.variables)
    for name, value in inst.fields.items():
        if isinstance(value, VectorOperand) and not _vector_ok(r, value):
            bad.append(name)
        elif isinstance(value, RawOperand) and value.index >= nvars:
            bad.append(name)
        elif name in _LABEL_FIELDS and value >= len(r.labels):
            bad.append(name)
        elif name == "labels" and any(v >= len(r.labels) for v in value):
            bad.append(name)
        elif name == "pred" and value is not None and value.id >= NUM_PREDEFINED_PREDICATES + len(r.predicates):
            bad.append(name)
        elif name == "surface" and isinstance(value, int) and value >= NUM_PREDEFINED_SURFACES + len(r.surfaces):
            bad.append(name)
        elif name in ("function", "symbol") and value >= len(r.strings):
            bad.append(name)
        elif name == "var" and inst.name == "lifetime":
            cls = (inst.fields.get("properties", 0) >> 4) & 3
            limit = {GENERAL: nvars, ADDRESS: len(r.addresses),
                     PREDICATE: NUM_PREDEFINED_PREDICATES + len(r.predicates)}.get(cls, 0)
            if value >= limit:
                bad.append(name)
    return bad


def references_valid(r: Routine, inst: Instruction) -> bool:
    return not unresolved(r, inst)
