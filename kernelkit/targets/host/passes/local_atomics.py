"""Integer atomics on ``__local`` memory as plain read-modify-write sequences.

On the host a work-group runs on one thread and its work-items switch only at barriers, so no
other code can touch a work-group's local memory during one atomic operation: the ``lock``ed
instruction buys nothing there. The loaded value is named ``%kk.la.<n>``; kernels containing
such names must not have their work-item loops marked parallel (two work-items' atomic updates
of the same local word do depend on each other).
"""

from __future__ import annotations

import re

MARK = "%kk.la."
_RMW_RE = re.compile(
    r"^(\s*)(%[-\w$.]+) = atomicrmw (?:volatile )?(add|sub|and|or|xor|max|min|umax|umin) "
    r"ptr addrspace\(3\) (%[-\w$.]+), (i\d+) ([-\w$.%]+)(?: syncscope\(\"[^\"]*\"\))? "
    r"(?:monotonic|acquire|release|acq_rel|seq_cst)(?:, align (\d+))?(?:, !.*)?$")
_SELECT_PRED = {"max": "sgt", "min": "slt", "umax": "ugt", "umin": "ult"}


def _rewrite(m: re.Match, n: int) -> list[str]:
    ind, res, op, ptr, ty, val, align = m.groups()
    al = f", align {align}" if align else ""
    old, new = f"{MARK}{n}", f"{MARK}{n}.new"
    out = [f"{ind}{old} = load {ty}, ptr addrspace(3) {ptr}{al}"]
    if op in _SELECT_PRED:
        out += [f"{ind}{MARK}{n}.cmp = icmp {_SELECT_PRED[op]} {ty} {old}, {val}",
                f"{ind}{new} = select i1 {MARK}{n}.cmp, {ty} {old}, {ty} {val}"]
    else:
        out.append(f"{ind}{new} = {op} {ty} {old}, {val}")
    out += [f"{ind}store {ty} {new}, ptr addrspace(3) {ptr}{al}",
            f"{ind}{res} = add {ty} {old}, 0"]
    return out


def lower_local_atomics(functions) -> None:
    """Rewrite the integer ``atomicrmw`` on address space 3 of every function (SPIR form)."""
    n = 0
    for f in functions:
        if not any("atomicrmw" in line and "addrspace(3)" in line for line in f.body):
            continue
        out = []
        for line in f.body:
            m = _RMW_RE.match(line)
            if m:
                out += _rewrite(m, n)
                n += 1
            else:
                out.append(line)
        f.body = out


def has_local_atomics(body: list[str]) -> bool:
    return any(MARK in line for line in body)
