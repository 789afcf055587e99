"""``kernelkit inspect`` for host binaries (native object + KernelInfo)."""

from __future__ import annotations

from kernelkit.formats.kernel_info import arg, render_kernel, resources
from kernelkit.targets.host.binary import HostKernelInfo, is_host_binary, read_host_binary

# KernelSignature kinds -> the shared argument kinds
_KINDS = {"scalar": "value", "vector": "value", "struct": "value", "union": "value"}


def detect(data: bytes, path: str) -> bool:
    return is_host_binary(data)


def _kernel(k: HostKernelInfo) -> dict:
    """The signature with the host ABI's places: args[i] is the i-th 8-byte slot of the entry's
    ``void **args`` array, pointing at the value (abi/host.py)."""
    from kernelkit.abi.host import layout_from_signature
    from kernelkit.abi.signature import KernelSignature

    layout = layout_from_signature(KernelSignature.from_json(k.signature))
    args = [arg(a["name"], a["type_name"], slot["slot_offset"], slot["value_size"], _KINDS.get(a["kind"], a["kind"]),
                **{key: v for key, v in a.items() if key not in ("name", "type_name", "size", "kind")},
                signature_kind=a["kind"])
            for a, slot in zip(k.signature["args"], layout["args"], strict=True)]
    return {"name": k.name, "args": args, "resources": resources(kernarg_size=layout["args_array_bytes"]),
            **{key: v for key, v in k.signature.items() if key not in ("name", "args")},
            "barriers": k.coroutine, "max_work_dim": k.max_work_dim, "uniform_work_groups": k.uniform_work_groups,
            "vector_width": k.vector_width}


def inspect(data: bytes, path: str) -> dict:
    b = read_host_binary(data)
    from kernelkit.formats.elf import ElfFile

    elf = ElfFile.parse(b.object_code)
    sections = [{"name": s.name, "size": s.size} for s in elf.sections if s.name]
    symbols = sorted(s.name for s in elf.symbols() if s.name.startswith("kk.run."))
    return {
        "format": "kernelkit host binary", "target": "host", "kernels": [_kernel(k) for k in b.kernels],
        "triple": b.triple, "cpu": b.cpu, "cpu_features": b.features, "object_bytes": len(b.object_code),
        "object_sections": sections, "entries": symbols, "options": b.options,
        "printf_formats": [s[0] for s in b.printf_sites], "static_local_symbols": b.local_globals,
    }


def render(info: dict) -> str:
    out = [f"{info['format']}: {info['triple']} ({info['cpu']}), {info['object_bytes']} bytes of object code"]
    if info.get("cpu_features"):
        out.append(f"  cpu features: {' '.join(info['cpu_features'])}")
    for k in info["kernels"]:
        extra = []
        if k["barriers"]:
            extra.append("barriers")
        if k.get("reqd_work_group_size"):
            extra.append(f"reqd_work_group_size{tuple(k['reqd_work_group_size'])}")
        if not k["uniform_work_groups"]:
            extra.append("non-uniform work-groups")
        if k.get("vector_width", 1) > 1:
            extra.append(f"vectorised x{k['vector_width']}")
        out += render_kernel(k, [", ".join(extra)] if extra else [], "  ",
                             lambda a: a["address_space"] if a["kind"] == "pointer" else "")
    for fmt in info["printf_formats"]:
        out.append(f"  printf {fmt!r}")
    return "\n".join(out) + "\n"
