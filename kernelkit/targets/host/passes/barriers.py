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

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Function, Module
from kernelkit.ir.transforms.editing import split_block
from kernelkit.ir.values import ConstantSimple, null
from kernelkit.targets.host.sched import WorkGroupInfo, WorkItemInfo

BARRIER = "__mux_work_group_barrier"

# (name, return type, parameter types): the coroutine intrinsics the kernels and their drivers call
CORO_FUNCTIONS = (
    ("llvm.coro.id", T.token, (T.i32, T.ptr, T.ptr, T.ptr)), ("llvm.coro.size.i64", T.i64, ()),
    ("llvm.coro.begin", T.ptr, (T.token, T.ptr)), ("llvm.coro.suspend", T.i8, (T.token, T.i1)),
    ("llvm.coro.free", T.ptr, (T.token, T.ptr)), ("llvm.coro.end", T.void, (T.ptr, T.i1, T.token)),
    ("llvm.coro.resume", T.void, (T.ptr,)), ("llvm.coro.destroy", T.void, (T.ptr,)),
    ("llvm.coro.done", T.i1, (T.ptr,)))

FRAME_ALIGN = 64  # coroutine frames may hold spilled 512-bit vectors
PACKET_FRAME_ALIGN = 128


def _wg_field(b: IRBuilder, wg, name: str, tag: str):
    return b.gep(T.i8, wg, [const(T.i64, getattr(WorkGroupInfo, name).offset)], tag, ["inbounds"])


def add_frame_allocator(module: Module, name: str = "kk_frame", *, row_items: int | None = None,
                        inline: bool = False, lanes: int = 1) -> Function:
    """Define ``@name(wi, wg, size)``: the work-item's frame in the thread's frame array.

    All work-items of a kernel have frames of the same size, so the array is (re)allocated only
    by the first work-item a thread starts (before any frame is live); the work-item loop frees it.
    Array of structures: frames ``round_up(size, 64)`` bytes apart, one per enqueued work-item.
    With ``row_items`` (see soa_frames): ``round_up(size, 8) * row_items`` bytes, work-item ``l``
    at ``8 * l``. ``noinline`` until the frames are laid out (``inline``: ``alwaysinline``).
    With ``lanes`` = W (a power of two; the coroutines of W-lane packets, whose ``l`` are multiples
    of W): one frame per packet, packet ``l / W`` at ``(l / W) * stride``, the stride a multiple of
    PACKET_FRAME_ALIGN. (Frames ``W * stride`` apart would be a multiple of 4 KiB apart for most
    frame sizes: every packet's frame in the same L1 sets, more of them than the cache has ways.)
    """
    assert lanes & (lanes - 1) == 0 and (row_items is None or lanes == 1), lanes
    shift = lanes.bit_length() - 1
    alloc = module.declare_function("aligned_alloc", T.FunctionType(T.ptr, (T.i64, T.i64)))
    free = module.declare_function("free", T.FunctionType(T.void, (T.ptr,)))
    f = module.declare_function(name, T.FunctionType(T.ptr, (T.ptr, T.ptr, T.i64)))
    assert f.is_declaration, f"@{name} is already defined"
    wi, wg, size = f.args
    wi.name, wg.name, size.name = "wi", "wg", "size"
    f.linkage, f.calling_conv = "internal", ""
    f.attributes = ["alwaysinline" if inline else "noinline", "nounwind"]
    entry, grow, have = (f.append_block(n) for n in ("entry", "grow", "have"))
    # (a packet's frame may hold W-lane vectors of 64-bit values, 128 bytes at W = 16, which
    # CoroSplit aligns to their size)
    align = 8 if row_items is not None else PACKET_FRAME_ALIGN if shift else FRAME_ALIGN
    b = IRBuilder(entry)
    sp, fp = _wg_field(b, wg, "frame_stride", "sp"), _wg_field(b, wg, "frames", "fp")
    stride = b.load(T.i64, sp, "stride")
    b.cbr(b.icmp("uge", stride, size, "ok"), have, grow)
    b.position_at_end(grow)
    b.call(free, [b.load(T.ptr, fp, "old")])
    rounded = b.and_(b.add(size, const(T.i64, align - 1), "s1"), const(T.i64, -align), "s2")
    if row_items is None:
        en = _wg_field(b, wg, "enqueued_local_size", "ep")
        counts = [b.load(T.i64, en if d == 0 else b.gep(T.i8, en, [const(T.i64, 8 * d)], f"e{d}p", ["inbounds"]),
                         f"e{d}") for d in range(3)]
        if shift:   # whole packets along x
            counts[0] = b.lshr(b.add(counts[0], const(T.i64, lanes - 1), "e0r"), const(T.i64, shift), "e0p")
        items = b.mul(b.mul(counts[0], counts[1], "e01"), counts[2], "items")
    else:
        items = const(T.i64, row_items)
    new = b.call(alloc, [const(T.i64, max(align, FRAME_ALIGN)), b.mul(items, rounded, "bytes")], "new")
    b.store(new, fp)
    b.store(rounded, sp)
    b.br(have)
    b.position_at_end(have)
    frames = b.load(T.ptr, fp, "frames")
    lin_off = WorkItemInfo.local_linear_id.offset
    lin = b.load(T.i64, b.gep(T.i8, wi, [const(T.i64, lin_off)], "lp", ["inbounds"]), "l")
    if shift:
        lin = b.lshr(lin, const(T.i64, shift), "lw")
    off = (b.mul(lin, b.load(T.i64, sp, "stride2"), "off") if row_items is None
           else b.shl(lin, const(T.i64, 3), "off"))
    b.ret(b.gep(T.i8, frames, [off], "f"))
    return f


