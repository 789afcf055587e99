"""AMD IL's UAV and LDS atomics on the simulator (``uav_[read_]<op>_id(n)``,
``lds_[read_]<op>_id(n)``): work-items in lane order, as one wavefront of the hardware does."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.sim.amdil.decode import Instr

U32 = np.uint32
ATOMIC_UFUNCS = {"add": np.add, "sub": np.subtract, "and": np.bitwise_and, "or": np.bitwise_or,
                 "xor": np.bitwise_xor, "umin": np.minimum, "umax": np.maximum}


def compile_atomic(exe, ins: Instr, space: str) -> Callable[[], None]:
    """``<space>_[read_]<op>`` dst?, addr, value[, compare] — lanes in lane order."""
    name = ins.op[len(space) + 1:]
    returns = name.startswith("read_")
    if returns:
        name = name[5:]
    srcs = ins.srcs
    need = 3 if name == "cmp_xchg" else 2
    if len(srcs) != need:
        raise LaunchError(f"{ins.op} takes {need} source operands")
    known = set(ATOMIC_UFUNCS) | {"min", "max", "xchg", "cmp_xchg", "rsub", "inc", "dec"}
    if name not in known:
        raise LaunchError(f"unknown atomic {ins.op!r}")
    addr = exe._read(srcs[0], (0,))
    value = exe._read(srcs[1], (0,))
    cmp = exe._read(srcs[2], (0,)) if name == "cmp_xchg" else None
    dst = ins.dst

    def atomic():
        act = exe._act()
        a = exe._lane_values(addr, act)[0].astype(np.int64)
        v = exe._lane_values(value, act)[0]
        if space == "uav":
            exe._check(exe.heap, a, 4, f"atomic {name}", act)
            mem = exe.heap.words
            w = a >> 2
        else:
            if ((a + 4 > exe.lds_bytes) | (a < 0)).any():
                lane = int(np.arange(exe.L)[act][int(np.argmax(a + 4 > exe.lds_bytes))])
                raise LaunchError(f"{exe.where(lane)}: LDS atomic outside the "
                                  f"{exe.lds_bytes} bytes of local memory")
            mem = exe.lds.reshape(-1)
            w = exe.lanes.group_row[act] * exe.lds.shape[1] + (a >> 2)
        if not returns and name in ATOMIC_UFUNCS and name != "sub":
            ATOMIC_UFUNCS[name].at(mem, w, v)
            return
        c = exe._lane_values(cmp, act)[0] if cmp is not None else None
        old = np.empty(len(w), U32)
        for i in range(len(w)):
            cur = mem[w[i]]
            old[i] = cur
            mem[w[i]] = atomic_result(name, cur, v[i], c[i] if c is not None else 0)
        if returns:
            exe._write_lanes(dst, dst.select[:1], [old], act)
    return atomic


def atomic_result(name: str, cur, v, c) -> int:
    cur, v, c = int(cur), int(v), int(c)
    s = lambda x: x - (1 << 32) if x & 0x80000000 else x    # noqa: E731
    if name == "add":
        r = cur + v
    elif name == "sub":
        r = cur - v
    elif name == "rsub":
        r = v - cur
    elif name == "and":
        r = cur & v
    elif name == "or":
        r = cur | v
    elif name == "xor":
        r = cur ^ v
    elif name == "min":
        r = min(s(cur), s(v))
    elif name == "max":
        r = max(s(cur), s(v))
    elif name == "umin":
        r = min(cur, v)
    elif name == "umax":
        r = max(cur, v)
    elif name == "xchg":
        r = v
    elif name == "cmp_xchg":
        r = v if cur == c else cur
    elif name == "inc":
        r = 0 if cur >= v else cur + 1
    else:   # dec
        r = v if cur == 0 or cur > v else cur - 1
    return r & 0xFFFFFFFF
