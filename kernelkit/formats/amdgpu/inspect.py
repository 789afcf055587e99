"""``kernelkit inspect`` for AMDGPU code objects, offload bundles (plain and compressed) and host
objects with ``.hip_fatbin`` sections: ``detect``, ``inspect`` (JSON document), ``render``."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu.bundle import BUNDLE_MAGIC, CCOB_MAGIC, OffloadBundle
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.formats.amdgpu.hostobj import fatbin_bundles, fatbin_section
from kernelkit.formats.amdgpu.tables import EM_AMDGPU
from kernelkit.formats.kernel_info import arg, render_kernel, render_register_fields, resources

# spec 001 "Code Object V3+ Metadata" .value_kind -> the shared argument kind (hidden_* -> "hidden")
_KINDS = {"by_value": "value", "global_buffer": "pointer", "dynamic_shared_pointer": "pointer",
          "image": "image", "sampler": "sampler", "pipe": "pipe", "queue": "queue"}
_KERNEL_CODE_T_SIZE = 256      # a V2 kernel symbol covers its amd_kernel_code_t, then the code
STT_FUNC, STT_AMDGPU_HSA_KERNEL = 2, 10


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


def _code_sizes(co: CodeObject) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for table in (".dynsym", ".symtab"):
        if co.elf.section(table) is None:
            continue
        for sym in co.elf.symbols(table):
            if sym.type == STT_FUNC:
                sizes.setdefault(sym.name, sym.size)
            elif sym.type == STT_AMDGPU_HSA_KERNEL:
                sizes.setdefault(sym.name, max(sym.size - _KERNEL_CODE_T_SIZE, 0))
    return sizes


def code_object_info(co: CodeObject) -> dict:
    """CodeObject.info() in the shared KernelInfo shape."""
    info = co.info()
    code_sizes = _code_sizes(co)
    kernels = []
    for k in info["kernels"]:
        args = [arg(a["name"], a["type_name"], a["offset"], a["size"],
                    "hidden" if a["value_kind"].startswith("hidden_") else _KINDS.get(a["value_kind"], "value"),
                    **{key: v for key, v in a.items() if key not in ("name", "type_name", "offset", "size")})
                for a in k["args"]]
        res = resources(kernarg_size=k["kernarg_segment_size"], sgprs=k["sgpr_count"], vgprs=k["vgpr_count"],
                        local_memory_size=k["group_segment_fixed_size"],
                        private_memory_size=k["private_segment_fixed_size"], code_size=code_sizes.get(k["name"]))
        kernels.append({"name": k["name"], "args": args, "resources": res,
                        **{key: v for key, v in k.items() if key not in ("name", "args")}})
    return {**info, "kernels": kernels}


def bundle_info(bundle: OffloadBundle) -> dict:
    entries = []
    kernels = []
    for e in bundle.entries:
        obj = None
        if e.data[:4] == E.ELF_MAGIC and int.from_bytes(e.data[18:20], "little") == EM_AMDGPU:
            obj = code_object_info(CodeObject.parse(e.data))
            kernels += [{**k, "target": obj["target"]} for k in obj["kernels"]]
        entries.append({"id": e.id, "kind": e.entry_id.kind, "triple": e.entry_id.triple,
                        "target_id": e.entry_id.target_id, "offset": e.offset, "size": len(e.data),
                        "object": obj})
    c = bundle.compression
    targets = {k["target"] for k in kernels}
    return {"format": "offload-bundle", "target": targets.pop() if len(targets) == 1 else None,
            "kernels": kernels,
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
        return code_object_info(CodeObject.parse(data))
    sec = fatbin_section(elf)
    bundles = [{"offset": off, **bundle_info(b)} for off, b in fatbin_bundles(elf)]
    kernels = [k for b in bundles for k in b["kernels"]]
    targets = {k["target"] for k in kernels}
    return {"format": "host-object", "target": targets.pop() if len(targets) == 1 else None,
            "kernels": kernels, "e_machine": elf.e_machine,
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
        label = "descriptor" if "descriptor" in k else "amd_kernel_code_t"
        details = [f"symbol {k['symbol']}, kernarg align {k['kernarg_segment_align']}, "
                   f"wavefront {k['wavefront_size']}"]
        details += render_register_fields(label, k.get("descriptor") or k.get("amd_kernel_code_t"))
        out += render_kernel(k, details, indent + "  ", _arg_detail)
    return out


def _arg_detail(a: dict) -> str:
    words = [a["value_kind"]] + [f"{key}={a[key]}" for key in ("address_space", "access", "is_const", "is_restrict", "is_volatile")
              if a.get(key) is not None]
    return " ".join(words)


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


def debug_info(data: bytes, path: str) -> dict:
    """``inspect --debug``: the DWARF of a code object, registers named for its wavefront size."""
    from kernelkit.formats.dwarf.reader import functions, read_debug_info

    if data[:4] != E.ELF_MAGIC or int.from_bytes(data[18:20], "little") != EM_AMDGPU:
        raise FormatError(f"{path}: --debug reads AMDGPU code objects, not bundles or host objects",
                          field="e_machine")
    co = CodeObject.parse(data)
    kernels = co.metadata.kernels
    waves = {k.wavefront_size for k in kernels}
    wave_size = waves.pop() if len(waves) == 1 else None
    debug = read_debug_info(data, wave_size)
    names = {k.name for k in kernels}
    entries = {s.name: s.value for table in (".symtab", ".dynsym") if co.elf.section(table) is not None
               for s in co.elf.symbols(table) if s.type == STT_FUNC and s.name in names}
    return {"format": "amdgpu-code-object", "target": co.target.full(), "wave_size": wave_size,
            "functions": functions(debug, entries), **debug}


def render_debug(info: dict) -> str:
    from kernelkit.formats.dwarf.listing import render_debug as listing

    return listing(info)


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


def disassembly(data: bytes, path: str) -> dict:
    """``inspect --disasm``: the code object's functions through LLVM's C disassembler."""
    from kernelkit.formats.amdgpu.disasm import code_object_functions, function_listing

    co = CodeObject.parse(data)
    return function_listing(code_object_functions(co.elf), co.target.processor.name)


def render_disassembly(listing: dict) -> str:
    from kernelkit.formats.amdgpu.disasm import render_listing

    return render_listing(listing)
