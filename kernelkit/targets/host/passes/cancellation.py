"""Cooperative cancellation: a kernel stops at its next loop back-edge once the launch is cancelled.

Every retreating edge of a kernel's control-flow graph (a depth-first search finds at least one
in every cycle, reducible or not) goes through a block that reads the launch's cancel flag
(``MuxWorkGroupInfo.cancel``, a u64 the runtime sets on Ctrl-C or a timeout) and returns from the
kernel when it is set. The flag is read with a monotonic atomic load, which LLVM neither hoists
out of the loop nor merges across iterations; the attributes it makes untrue (``noreturn``,
``memory(none)``...) are removed from the kernel. The work-item loops also test it between
work-groups (:mod:`wrapper`), so a cancelled launch ends within one loop iteration per work-item
of the group being run.

Runs after everything is inlined into the kernels, on :mod:`kernelkit.ir`.
"""

from __future__ import annotations

from kernelkit import ir
from kernelkit.ir import types as T
from kernelkit.targets.host.sched import WorkGroupInfo


def retreating_edges(f: ir.Function) -> list[tuple[ir.BasicBlock, ir.BasicBlock]]:
    """Edges (u, v) of a depth-first search from the entry where v is on the search stack."""
    edges = []
    on_stack: set[int] = set()
    seen: set[int] = set()
    stack: list[tuple[ir.BasicBlock, list[ir.BasicBlock]]] = []
    entry = f.entry
    seen.add(id(entry))
    on_stack.add(id(entry))
    stack.append((entry, list(dict.fromkeys(entry.successors))))
    while stack:
        block, todo = stack[-1]
        if not todo:
            stack.pop()
            on_stack.discard(id(block))
            continue
        succ = todo.pop(0)
        if id(succ) in on_stack:
            edges.append((block, succ))
        elif id(succ) not in seen:
            seen.add(id(succ))
            on_stack.add(id(succ))
            stack.append((succ, list(dict.fromkeys(succ.successors))))
    return edges


# attributes that the cancel check makes untrue: it reads memory another thread writes, and the
# kernel may now return (clang marks an endless kernel noreturn, memory(none))
_UNTRUE = ("noreturn", "nosync", "readnone", "readonly", "willreturn", "mustprogress")


def _drop_untrue_attributes(f: ir.Function) -> None:
    flat: list[str] = []
    for a in f.attributes:
        flat += a.attributes if isinstance(a, ir.AttributeGroup) else [a]
    f.attributes = [a for a in flat if a not in _UNTRUE and not a.startswith("memory(")]
    wg = f.args[-1]
    wg.attributes = [a for a in wg.attributes if a not in ("readnone", "writeonly")]


def instrument_function(f: ir.Function) -> int:
    """Add the cancel checks to kernel ``f`` (whose last parameter is the work-group info)."""
    edges = retreating_edges(f)
    if not edges:
        return 0
    _drop_untrue_attributes(f)
    b = ir.IRBuilder()
    b.position_at_start(f.entry)
    field = b.gep(T.IntType(8), f.args[-1], [ir.const(T.i64, WorkGroupInfo.cancel.offset)], name="kk.cancel.p")
    flag = b.load(T.ptr, field, name="kk.cancel", align=8)
    stop = f.append_block("kk.cancelled")
    ir.IRBuilder(stop).ret_void()
    for n, (u, v) in enumerate(edges):
        check = ir.BasicBlock(f"kk.poll.{n}")
        f.add_block(check, after=u)
        b.position_at_end(check)
        state = b.load(T.i64, flag, name=f"kk.cancel.{n}", align=8)
        state.atomic, state.ordering = True, "monotonic"
        cancelled = b.icmp("ne", state, ir.const(T.i64, 0))
        b.cbr(cancelled, stop, v)
        term = u.terminator
        for i, op in enumerate(term.operands):
            if op is v:
                term.set_operand(i, check)
        for phi in v.phis():
            for i, op in enumerate(phi.operands):
                if op is u and i % 2 == 1:
                    phi.set_operand(i, check)
    return len(edges)


def add_cancellation_points(ir_text: str, kernels: list[str]) -> str:
    """``ir_text`` with cancel checks on the loop back-edges of ``kernels``."""
    module = ir.parse(ir_text)
    changed = 0
    for f in module.functions:
        if f.name in kernels and not f.is_declaration and f.return_type.is_void:
            changed += instrument_function(f)
    return str(module) if changed else ir_text
