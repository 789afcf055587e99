"""``kk_check``, the run-time half of checked mode (:mod:`checked` inserts the calls).

``kk_check(ptr, size, kind, base, end, object, site, wi, wg)`` returns ``ptr`` when the ``size``
bytes at ``ptr`` are valid, else records the first violation of the launch in its CheckTable
(:class:`kernelkit.targets.host.sched.CheckTable`) and returns the table's sink:

- ``end != 0``: the pointer was derived from the private object ``[base, end)``; the bytes must lie
  inside it;
- ``end == 0``: the bytes must lie inside one of the table's ranges (buffers, ``__local``
  allocations, program variables). A private pointer (address space 0), or a generic one pointing
  into the work-item's stack (from the stack pointer less the x86-64 red zone up to the frame of
  the work-group loop, ``MuxWorkGroupInfo.stack_top``), that is not in the table has an unknown
  origin: the violation is marked ``unknown`` (checked mode cannot bound it).

``kind``: bit 0 a store, bits 1-3 the pointer's SPIR address space.

``kk_arg_bounds(index, which, wi, wg)``: the begin (``which`` 0) or end (1) of the buffer passed
as kernel parameter ``index`` (0 when none), from the CheckTable's ``args``.
"""

from __future__ import annotations

from kernelkit.targets.host.sched import (
    CHECK_STRUCT,
    WORK_GROUP_FIELDS,
    WORK_ITEM_FIELDS,
    field_index,
    llvm_struct,
)

HELPER = "kk_check"
ARG_BOUNDS = "kk_arg_bounds"
GENERIC_SPACE = 4
RED_ZONE = 128   # x86-64 System V ABI 3.2.2: a leaf function may keep its locals below the stack pointer
# CheckTable fields, by index (sched.CheckTable)
_COUNT, _RANGES, _SINK, _VIOLATED, _ADDRESS, _SIZE, _IS_STORE, _GID = range(8)
_KIND, _BASE, _END, _OBJECT, _SITE, _UNKNOWN, _ARGS = range(8, 15)


def _global_id_stores() -> str:
    wg_t, wi_t = llvm_struct(WORK_GROUP_FIELDS), llvm_struct(WORK_ITEM_FIELDS)
    lines = []
    for d in range(3):
        lines += [
            f"  %g{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'group_id')}, i32 {d}",
            f"  %g{d} = load i64, ptr %g{d}p",
            f"  %e{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'enqueued_local_size')}, i32 {d}",
            f"  %e{d} = load i64, ptr %e{d}p",
            f"  %o{d}p = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'global_offset')}, i32 {d}",
            f"  %o{d} = load i64, ptr %o{d}p",
            f"  %l{d}p = getelementptr inbounds {wi_t}, ptr %wi, i32 0, i32 {field_index(WORK_ITEM_FIELDS, 'local_id')}, i32 {d}",
            f"  %l{d} = load i64, ptr %l{d}p",
            f"  %ge{d} = mul i64 %g{d}, %e{d}", f"  %gl{d} = add i64 %ge{d}, %l{d}", f"  %id{d} = add i64 %gl{d}, %o{d}",
            f"  %idp{d} = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {_GID}, i32 {d}",
            f"  store i64 %id{d}, ptr %idp{d}",
        ]
    return "\n".join(lines)


def _record(field: int, value: str) -> str:
    return (f"  %r{field}p = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {field}\n"
            f"  store i64 {value}, ptr %r{field}p")


def _table_or(label: str) -> str:
    """Entry block: ``%t`` = the launch's CheckTable; to ``label`` when there is none, else to ``look``."""
    wg_t = llvm_struct(WORK_GROUP_FIELDS)
    return f"""entry:
  %tp = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, "check")}
  %t = load ptr, ptr %tp
  %none = icmp eq ptr %t, null
  br i1 %none, label %{label}, label %look
look:"""


