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

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Function, Module
from kernelkit.ir.values import Value, null
from kernelkit.targets.host.passes.sched_fields import wg_field, wi_field
from kernelkit.targets.host.sched import CheckTable

HELPER = "kk_check"
ARG_BOUNDS = "kk_arg_bounds"
HELPERS = (HELPER, ARG_BOUNDS)   # the runtime helpers checked code calls (they take the scheduling parameters)
GENERIC_SPACE = 4
RED_ZONE = 128   # x86-64 System V ABI 3.2.2: a leaf function may keep its locals below the stack pointer
_GLOBAL = T.pointer(1)


def _table(b: IRBuilder, t: Value, field: str, dim: int = 0, tag: str = "") -> Value:
    """Pointer to field ``field`` (element ``dim`` of an array field) of the CheckTable ``*t``."""
    offset = getattr(CheckTable, field).offset + 8 * dim
    return b.gep(T.i8, t, [const(T.i64, offset)], tag, ["inbounds"])


def _helper(module: Module, name: str, ret: T.Type, params: list[tuple[T.Type, str]]) -> Function:
    f = module.declare_function(name, T.FunctionType(ret, (*(t for t, _ in params), T.ptr, T.ptr)))
    for a, n in zip(f.args, [*(n for _, n in params), "wi", "wg"], strict=True):
        a.name = n
    f.linkage, f.attributes = "internal", ["alwaysinline", "nounwind"]
    return f


def _table_or(f: Function, otherwise: str) -> tuple[IRBuilder, Value]:
    """Entry block: the launch's CheckTable; to a block ``otherwise`` when there is none, else the
    builder continues in block ``look``."""
    b = IRBuilder(f.append_block("entry"))
    t = b.load(T.ptr, wg_field(b, f.args[-1], "check", tag="tp"), "t")
    none, look = f.append_block(otherwise), f.append_block("look")
    b.cbr(b.icmp("eq", t, null(T.ptr), "none"), none, look)
    return b.position_at_end(look), t


def _record_global_id(b: IRBuilder, t: Value, wi: Value, wg: Value) -> None:
    for d in range(3):
        g = b.load(T.i64, wg_field(b, wg, "group_id", d, f"g{d}p"), f"g{d}")
        e = b.load(T.i64, wg_field(b, wg, "enqueued_local_size", d, f"e{d}p"), f"e{d}")
        o = b.load(T.i64, wg_field(b, wg, "global_offset", d, f"o{d}p"), f"o{d}")
        lid = b.load(T.i64, wi_field(b, wi, "local_id", d, f"l{d}p"), f"l{d}")
        gid = b.add(b.add(b.mul(g, e, f"ge{d}"), lid, f"gl{d}"), o, f"id{d}")
        b.store(gid, _table(b, t, "global_id", d, f"idp{d}"))


