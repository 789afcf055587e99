"""Work-group barriers on the host: each work-item of a kernel with barriers runs as an LLVM
coroutine, and every ``__mux_work_group_barrier`` call becomes a suspension point.

The work-item loop (see :mod:`wrapper`) starts every work-item of a group (each runs to its
first barrier), then resumes them round-robin until all have finished: between two rounds every
work-item has reached the same barrier, which is exactly the barrier's semantics for any uniform
control flow (loops, branches, code inlined from called functions). LLVM's CoroSplit pass turns
each kernel into a ramp and a resume function and keeps the values live across a barrier in the
work-item's coroutine frame, the role PoCL's and the Construction Kit's per-work-item context
arrays play in their region-splitting work-item loops.

Runs after everything is inlined into the kernel entry points (no barrier is left in a callee).
"""

from __future__ import annotations

import re

from kernelkit.targets.host.irtext import Function, ModuleText, block_label, header_params
from kernelkit.targets.host.sched import WORK_GROUP_FIELDS, WORK_ITEM_FIELDS, field_index, llvm_struct

BARRIER_CALL = "@__mux_work_group_barrier("

CORO_DECLS = """declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare void @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)"""

FRAME_ALIGN = 64  # coroutine frames may hold spilled 512-bit vectors


def frame_allocator(name: str = "kk_frame", *, row_items: int | None = None, attrs: str = "noinline") -> str:
    """``@name(wi, wg, size)``: the work-item's frame in the thread's frame array.

    All work-items of a kernel have frames of the same size, so the array is (re)allocated only
    by the first work-item a thread starts (before any frame is live); the work-item loop frees it.
    Array of structures: frames ``round_up(size, 64)`` bytes apart, one per enqueued work-item.
    With ``row_items`` (see soa_frames): ``round_up(size, 8) * row_items`` bytes, work-item ``l``
    at ``8 * l``. ``noinline`` until the frames are laid out, ``alwaysinline`` afterwards.
    """
    wg_t, wi_t = llvm_struct(WORK_GROUP_FIELDS), llvm_struct(WORK_ITEM_FIELDS)
    fr, st = field_index(WORK_GROUP_FIELDS, "frames"), field_index(WORK_GROUP_FIELDS, "frame_stride")
    en, lin = field_index(WORK_GROUP_FIELDS, "enqueued_local_size"), field_index(WORK_ITEM_FIELDS, "local_linear_id")
    align = FRAME_ALIGN if row_items is None else 8
    if row_items is None:
        count = [f"  %e{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {en}, i32 {d}" for d in range(3)]
        count += [f"  %e{d} = load i64, ptr %e{d}p" for d in range(3)]
        count += ["  %e01 = mul i64 %e0, %e1", "  %items = mul i64 %e01, %e2"]
        offset = ["  %off = mul i64 %l, %stride2"]
    else:
        count = [f"  %items = add i64 {row_items}, 0"]
        offset = ["  %off = shl i64 %l, 3"]
    count_text, offset_text = "\n".join(count), "\n".join(offset)
    return f"""define internal ptr @{name}(ptr %wi, ptr %wg, i64 %size) {attrs} nounwind {{
entry:
  %sp = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {st}
  %fp = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {fr}
  %stride = load i64, ptr %sp
  %ok = icmp uge i64 %stride, %size
  br i1 %ok, label %have, label %grow
grow:
  %old = load ptr, ptr %fp
  call void @free(ptr %old)
  %s1 = add i64 %size, {align - 1}
  %s2 = and i64 %s1, {-align}
{count_text}
  %bytes = mul i64 %items, %s2
  %new = call ptr @aligned_alloc(i64 {FRAME_ALIGN}, i64 %bytes)
  store ptr %new, ptr %fp
  store i64 %s2, ptr %sp
  br label %have
have:
  %frames = load ptr, ptr %fp
  %stride2 = load i64, ptr %sp
  %lp = getelementptr inbounds {wi_t}, ptr %wi, i32 0, i32 {lin}
  %l = load i64, ptr %lp
{offset_text}
  %f = getelementptr i8, ptr %frames, i64 %off
  ret ptr %f
}}"""


def has_barriers(f: Function) -> bool:
    return any(BARRIER_CALL in line for line in f.body)


def _mark_coroutine(header: str, name: str) -> str:
    header = header.replace(f" void @{name}(", f" ptr @{name}(", 1)
    _, close = header_params(header)
    rest = header[close + 1:]
    m = re.match(r"(\s*(?:local_unnamed_addr|unnamed_addr))?", rest)
    cut = close + 1 + (m.end() if m else 0)
    return header[:cut] + " presplitcoroutine" + header[cut:]