def use_packet_frames(module: Module, ramp: Function, lanes: int) -> None:
    """Give the ramp of a W-lane packet coroutine (W = ``lanes``) its own allocator,
    ``kk_frame.pW``: one frame per packet, packets' frames adjacent (see add_frame_allocator)."""
    name = f"kk_frame.p{lanes}"
    alloc = module.get_function(name) or add_frame_allocator(module, name, lanes=lanes)
    for inst in ramp.instructions():
        if isinstance(inst, I.CallInst) and inst.called_function is not None \
                and inst.called_function.name == "kk_frame":
            inst.set_operand(0, alloc)
            inst.calling_conv = ""


def has_barriers(f: Function) -> bool:
    return any(isinstance(i, I.CallInst) and i.called_function is not None and i.called_function.name == BARRIER
               for i in f.instructions())


def _declare(module: Module) -> dict[str, Function]:
    """The coroutine intrinsics and the C allocator (declared once)."""
    return {name: module.declare_function(name, T.FunctionType(ret, params)) for name, ret, params in CORO_FUNCTIONS}


def to_coroutine(f: Function, module: Module) -> int:
    """Rewrite kernel ``f`` (returning void) into a work-item coroutine; returns the barrier count."""
    fn = _declare(module)
    frame = module.declare_function("kk_frame", T.FunctionType(T.ptr, (T.ptr, T.ptr, T.i64)))
    f.function_type = T.FunctionType(T.ptr, f.function_type.params, f.function_type.vararg)
    f.attributes.insert(0, "presplitcoroutine")
    wi, wg = f.args[-2], f.args[-1]
    none = ConstantSimple(T.token, "none")
    b = IRBuilder().position_at_start(f.entry)
    coro_id = b.call(fn["llvm.coro.id"], [const(T.i32, 0), null(T.ptr), null(T.ptr), null(T.ptr)], "kk.coro.id")
    size = b.call(fn["llvm.coro.size.i64"], [], "kk.coro.size")
    mem = b.call(frame, [wi, wg, size], "kk.coro.mem")
    handle = b.call(fn["llvm.coro.begin"], [coro_id, mem], "kk.coro.hdl")
    final, trap, cleanup, suspend = (f.append_block(n) for n in ("kk.coro.final", "kk.coro.trap",
                                                                   "kk.coro.cleanup", "kk.coro.suspend"))
    count = 0
    todo = list(f.blocks[:-4])
    k = 0
    while k < len(todo):
        block = todo[k]
        k += 1
        for inst in list(block.instructions):
            if isinstance(inst, I.ReturnInst):
                b.position_before(inst).br(final)
                inst.erase()
            elif isinstance(inst, I.CallInst) and inst.called_function is not None \
                    and inst.called_function.name == BARRIER:
                count += 1
                resume = split_block(inst, f"kk.barrier.{count}")
                block.instructions[-1].erase()   # split_block's branch
                b.position_at_end(block)
                state = b.call(fn["llvm.coro.suspend"], [none, const(T.i1, 0)], f"kk.susp.{count}")
                state.attributes = ["noduplicate"]
                b.switch(state, suspend, [(const(T.i8, 0), resume), (const(T.i8, 1), cleanup)])
                inst.erase()
                todo.insert(k, resume)   # the rest of the block is scanned next
                break
    b.position_at_end(final)
    state = b.call(fn["llvm.coro.suspend"], [none, const(T.i1, 1)], "kk.susp.final")
    b.switch(state, suspend, [(const(T.i8, 0), trap), (const(T.i8, 1), cleanup)])
    IRBuilder(trap).unreachable()
    IRBuilder(cleanup).br(suspend)
    b.position_at_end(suspend)
    b.call(fn["llvm.coro.end"], [handle, const(T.i1, 0), none])
    b.ret(handle)
    return count


def lower_barriers(module: Module, kernels: list[str]) -> dict[str, int]:
    """Turn the kernels with barriers into coroutines; returns their names and barrier counts."""
    out = {}
    for name in kernels:
        f = module.get_function(name)
        if f is not None and not f.is_declaration and has_barriers(f):
            out[name] = to_coroutine(f, module)
    if out:
        add_frame_allocator(module)
    barrier = module.get_function(BARRIER)
    if barrier is not None and not barrier.uses:   # the barrier builtin has no definition left to call
        module.remove_function(barrier)
    return out
