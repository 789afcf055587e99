"""Checked mode: bounds-check every ``__global``, ``__constant``, ``__local`` and generic access.

Each load, store, atomicrmw and cmpxchg through a pointer in address space 1, 2, 3 or 4 (generic),
and each ``llvm.memcpy``/``memmove``/``memset`` (struct copies) through such pointers, first calls
``kk_check(ptr, size, kind)``, which looks the accessed bytes up in the launch's table of valid
ranges (the buffers and ``__local`` allocations passed, the module's own variables). A generic
pointer may also point to the work-item's private memory: the bytes between the stack pointer (less
the ABI's red zone) and the frame of the work-group loop that runs the kernel
(``MuxWorkGroupInfo.stack_top``). A
violation is recorded once (address, size, work-item) and the access is redirected to a sink, so
the process is not corrupted; the runtime raises after the launch. Private (address space 0)
accesses are not checked.

The work-group copies of ``async_work_group_copy`` (``__mux_dma_*`` calls, spec 003) are checked
at both ends over the bytes their strides span. A violating copy (``memcpy`` or DMA) copies
nothing: its length becomes 0 when a pointer was redirected to the sink.

The module also gets ``@kk.checked.globals``: (address, size) of each global variable, which the
runtime adds to the table.
"""

from __future__ import annotations

import re

from kernelkit.targets.host.irtext import ModuleText, split_top_level
from kernelkit.targets.host.sched import (
    CHECK_STRUCT,
    WORK_GROUP_FIELDS,
    WORK_ITEM_FIELDS,
    field_index,
    llvm_struct,
)

HELPERS = ("kk_check",)
GLOBALS_TABLE = "kk.checked.globals"
_CHECKED_SPACES = ("1", "2", "3", "4")
GENERIC = 2   # kk_check's kind: bit 0 a store, bit 1 a generic pointer (which may be private)
RED_ZONE = 128   # x86-64 System V ABI 3.2.2: a leaf function may keep its locals below the stack pointer
_ACCESS_RE = re.compile(r"^(\s*)(?:(%[-\w$.]+) = )?(load|store|atomicrmw|cmpxchg) (.*)$")
_MEMORY_INTRINSIC_RE = re.compile(r"^(\s*)(?:tail |musttail |notail )?call void @llvm\.(memcpy|memmove|memset)"
                                  r"(?:\.inline)?\.[\w.]+\((.*)\)(.*)$")
_DMA_RE = re.compile(r"^(\s*)((?:%[-\w$.]+ = )?(?:tail )?call .*?)@__mux_dma_(read|write)_([123])D\((.*)\)(.*)$")
_GLOBAL_RE = re.compile(r"^@([-\w$.]+) = (?:[\w ]*?)(?:addrspace\(([0-3])\) )?(?:global|constant) "
                        r"((?:\[[^\]]*\]|\{[^}]*\}|<[^>]*>|[^ ,]+))")


def _size_of(ty: str) -> str:
    return f"ptrtoint (ptr getelementptr ({ty}, ptr null, i32 1) to i64)"


def _pointer(part: str) -> tuple[str, str, str] | None:
    """(address space, operand, trailing words such as an atomic ordering) of ``ptr addrspace(N) ...``."""
    m = re.match(r"^ptr addrspace\((\d)\) (.+)$", part.strip())
    if not m or m.group(1) not in _CHECKED_SPACES:
        return None
    operand, trailer = m.group(2), ""
    if operand[0] in "%@":
        operand, _, trailer = operand.partition(" ")
    return m.group(1), operand, (" " + trailer if trailer else "")


def _check_call(indent: str, reg: str, space: str, operand: str, size: str, store: int) -> str:
    kind = store | (GENERIC if space == "4" else 0)
    return (f"{indent}{reg} = call ptr addrspace({space}) @kk_check(ptr addrspace({space}) {operand}, "
            f"i64 {size}, i64 {kind})")


