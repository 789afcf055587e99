"""KernelInfo: the one document ``kernelkit inspect --json`` prints for every format, and the one
text layout of ``kernelkit inspect``.

Every format's document has ``format``, ``target`` (a kernelkit target name, or None when the file
does not say or holds several) and ``kernels``; every kernel has ``name``, ``args`` and
``resources``; every argument has ``name``, ``type_name``, ``offset``, ``size`` and ``kind`` (one
of ``ARG_KINDS``). A format's own keys sit beside these. ``inspect.schema.json`` beside this
module is the JSON Schema of that contract.
"""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA_PATH = Path(__file__).with_name("inspect.schema.json")
SCHEMA: dict = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))

# What an argument is, whatever the format's own vocabulary: "hidden" is what the runtime passes
# without the user naming it (HSA hidden arguments, CL2 setup arguments, vISA implicit inputs);
# "surface" a vISA surface input; "counter" and "sema" AMD IL's own argument kinds.
ARG_KINDS: tuple[str, ...] = tuple(SCHEMA["$defs"]["arg"]["properties"]["kind"]["enum"])

# resources of a kernel, in bytes or registers; None where the format does not record it
RESOURCE_KEYS: tuple[str, ...] = tuple(SCHEMA["$defs"]["resources"]["required"])


def arg(name: str | None, type_name: str | None, offset: int | None, size: int | None, kind: str,
        **extra) -> dict:
    """One argument: the shared keys first, the format's own after them."""
    if kind not in ARG_KINDS:
        raise ValueError(f"argument kind {kind!r} is not one of {', '.join(ARG_KINDS)}")
    return {"name": name, "type_name": type_name, "offset": offset, "size": size, "kind": kind, **extra}


def resources(**values: int | None) -> dict:
    unknown = set(values) - set(RESOURCE_KEYS)
    if unknown:
        raise ValueError(f"unknown resource {', '.join(sorted(unknown))}")
    return {key: values.get(key) for key in RESOURCE_KEYS}


# --- the shared text layout -----------------------------------------------------------------

_RESOURCE_LABELS = {"kernarg_size": ("kernarg", " B"), "sgprs": ("sgprs", ""), "vgprs": ("vgprs", ""),
                    "local_memory_size": ("local", " B"), "private_memory_size": ("private", " B"),
                    "code_size": ("code", " B")}


def resource_line(res: dict) -> str:
    shown = [f"{label} {res[key]}{unit}" for key, (label, unit) in _RESOURCE_LABELS.items()
             if res.get(key) is not None]
    return ", ".join(shown) or "not recorded"


def render_kernel(kernel: dict, details: list[str] = (), indent: str = "", arg_detail=None) -> list[str]:
    """``kernel NAME``, its resources, one line per argument (offset, size, kind, type, name, then
    ``arg_detail(arg)``: the format's own words), then the format's own detail lines."""
    out = [f"{indent}kernel {kernel['name']}", f"{indent}  resources: {resource_line(kernel['resources'])}"]
    for a in kernel["args"]:
        offset = "-" if a["offset"] is None else a["offset"]
        size = "-" if a["size"] is None else a["size"]
        line = (f"{indent}  [{offset:>5}] {size:>4} {a['kind']:<8} {a['type_name'] or '':<16} "
                f"{a['name'] or ''}  {arg_detail(a) if arg_detail else ''}")
        out.append(line.rstrip())
    out += [f"{indent}  {d}" for d in details]
    return out


def render_register_fields(label: str, fields: dict, indent: str = "") -> list[str]:
    """A kernel descriptor or amd_kernel_code_t: plain fields on one line, then each register
    (a dict of bit-fields) with its non-zero fields."""
    plain = {key: v for key, v in fields.items() if not isinstance(v, dict)}
    out = [f"{indent}{label}: " + ", ".join(f"{key}={v}" for key, v in plain.items())]
    for key, bits in fields.items():
        if isinstance(bits, dict):
            set_fields = ", ".join(f"{n}={v}" for n, v in bits.items() if v)
            out.append(f"{indent}  {key}: {set_fields or '(all zero)'}")
    return out
