"""One typed model of AMDHSA code object metadata, V2 through V6 (spec 001 "Code Object Metadata").

Field names are the V3+ keys without the leading dot. ``None`` means the key is absent, so a
document read and written again is identical (``from_v3(doc).to_v3() == doc``, keys sorted as
LLVM's msgpack writer sorts them). V2 YAML documents go through ``metadata_v2``. Keys the spec
does not define (vendor extensions) are kept in ``extra``.

``validate(meta, version)`` returns precise messages; ``check(meta, version)`` raises
``FormatError`` with all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu.tables import (
    ACCESS_QUALS,
    ADDRESS_SPACE_QUALS,
    HIDDEN_ARGS_V5,
    HIDDEN_BLOCK_SIZE_V5,
    KERNEL_KINDS,
    METADATA_VERSION,
    V3_KEYS,
    V3_REQUIRED,
    VALUE_KINDS_V3,
    VALUE_KINDS_V5_ONLY,
)

_PY_TYPES = {"str": str, "int": int, "bool": bool, "seq": list, "map": dict}


@dataclass
class ArgMeta:
    size: int
    value_kind: str
    offset: int | None = None          # V2 documents: computed from size/align
    name: str | None = None
    type_name: str | None = None
    align: int | None = None           # V2 "Align" (V3+ has none)
    value_type: str | None = None
    pointee_align: int | None = None
    address_space: str | None = None
    access: str | None = None
    actual_access: str | None = None
    is_const: bool | None = None
    is_restrict: bool | None = None
    is_volatile: bool | None = None
    is_pipe: bool | None = None
    extra: dict = field(default_factory=dict)

    @property
    def is_hidden(self) -> bool:
        return self.value_kind.startswith("hidden_")


@dataclass
class KernelMeta:
    name: str
    symbol: str
    kernarg_segment_size: int
    group_segment_fixed_size: int
    private_segment_fixed_size: int
    kernarg_segment_align: int
    wavefront_size: int
    sgpr_count: int
    vgpr_count: int
    max_flat_workgroup_size: int
    args: list[ArgMeta] | None = None
    language: str | None = None
    language_version: list[int] | None = None
    reqd_workgroup_size: list[int] | None = None
    workgroup_size_hint: list[int] | None = None
    vec_type_hint: str | None = None
    device_enqueue_symbol: str | None = None
    agpr_count: int | None = None
    sgpr_spill_count: int | None = None
    vgpr_spill_count: int | None = None
    kind: str | None = None
    uses_dynamic_stack: bool | None = None
    workgroup_processor_mode: int | None = None
    uniform_work_group_size: int | None = None
    is_dynamic_callstack: bool | None = None   # V2 only
    is_xnack_enabled: bool | None = None       # V2 only
    extra: dict = field(default_factory=dict)


@dataclass
class CodeObjectMetadata:
    version: list[int]
    kernels: list[KernelMeta]
    printf: list[str] | None = None
    target: str | None = None
    extra: dict = field(default_factory=dict)

    def kernel(self, name: str) -> KernelMeta:
        for k in self.kernels:
            if k.name == name:
                return k
        raise FormatError(f"no kernel {name!r} in the metadata (kernels: "
                          f"{', '.join(k.name for k in self.kernels)})", field="amdhsa.kernels")

    # ------------------------------------------------------------- V3+ msgpack documents
    @classmethod
    def from_v3(cls, doc: dict) -> CodeObjectMetadata:
        errors = validate_document_v3(doc)
        if errors:
            raise FormatError("; ".join(errors), field="NT_AMDGPU_METADATA")
        kernels = [_from_map(KernelMeta, k, "kernel") for k in doc["amdhsa.kernels"]]
        for k, raw in zip(kernels, doc["amdhsa.kernels"], strict=True):
            if ".args" in raw:
                k.args = [_from_map(ArgMeta, a, "arg") for a in raw[".args"]]
        extra = {k: v for k, v in doc.items() if k not in V3_KEYS["top"]}
        return cls(list(doc["amdhsa.version"]), kernels, doc.get("amdhsa.printf"),
                   doc.get("amdhsa.target"), extra)

    def to_v3(self) -> dict:
        doc: dict[str, Any] = {"amdhsa.kernels": [_to_map(k, "kernel") for k in self.kernels],
                               "amdhsa.version": list(self.version), **self.extra}
        if self.printf is not None:
            doc["amdhsa.printf"] = list(self.printf)
        if self.target is not None:
            doc["amdhsa.target"] = self.target
        return _sorted(doc)


def _from_map(cls, raw: dict, table: str):
    known = V3_KEYS[table]
    names = {f.name for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    extra = {}
    for key, value in raw.items():
        attr = key[1:]
        if key in known and attr in names and key not in (".args",):
            kwargs[attr] = value
        elif key != ".args":
            extra[key] = value
    return cls(**kwargs, extra=extra)


def _to_map(obj, table: str) -> dict:
    out: dict[str, Any] = {}
    for f in fields(obj):
        if f.name in ("extra", "align", "is_dynamic_callstack", "is_xnack_enabled"):
            continue
        value = getattr(obj, f.name)
        if value is None:
            continue
        if f.name == "args":
            value = [_to_map(a, "arg") for a in value]
        out["." + f.name] = value
    out.update(obj.extra)
    return _sorted(out)


def _sorted(d: dict) -> dict:
    return {k: d[k] for k in sorted(d)}


# ------------------------------------------------------------------ validation
def _type_ok(value: Any, tname: str) -> bool:
    if tname == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if tname == "flag":
        return value in (0, 1)
    return seq_items_ok(value, tname) if tname.startswith("seq-") else isinstance(value, _PY_TYPES[tname])


def seq_items_ok(value: Any, tname: str) -> bool:
    """``seq-int`` / ``seq-str``: a list whose items are all integers (not booleans) / strings."""
    if not isinstance(value, list):
        return False
    if tname == "seq-int":
        return all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    return all(isinstance(v, str) for v in value)


def _check_map(raw: Any, table: str, where: str, version: int, errors: list[str]) -> bool:
    if not isinstance(raw, dict):
        errors.append(f"{where}: expected a map, found {type(raw).__name__}")
        return False
    for key in V3_REQUIRED.get(table, ()):
        if key not in raw:
            errors.append(f"{where}: missing required key {key!r}")
    for key, value in raw.items():
        if not isinstance(key, str):
            errors.append(f"{where}: key {key!r} is not a string")
            continue
        spec = V3_KEYS[table].get(key)
        if spec is None:
            if key.startswith(".") or (table == "top" and key.startswith("amdhsa.")):
                errors.append(f"{where}: unknown key {key!r}")
            continue
        tname, since = spec
        if not _type_ok(value, tname):
            errors.append(f"{where}{'' if key.startswith('.') else '.'}{key}: expected {tname}, found {type(value).__name__} {value!r}")
        elif since > version:
            errors.append(f"{where}: key {key!r} needs code object V{since}+, this is V{version}")
    return True


def validate_document_v3(doc: Any, version: int | None = None) -> list[str]:
    """Schema checks of a V3+ msgpack document (keys, required keys, value types)."""
    errors: list[str] = []
    if version is None:
        version = version_of(doc)
    if not _check_map(doc, "top", "metadata", version, errors):
        return errors
    kernels = doc.get("amdhsa.kernels")
    if not isinstance(kernels, list):
        return errors
    for i, k in enumerate(kernels):
        where = f"amdhsa.kernels[{i}]" + (f" ({k.get('.name')})" if isinstance(k, dict) else "")
        if not _check_map(k, "kernel", where, version, errors):
            continue
        args = k.get(".args")
        for j, a in enumerate(args if isinstance(args, list) else []):
            _check_map(a, "arg", f"{where}.args[{j}]", version, errors)
    return errors


def version_of(doc: Any) -> int:
    """Code object version implied by ``amdhsa.version`` (1.0 -> 3, 1.1 -> 4, 1.2 -> 5)."""
    v = doc.get("amdhsa.version") if isinstance(doc, dict) else None
    if isinstance(v, list) and len(v) == 2:
        for cov in (3, 4, 5):
            if METADATA_VERSION[cov] == tuple(v):
                return cov
    return 6


_V3_ADDR = {v3 for _, v3 in ADDRESS_SPACE_QUALS}
_V3_ACCESS = {v3 for _, v3 in ACCESS_QUALS}


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _required_align(a: ArgMeta) -> int:
    """The alignment an argument's offset must have: V2's Align; pointers and handles their size;
    hidden arguments their size (at most 8); by-value data of unknown type none."""
    if a.align is not None:
        return a.align
    if a.value_kind == "by_value":
        return 1
    return min(a.size, 8) if a.size & (a.size - 1) == 0 else 1


def validate(meta: CodeObjectMetadata, version: int) -> list[str]:
    """Semantic checks: value kinds, qualifiers, offsets, alignment, kernarg size."""
    errors: list[str] = []
    if version >= 4 and meta.target is None:
        errors.append("metadata: missing required key 'amdhsa.target' (code object V4+)")
    for k in meta.kernels:
        where = f"kernel {k.name}"
        if not _pow2(k.kernarg_segment_align):
            errors.append(f"{where}: kernarg_segment_align {k.kernarg_segment_align} is not a power of two")
        if k.wavefront_size not in (32, 64):
            errors.append(f"{where}: wavefront_size {k.wavefront_size} is not 32 or 64")
        if k.kind is not None and k.kind not in KERNEL_KINDS:
            errors.append(f"{where}: kind {k.kind!r} is not one of {', '.join(KERNEL_KINDS)}")
        end = 0
        hidden_block_end = 0
        prev: ArgMeta | None = None
        for j, a in enumerate(k.args or []):
            aw = f"{where} arg {j}" + (f" ({a.name})" if a.name else "")
            if a.value_kind not in VALUE_KINDS_V3:
                errors.append(f"{aw}: unknown value_kind {a.value_kind!r}")
            elif a.value_kind in VALUE_KINDS_V5_ONLY and version < 5:
                errors.append(f"{aw}: value_kind {a.value_kind!r} needs code object V5+")
            if a.address_space is not None and a.address_space not in _V3_ADDR:
                errors.append(f"{aw}: unknown address_space {a.address_space!r}")
            for acc in ("access", "actual_access"):
                val = getattr(a, acc)
                if val is not None and val not in _V3_ACCESS:
                    errors.append(f"{aw}: unknown {acc} {val!r}")
            if a.size <= 0:
                errors.append(f"{aw}: size {a.size} must be positive")
            if a.offset is None:
                errors.append(f"{aw}: no offset")
                continue
            natural = _required_align(a)
            if a.offset % natural:
                errors.append(f"{aw}: offset {a.offset} is not a multiple of its alignment {natural}")
            if a.offset < end and prev is not None:
                errors.append(f"{aw}: offset {a.offset} overlaps the previous argument (ends at {end})")
            if version >= 5 and a.value_kind in HIDDEN_ARGS_V5 and a.value_kind.startswith("hidden_"):
                base = a.offset - HIDDEN_ARGS_V5[a.value_kind][0]
                hidden_block_end = max(hidden_block_end, base + HIDDEN_BLOCK_SIZE_V5)
            end = max(end, a.offset + a.size)
            prev = a
        if k.kernarg_segment_size < end:
            errors.append(f"{where}: kernarg_segment_size {k.kernarg_segment_size} is smaller than the "
                          f"arguments need ({end} bytes)")
        limit = max(-(-end // 8) * 8, hidden_block_end, -(-end // k.kernarg_segment_align) *
                    k.kernarg_segment_align if _pow2(k.kernarg_segment_align) else 0)
        if k.kernarg_segment_size > limit:
            errors.append(f"{where}: kernarg_segment_size {k.kernarg_segment_size} is larger than the "
                          f"arguments explain ({limit} bytes)")
    return errors


def check(meta: CodeObjectMetadata, version: int) -> None:
    errors = validate(meta, version)
    if errors:
        raise FormatError("invalid metadata: " + "; ".join(errors), field="metadata")