def _checked_copy(indent: str, parts: list[str], roles: list[tuple[int, int, str]], length_index: int,
                  counter: list[int], out: list[str]) -> bool:
    """Check each ``(argument index, is store, byte extent)`` pointer of a copy call, then make the
    copy's length argument 0 if any pointer was redirected to the sink (a violating copy copies
    nothing rather than overrunning the sink). Edits ``parts``; False if nothing was checked."""
    checked = []
    for index, store, size in roles:
        ptr = _pointer(parts[index])
        if ptr is None:
            continue
        space, operand, rest = ptr
        attrs, _, operand = (operand + rest).rpartition(" ")   # call arguments: attributes, then the value
        counter[0] += 1
        reg = f"%kk.ck.{counter[0]}"
        out.append(_check_call(indent, reg, space, operand, size, store))
        parts[index] = f"ptr addrspace({space}) {attrs + ' ' if attrs else ''}{reg}"
        checked.append((reg, space, operand))
    if not checked:
        return False
    counter[0] += 1
    all_ok = None
    for i, (reg, space, orig) in enumerate(checked):
        same = f"%kk.ck.same.{counter[0]}.{i}"
        out.append(f"{indent}{same} = icmp eq ptr addrspace({space}) {reg}, {orig}")
        if all_ok is None:
            all_ok = same
        else:
            out.append(f"{indent}%kk.ck.all.{counter[0]}.{i} = and i1 {all_ok}, {same}")
            all_ok = f"%kk.ck.all.{counter[0]}.{i}"
    length_ty, _, length = parts[length_index].strip().partition(" ")
    out.append(f"{indent}%kk.ck.len.{counter[0]} = select i1 {all_ok}, {length_ty} {length}, {length_ty} 0")
    parts[length_index] = f"{length_ty} %kk.ck.len.{counter[0]}"
    return True


def _instrument_memory_intrinsic(m: re.Match, counter: list[int]) -> list[str]:
    """``llvm.memcpy/memmove(dst, src, n, volatile)`` and ``llvm.memset(dst, byte, n, volatile)``:
    the destination is written and the source read, ``n`` bytes each."""
    indent, op, args_text, trailer = m.groups()
    parts = split_top_level(args_text)
    if len(parts) < 3:
        return [m.group(0)]
    length_ty, _, length = parts[2].strip().partition(" ")
    out: list[str] = []
    size = length
    if length_ty != "i64":
        counter[0] += 1
        size = f"%kk.ck.n.{counter[0]}"
        out.append(f"{indent}{size} = zext {length_ty} {length} to i64")
    roles = [(0, 1, size)] + ([(1, 0, size)] if op != "memset" else [])
    if not _checked_copy(indent, parts, roles, 2, counter, out):
        return [m.group(0)]
    head = m.group(0)[: m.start(3) - m.start(0)]
    return out + [head + ", ".join(parts) + ")" + trailer]


# spec 003 __mux_dma_{read,write}_{1,2,3}D(dst, src, width, ...): the strides and counts after width
_DMA_SHAPE = {"1": ((), ()), "2": ((3, 5), (4, 5)), "3": ((3, 5, 6, 8), (4, 5, 7, 8))}


def _dma_extent(indent: str, parts: list[str], dims: str, strides: tuple[int, ...], counter: list[int],
                out: list[str]) -> str:
    """Bytes a DMA spans at one end: width + (rows-1) * row stride [+ (planes-1) * plane stride],
    0 when there are no rows or planes."""
    def value(i: int) -> str:
        return parts[i].strip().rsplit(" ", 1)[-1]
    width = value(2)
    if dims == "1":
        return width
    counter[0] += 1
    n = counter[0]
    total, empty = width, None
    for k in range(0, len(strides), 2):
        stride, count = value(strides[k]), value(strides[k + 1])
        out += [f"{indent}%kk.dma.{n}.{k}.c = sub i64 {count}, 1",
                f"{indent}%kk.dma.{n}.{k}.s = mul i64 %kk.dma.{n}.{k}.c, {stride}",
                f"{indent}%kk.dma.{n}.{k}.t = add i64 {total}, %kk.dma.{n}.{k}.s",
                f"{indent}%kk.dma.{n}.{k}.z = icmp eq i64 {count}, 0"]
        total = f"%kk.dma.{n}.{k}.t"
        if empty is None:
            empty = f"%kk.dma.{n}.{k}.z"
        else:
            out.append(f"{indent}%kk.dma.{n}.{k}.e = or i1 {empty}, %kk.dma.{n}.{k}.z")
            empty = f"%kk.dma.{n}.{k}.e"
    out.append(f"{indent}%kk.dma.{n} = select i1 {empty}, i64 0, i64 {total}")
    return f"%kk.dma.{n}"


