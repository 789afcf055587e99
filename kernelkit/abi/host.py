"""The host target's kernel ABI: how each argument reaches a kernel's work-item loop entry.

The entry ``void kk.run.<kernel>(void **args, MuxWorkGroupInfo *tmpl, u64 *next, u64 groups)``
receives ``args[i]`` = address of argument i's value: the buffer address for ``__global`` /
``__constant`` pointers, the runtime's per-thread allocation for ``__local`` pointers, the bytes
of scalars, vectors and structs (OpenCL C sizes and alignments; 3-component vectors occupy 4).
Every kernel function also takes the two scheduling parameters (spec 003).
"""

from __future__ import annotations

import ctypes

from kernelkit.errors import KernelkitError
from kernelkit.targets.host.sched import WORK_GROUP_FIELDS, WORK_ITEM_FIELDS, WorkGroupInfo, WorkItemInfo


def handles(target: str) -> bool:
    return target == "host"


def _passing(arg) -> str:
    if arg.kind == "pointer" and arg.address_space == "local":
        return "runtime-allocated __local memory per work-group (address in the slot)"
    if arg.kind == "pointer":
        return f"buffer address ({arg.address_space})"
    if arg.kind in ("struct", "union"):
        return "bytes of the aggregate, passed on to the kernel by value (byval)"
    return "bytes of the value"


def _struct_layout(cls, fields) -> list[dict]:
    return [{"field": name, "offset": getattr(cls, name).offset, "size": getattr(cls, name).size, "llvm": llvm}
            for name, llvm, _ in fields]


def layout_from_signature(sig) -> dict:
    args = []
    for a in sig.args:
        size = a.size if not (a.kind == "pointer") else 8
        args.append({"index": a.index, "name": a.name, "type": a.type_name, "kind": a.kind,
                     "address_space": a.address_space, "slot_offset": 8 * a.index, "value_size": size,
                     "value_align": a.align, "passed_as": _passing(a)})
    return {
        "target": "host", "kernel": sig.name, "entry": f"kk.run.{sig.name}",
        "args_array_bytes": 8 * len(sig.args), "args": args,
        "reqd_work_group_size": list(sig.reqd_work_group_size) if sig.reqd_work_group_size else None,
        "static_local_mem": sig.static_local_mem,
        "scheduling": {
            "MuxWorkItemInfo": {"size": ctypes.sizeof(WorkItemInfo), "fields": _struct_layout(WorkItemInfo, WORK_ITEM_FIELDS)},
            "MuxWorkGroupInfo": {"size": ctypes.sizeof(WorkGroupInfo), "fields": _struct_layout(WorkGroupInfo, WORK_GROUP_FIELDS)},
        },
    }


def layout_for(path: str, target: str, kernel: str, options: dict) -> dict:
    from kernelkit.targets.host.binary import is_host_binary, read_host_binary

    with open(path, "rb") as f:
        data = f.read()
    if is_host_binary(data):
        from kernelkit.runtime.program import _signature_from_json

        sigs = [_signature_from_json(k.signature) for k in read_host_binary(data).kernels]
    else:
        from kernelkit.abi.signature import signatures_from_source

        sigs = signatures_from_source(path, options.get("build_options") or (), pointer_size=8)
    for sig in sigs:
        if sig.name == kernel:
            return layout_from_signature(sig)
    raise KernelkitError(f"no kernel {kernel!r} in {path} (kernels: {', '.join(s.name for s in sigs)})")


def render_layout(layout: dict) -> str:
    out = [f"host ABI, kernel {layout['kernel']}: entry {layout['entry']}(void **args, MuxWorkGroupInfo *, "
           f"u64 *next_group, u64 groups); args[] is {layout['args_array_bytes']} bytes"]
    for a in layout["args"]:
        out.append(f"  args[{a['index']}] +{a['slot_offset']:3}  {a['value_size']:4} B align {a['value_align']:3}  "
                   f"{a['kind']:8} {a['type']:16} {a['name']:12} {a['passed_as']}")
    for name, s in layout["scheduling"].items():
        fields = ", ".join(f"{f['field']}@{f['offset']}" for f in s["fields"])
        out.append(f"  {name} ({s['size']} B): {fields}")
    return "\n".join(out) + "\n"
