"""Work-item coroutine frames laid out structure-of-arrays, so region loops can vectorise.

CoroSplit gives each work-item a frame (array of structures: work-item ``l``'s field at byte
``off`` lives at ``frames + l * size + off``); a region loop over work-items then reads its live
values with a stride of a whole frame. After splitting, when every frame access of the ramp and
of the resume function is a constant-offset field access that stays inside one 8-byte word, the
frame is re-laid out in 8-byte columns: byte ``off`` of work-item ``l`` lives at
``base + (off // 8) * 8 * ROWS + l * 8 + off % 8``. The "frame pointer" of work-item ``l``
becomes ``base + l * 8`` and each field offset is rewritten to ``(off // 8) * 8 * ROWS +
off % 8``, so consecutive work-items' copies of a value are 8 bytes apart.
"""

from __future__ import annotations

import re

from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE
from kernelkit.targets.host.irtext import Function
from kernelkit.targets.host.passes.printf import type_size

WORD = 8
# rows of the re-laid-out frame: room for the largest work-group, plus padding so that rows are not
# a power of two apart (all of a work-item's fields would otherwise fall into the same cache set)
ROW_ITEMS = MAX_WORK_GROUP_SIZE + 8
RAMP_FRAME = "%kk.coro.mem"      # the frame pointer in the ramp (kk_frame's result)
RESUME_FRAME = "%kk.coro.hdl"    # the resume function's frame parameter

_GEP_RE = re.compile(r"^(\s*)(%[-\w$.]+) = getelementptr inbounds (?:nuw )?i8, ptr (%[-\w$.]+), i64 (\d+)$")
_LOAD_RE = re.compile(r"= load (?:volatile )?(.+?), ptr (%[-\w$.]+)(?:,|$)")
_STORE_RE = re.compile(r"^\s*store (?:volatile )?(.+) (%[-\w$.]+|[-+\w$.@]+|null|true|false|poison|undef), ptr (%[-\w$.]+)(?:,|$)")


def soa_offset(off: int) -> int:
    return (off // WORD) * WORD * ROW_ITEMS + off % WORD


def _uses(body: list[str], name: str) -> list[str]:
    pat = re.compile(re.escape(name) + r"(?![-\w$.])")
    return [line for line in body if pat.search(line)]


def _access_size(line: str, ptr: str) -> int | None:
    """Bytes a load/store accesses through ``ptr``, or None if ``line`` uses it otherwise."""
    m = _LOAD_RE.search(line)
    if m and m.group(2) == ptr:
        return _size(m.group(1))
    m = _STORE_RE.match(line)
    if m and m.group(3) == ptr and ptr not in m.group(1) and m.group(2) != ptr:
        return _size(m.group(1))
    return None


def _size(ty: str) -> int | None:
    try:
        return type_size(ty.strip())
    except ValueError:
        return None


def convertible(f: Function, frame: str) -> bool:
    """Are all uses of ``frame`` in ``f`` word-contained constant-offset field accesses?"""
    geps = {}
    for line in f.body:
        m = _GEP_RE.match(line)
        if m and m.group(3) == frame:
            geps[m.group(2)] = int(m.group(4))
    for line in _uses(f.body, frame):
        m = _GEP_RE.match(line)
        if m and m.group(3) == frame:
            continue
        if line.strip() == f"ret ptr {frame}" or re.match(rf"^\s*{re.escape(frame)} = ", line):
            continue
        size = _access_size(line, frame)
        if size is None or size > WORD:
            return False
    for name, off in geps.items():
        for line in _uses(f.body, name):
            if line.lstrip().startswith(f"{name} ="):
                continue
            size = _access_size(line, name)
            if size is None or off % WORD + size > WORD:
                return False
    return True


def rewrite(f: Function, frame: str) -> None:
    out = []
    for line in f.body:
        m = _GEP_RE.match(line)
        if m and m.group(3) == frame:
            line = f"{m.group(1)}{m.group(2)} = getelementptr inbounds i8, ptr {frame}, i64 {soa_offset(int(m.group(4)))}"
        out.append(line)
    f.body = out


def allocator() -> str:
    """``kk_frame_soa(wi, wg, size)``: ``base + lin * 8`` in a per-thread block of
    ``round_up(size, 8) * ROWS`` bytes (allocated once per thread, freed by the loop entry)."""
    from kernelkit.targets.host.passes.barriers import frame_allocator

    return frame_allocator("kk_frame_soa", row_items=ROW_ITEMS, attrs="alwaysinline")


def convert(ramp: Function, resume: Function) -> bool:
    """Re-lay out one coroutine kernel's frames (ramp and resume); False if not possible."""
    if not any("@kk_frame(" in line and RAMP_FRAME in line for line in ramp.body):
        return False
    if not (convertible(ramp, RAMP_FRAME) and convertible(resume, RESUME_FRAME)):
        return False
    rewrite(ramp, RAMP_FRAME)
    rewrite(resume, RESUME_FRAME)
    # the frame parameter is no longer a 'size'-byte object
    resume.header = re.sub(r"dereferenceable(?:_or_null)?\(\d+\) ?", "", resume.header)
    ramp.header = re.sub(r"dereferenceable(?:_or_null)?\(\d+\) ?", "", ramp.header)
    ramp.body = [line.replace("fastcc ptr @kk_frame(", "ptr @kk_frame(").replace("@kk_frame(", "@kk_frame_soa(")
                 for line in ramp.body]
    return True