def check_definition() -> str:
    """The definition of ``kk_check`` over flat pointers (the host flattens the address spaces
    before it is compiled, and the calls with them)."""
    wg_t = llvm_struct(WORK_GROUP_FIELDS)
    records = "\n".join([_record(_ADDRESS, "%a"), _record(_SIZE, "%size"), _record(_IS_STORE, "%isstore"),
                         _record(_KIND, "%kind"), _record(_BASE, "%base"), _record(_END, "%end"),
                         _record(_OBJECT, "%obj"), _record(_SITE, "%site"), _record(_UNKNOWN, "%unknown")])
    return f"""define internal ptr addrspace(1) @{HELPER}(ptr addrspace(1) %p, i64 %size, i64 %kind, i64 %base, i64 %end, i64 %obj, i64 %site, ptr %wi, ptr %wg) alwaysinline nounwind {{
{_table_or("ok")}
  %a = ptrtoint ptr addrspace(1) %p to i64
  %last = add i64 %a, %size
  %bounded = icmp ne i64 %end, 0
  br i1 %bounded, label %object, label %table
object:
  %lo.o = icmp uge i64 %a, %base
  %hi.o = icmp ule i64 %last, %end
  %wrap.o = icmp uge i64 %last, %a
  %in.o.1 = and i1 %lo.o, %hi.o
  %in.o = and i1 %in.o.1, %wrap.o
  br i1 %in.o, label %ok, label %bad
table:
  %countp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {_COUNT}
  %count = load i64, ptr %countp
  %rangesp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {_RANGES}
  %ranges = load ptr, ptr %rangesp
  br label %loop
loop:
  %i = phi i64 [ 0, %table ], [ %i.next, %next ]
  %more = icmp ult i64 %i, %count
  br i1 %more, label %test, label %notfound
test:
  %bi = shl i64 %i, 1
  %bp = getelementptr i64, ptr %ranges, i64 %bi
  %b = load i64, ptr %bp
  %ep = getelementptr i64, ptr %bp, i64 1
  %e = load i64, ptr %ep
  %lo = icmp uge i64 %a, %b
  %hi = icmp ule i64 %last, %e
  %in = and i1 %lo, %hi
  br i1 %in, label %ok, label %next
next:
  %i.next = add i64 %i, 1
  br label %loop
notfound:
  %space.bits = lshr i64 %kind, 1
  %space = and i64 %space.bits, 7
  %private = icmp eq i64 %space, 0
  br i1 %private, label %bad, label %generic.test
generic.test:
  %generic = icmp eq i64 %space, {GENERIC_SPACE}
  br i1 %generic, label %stack, label %bad
stack:
  %sp = call ptr @llvm.stacksave.p0()
  %sp0 = ptrtoint ptr %sp to i64
  %spi = sub i64 %sp0, {RED_ZONE}
  %topp = getelementptr inbounds {wg_t}, ptr %wg, i32 0, i32 {field_index(WORK_GROUP_FIELDS, 'stack_top')}
  %top = load ptr, ptr %topp
  %topi = ptrtoint ptr %top to i64
  %above = icmp uge i64 %a, %spi
  %below = icmp ult i64 %a, %topi
  %onstack = and i1 %above, %below
  br label %bad
bad:
  %unknown.1 = phi i1 [ false, %object ], [ true, %notfound ], [ false, %generic.test ], [ %onstack, %stack ]
  %unknown = zext i1 %unknown.1 to i64
  %vp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {_VIOLATED}
  %won = cmpxchg ptr %vp, i64 0, i64 1 seq_cst seq_cst
  %first = extractvalue {{ i64, i1 }} %won, 1
  br i1 %first, label %record, label %sink
record:
  %isstore = and i64 %kind, 1
{records}
{_global_id_stores()}
  br label %sink
sink:
  %skp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {_SINK}
  %sk = load ptr addrspace(1), ptr %skp
  ret ptr addrspace(1) %sk
ok:
  ret ptr addrspace(1) %p
}}
declare ptr @llvm.stacksave.p0()

define internal i64 @{ARG_BOUNDS}(i64 %index, i64 %which, ptr %wi, ptr %wg) alwaysinline nounwind {{
{_table_or("unknown")}
  %argsp = getelementptr inbounds {CHECK_STRUCT}, ptr %t, i32 0, i32 {_ARGS}
  %args = load ptr, ptr %argsp
  %pair = shl i64 %index, 1
  %slot = add i64 %pair, %which
  %vp = getelementptr i64, ptr %args, i64 %slot
  %v = load i64, ptr %vp
  ret i64 %v
unknown:
  ret i64 0
}}"""
