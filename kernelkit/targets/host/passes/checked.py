"""Checked mode: bounds-check every ``__global``, ``__constant`` and ``__local`` access.

Each load, store, atomicrmw and cmpxchg through a pointer in address space 1, 2 or 3 first calls
``kk_check(ptr, size, is_store)``, which looks the accessed bytes up in the launch's table of
valid ranges (the buffers and ``__local`` allocations passed, the module's own variables). A
violation is recorded once (address, size, work-item) and the access is redirected to a sink, so
the process is not corrupted; the runtime raises after the launch. Generic (address space 4)
pointers are not checked: they may point to private memory.

The module also gets ``@kk.checked.globals``: (address, size) of each global variable in address
spaces 1-3, which the runtime adds to the table.
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
_CHECKED_SPACES = ("1", "2", "3")
_ACCESS_RE = re.compile(r"^(\s*)(?:(%[-\w$.]+) = )?(load|store|atomicrmw|cmpxchg) (.*)$")
_GLOBAL_RE = re.compile(r"^@([-\w$.]+) = (?:[\w ]*?)addrspace\(([123])\) (?:global|constant) ((?:\[[^\]]*\]|\{[^}]*\}|<[^>]*>|[^ ,]+))")


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


def _instrument_line(line: str, counter: list[int]) -> list[str]:
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
    check = (f"{indent}{reg} = call ptr addrspace({space}) @kk_check(ptr addrspace({space}) {operand}, "
             f"i64 {_size_of(ty)}, i64 {is_store})")
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
                entries.append(f"{{ ptr, i64 }} {{ ptr addrspacecast (ptr addrspace({m.group(2)}) @{m.group(1)} to ptr), "
                               f"i64 {_size_of(m.group(3))} }}")
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
  br i1 %more, label %test, label %bad
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
  store i64 %store, ptr %stp
{body}
  br label %sink
sink:
  %skp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 2
  %sk = load ptr addrspace(1), ptr %skp
  ret ptr addrspace(1) %sk
ok:
  ret ptr addrspace(1) %p
}}"""