def _instrument_dma(m: re.Match, counter: list[int]) -> list[str]:
    """The work-group copies of async_work_group_copy: the local and global ends, each over the
    bytes its strides span."""
    indent, head_text, direction, dims, args_text, trailer = m.groups()
    parts = split_top_level(args_text)
    dst_strides, src_strides = _DMA_SHAPE[dims]
    if len(parts) < 4 or any(i >= len(parts) for i in dst_strides + src_strides):
        return [m.group(0)]
    out: list[str] = []
    dst_size = _dma_extent(indent, parts, dims, dst_strides, counter, out)
    src_size = _dma_extent(indent, parts, dims, src_strides, counter, out)
    if not _checked_copy(indent, parts, [(0, 1, dst_size), (1, 0, src_size)], 2, counter, out):
        return [m.group(0)]
    return out + [f"{indent}{head_text}@__mux_dma_{direction}_{dims}D(" + ", ".join(parts) + ")" + trailer]







def _instrument_line(line: str, counter: list[int]) -> list[str]:
    intrinsic = _MEMORY_INTRINSIC_RE.match(line)
    if intrinsic:
        return _instrument_memory_intrinsic(intrinsic, counter)
    dma = _DMA_RE.match(line)
    if dma:
        return _instrument_dma(dma, counter)
    m = _ACCESS_RE.match(line)
    if not m:
        return [line]
    indent, _, op, rest = m.groups()
    words = rest.split(" ")
    prefix = []
    while words and words[0] in ("volatile", "weak", "atomic"):
        prefix.append(words.pop(0))
    if op == "atomicrmw":
        prefix.append(words.pop(0))   # the operation
    parts = split_top_level(" ".join(words))
    if op == "load":
        ty, ptr_index = parts[0], 1
    elif op == "store":
        ty, ptr_index = parts[0].rsplit(" ", 1)[0], 1
    else:  # atomicrmw / cmpxchg operate on scalars: "<type> <value> [ordering...]"
        ty, ptr_index = parts[1].split(" ", 1)[0], 0
    if len(parts) <= ptr_index:
        return [line]
    ptr = _pointer(parts[ptr_index])
    if ptr is None:
        return [line]
    space, operand, trailer = ptr
    counter[0] += 1
    reg = f"%kk.ck.{counter[0]}"
    is_store = 0 if op == "load" else 1
    check = _check_call(indent, reg, space, operand, _size_of(ty), is_store)
    parts[ptr_index] = f"ptr addrspace({space}) {reg}{trailer}"
    head = line[: line.index(op + " ") + len(op) + 1]
    new = head + " ".join(prefix) + (" " if prefix else "") + ", ".join(parts)
    return [check, new]


def instrument(mod: ModuleText) -> None:
    counter = [0]
    for f in mod.functions:
        out: list[str] = []
        for line in f.body:
            out += _instrument_line(line, counter)
        f.body = out
    entries = []
    for item in mod.items:
        if isinstance(item, str):
            m = _GLOBAL_RE.match(item)
            if m:
                space = m.group(2) or "0"
                address = (f"ptr addrspacecast (ptr addrspace({space}) @{m.group(1)} to ptr)" if space != "0"
                           else f"ptr @{m.group(1)}")
                entries.append(f"{{ ptr, i64 }} {{ {address}, i64 {_size_of(m.group(3))} }}")
    n = len(entries)
    mod.items.append(f"@{GLOBALS_TABLE} = dso_local global {{ i64, [{n} x {{ ptr, i64 }}] }} "
                     f"{{ i64 {n}, [{n} x {{ ptr, i64 }}] [{', '.join(entries)}] }}")
    mod.items.append(check_definition())


