"""Code object V2 metadata (YAML, spec 001 "Code Object V2 Metadata") <-> the typed model, and
conversion between V2 and V3+ documents.

V2 arguments carry ``Size``/``Align`` but no offsets: offsets are computed per the spec's rule
(each argument at the next multiple of its alignment after the previous one). V3+ arguments
carry offsets but no alignment: converting to V2 infers each alignment from the offsets, capped
by ``kernarg_segment_align``, and checks that recomputing the offsets gives them back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu.metadata import ArgMeta, CodeObjectMetadata, KernelMeta, seq_items_ok
from kernelkit.formats.amdgpu.tables import (
    ACCESS_QUALS,
    ADDRESS_SPACE_QUALS,
    METADATA_VERSION,
    V2_KEYS,
    V2_REQUIRED,
    VALUE_KIND_V2_TO_V3,
    VALUE_KIND_V3_TO_V2,
)

# spec 001 V2 <-> V3 key correspondence: (V2 table, V2 key, model attribute)
V2_KEY_TO_ATTR: dict[str, dict[str, str]] = {
    "kernel": {"Name": "name", "SymbolName": "symbol", "Language": "language",
               "LanguageVersion": "language_version"},
    "attrs": {"ReqdWorkGroupSize": "reqd_workgroup_size", "WorkGroupSizeHint": "workgroup_size_hint",
              "VecTypeHint": "vec_type_hint", "RuntimeHandle": "device_enqueue_symbol"},
    "arg": {"Name": "name", "TypeName": "type_name", "Size": "size", "Align": "align",
            "ValueKind": "value_kind", "ValueType": "value_type", "PointeeAlign": "pointee_align",
            "AddrSpaceQual": "address_space", "AccQual": "access", "ActualAccQual": "actual_access",
            "IsConst": "is_const", "IsRestrict": "is_restrict", "IsVolatile": "is_volatile",
            "IsPipe": "is_pipe"},
    "code_props": {"KernargSegmentSize": "kernarg_segment_size",
                   "GroupSegmentFixedSize": "group_segment_fixed_size",
                   "PrivateSegmentFixedSize": "private_segment_fixed_size",
                   "KernargSegmentAlign": "kernarg_segment_align", "WavefrontSize": "wavefront_size",
                   "NumSGPRs": "sgpr_count", "NumVGPRs": "vgpr_count",
                   "MaxFlatWorkGroupSize": "max_flat_workgroup_size",
                   "IsDynamicCallStack": "is_dynamic_callstack", "IsXNACKEnabled": "is_xnack_enabled",
                   "NumSpilledSGPRs": "sgpr_spill_count", "NumSpilledVGPRs": "vgpr_spill_count"},
}
_ADDR_V2_TO_V3 = dict(ADDRESS_SPACE_QUALS)
_ADDR_V3_TO_V2 = {v3: v2 for v2, v3 in ADDRESS_SPACE_QUALS}
_ACC_V2_TO_V3 = dict(ACCESS_QUALS)
_ACC_V3_TO_V2 = {v3: v2 for v2, v3 in ACCESS_QUALS}
_VALUE_MAPS = {"value_kind": (VALUE_KIND_V2_TO_V3, VALUE_KIND_V3_TO_V2),
               "address_space": (_ADDR_V2_TO_V3, _ADDR_V3_TO_V2),
               "access": (_ACC_V2_TO_V3, _ACC_V3_TO_V2), "actual_access": (_ACC_V2_TO_V3, _ACC_V3_TO_V2)}


def align_up(value: int, align: int) -> int:
    return -(-value // align) * align if align > 1 else value


# ------------------------------------------------------------------ validation (schema)
def validate_document_v2(doc: Any) -> list[str]:
    errors: list[str] = []

    def check(raw: Any, table: str, where: str) -> bool:
        if not isinstance(raw, dict):
            errors.append(f"{where}: expected a mapping, found {type(raw).__name__}")
            return False
        for key in V2_REQUIRED[table]:
            if key not in raw:
                errors.append(f"{where}: missing required key {key!r}")
        for key, value in raw.items():
            tname = V2_KEYS[table].get(key)
            if tname is None:
                if "." not in str(key):   # vendor keys are "vendor.Key"
                    errors.append(f"{where}: unknown key {key!r}")
                continue
            ok = seq_items_ok(value, tname) if tname.startswith("seq-") else {
                "str": isinstance(value, str), "int": isinstance(value, int) and not isinstance(value, bool),
                "bool": isinstance(value, bool), "seq": isinstance(value, list),
                "map": isinstance(value, dict)}[tname]
            if not ok:
                errors.append(f"{where}.{key}: expected {tname}, found {type(value).__name__} {value!r}")
        return True

    if not check(doc, "top", "metadata"):
        return errors
    for i, k in enumerate(doc.get("Kernels") or []):
        where = f"Kernels[{i}]" + (f" ({k.get('Name')})" if isinstance(k, dict) else "")
        if not check(k, "kernel", where):
            continue
        if "CodeProps" in k:
            check(k["CodeProps"], "code_props", where + ".CodeProps")
        else:   # the model (like V3's kernel map) needs the code properties' required keys
            errors.append(f"{where}: missing 'CodeProps' (its {', '.join(V2_REQUIRED['code_props'])})")
        if "Attrs" in k:
            check(k["Attrs"], "attrs", where + ".Attrs")
        for j, a in enumerate(k.get("Args") or []):
            if check(a, "arg", f"{where}.Args[{j}]"):
                if isinstance(a.get("Align"), int) and (a["Align"] <= 0 or a["Align"] & (a["Align"] - 1)):
                    errors.append(f"{where}.Args[{j}]: Align {a['Align']} is not a power of two")
                if a.get("ValueKind") is not None and a.get("ValueKind") not in VALUE_KIND_V2_TO_V3:
                    errors.append(f"{where}.Args[{j}]: unknown ValueKind {a.get('ValueKind')!r}")
    return errors


# ------------------------------------------------------------------ V2 codec
def _conv(attr: str, value: Any, to_v3: bool) -> Any:
    maps = _VALUE_MAPS.get(attr)
    if maps is None or value is None:
        return value
    table = maps[0] if to_v3 else maps[1]
    if value not in table:
        raise FormatError(f"{attr} value {value!r} has no {'V3' if to_v3 else 'V2'} equivalent",
                          field=attr)
    return table[value]


def from_v2(doc: Any) -> CodeObjectMetadata:
    """The model of a V2 document; argument offsets computed from Size/Align."""
    errors = validate_document_v2(doc)
    if errors:
        raise FormatError("; ".join(errors), field="NT_AMD_HSA_METADATA")
    kernels = []
    for raw in doc.get("Kernels") or []:
        kw: dict[str, Any] = {}
        for table, src in (("kernel", raw), ("attrs", raw.get("Attrs") or {}),
                           ("code_props", raw.get("CodeProps") or {})):
            for key, attr in V2_KEY_TO_ATTR[table].items():
                if key in src:
                    kw[attr] = src[key]
        args = None
        if "Args" in raw:
            args = []
            offset = 0
            for a in raw["Args"]:
                akw = {attr: _conv(attr, a[key], True) for key, attr in V2_KEY_TO_ATTR["arg"].items()
                       if key in a}
                offset = align_up(offset, akw["align"])
                args.append(ArgMeta(offset=offset, **akw,
                                    extra={k: v for k, v in a.items() if k not in V2_KEYS["arg"]}))
                offset += akw["size"]
        extra = {k: v for k, v in raw.items() if k not in V2_KEYS["kernel"]}
        kernels.append(KernelMeta(args=args, extra=extra, **kw))
    extra = {k: v for k, v in doc.items() if k not in V2_KEYS["top"]}
    return CodeObjectMetadata(list(doc["Version"]), kernels, doc.get("Printf"), None, extra)


def to_v2(meta: CodeObjectMetadata) -> dict:
    """The V2 YAML mapping (keys in the order LLVM writes them)."""
    doc: dict[str, Any] = {"Version": list(meta.version)}
    if meta.printf is not None:
        doc["Printf"] = list(meta.printf)
    kernels = []
    for k in meta.kernels:
        out: dict[str, Any] = {}
        for key, attr in V2_KEY_TO_ATTR["kernel"].items():
            if getattr(k, attr) is not None:
                out[key] = getattr(k, attr)
        attrs = {key: getattr(k, attr) for key, attr in V2_KEY_TO_ATTR["attrs"].items()
                 if getattr(k, attr) is not None}
        if attrs:
            out["Attrs"] = attrs
        if k.args is not None:
            out["Args"] = []
            for a in k.args:
                if a.align is None:
                    raise FormatError(f"kernel {k.name}: argument without Align cannot be written as V2 "
                                      "(convert with v3_to_v2 first)", field="Align")
                out["Args"].append({**{key: _conv(attr, getattr(a, attr), False)
                                       for key, attr in V2_KEY_TO_ATTR["arg"].items()
                                       if getattr(a, attr) is not None}, **a.extra})
        out["CodeProps"] = {key: getattr(k, attr) for key, attr in V2_KEY_TO_ATTR["code_props"].items()
                            if getattr(k, attr) is not None}
        out.update(k.extra)
        kernels.append(out)
    doc["Kernels"] = kernels
    doc.update(meta.extra)
    return doc


# ------------------------------------------------------------------ V2 <-> V3+ conversion
def _v2_symbol_to_v3(symbol: str) -> str:
    return symbol[:-3] + ".kd" if symbol.endswith("@kd") else symbol


def _v3_symbol_to_v2(symbol: str) -> str:
    return symbol[:-3] + "@kd" if symbol.endswith(".kd") else symbol


def v2_to_v3(meta: CodeObjectMetadata, version: int = 3, *, target: str | None = None) -> CodeObjectMetadata:
    """A V2 model as the V3+ document clang writes for the same kernels."""
    kernels = []
    for k in meta.kernels:
        args = None if k.args is None else [
            replace(a, align=None, access=None if a.access == "default" else a.access) for a in k.args]
        kernels.append(replace(k, args=args, symbol=_v2_symbol_to_v3(k.symbol),
                               sgpr_spill_count=k.sgpr_spill_count or 0,
                               vgpr_spill_count=k.vgpr_spill_count or 0,
                               is_xnack_enabled=None, is_dynamic_callstack=None))
    return CodeObjectMetadata(list(METADATA_VERSION[version]), kernels, meta.printf,
                              target if version >= 4 else None, dict(meta.extra))


def infer_align(offset: int, size: int, cap: int) -> int:
    """Largest power of two dividing ``offset`` (any, for 0), not above ``cap`` or the size's."""
    natural = 1 << max(size - 1, 0).bit_length()
    align = min(cap, natural)
    while offset % align:
        align //= 2
    return max(align, 1)


