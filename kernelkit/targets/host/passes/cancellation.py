"""Cooperative cancellation: a kernel stops at its next loop back-edge once the launch is cancelled.

Every retreating edge of a kernel's control-flow graph (a depth-first search finds at least one
in every cycle, reducible or not) goes through a block that reads the launch's cancel flag
(``MuxWorkGroupInfo.cancel``, a u64 the runtime sets on Ctrl-C or a timeout) and returns from the
kernel when it is set. The flag is read with a monotonic atomic load, which LLVM neither hoists
out of the loop nor merges across iterations; the attributes it makes untrue (``noreturn``,
``memory(none)``...) are removed from the kernel. The work-item loops also test it between
work-groups (:mod:`wrapper`), so a cancelled launch ends within one loop iteration per work-item
of the group being run.

Loops that provably end get no poll (their cost showed on loop-heavy kernels, e.g. n-body +40-55%,
``benchmarks/cancellation_overhead.py``): a loop with constant bounds that ends within
BOUNDED_ITERATIONS iterations, and a unit-step loop ``for (i = a; i < n; ++i)`` over 32-bit values
fixed before it (at most 2^32 iterations, whatever ``n`` is: Ctrl-C then waits for that loop, or
for the polls of the loops around it). A loop whose every iteration reaches a barrier polls there:
the work-group loop of a barrier kernel tests the flag before each round (:mod:`wrapper`). Every
endless loop still polls.

Runs after everything is inlined into the kernels, on :mod:`kernelkit.ir`.
"""

from __future__ import annotations

from kernelkit import ir
from kernelkit.ir import types as T
from kernelkit.ir.analysis.cfg import CFG
from kernelkit.ir.analysis.dominators import DominatorTree
from kernelkit.ir.analysis.loops import LoopForest
from kernelkit.ir.values import Value
from kernelkit.targets.host.sched import WorkGroupInfo

BARRIER = "__mux_work_group_barrier"

# a back-edge whose loop provably ends within this many iterations needs no poll
BOUNDED_ITERATIONS = 4096

_PREDICATES = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b, "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b,
}


def _compare(predicate: str, a: int, b: int, bits: int) -> bool:
    if predicate[0] == "s":
        def signed(x: int) -> int:
            return x - (1 << bits) if x >> (bits - 1) else x
        return _PREDICATES["u" + predicate[1:]](signed(a), signed(b))
    return _PREDICATES[predicate](a, b)


def _counted_latch(u: ir.BasicBlock, v: ir.BasicBlock):
    """(compare, branch-to-v-when-true, phi, next) of a latch ``br (icmp ...), v, exit`` comparing
    a phi ``P`` of the header ``v`` (or ``P.next = P +/- constant``, its value from ``u``); else None."""
    term = u.terminator
    if not isinstance(term, ir.BranchInst) or len(term.operands) != 3:
        return None
    cond, if_true, if_false = term.operands
    if not isinstance(cond, ir.CompareInst) or cond.opcode != "icmp" or (if_true is v) == (if_false is v):
        return None
    for phi in v.phis():
        if not any(b is u for _, b in phi.incoming()):
            continue
        nxt = phi.value_for(u)
        if (isinstance(nxt, ir.BinaryOp) and nxt.opcode in ("add", "sub") and nxt.operands[0] is phi
                and isinstance(nxt.operands[1], ir.ConstantInt)
                and any(op is phi or op is nxt for op in cond.operands)):
            return cond, if_true is v, phi, nxt
    return None


