"""`kernelkit inspect` for vISA objects (binary ``.isa``) and vISA assembly (``.visaasm``)."""

from __future__ import annotations

import re

from kernelkit.errors import FormatError
from kernelkit.formats.visa.binary import read_isa
from kernelkit.formats.visa.model import Routine, VisaObject
from kernelkit.formats.visa.tables import (
    ALIGNMENTS,
    ATTRIBUTE_KINDS,
    GEN_PLATFORMS,
    INPUT_CATEGORIES,
    LINKAGES,
    MAGIC,
    PROVENANCES,
    TYPES,
)
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.text_print import Printer

_TEXT_START = re.compile(rb"\A(?:\s|//[^\n]*\n)*\.version\s")


def detect(data: bytes, path: str) -> bool:
    if data[:4] == MAGIC.to_bytes(4, "little"):
        return True
    return path.endswith(".visaasm") or bool(_TEXT_START.match(data[:4096]))


def load(data: bytes, path: str, *, lenient: bool = True) -> VisaObject:
    """The vISA object of a binary or a text (damaged instruction streams kept raw when lenient)."""
    if data[:4] == MAGIC.to_bytes(4, "little"):
        return read_isa(data, lenient=lenient)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not UTF-8 text ({exc.reason})", offset=exc.start, field="text") from None
    return parse_visaasm(text)


def _attributes(routine: Routine) -> dict:
    out: dict = {}
    for a in routine.attributes:
        kind = ATTRIBUTE_KINDS.get(a.name, "str" if a.size > 4 else "int")
        out[a.name] = a.as_str() if kind == "str" else (True if kind == "bool" or not a.size else a.as_int())
    return out


def _routine(routine: Routine) -> dict:
    try:
        return _describe(routine)
    except (KeyError, IndexError) as exc:
        raise FormatError(f"{routine.name}: value outside its table ({exc!r})", field="routine") from None


def _describe(routine: Routine) -> dict:
    printer = Printer(routine)
    doc: dict = {"name": routine.name}
    if routine.is_kernel:
        inputs = []
        for inp in routine.inputs:
            name = (routine.variable_name(inp.id) if inp.category == 0 else
                    printer.sampler(inp.id) if inp.category == 1 else printer.surface(inp.id))
            inputs.append({"name": name, "category": INPUT_CATEGORIES.get(inp.category, str(inp.category)),
                           "provenance": PROVENANCES.get(inp.provenance, inp.provenance),
                           "offset": inp.offset, "size": inp.size})
        doc["inputs"] = inputs
    else:
        doc["linkage"] = LINKAGES.get(routine.linkage, routine.linkage)
        doc["input_size"] = routine.input_size
        doc["return_value_size"] = routine.return_value_size
    doc["attributes"] = _attributes(routine)
    doc["variables"] = [
        {"name": v.name, "type": TYPES[v.type][0] if v.type in TYPES else v.type, "num_elements": v.num_elements,
         "align": ALIGNMENTS[v.align][0] if v.align in ALIGNMENTS else v.align,
         "alias": routine.variable_name(v.alias_index) if v.alias_index else None, "alias_offset": v.alias_offset}
        for v in routine.variables]
    doc["addresses"] = [{"name": a.name, "num_elements": a.num_elements} for a in routine.addresses]
    doc["predicates"] = [{"name": p.name, "num_elements": p.num_elements} for p in routine.predicates]
    doc["samplers"] = [s.name for s in routine.samplers]
    doc["surfaces"] = [s.name for s in routine.surfaces]
    doc["labels"] = [lab.name for lab in routine.labels]
    if routine.decode_error:
        doc["decode_error"] = routine.decode_error
        doc["code_size"] = len(routine.code)
    if routine.instructions is None:
        doc["instructions"] = None
    else:
        try:
            doc["instructions"] = [printer.instruction(i).replace("\n\n", " ").strip()
                                   for i in routine.instructions]
        except (KeyError, IndexError) as exc:
            raise FormatError(f"{routine.name}: instruction refers to a missing symbol or code ({exc!r})",
                              field="instructions") from None
    if routine.is_kernel:
        doc["gen_binaries"] = [{"platform": GEN_PLATFORMS.get(g.platform, str(g.platform)),
                                "platform_code": g.platform, "offset": g.offset, "size": g.size}
                               for g in routine.gen_binaries]
    return doc


def inspect(data: bytes, path: str) -> dict:
    obj = load(data, path)
    return {"format": "visa", "version": obj.version,
            "encoding": "binary" if data[:4] == MAGIC.to_bytes(4, "little") else "text",
            "kernels": [_routine(k) for k in obj.kernels],
            "functions": [_routine(f) for f in obj.functions]}


def render(info: dict) -> str:
    lines = [f"vISA {info['version']} ({info['encoding']}): {len(info['kernels'])} kernel(s), "
             f"{len(info['functions'])} function(s)"]
    for kind, routines in (("kernel", info["kernels"]), ("function", info["functions"])):
        for r in routines:
            lines.append(f"{kind} {r['name']}")
            for name, value in r["attributes"].items():
                lines.append(f"  attribute {name} = {value!r}")
            for inp in r.get("inputs", []):
                prov = "" if inp["provenance"] == "none" else f" implicit {inp['provenance']}"
                lines.append(f"  input {inp['name']:<12} {inp['category']:<8} offset {inp['offset']:>5} "
                             f"size {inp['size']:>4}{prov}")
            lines.append(f"  {len(r['variables'])} variables, {len(r['addresses'])} address, "
                         f"{len(r['predicates'])} predicate, {len(r['samplers'])} sampler, "
                         f"{len(r['surfaces'])} surface, {len(r['labels'])} label(s)")
            for g in r.get("gen_binaries", []):
                lines.append(f"  gen binary {g['platform']} at {g['offset']:#x}, {g['size']} bytes")
            if r.get("decode_error"):
                lines.append(f"  instructions: {r['code_size']} bytes, damaged ({r['decode_error']}); "
                             "best-effort decoding:")
            if r["instructions"] is not None:
                lines.append(f"  {len(r['instructions'])} instructions")
                lines.extend(f"    {text}" for text in r["instructions"])
    return "\n".join(lines) + "\n"