def v3_to_v2(meta: CodeObjectMetadata) -> CodeObjectMetadata:
    """A V3+ model as a V2 document: alignments inferred, offsets re-derived and checked."""
    kernels = []
    for k in meta.kernels:
        args = None
        if k.args is not None:
            args = []
            offset = 0
            for a in k.args:
                if a.offset is None:
                    raise FormatError(f"kernel {k.name}: argument without offset", field=".offset")
                align = a.align or infer_align(a.offset, a.size, 8 if a.is_hidden else k.kernarg_segment_align)
                if align_up(offset, align) != a.offset:
                    raise FormatError(f"kernel {k.name}: argument at offset {a.offset} cannot be placed by "
                                      f"V2 rules (previous argument ends at {offset}, align {align})",
                                      field="Args")
                access = a.access
                if access is None and not a.is_hidden:
                    access = "default"
                args.append(replace(a, align=align, access=access))
                offset = a.offset + a.size
        kernels.append(replace(k, args=args, symbol=_v3_symbol_to_v2(k.symbol),
                               sgpr_spill_count=k.sgpr_spill_count or None,
                               vgpr_spill_count=k.vgpr_spill_count or None,
                               agpr_count=None, uses_dynamic_stack=None, workgroup_processor_mode=None,
                               uniform_work_group_size=None))
    return CodeObjectMetadata(list(METADATA_VERSION[2]), kernels, meta.printf, None, dict(meta.extra))


