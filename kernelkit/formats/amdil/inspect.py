"""``kernelkit inspect`` for AMD IL: IL text programs and binaries carrying metadata blocks
(AMD Catalyst ``.clo``). ``detect/inspect/render`` as ``kernelkit.commands.inspect`` expects."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.catalyst import START, find_metadata_blocks
from kernelkit.formats.amdil.link import required_ids
from kernelkit.formats.amdil.program import MetadataBlock, Program, parse_program
from kernelkit.formats.kernel_info import arg, render_kernel, resources


def detect(data: bytes, path: str) -> bool:
    """IL text (``il_…`` header or ``.il``), text whose lines hold metadata blocks, or a binary
    (ELF, NUL bytes) embedding them; prose that merely mentions ``;ARGSTART:`` is not claimed."""
    head = data[:64].lstrip()
    if head.startswith(b"il_") or path.endswith(".il"):
        return True
    if data.startswith(START) or b"\n" + START in data:
        return True
    return (data.startswith(b"\x7fELF") or b"\x00" in data[:4096]) and START in data


def _arg(rec, block: MetadataBlock, reflections: dict[int, str], consts: set[str],
         arg_samplers: set[str], index: int, size: int) -> dict:
    base = arg(rec.name, reflections.get(index), rec.offset, size, "value", index=index, cb=rec.cb)
    if isinstance(rec, r.Value):
        kind = "sampler" if (rec.type == "sampler" or rec.name in arg_samplers) else "value"
        base.update(kind=kind, type=rec.type, count=rec.count)   # a struct's count is its bytes
    elif isinstance(rec, r.Pointer):
        base.update(kind="pointer", type=rec.type, memory=rec.memory, buffer=rec.buffer,
                    align=rec.align)
        if rec.access is not None:
            base["access"] = rec.access
        if rec.volatile is not None:
            base.update(volatile=rec.volatile, restrict=rec.restrict)
    elif isinstance(rec, r.Image):
        base.update(kind="image", type=rec.dimension, access=rec.access, id=rec.id)
    elif isinstance(rec, r.Counter):
        base.update(kind="counter", type=f"counter{rec.bits}", bits=rec.bits, id=rec.id)
    else:
        base.update(kind="sema", type="sema", id=rec.id)
    if rec.name in consts:
        base["const"] = True
    return base


def _memory_size(memory: dict, *spaces: str) -> int | None:
    sizes = [int(memory[s]) for s in spaces if s in memory and memory[s] is not True]
    return sum(sizes) if sizes else None


def kernel_info(block: MetadataBlock, program: Program | None = None,
                index: dict[int, MetadataBlock] | None = None) -> dict:
    from kernelkit.abi.amdil import layout_from_metadata
    from kernelkit.abi.amdil_slots import SLOT

    reflections = {rec.index: rec.type_name for rec in block.of(r.Reflection)}
    consts = {rec.name for rec in block.of(r.ConstArg)}
    samplers = block.of(r.Sampler)
    arg_samplers = {s.name for s in samplers if s.location == 0}
    slots = layout_from_metadata(block).args
    args = [_arg(rec, block, reflections, consts, arg_samplers, i, slot.slots * SLOT)
            for i, (rec, slot) in enumerate(zip(block.arguments, slots, strict=True))]
    memory = block.memory()
    functions, intrinsics = list(block.functions), list(block.intrinsics)
    printf = []
    if program is not None and block.uniqueid is not None:
        index = program.metadata_index() if index is None else index
        needed, intr = required_ids(program, block.uniqueid, index)
        functions = sorted(needed - {block.uniqueid})
        intrinsics = sorted(intr)
        blocks = [index.get(f) for f in sorted(needed)]
    else:
        blocks = [block]
    for b in blocks:
        for rec in b.of(r.PrintfFormat) if b else []:
            printf.append({"id": rec.id, "arg_sizes": rec.arg_sizes, "format": rec.format})
    res = resources(kernarg_size=max((a["offset"] + a["size"] for a in args), default=0),
                    local_memory_size=_memory_size(memory, "local", "hwlocal"),
                    private_memory_size=_memory_size(memory, "private", "hwprivate"))
    info: dict = {"name": block.source_name, "args": args, "resources": res, "symbol": block.name,
                  "uniqueid": block.uniqueid, "memory": memory, "functions": functions,
                  "intrinsics": intrinsics, "printf": printf}
    cws = block.first("cws")
    info["cws"] = [cws.x, cws.y, cws.z] if cws else None
    lws = block.first("lws")
    if lws:
        info["lws"] = lws.size
    if block.first("limitgroupsize"):
        info["limitgroupsize"] = True
    info["samplers"] = [{"name": s.name, "id": s.id, "location": s.location, "value": s.value}
                        for s in samplers]
    for tag in ("uavid", "printfid", "cbid", "privateid", "enqueue_kernel", "kernel_index"):
        rec = block.first(tag)
        if rec is not None:
            info[tag] = rec.value
    messages = block.of(r.Message)
    if messages:
        info["errors"] = [m.message for m in messages if m.tag == "error"]
        info["warnings"] = [m.message for m in messages if m.tag == "warning"]
    return info


def _arg_record(a: dict) -> r.Record:
    """One argument of a KernelInfo document back as its metadata record."""
    kind, name, cb, offset = a["kind"], a["name"], a["cb"], a["offset"]
    if kind in ("value", "sampler"):
        count = a.get("count", 1)
        return r.Value(name, a["type"], count, cb, offset)
    if kind == "pointer":
        return r.Pointer(name, a["type"], 1, cb, offset, a["memory"], a["buffer"], a["align"],
                         a.get("access"), a.get("volatile"), a.get("restrict"))
    if kind == "image":
        return r.Image(name, a["type"], a["access"], a["id"], cb, offset)
    if kind == "counter":
        return r.Counter(name, a["bits"], a["id"], cb, offset)
    if kind == "sema":
        return r.Sema(name, a["id"], cb, offset)
    raise FormatError(f"argument {name!r}: unknown kind {kind!r}", field="args.kind")


def block_from_kernel_info(info: dict, version: str | None = None,
                           device: str | None = None) -> MetadataBlock:
    """The metadata block a kernel of ``inspect --json`` (KernelInfo) describes: its argument,
    memory, sampler and uniqueid records (what the runtime needs to fill cb0/cb1)."""
    records: list[r.Record] = []
    if version:
        major, minor, revision = (int(x) for x in version.split(":"))
        records.append(r.Version(major, minor, revision))
    if device:
        records.append(r.Device(device))
    if info.get("uniqueid") is not None:
        records.append(r.UniqueId(info["uniqueid"]))
    for space, size in info.get("memory", {}).items():
        records.append(r.Memory(space) if size is True else r.Memory(space, int(size)))
    try:
        records += [_arg_record(a) for a in info["args"]]
    except (KeyError, TypeError) as exc:
        raise FormatError(f"kernel {info.get('name')!r}: argument entry lacks {exc}",
                          field="args") from None
    records += [r.Sampler(s["name"], s["id"], s["location"], s["value"])
                for s in info.get("samplers", [])]
    return MetadataBlock(info.get("symbol") or info["name"], records)


def _segments(program: Program) -> list[dict]:
    return [{"cb": s.cb, "size": s.size,
             "entries": [{"type": e.type, "offset": e.offset, "values": e.values} for e in s.entries]}
            for s in program.data_segments]


def inspect(data: bytes, path: str) -> dict:
    if data.startswith(b"\x7fELF") or b"\x00" in data[:4096]:
        blocks = [e.block for e in find_metadata_blocks(data)]
        program = None
        container = "binary"
    else:
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError as exc:
            raise FormatError("AMD IL text holds non-ASCII bytes", offset=exc.start,
                              field="text") from None
        program = parse_program(text)
        blocks = program.metadata
        container = "il"
    kernels = [b for b in blocks if b.is_kernel]
    index = program.metadata_index() if program is not None else None
    first = kernels[0] if kernels else None
    version = ":".join(map(str, first.version)) if first and first.version else None
    device = first.device if first else None
    return {
        "format": "amdil",
        "target": f"amdil:{device}" if device else None,
        "kernels": [kernel_info(b, program, index) for b in kernels],
        "container": container,
        "version": version,
        "device": device,
        "data_segments": _segments(program) if program else [],
        "debug_sections": len(program.debug_sections) if program else 0,
        "functions": [{"id": f.id, "name": f.name} for f in program.functions] if program else [],
    }


def _arg_detail(a: dict) -> str:
    return f"cb{a['cb']}[{a['offset'] // 16}] {a['type']}"


def render(info: dict) -> str:
    out = [f"AMD IL ({info['container']}), metadata version {info['version']}, "
           f"device {info['device']}"]
    for k in info["kernels"]:
        details = [f"uniqueid {k['uniqueid']}; memory "
                   + ", ".join(f"{s}={v}" for s, v in k["memory"].items())]
        if k["functions"]:
            details.append(f"functions: {' '.join(map(str, k['functions']))}")
        if k["intrinsics"]:
            details.append(f"intrinsics: {' '.join(map(str, k['intrinsics']))}")
        details += [f"printf {p['id']}: {p['format']!r}" for p in k["printf"]]
        out += render_kernel(k, details, arg_detail=_arg_detail)
    for s in info["data_segments"]:
        where = "global" if s["cb"] is None else f"cb{s['cb']}"
        out.append(f"data segment {where}: {s['size']} bytes, {len(s['entries'])} entries")
    return "\n".join(out) + "\n"