def to_coroutine(f: Function) -> int:
    """Rewrite kernel ``f`` (returning void) into a work-item coroutine; returns the barrier count."""
    f.header = _mark_coroutine(f.header, f.name)
    body: list[str] = []
    renamed: dict[str, str] = {}   # original block label -> label of the block now ending it
    current = None
    first = f.body[0] if f.body else ""
    entry_label = block_label(first)
    setup = [
        "  %kk.coro.id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)",
        "  %kk.coro.size = call i64 @llvm.coro.size.i64()",
        "  %kk.coro.mem = call ptr @kk_frame(ptr %kk.wi, ptr %kk.wg, i64 %kk.coro.size)",
        "  %kk.coro.hdl = call ptr @llvm.coro.begin(token %kk.coro.id, ptr %kk.coro.mem)",
    ]
    count = 0
    lines = f.body
    if entry_label is not None:
        body.append(lines[0])
        lines = lines[1:]
        current = entry_label
    body += setup
    for line in lines:
        label = block_label(line)
        if label is not None:
            current = label
            body.append(line)
            continue
        stripped = line.strip()
        if BARRIER_CALL in line:
            count += 1
            resume = f"kk.barrier.{count}"
            body += [
                f"  %kk.susp.{count} = call i8 @llvm.coro.suspend(token none, i1 false) noduplicate",
                f"  switch i8 %kk.susp.{count}, label %kk.coro.suspend [i8 0, label %{resume} "
                f"i8 1, label %kk.coro.cleanup]",
                f"{resume}:",
            ]
            if current is not None:
                renamed[current] = resume
            else:  # unnamed entry block: its implicit number is the first free one
                renamed["<entry>"] = resume
            current = resume
            continue
        if stripped == "ret void" or stripped.startswith("ret void,"):
            body.append("  br label %kk.coro.final")
            continue
        body.append(line)
    body += [
        "kk.coro.final:",
        "  %kk.susp.final = call i8 @llvm.coro.suspend(token none, i1 true)",
        "  switch i8 %kk.susp.final, label %kk.coro.suspend [i8 0, label %kk.coro.trap "
        "i8 1, label %kk.coro.cleanup]",
        "kk.coro.trap:",
        "  unreachable",
        "kk.coro.cleanup:",
        "  br label %kk.coro.suspend",
        "kk.coro.suspend:",
        "  call void @llvm.coro.end(ptr %kk.coro.hdl, i1 false, token none)",
        "  ret ptr %kk.coro.hdl",
    ]
    if "<entry>" in renamed:
        renamed[_entry_number(f)] = renamed.pop("<entry>")
    for label in list(renamed):  # a block split by several barriers ends in the last part
        end = renamed[label]
        while end in renamed:
            end = renamed[end]
        renamed[label] = end
    if renamed:
        body = [_fix_phis(line, renamed) if " phi " in line else line for line in body]
    f.body = body
    return count


def _entry_number(f: Function) -> str:
    """The implicit number of an unnamed entry block: one past the unnamed parameters."""
    start, end = header_params(f.header)
    nums = [int(n) for n in re.findall(r"%(\d+)(?=[,\s]|$)", f.header[start:end])]
    return str(max(nums) + 1 if nums else 0)


def _fix_phis(line: str, renamed: dict[str, str]) -> str:
    def sub(m: re.Match) -> str:
        label = m.group(2)
        return f"{m.group(1)}%{renamed.get(label, label)} ]"
    return re.sub(r"(\[ [^\[\]]*?, )%(\"[^\"]+\"|[-\w$.]+) \]", sub, line)


def lower_barriers(mod: ModuleText, kernels: list[str]) -> dict[str, int]:
    """Turn the kernels with barriers into coroutines; returns their names and barrier counts."""
    out = {}
    for name in kernels:
        f = mod.function(name)
        if f is not None and has_barriers(f):
            out[name] = to_coroutine(f)
    if out:
        declared = mod.declared()
        for line in CORO_DECLS.splitlines():
            name = re.search(r"@([\w.]+)\(", line).group(1)
            if name not in declared:
                mod.items.append(line)
        mod.items.append(frame_allocator())
    # the barrier builtin has no definition left to call
    mod.items = [i for i in mod.items if not (isinstance(i, str) and i.startswith("declare")
                                              and "@__mux_work_group_barrier(" in i)]
    return out