def check_definition() -> str:
    """``kk_check`` over flat pointers (the host flattens address spaces before this is compiled,
    the calls are rewritten the same way)."""
    wg_t, wi_t = llvm_struct(WORK_GROUP_FIELDS), llvm_struct(WORK_ITEM_FIELDS)
    chk = field_index(WORK_GROUP_FIELDS, "check")
    gid_lines = []
    for d in range(3):
        gid_lines += [
            f"  %g{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'group_id')}, i32 {d}",
            f"  %g{d} = load i64, ptr %g{d}p",
            f"  %e{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'enqueued_local_size')}, i32 {d}",
            f"  %e{d} = load i64, ptr %e{d}p",
            f"  %o{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'global_offset')}, i32 {d}",
            f"  %o{d} = load i64, ptr %o{d}p",
            f"  %l{d}p = getelementptr inbounds {wi_t}, ptr %wi, i32 0, i32 {field_index(WORK_ITEM_FIELDS, 'local_id')}, i32 {d}",
            f"  %l{d} = load i64, ptr %l{d}p",
            f"  %ge{d} = mul i64 %g{d}, %e{d}", f"  %gl{d} = add i64 %ge{d}, %l{d}", f"  %id{d} = add i64 %gl{d}, %o{d}",
            f"  %idp{d} = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 7, i32 {d}",
            f"  store i64 %id{d}, ptr %idp{d}",
        ]
    body = "\n".join(gid_lines)
    return f"""define internal ptr addrspace(1) @kk_check(ptr addrspace(1) %p, i64 %size, i64 %store, ptr %wi, ptr %wg) alwaysinline nounwind {{
entry:
  %tp = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {chk}
  %t = load ptr, ptr %tp
  %none = icmp eq ptr %t, null
  br i1 %none, label %ok, label %look
look:
  %countp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 0
  %count = load i64, ptr %countp
  %rangesp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 1
  %ranges = load ptr, ptr %rangesp
  %a = ptrtoint ptr addrspace(1) %p to i64
  %end = add i64 %a, %size
  br label %loop
loop:
  %i = phi i64 [ 0, %look ], [ %i.next, %next ]
  %more = icmp ult i64 %i, %count
  br i1 %more, label %test, label %private
private:
  %generic.bit = and i64 %store, {GENERIC}
  %generic = icmp ne i64 %generic.bit, 0
  br i1 %generic, label %private.stack, label %bad
private.stack:
  %stack = call ptr @llvm.stacksave.p0()
  %sp0 = ptrtoint ptr %stack to i64
  %spi = sub i64 %sp0, {RED_ZONE}
  %topp = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'stack_top')}
  %top = load ptr, ptr %topp
  %topi = ptrtoint ptr %top to i64
  %above = icmp uge i64 %a, %spi
  %below = icmp ule i64 %end, %topi
  %onstack = and i1 %above, %below
  br i1 %onstack, label %ok, label %bad
test:
  %bi = shl i64 %i, 1
  %bp = getelementptr i64, ptr %ranges, i64 %bi
  %b = load i64, ptr %bp
  %ep = getelementptr i64, ptr %bp, i64 1
  %e = load i64, ptr %ep
  %lo = icmp uge i64 %a, %b
  %hi = icmp ule i64 %end, %e
  %in = and i1 %lo, %hi
  br i1 %in, label %ok, label %next
next:
  %i.next = add i64 %i, 1
  br label %loop
bad:
  %vp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 3
  %won = cmpxchg ptr %vp, i64 0, i64 1 seq_cst seq_cst
  %first = extractvalue {{ i64, i1 }} %won, 1
  br i1 %first, label %record, label %sink
record:
  %ap = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 4
  store i64 %a, ptr %ap
  %sp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 5
  store i64 %size, ptr %sp
  %stp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 6
  %isstore = and i64 %store, 1
  store i64 %isstore, ptr %stp
{body}
  br label %sink
sink:
  %skp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 2
  %sk = load ptr addrspace(1), ptr %skp
  ret ptr addrspace(1) %sk
ok:
  ret ptr addrspace(1) %p
}}
declare ptr @llvm.stacksave.p0()"""
