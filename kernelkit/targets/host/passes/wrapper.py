"""The work-item loops: one native entry per kernel that runs whole work-groups.

``void @kk.run.<kernel>(ptr %args, ptr %tmpl, ptr %next, i64 %total)``:
``args`` is an array of pointers to the argument values (the kernel's parameters in order),
``tmpl`` a filled MuxWorkGroupInfo (sizes, offset, printf/check pointers), ``next`` a shared
counter of work-groups handed out, ``total`` the number of work-groups. Each calling thread
takes the next work-group (atomically) until none is left, so Python makes one call per thread
and launch. Non-uniform work-groups (OpenCL 2.0) get their smaller local size here.

Kernels without barriers are inlined into the x/y/z loops (the innermost loop runs along x,
``"mux-work-item-order"="xyz"``), where LLVM's loop vectoriser works across work-items.
Kernels with barriers are work-item coroutines (see :mod:`barriers`), started and resumed here.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import BasicBlock, Function, Module
from kernelkit.ir.values import Value, const_int, null
from kernelkit.targets.host.passes.region_values import RegionValues
from kernelkit.targets.host.passes.sched_fields import WG_TYPE, WI_TYPE, wg_field, wi_field
from kernelkit.targets.host.sched import WorkGroupInfo, WorkItemInfo

ENTRY_PREFIX = "kk.run."
i1, i8, i32, i64, ptr = T.i1, T.i8, T.i32, T.i64, T.ptr


def entry_name(kernel: str) -> str:
    return ENTRY_PREFIX + kernel


@dataclass
class ResumeInfo:
    """What the driver needs of a split coroutine: its resume function, the frame offset and
    integer type of the suspend index (CoroSplit's switch lowering), the number of suspend points."""

    function: str
    index_offset: int
    index_type: str
    cases: int
    soa: bool = False                 # frames laid out by soa_frames (work-items 8 bytes apart)
    values: RegionValues | None = None   # frame fields passed to the resume function as parameters


def parallel_loop(group: MDNode) -> MDNode:
    """A loop ID (``distinct !{self, !{"llvm.loop.parallel_accesses", group}}``): the loop's
    iterations are independent for the memory accesses in access group ``group``."""
    loop = MDNode(distinct=True)
    loop.operands = [loop, MDNode([MDString("llvm.loop.parallel_accesses"), group])]
    return loop


# the C functions and intrinsics the entries call: name -> (return type, parameter types)
_CALLEES: dict[str, tuple[T.Type, tuple[T.Type, ...]]] = {
    "malloc": (ptr, (i64,)), "free": (T.void, (ptr,)),
    "llvm.memcpy.p0.p0.i64": (T.void, (ptr, ptr, i64, i1)), "llvm.frameaddress.p0": (ptr, (i32,)),
    "llvm.umax.i64": (i64, (i64, i64)), "llvm.umin.i64": (i64, (i64, i64)),
    "llvm.coro.done": (i1, (ptr,)), "llvm.coro.resume": (T.void, (ptr,)),
}


def _byval(param: Value) -> list[str]:
    """The ``byval(<type>)`` attribute of a kernel parameter, as a call site repeats it (or none)."""
    return [x for x in param.attributes if isinstance(x, str) and x.startswith("byval(")]


class _Entry:
    """The entry function being built: blocks by name (added to the function in the order they are
    started), the builder, and the values every part uses."""

    def __init__(self, module: Module, kernel: Function, attributes: list[str]) -> None:
        self.module, self.kernel = module, kernel
        self.fn = Function(entry_name(kernel.name), T.FunctionType(T.void, (ptr, ptr, ptr, i64)),
                           arg_names=("args", "tmpl", "next", "total"))
        self.fn.attributes = attributes
        module.add_function(self.fn)
        self.b = IRBuilder()
        self.blocks: dict[str, BasicBlock] = {}
        self.call_args: list[Value] = []        # the kernel's arguments, loaded from %args
        # set as the entry is built: the MuxWorkGroupInfo copy and its frames/frame_stride fields,
        # the cancel flag, the group's local size and item count; for coroutines the work-item
        # infos, the handles and (with packets) the kind of coroutines the frames were made for
        self.wg = self.frp = self.fsp = self.cancel = self.items = self.wis = self.hs = self.kind = None
        self.ls: list[Value] = []

    def block(self, name: str) -> BasicBlock:
        if name not in self.blocks:
            self.blocks[name] = BasicBlock(name)
        return self.blocks[name]

    def start(self, name: str) -> BasicBlock:
        """Append block ``name`` to the function and build there."""
        block = self.fn.add_block(self.block(name))
        self.b.position_at_end(block)
        return block

    def call(self, name: str, args: Sequence[Value], tag: str = "") -> I.CallInst:
        ret, params = _CALLEES[name]
        return self.b.call(self.module.declare_function(name, T.FunctionType(ret, params)), args, tag)

    def call_kernel(self, name: str, wi: Value, tag: str = "") -> I.CallInst:
        """Call kernel ``name`` (or its vector form) with the kernel's arguments and ``wi``."""
        callee = self.module.get_function(name)
        call = self.b.call(callee, [*self.call_args, wi, self.wg], tag)
        # the byval types as the callee spells them: the kernel's own parameters may come from a
        # stand-in of another module (a kernel without its work-item copy), whose struct names this
        # module need not define
        call.arg_attributes = [_byval(a) for a in callee.args[:len(self.call_args)]] + [[], []]
        return call

    def counted_loop(self, block: str, var: str, step: int, count: Value, exit_: BasicBlock,
                     body: Callable[[Value], None], loop_md: MDNode | None = None,
                     entries: list[tuple[Value, BasicBlock]] | None = None) -> None:
        """``for (i = 0; i < count; i += step) body(i)`` in block ``block`` (its latch marked
        ``loop_md``), then to ``exit_``. Entered from the current block, or, with ``entries``
        (start value, block branching here), from blocks that already branch to it."""
        b = self.b
        if entries is None:
            entries = [(const(i64, 0), b.block)]
            b.br(self.block(block))
        self.start(block)
        i = b.phi(i64, var)
        body(i)
        nxt = b.add(i, const(i64, step), f"{var}.next", ["nuw"])
        br = b.cbr(b.icmp("ult", nxt, count, f"{var}.more"), self.block(block), exit_)
        if loop_md is not None:
            br.metadata["llvm.loop"] = loop_md
        for value, pred in entries:
            i.add_incoming(value, pred)
        i.add_incoming(nxt, b.block)

    def local_loops(self, prefix: str, exit_: BasicBlock, body: Callable[[Value, Value, Value, Value], None],
                    step: int = 1, loop_md: MDNode | None = None,
                    row: Callable[[Value, Value, Value], list[tuple[Value, BasicBlock]] | None] | None = None,
                    ) -> None:
        """z, y, x loops (blocks ``<prefix>z``, ``y``, ``x``; ``xe``, ``ye`` after the x and y loops)
        over the group's local size, x innermost by ``step`` (its latch marked ``loop_md``):
        ``body(x, y, z, linear id)``; then to ``exit_``. ``row(y, z, row base)``: code of each row
        before its x loop; it returns None (the x loop follows from 0) or the x loop's entries
        (see :meth:`counted_loop`), having branched to block ``<prefix>x`` or ``<prefix>xe`` itself."""
        b, ls = self.b, self.ls
        z_block, y_block, x_end, y_end = (self.block(prefix + n) for n in ("z", "y", "xe", "ye"))
        entry = b.block
        b.br(z_block)
        self.start(prefix + "z")
        z = b.phi(i64, f"{prefix}zi")
        b.br(y_block)
        self.start(prefix + "y")
        y = b.phi(i64, f"{prefix}yi")
        rowbase = b.mul(b.add(b.mul(z, ls[1], f"{prefix}zy"), y, f"{prefix}zyy"), ls[0], f"{prefix}row")
        entries = row(y, z, rowbase) if row is not None else None
        self.counted_loop(prefix + "x", f"{prefix}xi", step, ls[0], x_end,
                          lambda x: body(x, y, z, b.add(rowbase, x, f"{prefix}lin")), loop_md, entries)
        self.start(prefix + "xe")
        y_next = b.add(y, const(i64, 1), f"{prefix}yi.next", ["nuw"])
        b.cbr(b.icmp("ult", y_next, ls[1], f"{prefix}yi.more"), y_block, y_end)
        self.start(prefix + "ye")
        z_next = b.add(z, const(i64, 1), f"{prefix}zi.next", ["nuw"])
        b.cbr(b.icmp("ult", z_next, ls[2], f"{prefix}zi.more"), z_block, exit_)
        z.add_incoming(const(i64, 0), entry)
        z.add_incoming(z_next, y_end)
        y.add_incoming(const(i64, 0), z_block)
        y.add_incoming(y_next, x_end)

    def store_wi(self, wi: Value, x: Value, y: Value, z: Value, lin: Value) -> None:
        """Fill the work-item info ``wi``: local ids and linear id."""
        for d, v in enumerate((x, y, z)):
            self.b.store(v, wi_field(self.b, wi, "local_id", d, f"wi.id{d}"))
        self.b.store(lin, wi_field(self.b, wi, "local_linear_id", tag="wi.lin"))

    def cancelled(self, tag: str) -> Value:
        """Was the launch cancelled? (the runtime sets ``*cancel`` to stop it; see :mod:`cancellation`)"""
        stop = self.b.load(i64, self.cancel, f"{tag}.stop", align=8, ordering="monotonic")
        return self.b.icmp("ne", stop, const(i64, 0), f"{tag}.stopped")


def add_entry(module: Module, f: Function, *, coroutine: bool = False, access_group: MDNode | None = None,
              resume: ResumeInfo | None = None, local_mem: int = 0, vector: tuple | None = None,
              local_size: tuple[int, int, int] | None = None, scalar: bool = True) -> Function:
    """Add the entry running kernel ``f`` over work-groups to ``module``; returns it.

    ``local_size`` is the kernel's fixed work-group size when every group has exactly that size
    (``!reqd_work_group_size`` with uniform work-groups): the loops then have constant bounds.

    With ``access_group`` the x loop (a coroutine's region loops) is marked parallel
    (``llvm.loop.parallel_accesses``; the caller puts the kernel's accesses in the group, see
    :func:`mark_parallel_accesses`): the work-items of a group are independent between barriers
    (OpenCL's memory model has no order between them without barriers or atomics), which lets LLVM
    vectorise across work-items without runtime alias checks. Only for kernels without private
    arrays (their ``alloca`` is shared by the iterations once inlined).

    ``vector``: (W-lane copy, W, uses sub-groups[, its ResumeInfo]) of a vectorised kernel.
    ``scalar`` False (a vectorised kernel with barriers): no work-item copy, only packets; a group
    whose x size is not a multiple of W ends the thread's work (the launch runs such NDRanges with
    a binary that has the copy, see ``kernelkit.runtime.launch.needs_scalar_copy``).
    """
    # spec 003 function attributes: the loop entry is now the kernel entry point
    attrs = ['"mux-kernel"="entry-point"', f'"mux-orig-fn"="{f.name}"', f'"mux-base-fn-name"="{f.name}"',
             '"mux-work-item-order"="xyz"', *(['"mux-barrier-schedule"="linear"'] if coroutine else []),
             *([f'"mux-local-mem-usage"="{local_mem}"'] if local_mem > 0 else [])]
    e = _Entry(module, f, attrs)
    b = e.b
    args, tmpl, next_, total = e.fn.args
    e.start("entry")
    e.wg = wg = b.alloca(WG_TYPE, align=8, name="wg")
    e.call("llvm.memcpy.p0.p0.i64", [wg, tmpl, const(i64, ctypes.sizeof(WorkGroupInfo)), const(i1, 0)])
    # private memory of the work-items lies below this frame (checked mode's generic pointers)
    b.store(e.call("llvm.frameaddress.p0", [const(i32, 0)], "frame"), wg_field(b, wg, "stack_top", tag="stp"))
    for i, a in enumerate(f.args[:-2]):
        at = b.load(ptr, b.gep(ptr, args, [const(i64, i)], f"ap{i}"), f"as{i}")
        e.call_args.append(at if _byval(a) else b.load(a.type, at, f"a{i}", align=1))
    ng, en, gs, gip, lsp = [], [], [], [], []
    for d in range(3):
        ng.append(b.load(i64, wg_field(b, wg, "num_groups", d, f"ngp{d}"), f"ng{d}"))
        enp = wg_field(b, wg, "enqueued_local_size", d, f"enp{d}")
        en.append(const(i64, local_size[d]) if local_size else b.load(i64, enp, f"en{d}"))
        gs.append(b.load(i64, wg_field(b, wg, "global_size", d, f"gsp{d}"), f"gs{d}"))
        gip.append(wg_field(b, wg, "group_id", d, f"gip{d}"))
        lsp.append(wg_field(b, wg, "local_size", d, f"lsp{d}"))
    maxitems = b.mul(b.mul(en[0], en[1], "en01"), en[2], "maxitems")
    scratch = e.call("malloc", [b.shl(maxitems, const(i64, 3), "scratch.bytes")], "scratch")
    b.store(scratch, wg_field(b, wg, "scratch", tag="scp"))
    e.frp = wg_field(b, wg, "frames", tag="frp")
    b.store(null(ptr), e.frp)
    e.fsp = wg_field(b, wg, "frame_stride", tag="fsp")
    b.store(const(i64, 0), e.fsp)
    if coroutine:
        if vector is not None:
            e.kind = b.alloca(i8, name="kind")
            b.store(const(i8, 0), e.kind)
        wis_bytes = b.mul(maxitems, const(i64, ctypes.sizeof(WorkItemInfo)), "wis.bytes")
        e.wis = e.call("malloc", [wis_bytes], "wis")
        e.hs = e.call("malloc", [b.shl(maxitems, const(i64, 3), "hs.bytes")], "hs")
    else:
        wi = b.alloca(WI_TYPE, align=8, name="wi")
    # threads take chunks of consecutive work-groups (one atomic, one division per chunk);
    # within a chunk the group id steps through x, then y, then z
    chunk_raw = b.load(i64, wg_field(b, wg, "chunk", tag="chp"), "chunk.raw")
    chunk = e.call("llvm.umax.i64", [chunk_raw, const(i64, 1)], "chunk")
    e.cancel = b.load(ptr, wg_field(b, wg, "cancel", tag="cnp"), "cancel")
    b.br(e.block("next.group"))
    e.start("next.group")
    # a cancelled launch (Ctrl-C, timeout) takes no more work-groups
    b.cbr(e.cancelled("next"), e.block("exit"), e.block("take.group"))
    e.start("take.group")
    g0 = b.atomicrmw("add", next_, chunk, "monotonic", name="g0")
    b.cbr(b.icmp("ult", g0, total, "more"), e.block("chunk.start"), e.block("exit"))
    chunk_start = e.start("chunk.start")
    gend = e.call("llvm.umin.i64", [b.add(g0, chunk, "gend.raw"), total], "gend")
    gq0 = b.udiv(g0, ng[0], "gq0")
    first = [b.urem(g0, ng[0], "gx0"), b.urem(gq0, ng[1], "gy0"), b.udiv(gq0, ng[1], "gz0")]
    b.br(e.block("group"))
    e.start("group")
    g = b.phi(i64, "g")
    gxyz = [b.phi(i64, n) for n in ("gx", "gy", "gz")]
    for d in range(3):
        b.store(gxyz[d], gip[d])
        left = b.sub(gs[d], b.mul(gxyz[d], en[d], f"start{d}"), f"left{d}")
        lt = b.icmp("ult", left, en[d], f"lt{d}")
        e.ls.append(const(i64, local_size[d]) if local_size else b.select(lt, left, en[d], f"ls{d}"))
        b.store(e.ls[d], lsp[d])
    loop_md = parallel_loop(access_group) if access_group is not None else None
    group_next = e.block("group.next")
    if not coroutine:
        def row(y: Value, z: Value, rowbase: Value) -> list[tuple[Value, BasicBlock]] | None:
            return _vector_x_loop(e, wi, vector, y, z, rowbase) if vector is not None else None

        def item(x: Value, y: Value, z: Value, lin: Value) -> None:
            e.store_wi(wi, x, y, z, lin)
            e.call_kernel(f.name, wi)
        e.local_loops("loop.", group_next, item, loop_md=loop_md, row=row)
    else:
        e.items = b.mul(b.mul(e.ls[0], e.ls[1], "ls01"), e.ls[2], "items")
        if vector is not None:
            _packet_coroutines(e, vector, scalar)
        if scalar:
            _work_item_coroutines(e, f, resume, loop_md, group_next)
    e.start("group.next")
    g_next = b.add(g, const(i64, 1), "g.next")
    b.cbr(b.icmp("ult", g_next, gend, "chunk.more"), e.block("group.step"), e.block("next.group"))
    group_step = e.start("group.step")
    gx_inc = b.add(gxyz[0], const(i64, 1), "gx.inc")
    gx_wrap = b.icmp("eq", gx_inc, ng[0], "gx.wrap")
    gy_add = b.add(gxyz[1], b.zext(gx_wrap, i64, "gy.inc"), "gy.add")
    gy_wrap = b.icmp("eq", gy_add, ng[1], "gy.wrap")
    nexts = [b.select(gx_wrap, const(i64, 0), gx_inc, "gx.next"), b.select(gy_wrap, const(i64, 0), gy_add, "gy.next"),
             b.add(gxyz[2], b.zext(gy_wrap, i64, "gz.inc"), "gz.next")]
    b.br(e.block("group"))
    for phi, v0, v1 in zip([g, *gxyz], [g0, *first], [g_next, *nexts], strict=True):
        phi.add_incoming(v0, chunk_start)
        phi.add_incoming(v1, group_step)
    e.start("exit")
    e.call("free", [scratch])
    if coroutine:
        e.call("free", [e.wis])
        e.call("free", [e.hs])
        e.call("free", [b.load(ptr, e.frp, "frames.end")])
    b.ret_void()
    return e.fn



def _work_item_coroutines(e: _Entry, f: Function, resume: ResumeInfo | None, loop_md: MDNode | None,
                          group_next: BasicBlock) -> None:
    """The group's part running one coroutine of kernel ``f`` per work-item, round by round."""
    b = e.b

    def start(x: Value, y: Value, z: Value, lin: Value) -> None:
        wip = b.gep(WI_TYPE, e.wis, [lin], "wip")
        e.store_wi(wip, x, y, z, lin)
        b.store(e.call_kernel(f.name, wip, "h"), b.gep(ptr, e.hs, [lin], "hp"))
    e.local_loops("loop.", e.block("rounds"), start)
    e.start("rounds")
    if resume is not None:
        _region_rounds(e, resume, "", loop_md, group_next)
    else:
        _resume_rounds(e, "", 1, group_next)


def _vector_x_loop(e: _Entry, wi: Value, vector: tuple, y: Value, z: Value,
                   rowbase: Value) -> list[tuple[Value, BasicBlock]]:
    """The x loop's first part for a vectorised kernel: the W-lane kernel for W consecutive
    work-items at a time while a whole packet fits in the row; the scalar loop (``loop.x``) takes
    over at ``%xv.end`` (its entry is returned). A kernel using sub-groups (which are the packets):
    only when the row is whole packets, else all of it scalar."""
    b, (fn, width, whole_rows) = e.b, vector[:3]
    packed = b.and_(e.ls[0], const(i64, -width), "xv.packed" if whole_rows else "xv.end")
    end = packed
    if whole_rows:
        end = b.select(b.icmp("eq", packed, e.ls[0], "xv.whole"), packed, const(i64, 0), "xv.end")
    scalar, row = e.block("loop.xt"), b.block
    b.cbr(b.icmp("ne", end, const(i64, 0), "xv.any"), e.block("loop.xv"), scalar)

    def item(xv: Value) -> None:
        e.store_wi(wi, xv, y, z, b.add(rowbase, xv, "linv"))
        e.call_kernel(fn, wi)
    e.counted_loop("loop.xv", "xv", width, end, scalar, item, entries=[(const(i64, 0), row)])
    tail = e.start("loop.xt")
    b.cbr(b.icmp("ult", end, e.ls[0], "xt.more"), e.block("loop.x"), e.block("loop.xe"))
    return [(end, tail)]


def _switch_frames(e: _Entry, kind: int, prefix: str) -> None:
    """Entering a group that runs coroutines of kind ``kind`` (1 work-items, 2 packets): the frame
    array of the other kind has another layout, so a change of kind makes kk_frame allocate anew."""
    b = e.b
    same = b.icmp("eq", b.load(i8, e.kind, f"{prefix}.kind"), const(i8, kind), f"{prefix}.same")
    b.cbr(same, e.block(f"{prefix}.start"), e.block(f"{prefix}.reset"))
    e.start(f"{prefix}.reset")
    b.store(const(i64, 0), e.fsp)
    b.store(const(i8, kind), e.kind)
    b.br(e.block(f"{prefix}.start"))
    e.start(f"{prefix}.start")


def _packet_coroutines(e: _Entry, vector: tuple, scalar: bool = True) -> None:
    """The group's part for a kernel with barriers whose W-lane copy ``vector`` = (function, W, ...)
    is a coroutine per packet of W work-items along x: when the group's size along x is a multiple
    of W, start one coroutine per packet (its MuxWorkItemInfo is lane 0's, its handle at lane 0's
    slot), then resume the packets round by round until all have finished; otherwise on to block
    ``wi.start`` (one coroutine per work-item), where the builder is left; without the work-item
    copy (``scalar`` False) to the exit."""
    b, (fn, w) = e.b, vector[:2]
    rem = b.and_(e.ls[0], const(i64, w - 1), "pk.rem")
    b.cbr(b.icmp("eq", rem, const(i64, 0), "pk.ok"), e.block("pk.group"), e.block("wi.group" if scalar else "exit"))
    e.start("pk.group")
    _switch_frames(e, 2, "pk")

    def start(x: Value, y: Value, z: Value, lin: Value) -> None:
        wip = b.gep(WI_TYPE, e.wis, [lin], "pk.wip")
        e.store_wi(wip, x, y, z, lin)
        b.store(e.call_kernel(fn, wip, "pk.h"), b.gep(ptr, e.hs, [lin], "pk.hp"))
    e.local_loops("pk.", e.block("pk.rounds"), start, step=w)
    e.start("pk.rounds")
    resume = vector[3] if len(vector) > 3 else None
    if resume is not None:
        # one suspend point per barrier: the packets' regions in loops of their own (as per work-item)
        _region_rounds(e, resume, "pk.", None, e.block("group.next"), step=w)
    else:
        _resume_rounds(e, "pk.", w, e.block("group.next"))
    if scalar:
        e.start("wi.group")
        _switch_frames(e, 1, "wi")


def _resume_rounds(e: _Entry, prefix: str, step: int, exit_: BasicBlock) -> None:
    """Resume the coroutines (every ``step``-th handle) round by round until none is left
    running or the launch is cancelled (the cancellation point of every loop with a barrier in
    each iteration, see :mod:`cancellation`); then to ``exit_``. Frames live in the thread's frame
    array (kk_frame): nothing to destroy."""
    b = e.b
    b.br(e.block(prefix + "round"))
    round_ = e.start(prefix + "round")
    b.cbr(e.cancelled(prefix + "round"), exit_, e.block(prefix + "res"))
    e.start(prefix + "res")
    i, busy = b.phi(i64, prefix + "ri"), b.phi(i1, prefix + "busy")
    handle = b.load(ptr, b.gep(ptr, e.hs, [i], prefix + "rhp"), prefix + "rh")
    done = e.call("llvm.coro.done", [handle], prefix + "rdone")
    b.cbr(done, e.block(prefix + "res.next"), e.block(prefix + "res.do"))
    e.start(prefix + "res.do")
    e.call("llvm.coro.resume", [handle])
    b.br(e.block(prefix + "res.next"))
    res_next = e.start(prefix + "res.next")
    busy_next = b.or_(busy, b.xor(done, const(i1, 1), prefix + "stepped"), prefix + "busy.next")
    i_next = b.add(i, const(i64, step), prefix + "ri.next")
    b.cbr(b.icmp("ult", i_next, e.items, prefix + "rmore"), e.block(prefix + "res"), e.block(prefix + "round.end"))
    e.start(prefix + "round.end")
    b.cbr(busy_next, round_, exit_)
    for phi, v0, v1 in ((i, const(i64, 0), i_next), (busy, const(i1, 0), busy_next)):
        phi.add_incoming(v0, round_)
        phi.add_incoming(v1, res_next)


def _region_rounds(e: _Entry, r: ResumeInfo, prefix: str, loop_md: MDNode | None, exit_: BasicBlock,
                   step: int = 1) -> None:
    """After every work-item ran to its first barrier: read the (uniform) suspend index of
    work-item 0 and run that region for all work-items in a loop of its own, the resume function
    specialised for the index (its switch folds away once inlined); until work-item 0 finished.
    Then to ``exit_``."""
    b = e.b
    b.br(e.block(prefix + "round"))
    round_ = e.start(prefix + "round")
    h0 = b.load(ptr, e.hs, prefix + "h0")
    fin0 = b.icmp("eq", b.load(ptr, h0, prefix + "fn0"), null(ptr), prefix + "fin0")
    fin = b.or_(fin0, e.cancelled(prefix + "round"), prefix + "fin")
    b.cbr(fin, exit_, e.block(prefix + "dispatch"))
    e.start(prefix + "dispatch")
    ix = b.load(T.IntType(int(r.index_type[1:])), b.gep(i8, h0, [const(i64, r.index_offset)], prefix + "ixp"),
                prefix + "ix")
    ix32 = b.int_resize(ix, i32, name=prefix + "ix32")
    # frames are frame_stride apart in the thread's frame array (see barriers.add_frame_allocator);
    # packets (step W) have one each, packet ri / W's at (ri / W) * frame_stride (use_packet_frames)
    frames = b.load(ptr, e.frp, prefix + "rframes")
    stride = const(i64, 8) if r.soa else b.load(i64, e.fsp, prefix + "rstride")
    shift = step.bit_length() - 1 if step > 1 and not r.soa else 0
    assert step & (step - 1) == 0, step
    resume = e.module.get_function(r.function)
    # the suspend index of a work-item that has not finished is one of its barriers': with a region
    # per barrier, no other index reaches the switch (the generic region, a whole copy of the resume
    # code, only when there are too many barriers to specialise)
    regions = [str(k) for k in range(r.cases)] or ["any"]
    default = e.block(f"{prefix}region.{'none' if r.cases else 'any'}")
    b.switch(ix32, default, [(const(i32, k), e.block(f"{prefix}region.{k}")) for k in range(r.cases)])
    if r.cases:
        e.start(f"{prefix}region.none")
        b.unreachable()
    for k in regions:
        e.start(f"{prefix}region.{k}")
        idx = ix32 if k == "any" else const(i32, int(k))
        if r.values is None:
            def item(ri: Value, idx: Value = idx) -> None:
                frame = b.lshr(ri, const(i64, shift), prefix + "rp") if shift else ri
                at = b.gep(i8, frames, [b.mul(frame, stride, prefix + "roff")], prefix + "rh")
                b.call(resume, [at, idx])
            e.counted_loop(f"{prefix}region.{k}.loop", f"{prefix}ri.{k}", step, e.items, round_, item, loop_md)
            continue
        # the region's uniform values are loaded once from work-item 0's frame; the resume
        # function takes them and the local ids (see region_values)
        uniform = [b.load(ty, b.gep(i8, frames, [const(i64, off)], f"ru.{k}.{off}.p", ["inbounds"]), f"ru.{k}.{off}")
                   for off, ty in sorted(r.values.uniform.items())]

        def region_item(x: Value, y: Value, z: Value, ri: Value, idx: Value = idx, uniform: list = uniform) -> None:
            at = b.gep(i8, frames, [b.mul(ri, stride, prefix + "roff")], prefix + "rh")
            b.call(resume, [at, idx, *uniform, frames, x, y, z, ri])
        e.local_loops(f"{prefix}r{k}.", round_, region_item, loop_md=loop_md)


_MEMORY_ACCESSES = (I.LoadInst, I.StoreInst, I.CallInst, I.AtomicRMWInst, I.CmpXchgInst)


def mark_parallel_accesses(f: Function, group: MDNode) -> None:
    """Put every memory access of (fully inlined) kernel ``f`` in access group ``group``, but volatile
    and atomic loads and stores (ordering other than unordered, e.g. the cancellation flag's monotonic
    load): LLVM counts those as writing memory, and its loop vectoriser, told they are parallel,
    admits them and then asserts ("underlying instruction may write to memory": LLVM 22, on AVX-512
    targets; llvm-project issue 107854 for the volatile case). Without the group the loop keeps
    LLVM's own dependence checks, which refuse such loads."""
    for inst in f.instructions():
        if isinstance(inst, _MEMORY_ACCESSES) and not _ordered(inst):
            inst.metadata.setdefault("llvm.access.group", group)


def _ordered(inst) -> bool:
    """A volatile load or store, or an atomic one stronger than unordered."""
    if getattr(inst, "volatile", False):
        return True
    return isinstance(inst, I.LoadInst | I.StoreInst) and inst.atomic and inst.ordering != "unordered"


def _md_int(ty: T.Type, value: int) -> ValueAsMetadata:
    return ValueAsMetadata(const_int(ty, value))


def add_wrapper_metadata(entry: Function, width: int, tail: bool) -> None:
    """spec 003 ``!codeplay_ca_wrapper`` on a kernel's entry: ``!{main, tail}``, each loop
    ``!{i32 width, i1 scalable, i32 vectorised dimension, i1 predicated}`` and the tail ``null`` when
    there is none; ``width`` work-items per call of the main loop."""
    def loop(w: int) -> MDNode:
        return MDNode([_md_int(T.i32, w), _md_int(T.i1, 0), _md_int(T.i32, 0), _md_int(T.i1, 0)])

    entry.metadata["codeplay_ca_wrapper"] = MDNode([loop(width), loop(1) if tail else None])
