"""The GDS append counters behind ``;counter:`` arguments (cl_ext_atomic_counters_32):
``append_buf_alloc_id(n) dst`` gives each active work-item the counter's value and adds one
(work-items in lane order), ``append_buf_consume_id(n) dst`` subtracts one and gives the value
after it. The runtime loads each counter from the buffer passed for its argument before the
launch and stores the final value back into it afterwards."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.errors import LaunchError

U32 = np.uint32


def compile_append(exe, ins) -> Callable[[], None]:
    kind = ins.op[len("append_buf_"):]
    if kind not in ("alloc", "consume") or ins.dst is None or ins.srcs:
        raise LaunchError(f"line {ins.line}: {ins.op} takes one destination and no sources")
    try:
        cid = int(ins.params.get("id", ""))
    except ValueError:
        raise LaunchError(f"line {ins.line}: {ins.op} needs _id(n)") from None
    if cid not in exe.counters:
        raise LaunchError(f"line {ins.line}: counter {cid} is not bound (the kernel's metadata "
                          f"has no ;counter: record with id {cid})")
    dst = ins.dst

    def append():
        act = exe._act()
        n = exe.L if isinstance(act, slice) else len(act)
        start = exe.counters[cid]
        steps = np.arange(n, dtype=np.int64)
        if kind == "alloc":
            got = start + steps
            exe.counters[cid] = (start + n) & 0xFFFFFFFF
        else:
            got = start - 1 - steps
            exe.counters[cid] = (start - n) & 0xFFFFFFFF
        exe._write_lanes(dst, dst.select[:1], [(got & 0xFFFFFFFF).astype(U32)], act)
    return append
