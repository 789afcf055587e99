"""Natural loops and the loop forest (the textbook definition, as LLVM's LoopInfo uses it).

An edge `latch -> header` is a back edge when `header` dominates `latch`. The natural loop of a
header is the header plus every block that reaches one of its latches without passing through the
header; all back edges to one header make one loop. Loops nest by block inclusion.

A function is reducible when every cycle has a single entry: equivalently, every retreating edge
of a depth-first walk (an edge to a block still on the walk's stack) is a back edge. Loops of an
irreducible region are not natural loops and do not appear in the forest;
`LoopForest.irreducible_edges` lists the retreating edges that are not back edges.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from kernelkit.ir.analysis.cfg import CFG
from kernelkit.ir.analysis.dominators import DominatorTree
from kernelkit.ir.module import BasicBlock


@dataclass(eq=False)
class Loop:
    header: BasicBlock
    latches: list[BasicBlock]
    blocks: list[BasicBlock]                 # in function order, header first
    parent: Loop | None = None
    children: list[Loop] = field(default_factory=list)
    _members: set[BasicBlock] = field(default_factory=set, repr=False)
    _cfg: CFG | None = field(default=None, repr=False)

    def __contains__(self, block: object) -> bool:
        return block in self._members

    @property
    def depth(self) -> int:
        """1 for an outermost loop."""
        d, loop = 1, self.parent
        while loop is not None:
            d, loop = d + 1, loop.parent
        return d

    def exiting_blocks(self) -> list[BasicBlock]:
        """Blocks of the loop with a successor outside it."""
        assert self._cfg is not None
        return [b for b in self.blocks if any(s not in self._members for s in self._cfg.successors(b))]

    def exits(self) -> list[BasicBlock]:
        """Blocks outside the loop with a predecessor inside it (each once, in discovery order)."""
        assert self._cfg is not None
        out: dict[BasicBlock, None] = {}
        for b in self.blocks:
            for s in self._cfg.successors(b):
                if s not in self._members:
                    out.setdefault(s)
        return list(out)

    def exit_edges(self) -> list[tuple[BasicBlock, BasicBlock]]:
        assert self._cfg is not None
        return [(b, s) for b in self.blocks for s in self._cfg.successors(b) if s not in self._members]

    def preheader(self) -> BasicBlock | None:
        """The single predecessor outside the loop when it has the header as only successor."""
        assert self._cfg is not None
        outside = [p for p in self._cfg.predecessors(self.header) if p not in self._members]
        if len(outside) == 1 and self._cfg.successors(outside[0]) == [self.header]:
            return outside[0]
        return None

    def contains_loop(self, other: Loop) -> bool:
        loop: Loop | None = other
        while loop is not None:
            if loop is self:
                return True
            loop = loop.parent
        return False


class LoopForest:
    """The natural loops of a function: `top_level` loops and their `children`, innermost lookup."""

    def __init__(self, cfg: CFG, domtree: DominatorTree | None = None) -> None:
        self.cfg = cfg
        self.domtree = domtree or DominatorTree(cfg)
        dt = self.domtree
        order = {b: i for i, b in enumerate(cfg.blocks)}
        latches: dict[BasicBlock, list[BasicBlock]] = {}
        for b in cfg.blocks:
            if not dt.is_reachable(b):
                continue
            for s in cfg.successors(b):
                if dt.dominates(s, b):
                    latches.setdefault(s, []).append(b)
        loops: list[Loop] = []
        for header, lat in latches.items():
            members = {header}
            work = [x for x in lat if x is not header]
            members.update(work)
            while work:
                b = work.pop()
                for p in cfg.predecessors(b):
                    if p not in members and dt.is_reachable(p):
                        members.add(p)
                        work.append(p)
            blocks = sorted(members, key=lambda x: (x is not header, order[x]))
            loops.append(Loop(header, sorted(lat, key=order.__getitem__), blocks, _members=members, _cfg=cfg))
        # nesting: the parent is the smallest strictly larger loop containing the header
        loops.sort(key=lambda lp: len(lp.blocks))
        for i, lp in enumerate(loops):
            for outer in loops[i + 1:]:
                if lp.header in outer and outer.header is not lp.header:
                    lp.parent = outer
                    outer.children.append(lp)
                    break
        for lp in loops:
            lp.children.sort(key=lambda c: order[c.header])
        self.top_level = sorted((lp for lp in loops if lp.parent is None), key=lambda c: order[c.header])
        self._innermost: dict[BasicBlock, Loop] = {}
        for lp in loops:  # smallest first: the first loop that claims a block is its innermost
            for b in lp.blocks:
                self._innermost.setdefault(b, lp)
        self.irreducible_edges = _irreducible_edges(cfg, dt)

    def __iter__(self) -> Iterator[Loop]:
        """Every loop, outer loops before the loops they contain."""
        stack = list(reversed(self.top_level))
        while stack:
            lp = stack.pop()
            yield lp
            stack.extend(reversed(lp.children))

    def loop_of(self, block: BasicBlock) -> Loop | None:
        """The innermost loop containing `block`."""
        return self._innermost.get(block)

    def depth(self, block: BasicBlock) -> int:
        lp = self._innermost.get(block)
        return 0 if lp is None else lp.depth

    @property
    def reducible(self) -> bool:
        return not self.irreducible_edges


def _irreducible_edges(cfg: CFG, dt: DominatorTree) -> list[tuple[BasicBlock, BasicBlock]]:
    """Retreating edges of a depth-first walk from the entry whose target does not dominate the source."""
    out = []
    on_stack = {cfg.entry}
    seen = {cfg.entry}
    stack: list[tuple[BasicBlock, Iterator[BasicBlock]]] = [(cfg.entry, iter(cfg.successors(cfg.entry)))]
    while stack:
        node, it = stack[-1]
        for s in it:
            if s in on_stack:
                if not dt.dominates(s, node):
                    out.append((node, s))
            elif s not in seen:
                seen.add(s)
                on_stack.add(s)
                stack.append((s, iter(cfg.successors(s))))
                break
        else:
            stack.pop()
            on_stack.discard(node)
    return out
