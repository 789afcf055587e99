"""Structured control flow for targets without branches (AMD IL, SIMD control flow): the
region tree of a reducible function.

Like LLVM's StructurizeCFG, the goal is that every region has one entry and one exit and every
branch is an if/else that rejoins, every cycle a loop left by ``break``; unlike it, the IR is not
rewritten: ``structurize(function)`` returns a tree of nodes a code generator walks:

- ``Block(b)``: the instructions of ``b`` (not its terminator);
- ``Edge(src, dst)``: the phi copies of the edge ``src -> dst`` happen here;
- ``If(test, then, else_)``: ``test`` is ``Branch(block)`` (the condition of its ``br``),
  ``Case(block, value)`` (the switch condition equals ``value``) or ``ExitIs(loop, k)``;
- ``Loop(loop, body)``: repeats ``body`` until a ``Break``; ``Continue`` starts the next
  iteration; ``SetExit(loop, k)`` records which exit a loop with several exit blocks left by;
- ``Return()``.

How: within a loop (or the function), loops nested one level deeper are collapsed into one node
and back edges, exits and returns go to virtual sinks; the join of a branch is its immediate
post-dominator in that acyclic graph. Each arm is emitted up to the join; a block reached from
several arms before the join (an unstructured merge, e.g. short-circuit conditions) is emitted
once per arm (tail duplication, bounded: past ``MAX_GROWTH`` times the function's size it is a
CompileError). An irreducible CFG is a CompileError naming the offending edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.errors import CompileError
from kernelkit.ir.analysis.cfg import CFG
from kernelkit.ir.analysis.dominators import DominatorTree, immediate_dominators
from kernelkit.ir.analysis.loops import Loop as NaturalLoop
from kernelkit.ir.analysis.loops import LoopForest
from kernelkit.ir.module import BasicBlock, Function

MAX_GROWTH = 8


@dataclass
class Block:
    block: BasicBlock


@dataclass
class Edge:
    src: BasicBlock
    dst: BasicBlock


@dataclass
class Branch:
    block: BasicBlock           # its terminator is `br i1 %c, ...`: the test is %c != 0


@dataclass
class Case:
    block: BasicBlock           # its terminator is a switch: the test is cond == value
    value: object


@dataclass
class ExitIs:
    loop: NaturalLoop
    index: int


@dataclass
class If:
    test: Branch | Case | ExitIs
    then: list = field(default_factory=list)
    else_: list = field(default_factory=list)


@dataclass
class Loop:
    loop: NaturalLoop
    body: list = field(default_factory=list)
    exits: list[BasicBlock] = field(default_factory=list)


@dataclass
class Break:
    pass


@dataclass
class Continue:
    pass


@dataclass
class SetExit:
    loop: NaturalLoop
    index: int


@dataclass
class Return:
    pass


class _Sink:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


class _Structurizer:
    def __init__(self, function: Function):
        self.function = function
        self.cfg = CFG(function)
        self.dt = DominatorTree(self.cfg)
        self.loops = LoopForest(self.cfg, self.dt)
        if self.loops.irreducible_edges:
            src, dst = self.loops.irreducible_edges[0]
            raise CompileError(f"@{function.name}: irreducible control flow (edge %{src.name} -> "
                               f"%{dst.name} enters a cycle that it does not dominate); AMD IL "
                               f"needs structured control flow")
        self.emitted = 0
        self.limit = MAX_GROWTH * len(self.cfg.blocks) + 64
        self._ipdom: dict[int, dict] = {}

    # -- the acyclic graph of one loop level ------------------------------------------------
    def _node(self, block: BasicBlock, ctx: NaturalLoop | None):
        """The node standing for ``block`` at ``ctx``'s level: the block, or the loop one level
        below ctx that contains it."""
        lp = self.loops.loop_of(block)
        if lp is None or lp is ctx:
            return block
        while lp.parent is not ctx:
            lp = lp.parent
            if lp is None:
                return block
        return lp

    def _postdoms(self, ctx: NaturalLoop | None) -> dict:
        key = id(ctx)
        if key in self._ipdom:
            return self._ipdom[key]
        end, cont, brk = _Sink("end"), _Sink("continue"), _Sink("break")
        blocks = [b for b in self.cfg.blocks if self.dt.is_reachable(b) and (ctx is None or b in ctx)]
        succ: dict = {end: [], cont: [end], brk: [end]}
        for b in blocks:
            node = self._node(b, ctx)
            out = succ.setdefault(node, [])
            if isinstance(node, NaturalLoop) and b is not node.header:
                continue
            targets = node.exits() if isinstance(node, NaturalLoop) else self.cfg.successors(b)
            if not targets:
                out.append(end)
            for s in targets:
                if ctx is not None and s is ctx.header:
                    t = cont
                elif ctx is not None and s not in ctx:
                    t = brk
                else:
                    t = self._node(s, ctx)
                if t not in out:
                    out.append(t)
        pred: dict = {n: [] for n in succ}
        for n, ss in succ.items():
            for s in ss:
                pred.setdefault(s, []).append(n)
        ipdom = immediate_dominators(end, lambda n: pred.get(n, []), lambda n: succ.get(n, []))
        result = {n: (None if isinstance(d, _Sink) else d) for n, d in ipdom.items()}
        self._ipdom[key] = result
        return result

    def _join(self, block_or_loop, ctx) -> BasicBlock | None:
        node = self._postdoms(ctx).get(block_or_loop)
        if isinstance(node, NaturalLoop):
            return node.header
        return node

    # -- emission ------------------------------------------------------------------------------
    def region(self, start: BasicBlock, stop: BasicBlock | None, ctx: NaturalLoop | None,
               at_loop_start: bool = False) -> list:
        out: list = []
        b: BasicBlock | None = start
        first = at_loop_start
        while b is not None:
            if b is stop:
                return out
            if ctx is not None and not first and b is ctx.header:
                out.append(Continue())
                return out
            if ctx is not None and b not in ctx:
                exits = ctx.exits()
                if len(exits) > 1:
                    out.append(SetExit(ctx, exits.index(b)))
                out.append(Break())
                return out
            first = False
            node = self._node(b, ctx)
            if isinstance(node, NaturalLoop):
                b = self._loop(node, stop, ctx, out)
                continue
            self.emitted += 1
            if self.emitted > self.limit:
                raise CompileError(f"@{self.function.name}: control flow too unstructured to "
                                   f"structurize without growing past {MAX_GROWTH}x")
            out.append(Block(b))
            b = self._terminator(b, stop, ctx, out)
        return out

    def _loop(self, lp: NaturalLoop, stop, ctx, out: list) -> BasicBlock | None:
        exits = lp.exits()
        body = self.region(lp.header, None, lp, at_loop_start=True)
        out.append(Loop(lp, body, exits))
        if not exits:
            return None
        if len(exits) == 1:
            return exits[0]
        join = self._join(lp, ctx)
        chain: list = out
        for k, e in enumerate(exits):
            arm = self.region(e, join, ctx)
            node = If(ExitIs(lp, k), arm, [])
            chain.append(node)
            chain = node.else_
        return join

    def _terminator(self, b: BasicBlock, stop, ctx, out: list) -> BasicBlock | None:
        term = b.terminator
        op = term.opcode if term is not None else "unreachable"
        if op in ("ret", "unreachable"):
            out.append(Return())
            return None
        succs = self.cfg.successors(b)
        if op == "br" and len(term.operands) == 1 or len(succs) == 1:
            s = succs[0]
            out.append(Edge(b, s))
            return s
        join = self._join(b, ctx)
        if op == "br":
            t, f = term.operands[1], term.operands[2]
            node = If(Branch(b), [Edge(b, t)] + self.region(t, join, ctx),
                      [Edge(b, f)] + self.region(f, join, ctx))
            out.append(node)
            return join
        if op == "switch":
            default = term.operands[1]
            chain = out
            done: list[BasicBlock] = []
            for _value, target in term.cases():
                if target in done:
                    continue    # same block as an earlier case: test both values there
                done.append(target)
                arm = [Edge(b, target)] + self.region(target, join, ctx)
                node = If(Case(b, [v for v, t in term.cases() if t is target]), arm, [])
                chain.append(node)
                chain = node.else_
            chain += [Edge(b, default)] + self.region(default, join, ctx)
            return join
        raise CompileError(f"@{self.function.name}: {op} terminators cannot be structurized")


def structurize(function: Function) -> list:
    """The region tree of ``function`` (see the module documentation)."""
    s = _Structurizer(function)
    return s.region(s.cfg.entry, None, None)
