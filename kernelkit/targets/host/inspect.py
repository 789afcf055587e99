"""``kernelkit inspect`` for host binaries (native object + KernelInfo)."""

from __future__ import annotations

from kernelkit.targets.host.binary import is_host_binary, read_host_binary


def detect(data: bytes, path: str) -> bool:
    return is_host_binary(data)


def inspect(data: bytes, path: str) -> dict:
    b = read_host_binary(data)
    from kernelkit.formats.elf import ElfFile

    elf = ElfFile.parse(b.object_code)
    sections = [{"name": s.name, "size": s.size} for s in elf.sections if s.name]
    symbols = sorted(s.name for s in elf.symbols() if s.name.startswith("kk.run."))
    return {
        "format": "kernelkit host binary", "triple": b.triple, "cpu": b.cpu, "object_bytes": len(b.object_code),
        "object_sections": sections, "entries": symbols, "options": b.options,
        "kernels": [{**k.signature, "barriers": k.coroutine, "max_work_dim": k.max_work_dim,
                     "uniform_work_groups": k.uniform_work_groups} for k in b.kernels],
        "printf_formats": [s[0] for s in b.printf_sites], "static_local_symbols": b.local_globals,
    }


def render(info: dict) -> str:
    out = [f"{info['format']}: {info['triple']} ({info['cpu']}), {info['object_bytes']} bytes of object code"]
    for k in info["kernels"]:
        args = ", ".join(f"{a['type_name']} {a['name']}" for a in k["args"])
        extra = []
        if k["barriers"]:
            extra.append("barriers")
        if k.get("reqd_work_group_size"):
            extra.append(f"reqd_work_group_size{tuple(k['reqd_work_group_size'])}")
        if not k["uniform_work_groups"]:
            extra.append("non-uniform work-groups")
        out.append(f"  kernel {k['name']}({args})" + (f"  [{', '.join(extra)}]" if extra else ""))
    for fmt in info["printf_formats"]:
        out.append(f"  printf {fmt!r}")
    return "\n".join(out) + "\n"
