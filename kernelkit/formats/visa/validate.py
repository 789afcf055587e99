"""The limits of spec 004, checked on the object model. Each problem is reported as
``"<object>: <rule>: <detail>"`` so the message names both the object and the violated rule."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats.visa.model import Attribute, Routine, VisaObject
from kernelkit.formats.visa.tables import (
    ADDRESS_NUM_ELEMENTS,
    ALIGNMENTS,
    ATTRIBUTE_KINDS,
    ATTRIBUTE_RANGES,
    FILE_VAR_NUM_ELEMENTS,
    FUNCTION_ARG_GRFS,
    FUNCTION_RET_GRFS,
    GEN_PLATFORMS,
    GRF_BYTES,
    INPUT_CATEGORIES,
    LABEL_KINDS,
    LINKAGES,
    MAX_COUNTS,
    MAX_GEN_BINARIES,
    MAX_INPUTS,
    MAX_KERNELS,
    MAX_VARIABLE_BYTES,
    NAME_LIMITS,
    NUM_PREDEFINED_SURFACES,
    NUM_PREDEFINED_VARIABLES,
    PREDICATE_NUM_ELEMENTS,
    STRING_COUNT,
    TYPES,
    VAR_NUM_ELEMENTS,
    VARIABLE_TYPES,
)
from kernelkit.formats.visa.validate_rules import check_rules


class _Report:
    def __init__(self):
        self.problems: list[str] = []

    def check(self, ok: bool, obj: str, rule: str, detail: str) -> None:
        if not ok:
            self.problems.append(f"{obj}: {rule}: {detail}")


def _name(rep: _Report, obj: str, name: str, kind: str) -> None:
    limit = NAME_LIMITS[kind]
    rep.check(1 <= len(name) <= limit, obj, f"{kind} name length 1..{limit}", f"{len(name)} characters")


def _attributes(rep: _Report, owner: str, attrs: list[Attribute]) -> None:
    for a in attrs:
        obj = f"{owner} attribute {a.name}"
        rep.check(len(a.name) <= NAME_LIMITS["attribute"] and all(32 <= ord(c) < 127 for c in a.name), obj,
                  "attribute name of at most 64 printable ASCII characters", repr(a.name))
        kind = ATTRIBUTE_KINDS.get(a.name)
        if kind in ("int", "bool"):
            rep.check(a.size <= 4, obj, "integer attribute of 0-4 bytes", f"{a.size} bytes")
            allowed = ATTRIBUTE_RANGES.get(a.name)
            if allowed is not None and a.size:
                rep.check(a.as_int() in allowed, obj, f"value in {allowed[0]}..{allowed[-1]}"
                          if len(allowed) > 4 else f"value in {allowed}", str(a.as_int()))
            if a.name == "SpillMemOffset" and a.size:
                rep.check(a.as_int() % GRF_BYTES == 0, obj, "SpillMemOffset is a multiple of the GRF size",
                          str(a.as_int()))
        elif kind == "str":
            rep.check(a.size <= 256, obj, "string attribute of at most 256 bytes", f"{a.size} bytes")


def _routine(rep: _Report, r: Routine) -> None:
    what = "kernel" if r.is_kernel else "function"
    owner = f"{what} {r.name}"
    _name(rep, owner, r.name, what)
    _name(rep, owner, r.name, "routine")       # kernel_data.name_index: at most 1023 characters
    if r.strings:
        lo, hi = STRING_COUNT
        rep.check(lo <= len(r.strings) <= hi, owner, f"string_count in [{lo}, {hi}]", str(len(r.strings)))
    nvars = len(r.variables)
    rep.check(nvars + NUM_PREDEFINED_VARIABLES <= MAX_COUNTS["general"], owner,
              f"at most {MAX_COUNTS['general']} general variables", str(nvars))
    for i, v in enumerate(r.variables):
        obj = f"{owner} variable {v.name}"
        vid = NUM_PREDEFINED_VARIABLES + i
        _name(rep, obj, v.name, "variable")
        rep.check(v.type in VARIABLE_TYPES, obj, "type is one of UD D UW W UB B UQ Q DF HF F BF",
                  f"type code {v.type}")
        rep.check(v.align in ALIGNMENTS, obj,
                  "alignment code in the alignment table", str(v.align))
        lo, hi = VAR_NUM_ELEMENTS
        rep.check(lo <= v.num_elements <= hi, obj, f"num_elements in [{lo}, {hi}]", str(v.num_elements))
        size = TYPES.get(v.type, ("", 1))[1] * v.num_elements
        rep.check(size <= MAX_VARIABLE_BYTES, obj, "variable size (num_elements * type size) within 4K bytes",
                  f"{size} bytes")
        if v.alias_index == 0:
            rep.check(v.alias_offset == 0, obj, "alias_offset is zero when alias_index is zero",
                      str(v.alias_offset))
        else:
            rep.check(v.alias_index < NUM_PREDEFINED_VARIABLES + nvars and v.alias_index != vid, obj,
                      "alias_index names another declared variable", str(v.alias_index))
            tsize = TYPES.get(v.type, ("", 1))[1]
            rep.check(v.alias_offset % tsize == 0, obj, "alias_offset aligned to the variable's type",
                      f"{v.alias_offset} for {tsize}-byte elements")
        rep.check(v.alias_scope in (0, 1), obj, "alias_scope_specifier 0 (local) or 1 (global)",
                  str(v.alias_scope))
        _attributes(rep, obj, v.attributes)
    for table, key, check_num in ((r.addresses, "address", ADDRESS_NUM_ELEMENTS),
                                  (r.predicates, "predicate", PREDICATE_NUM_ELEMENTS)):
        rep.check(len(table) <= MAX_COUNTS[key], owner, f"at most {MAX_COUNTS[key]} {key} variables",
                  str(len(table)))
        for s in table:
            obj = f"{owner} {key} {s.name}"
            if key == "address":
                lo, hi = check_num
                rep.check(lo <= s.num_elements <= hi, obj, f"num_elements in [{lo}, {hi}]", str(s.num_elements))
            else:
                rep.check(s.num_elements in check_num, obj, "num_elements in {1, 2, 4, 8, 16, 32}",
                          str(s.num_elements))
            _attributes(rep, obj, s.attributes)
    rep.check(len(r.samplers) < MAX_COUNTS["sampler"], owner, "fewer than 32 samplers (S31 is bindless)",
              str(len(r.samplers)))
    rep.check(len(r.surfaces) + NUM_PREDEFINED_SURFACES <= MAX_COUNTS["surface"], owner,
              f"at most {MAX_COUNTS['surface']} surfaces", str(len(r.surfaces)))
    for lab in r.labels:
        obj = f"{owner} label {lab.name}"
        _name(rep, obj, lab.name, "label")
        rep.check(lab.kind in LABEL_KINDS, obj, "label kind 0 (block) or 1 (subroutine)", str(lab.kind))
    _inputs(rep, owner, r)
    from kernelkit.formats.visa.references import unresolved
    for n, inst in enumerate(r.instructions or []):
        bad = unresolved(r, inst)
        rep.check(not bad, f"{owner} instruction #{n} ({inst.name})", "operands name declared symbols",
                  ", ".join(bad))
    if not r.is_kernel:
        rep.check(r.input_size <= FUNCTION_ARG_GRFS, owner, f"input_size in [0, {FUNCTION_ARG_GRFS}] GRFs",
                  str(r.input_size))
        rep.check(r.return_value_size <= FUNCTION_RET_GRFS, owner,
                  f"return_value_size in [0, {FUNCTION_RET_GRFS}] GRFs", str(r.return_value_size))
        rep.check(r.linkage in LINKAGES, owner, "linkage 0 (extern), 1 (static) or 2 (global)", str(r.linkage))
    _attributes(rep, owner, r.attributes)
    check_rules(rep.check, owner, r)


def _inputs(rep: _Report, owner: str, r: Routine) -> None:
    if not r.is_kernel:
        return
    rep.check(len(r.inputs) <= MAX_INPUTS, owner, f"at most {MAX_INPUTS} inputs", str(len(r.inputs)))
    spans: list[tuple[int, int, str]] = []
    seen_implicit = False
    for n, inp in enumerate(r.inputs):
        obj = f"{owner} input #{n}"
        rep.check(inp.category in INPUT_CATEGORIES, obj, "category 0 (general), 1 (sampler) or 2 (surface)",
                  str(inp.category))
        rep.check(inp.provenance < 32, obj, "provenance in 0..31", str(inp.provenance))
        if inp.provenance:
            seen_implicit = True
        else:
            rep.check(not seen_implicit, obj, "user arguments come before all implicit arguments",
                      "user argument after an implicit one")
        if inp.category == 0:
            var = r.variable(inp.id) if NUM_PREDEFINED_VARIABLES <= inp.id < NUM_PREDEFINED_VARIABLES + len(
                r.variables) else None
            rep.check(var is not None, obj, "id names a declared general variable", str(inp.id))
            if var is None:
                continue
            obj = f"{owner} input {var.name}"
            tsize = TYPES.get(var.type, ("", 1))[1]
            rep.check(inp.size == tsize * var.num_elements, obj, "size equals type size * num_elements",
                      f"{inp.size} != {tsize * var.num_elements}")
            rep.check(inp.offset % tsize == 0, obj, "offset aligned to the variable's natural alignment",
                      f"offset {inp.offset}")
            rep.check(var.alias_index == 0, obj, "an input general variable is not an alias",
                      f"alias of {r.variable_name(var.alias_index)}")
            if inp.size >= GRF_BYTES:
                rep.check(inp.offset % GRF_BYTES == 0, obj, "GRF-aligned offset for inputs of one GRF or more",
                          f"offset {inp.offset}")
            else:
                rep.check(inp.offset // GRF_BYTES == (inp.offset + inp.size - 1) // GRF_BYTES, obj,
                          "an input smaller than a GRF does not cross a GRF boundary",
                          f"bytes {inp.offset}..{inp.offset + inp.size - 1}")
        else:
            count = len(r.samplers) if inp.category == 1 else NUM_PREDEFINED_SURFACES + len(r.surfaces)
            rep.check(inp.id < count, obj, f"id names a declared {INPUT_CATEGORIES.get(inp.category)}",
                      str(inp.id))
            rep.check(inp.offset % 4 == 0, obj, "state inputs (sampler, surface) are dword-aligned",
                      f"offset {inp.offset}")
        spans.append((inp.offset, inp.offset + inp.size, obj))
    spans.sort()
    for (a0, a1, aobj), (b0, _b1, bobj) in zip(spans, spans[1:], strict=False):
        rep.check(b0 >= a1, bobj, "inputs do not overlap", f"bytes {b0}.. overlap {aobj} ({a0}..{a1 - 1})")


def validate(obj: VisaObject) -> list[str]:
    """Every violated spec 004 limit, one message each (empty when the object is valid)."""
    rep = _Report()
    rep.check(len(obj.kernels) <= MAX_KERNELS, "header", f"at most {MAX_KERNELS} kernels", str(len(obj.kernels)))
    for k in obj.kernels:
        rep.check(len(k.gen_binaries) <= MAX_GEN_BINARIES, f"kernel {k.name}",
                  f"num_gen_binaries in 0..{MAX_GEN_BINARIES}", str(len(k.gen_binaries)))
        for g in k.gen_binaries:
            rep.check(g.platform in GEN_PLATFORMS, f"kernel {k.name} gen binary", "known gen_platform code",
                      str(g.platform))
        _routine(rep, k)
    for f in obj.functions:
        _routine(rep, f)
    for fv in obj.file_variables:
        o = f"file variable {fv.name}"
        _name(rep, o, fv.name, "file_variable")
        lo, hi = FILE_VAR_NUM_ELEMENTS
        rep.check(lo <= fv.num_elements <= hi, o, f"num_elements in [{lo}, {hi}]", str(fv.num_elements))
        rep.check(fv.linkage in LINKAGES, o, "linkage 0 (extern), 1 (static) or 2 (global)", str(fv.linkage))
        rep.check(fv.align in ALIGNMENTS, o, "alignment code in the alignment table", str(fv.align))
    return rep.problems


def check(obj: VisaObject) -> None:
    """Raise FormatError listing every violated limit."""
    problems = validate(obj)
    if problems:
        raise FormatError("; ".join(problems), field="limits")