def bounded_back_edge(u: ir.BasicBlock, v: ir.BasicBlock) -> bool:
    """Is ``u -> v`` taken at most BOUNDED_ITERATIONS times in a row? True for the latch of a
    counted loop with constant bounds: ``br (icmp P, K)`` or ``br (icmp P.next, K)`` where P is a
    phi of ``v`` that every other predecessor sets to the same constant and ``P.next = P + S``
    (the iterations are simulated with the integer's width, wrap-around included)."""
    latch = _counted_latch(u, v)
    if latch is None:
        return False
    cond, continue_if_true, phi, step_inst = latch
    lhs, rhs = cond.operands
    swapped = isinstance(lhs, ir.ConstantInt)
    value, bound = (rhs, lhs) if swapped else (lhs, rhs)
    if not isinstance(bound, ir.ConstantInt) or not isinstance(value.type, T.IntType):
        return False
    if value is not phi and value is not step_inst:
        return False
    starts = {b.value if isinstance(b, ir.ConstantInt) else None for b in
              (val for val, block in phi.incoming() if block is not u)}
    if len(starts) != 1 or None in starts:
        return False
    bits = value.type.bits
    mask = (1 << bits) - 1
    step = step_inst.operands[1].value * (1 if step_inst.opcode == "add" else -1)
    current, k = starts.pop() & mask, bound.value & mask
    for _ in range(BOUNDED_ITERATIONS):
        following = (current + step) & mask
        tested = following if value is step_inst else current
        a, b = (k, tested) if swapped else (tested, k)
        if _compare(cond.predicate, a, b, bits) != continue_if_true:
            return True
        current = following
    return False


_NEGATED = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
            "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}
_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
            "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}


def _narrow(v: Value) -> bool:
    """A value of at most 32 bits (possibly sign- or zero-extended)."""
    if isinstance(v, ir.CastInst) and v.opcode in ("sext", "zext"):
        v = v.operands[0]
    if isinstance(v, ir.ConstantInt):
        return -(1 << 32) <= v.value < 1 << 32
    return isinstance(v.type, T.IntType) and v.type.bits <= 32


def unit_step_back_edge(u: ir.BasicBlock, v: ir.BasicBlock, loop_blocks: set[ir.BasicBlock]) -> bool:
    """Is ``u -> v`` the latch of ``for (i = start; i < n; ++i)`` (or counting down, or ``!=``)
    with ``n`` and ``start`` 32-bit values fixed before the loop? Such a loop ends after at most
    2^32 iterations whatever n is (the induction steps by one towards n and cannot jump over it)."""
    latch = _counted_latch(u, v)
    if latch is None:
        return False
    cond, continue_if_true, phi, nxt = latch
    step = nxt.operands[1].value if nxt.opcode == "add" else -nxt.operands[1].value
    if step not in (1, -1):
        return False
    lhs, rhs = cond.operands
    predicate = cond.predicate if continue_if_true else _NEGATED.get(cond.predicate)
    if rhs in (phi, nxt):
        lhs, rhs, predicate = rhs, lhs, _SWAPPED.get(predicate or "")
    if lhs not in (phi, nxt) or predicate is None:
        return False
    invariant = not isinstance(rhs, ir.Instruction) or rhs.parent not in loop_blocks
    starts = [val for val, block in phi.incoming() if block is not u]
    allowed = ("ne", "ult", "slt") if step == 1 else ("ne", "ugt", "sgt")
    return (invariant and predicate in allowed and _narrow(rhs)
            and all(_narrow(s) and (not isinstance(s, ir.Instruction) or s.parent not in loop_blocks)
                    for s in starts))


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
    cfg = CFG(f)
    forest = LoopForest(cfg)
    dominators = DominatorTree(cfg)
    barrier_blocks = [b for b in f.blocks if any(isinstance(i, ir.CallInst) and i.called_function is not None
                                                 and i.called_function.name == BARRIER for i in b.instructions)]
    edges = []
    for u, v in retreating_edges(f):
        loop = forest.loop_of(v)
        members = set(loop.blocks) if loop is not None and loop.header is v else None
        if bounded_back_edge(u, v) or (members is not None and unit_step_back_edge(u, v, members)):
            continue
        if members is not None and any(b in members and dominators.dominates(b, u) for b in barrier_blocks):
            continue   # every iteration reaches a barrier, where the work-group loop polls between rounds
        edges.append((u, v))
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
