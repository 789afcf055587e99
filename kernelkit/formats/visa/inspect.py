"""`kernelkit inspect` for vISA objects (binary ``.isa``) and vISA assembly (``.visaasm``)."""

from __future__ import annotations

import re

from kernelkit.errors import FormatError
from kernelkit.formats.kernel_info import arg, render_kernel, resources
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
            category = INPUT_CATEGORIES.get(inp.category, str(inp.category))
            provenance = PROVENANCES.get(inp.provenance, inp.provenance)
            kind = {"sampler": "sampler", "surface": "surface"}.get(category, "value" if provenance == "none"
                                                                    else "hidden")
            inputs.append(arg(name, None, inp.offset, inp.size, kind, category=category, provenance=provenance))
        doc["args"] = inputs
        attributes = _attributes(routine)
        doc["resources"] = resources(
            kernarg_size=(max(i["offset"] + i["size"] for i in inputs) - min(i["offset"] for i in inputs)
                          if inputs else 0),
            local_memory_size=attributes.get("SLMSize"),
            code_size=sum(g.size for g in routine.gen_binaries) or None)
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
    kernels = [_routine(k) for k in obj.kernels]
    platforms = {g["platform"].lower() for k in kernels for g in k["gen_binaries"]}
    return {"format": "visa", "target": f"visa:{platforms.pop()}" if len(platforms) == 1 else None,
            "kernels": kernels, "version": obj.version,
            "encoding": "binary" if data[:4] == MAGIC.to_bytes(4, "little") else "text",
            "functions": [_routine(f) for f in obj.functions]}


def _input_detail(a: dict) -> str:
    return a["category"] + ("" if a["provenance"] == "none" else f" implicit {a['provenance']}")


def render(info: dict) -> str:
    lines = [f"vISA {info['version']} ({info['encoding']}): {len(info['kernels'])} kernel(s), "
             f"{len(info['functions'])} function(s)"]
    for kind, routines in (("kernel", info["kernels"]), ("function", info["functions"])):
        for r in routines:
            details = [f"attribute {name} = {value!r}" for name, value in r["attributes"].items()]
            details.append(f"{len(r['variables'])} variables, {len(r['addresses'])} address, "
                           f"{len(r['predicates'])} predicate, {len(r['samplers'])} sampler, "
                           f"{len(r['surfaces'])} surface, {len(r['labels'])} label(s)")
            details += [f"gen binary {g['platform']} at {g['offset']:#x}, {g['size']} bytes"
                        for g in r.get("gen_binaries", [])]
            if r.get("decode_error"):
                details.append(f"instructions: {r['code_size']} bytes, damaged ({r['decode_error']}); "
                               "best-effort decoding:")
            if r["instructions"] is not None:
                details.append(f"{len(r['instructions'])} instructions")
                details += [f"  {text}" for text in r["instructions"]]
            if kind == "kernel":
                lines += render_kernel(r, details, arg_detail=_input_detail)
            else:
                lines.append(f"function {r['name']}")
                lines += [f"  {d}" for d in details]
    return "\n".join(lines) + "\n"
