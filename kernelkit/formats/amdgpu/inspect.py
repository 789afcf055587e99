"""``kernelkit inspect`` for AMDGPU code objects, offload bundles (plain and compressed) and host
objects with ``.hip_fatbin`` sections: ``detect``, ``inspect`` (JSON document), ``render``."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu.bundle import BUNDLE_MAGIC, CCOB_MAGIC, OffloadBundle
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.formats.amdgpu.hostobj import fatbin_bundles, fatbin_section
from kernelkit.formats.amdgpu.tables import EM_AMDGPU


def _elf(data: bytes) -> E.ElfFile | None:
    if data[:4] != E.ELF_MAGIC:
        return None
    try:
        return E.ElfFile.parse(data)
    except FormatError:
        return None


def detect(data: bytes, path: str) -> bool:
    if data.startswith(BUNDLE_MAGIC) or data.startswith(CCOB_MAGIC):
        return True
    if data[:4] != E.ELF_MAGIC or len(data) < 20:
        return False
    if int.from_bytes(data[18:20], "little") == EM_AMDGPU:
        return True
    elf = _elf(data)
    return elf is not None and fatbin_section(elf) is not None


def bundle_info(bundle: OffloadBundle) -> dict:
    entries = []
    for e in bundle.entries:
        obj = None
        if e.data[:4] == E.ELF_MAGIC and int.from_bytes(e.data[18:20], "little") == EM_AMDGPU:
            obj = CodeObject.parse(e.data).info()
        entries.append({"id": e.id, "kind": e.entry_id.kind, "triple": e.entry_id.triple,
                        "target_id": e.entry_id.target_id, "offset": e.offset, "size": len(e.data),
                        "object": obj})
    c = bundle.compression
    return {"format": "offload-bundle",
            "compression": None if c is None else {"version": c.version, "method": c.method,
                                                   "total_size": c.total_size,
                                                   "uncompressed_size": c.uncompressed_size,
                                                   "hash": f"{c.hash:#018x}"},
            "entries": entries}


def inspect(data: bytes, path: str) -> dict:
    if data.startswith(BUNDLE_MAGIC) or data.startswith(CCOB_MAGIC):
        return bundle_info(OffloadBundle.parse(data))
    elf = E.ElfFile.parse(data)
    if elf.e_machine == EM_AMDGPU:
        return CodeObject.parse(data).info()
    sec = fatbin_section(elf)
    bundles = [{"offset": off, **bundle_info(b)} for off, b in fatbin_bundles(elf)]
    return {"format": "host-object", "e_machine": elf.e_machine,
            "fatbin": {"section": sec.name if sec else None, "size": sec.size if sec else 0,
                       "bundles": bundles}}


def _render_code_object(info: dict, indent: str = "") -> list[str]:
    out = [f"{indent}AMDGPU code object V{info['code_object_version']} ({info['e_type']}), "
           f"target {info['target']}",
           f"{indent}  e_flags {info['e_flags']:#x} ({', '.join(info['e_flags_names'])}), "
           f"metadata version {'.'.join(map(str, info['metadata_version']))}"]
    for fmt in info["printf"]:
        out.append(f"{indent}  printf {fmt}")
    for k in info["kernels"]:
        out.append(f"{indent}  kernel {k['name']} (symbol {k['symbol']})")
        out.append(f"{indent}    kernarg {k['kernarg_segment_size']} bytes align {k['kernarg_segment_align']}, "
                   f"group {k['group_segment_fixed_size']}, private {k['private_segment_fixed_size']}, "
                   f"wavefront {k['wavefront_size']}, sgpr {k['sgpr_count']}, vgpr {k['vgpr_count']}")
        for a in k["args"]:
            extra = " ".join(f"{key}={a[key]}" for key in ("address_space", "access", "is_const",
                                                         "is_restrict", "is_volatile") if key in a
                             and a[key] is not None)
            out.append(f"{indent}    [{a['offset']:4}] {a['size']:3} {a['value_kind']:<26} "
                       f"{a.get('type_name') or '':<12} {a.get('name') or ''} {extra}".rstrip())
        desc = k.get("descriptor") or k.get("amd_kernel_code_t")
        label = "descriptor" if "descriptor" in k else "amd_kernel_code_t"
        rsrc = {key: v for key, v in desc.items() if isinstance(v, dict)}
        plain = {key: v for key, v in desc.items() if not isinstance(v, dict)}
        out.append(f"{indent}    {label}: " + ", ".join(f"{key}={v}" for key, v in plain.items()))
        for key, fields in rsrc.items():
            set_fields = ", ".join(f"{n}={v}" for n, v in fields.items() if v)
            out.append(f"{indent}      {key}: {set_fields or '(all zero)'}")
    return out


def _render_bundle(info: dict, indent: str = "") -> list[str]:
    c = info["compression"]
    head = f"{indent}offload bundle, {len(info['entries'])} entries"
    if c:
        head += (f" (compressed CCOB v{c['version']} {c['method']}, {c['uncompressed_size']} bytes, "
                 f"hash {c['hash']})")
    out = [head]
    for e in info["entries"]:
        out.append(f"{indent}  {e['id']}  {e['size']} bytes at {e['offset']}")
        if e["object"]:
            out += _render_code_object(e["object"], indent + "    ")
    return out


def render(info: dict) -> str:
    if info["format"] == "amdgpu-code-object":
        lines = _render_code_object(info)
    elif info["format"] == "offload-bundle":
        lines = _render_bundle(info)
    else:
        fat = info["fatbin"]
        lines = [f"host object (e_machine {info['e_machine']}), {fat['section']} of {fat['size']} bytes"]
        for b in fat["bundles"]:
            lines += [f"  at {b['offset']}:"] + _render_bundle(b, "  ")
    return "\n".join(lines) + "\n"