def _add_check(module: Module) -> None:
    """``kk_check`` over flat pointers (the host flattens the address spaces before it is compiled,
    and the calls with them)."""
    i64 = T.i64
    f = _helper(module, HELPER, _GLOBAL, [(_GLOBAL, "p"), (i64, "size"), (i64, "kind"), (i64, "base"),
                                          (i64, "end"), (i64, "obj"), (i64, "site")])
    p, size, kind, base, end, obj, site, wi, wg = f.args
    b, t = _table_or(f, "ok")
    ok = f.blocks[1]
    names = ("object", "table", "loop", "test", "next", "notfound", "generic.test", "stack", "bad", "record", "sink")
    (object_, table, loop, test, next_, notfound, generic_test, stack, bad, record, sink) = \
        (f.append_block(n) for n in names)
    a = b.ptrtoint(p, i64, "a")
    last = b.add(a, size, "last")
    b.cbr(b.icmp("ne", end, const(i64, 0), "bounded"), object_, table)
    b.position_at_end(object_)
    inside = b.and_(b.icmp("uge", a, base, "lo.o"), b.icmp("ule", last, end, "hi.o"), "in.o.1")
    inside = b.and_(inside, b.icmp("uge", last, a, "wrap.o"), "in.o")
    b.cbr(inside, ok, bad)
    b.position_at_end(table)
    count = b.load(i64, _table(b, t, "count", tag="countp"), "count")
    ranges = b.load(T.ptr, _table(b, t, "ranges", tag="rangesp"), "ranges")
    b.br(loop)
    b.position_at_end(loop)
    i = b.phi(i64, "i")
    b.cbr(b.icmp("ult", i, count, "more"), test, notfound)
    b.position_at_end(test)
    bp = b.gep(i64, ranges, [b.shl(i, const(i64, 1), "bi")], "bp")
    lo = b.load(i64, bp, "b")
    hi = b.load(i64, b.gep(i64, bp, [const(i64, 1)], "ep"), "e")
    b.cbr(b.and_(b.icmp("uge", a, lo, "lo"), b.icmp("ule", last, hi, "hi"), "in"), ok, next_)
    b.position_at_end(next_)
    i_next = b.add(i, const(i64, 1), "i.next")
    b.br(loop)
    i.add_incoming(const(i64, 0), table)
    i.add_incoming(i_next, next_)
    b.position_at_end(notfound)
    space = b.and_(b.lshr(kind, const(i64, 1), "space.bits"), const(i64, 7), "space")
    b.cbr(b.icmp("eq", space, const(i64, 0), "private"), bad, generic_test)
    b.position_at_end(generic_test)
    b.cbr(b.icmp("eq", space, const(i64, GENERIC_SPACE), "generic"), stack, bad)
    b.position_at_end(stack)
    stacksave = module.declare_function("llvm.stacksave.p0", T.FunctionType(T.ptr, ()))
    sp = b.sub(b.ptrtoint(b.call(stacksave, [], "sp"), i64, "sp0"), const(i64, RED_ZONE), "spi")
    top = b.ptrtoint(b.load(T.ptr, wg_field(b, wg, "stack_top", tag="topp"), "top"), i64, "topi")
    onstack = b.and_(b.icmp("uge", a, sp, "above"), b.icmp("ult", a, top, "below"), "onstack")
    b.br(bad)
    b.position_at_end(bad)
    unknown1 = b.phi(T.i1, "unknown.1")
    for value, block in ((False, object_), (True, notfound), (False, generic_test)):
        unknown1.add_incoming(const(T.i1, value), block)
    unknown1.add_incoming(onstack, stack)
    unknown = b.zext(unknown1, i64, "unknown")
    won = b.cmpxchg(_table(b, t, "violated", tag="vp"), const(i64, 0), const(i64, 1), name="won")
    b.cbr(b.extract_value(won, [1], "first"), record, sink)
    b.position_at_end(record)
    is_store = b.and_(kind, const(i64, 1), "isstore")
    for field, value in (("address", a), ("size", size), ("is_store", is_store), ("kind", kind), ("base", base),
                         ("end", end), ("object", obj), ("site", site), ("unknown", unknown)):
        b.store(value, _table(b, t, field, tag=f"{field}.p"))
    _record_global_id(b, t, wi, wg)
    b.br(sink)
    b.position_at_end(sink)
    b.ret(b.load(_GLOBAL, _table(b, t, "sink", tag="skp"), "sk"))
    IRBuilder(ok).ret(p)


def _add_arg_bounds(module: Module) -> None:
    """``kk_arg_bounds``: the begin or end of the buffer passed as a kernel parameter."""
    i64 = T.i64
    f = _helper(module, ARG_BOUNDS, i64, [(i64, "index"), (i64, "which")])
    index, which, _wi, _wg = f.args
    b, t = _table_or(f, "unknown")
    args = b.load(T.ptr, _table(b, t, "args", tag="argsp"), "args")
    slot = b.add(b.shl(index, const(i64, 1), "pair"), which, "slot")
    b.ret(b.load(i64, b.gep(i64, args, [slot], "vp"), "v"))
    IRBuilder(f.blocks[1]).ret(const(i64, 0))


def check_definition() -> Module:
    """A module defining ``kk_check`` and ``kk_arg_bounds`` (to link into the checked module)."""
    module = Module()
    _add_check(module)
    _add_arg_bounds(module)
    return module