# Where LLVM 14, the last LLVM to write V2/V3, differs from LLVM 22 (reference/amdgpu/clang14):
# image and sampler arguments are in the constant address space, the hidden pointer slots (all
# but the global offsets) in the global one, and hidden slots of services the code does not use
# are hidden_none (kernelkit has no hostcall services; the default queue and completion action
# serve device-side enqueue only)
HANDLE_ADDRESS_SPACES_V2_V3 = {"image": "constant", "sampler": "constant"}
HIDDEN_POINTER_ADDRESS_SPACE_V2_V3 = "global"
DEVICE_QUEUE_HIDDEN = ("hidden_default_queue", "hidden_completion_action")


def as_llvm14_wrote_it(kernels, uses_device_queue: bool) -> None:
    """Rewrite (in place) the arguments of V3+ model kernels the way LLVM 14 wrote them in V2/V3."""
    for k in kernels:
        for a in k.args or []:
            if a.value_kind in HANDLE_ADDRESS_SPACES_V2_V3:
                a.address_space = HANDLE_ADDRESS_SPACES_V2_V3[a.value_kind]
            elif a.is_hidden and not a.value_kind.startswith("hidden_global_offset_"):
                a.address_space = HIDDEN_POINTER_ADDRESS_SPACE_V2_V3
                if a.value_kind == "hidden_hostcall_buffer" or \
                        (a.value_kind in DEVICE_QUEUE_HIDDEN and not uses_device_queue):
                    a.value_kind = "hidden_none"
