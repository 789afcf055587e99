"""Register reuse for a selected AMD IL body: the selector gives every value and temporary a
register of its own; here registers whose live intervals do not overlap share one.

Intervals are taken over the linear (structured) instruction order: from the first to the last
line naming the register. A register live into or out of a ``whileloop`` … ``endloop`` (named
both inside and outside it) is live over the whole loop, since the back edge carries it; that
also covers values a loop iteration reads before writing (phi copies are always written in
front of the loop). Registers below FIRST_VALUE_REGISTER or above LAST_VALUE_REGISTER (the
wrapper's arguments and ids) are left alone: only the selector's virtual registers (from
VIRTUAL_BASE) are renamed."""

from __future__ import annotations

import heapq
import re

from kernelkit.errors import CompileError
from kernelkit.targets.amdil.regs import FIRST_VALUE_REGISTER, LAST_VALUE_REGISTER, VIRTUAL_BASE

_REG = re.compile(r"\br(\d+)\b")


def _loops(lines: list[str]) -> list[tuple[int, int]]:
    out, stack = [], []
    for i, line in enumerate(lines):
        op = line.lstrip().split(" ", 1)[0]      # -g lines start with a tab
        if op == "whileloop":
            stack.append(i)
        elif op == "endloop":
            out.append((stack.pop(), i))
    return out


def reuse_registers(lines: list[str], first_register: int = FIRST_VALUE_REGISTER) -> list[str]:
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, line in enumerate(lines):
        for m in _REG.finditer(line.split(";", 1)[0]):
            n = int(m.group(1))
            if n >= VIRTUAL_BASE:
                first.setdefault(n, i)
                last[n] = i
    loops = sorted(_loops(lines), key=lambda se: se[1] - se[0])   # innermost first
    changed = True
    while changed:
        changed = False
        for start, end in loops:
            for n in first:
                a, b = first[n], last[n]
                inside = a <= end and b >= start
                if inside and (a < start or b > end) and (a > start or b < end):
                    first[n], last[n] = min(a, start), max(b, end)
                    changed = True
    order = sorted(first, key=lambda n: first[n])
    free: list[int] = list(range(first_register, LAST_VALUE_REGISTER + 1))
    heapq.heapify(free)
    active: list[tuple[int, int]] = []     # (last line, physical register)
    mapping: dict[int, int] = {}
    for n in order:
        while active and active[0][0] < first[n]:
            heapq.heappush(free, heapq.heappop(active)[1])
        if not free:
            raise CompileError(f"amdil: the kernel needs more than "
                               f"{LAST_VALUE_REGISTER - first_register + 1} live registers")
        phys = heapq.heappop(free)
        mapping[n] = phys
        heapq.heappush(active, (last[n], phys))

    def rename(m: re.Match) -> str:
        n = int(m.group(1))
        return f"r{mapping.get(n, n)}"
    out = []
    for line in lines:
        code, sep, comment = line.partition(";")
        out.append(_REG.sub(rename, code) + sep + comment)
    return out
