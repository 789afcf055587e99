"""Dominator and post-dominator trees, and dominance frontiers.

`DominatorTree(cfg)`: `d` dominates `n` when every path from the entry to `n` goes through `d`
(each block dominates itself). Computed with the iterative algorithm of Cooper, Harvey and Kennedy
("A Simple, Fast Dominance Algorithm") over reverse post-order; unreachable blocks are not in the tree.

`PostDominatorTree(cfg)`: `p` post-dominates `n` when every path from `n` to a function exit goes
through `p`. The tree is rooted at a virtual exit that succeeds every block without successors;
`immediate(n) is None` means only the virtual exit post-dominates `n` (several exits, or `n` is an
exit). Blocks that reach no exit (endless loops) are not in the tree.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

from kernelkit.ir.analysis.cfg import CFG, reverse_post_order
from kernelkit.ir.module import BasicBlock

N = TypeVar("N", bound=Hashable)


def immediate_dominators(entry: N, successors: Callable[[N], Iterable[N]],
                         predecessors: Callable[[N], Iterable[N]]) -> dict[N, N]:
    """idom of every node reachable from `entry` (the entry maps to itself)."""
    order = reverse_post_order(entry, successors)
    index = {n: i for i, n in enumerate(order)}
    idom: dict[N, N] = {entry: entry}

    def intersect(a: N, b: N) -> N:
        while a != b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for n in order[1:]:
            new: N | None = None
            for p in predecessors(n):
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if new is not None and idom.get(n) != new:
                idom[n] = new
                changed = True
    return idom


class _Tree(Generic[N]):
    """A tree given by immediate parents; `root` is its own parent in `_idom`."""

    def __init__(self, root: N, idom: dict[N, N]) -> None:
        self._root = root
        self._idom = idom
        self.children: dict[N, list[N]] = {n: [] for n in idom}
        for n, d in idom.items():
            if n != root:
                self.children[d].append(n)
        # depth-first numbering: a dominates b iff a's interval contains b's
        self._enter: dict[N, int] = {}
        self._leave: dict[N, int] = {}
        clock = 0
        stack: list[tuple[N, bool]] = [(root, False)]
        while stack:
            n, done = stack.pop()
            if done:
                self._leave[n] = clock
                clock += 1
                continue
            self._enter[n] = clock
            clock += 1
            stack.append((n, True))
            stack.extend((c, False) for c in reversed(self.children[n]))

    def _contains(self, a: N, b: N) -> bool:
        if a not in self._enter or b not in self._enter:
            return False
        return self._enter[a] <= self._enter[b] and self._leave[b] <= self._leave[a]


class DominatorTree(_Tree[BasicBlock]):
    def __init__(self, cfg: CFG) -> None:
        self.cfg = cfg
        super().__init__(cfg.entry, immediate_dominators(cfg.entry, cfg.successors, cfg.predecessors))

    @property
    def root(self) -> BasicBlock:
        return self._root

    def is_reachable(self, block: BasicBlock) -> bool:
        return block in self._idom

    def immediate(self, block: BasicBlock) -> BasicBlock | None:
        """The immediate dominator (None for the entry and unreachable blocks)."""
        d = self._idom.get(block)
        return None if d is None or block is self._root else d

    def dominates(self, a: BasicBlock, b: BasicBlock) -> bool:
        """Does `a` dominate `b` (reflexive)? False when either is unreachable."""
        return self._contains(a, b)

    def strictly_dominates(self, a: BasicBlock, b: BasicBlock) -> bool:
        return a is not b and self._contains(a, b)

    def dominators(self, block: BasicBlock) -> list[BasicBlock]:
        """`block` and its dominators up to the entry."""
        out = []
        n: BasicBlock | None = block if block in self._idom else None
        while n is not None:
            out.append(n)
            n = self.immediate(n)
        return out


class _VirtualExit:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<virtual exit>"


VIRTUAL_EXIT = _VirtualExit()


class PostDominatorTree(_Tree[object]):
    def __init__(self, cfg: CFG) -> None:
        self.cfg = cfg
        exits = cfg.exits()

        def succ(n):  # of the reversed graph
            return exits if n is VIRTUAL_EXIT else cfg.predecessors(n)

        def pred(n):
            if n is VIRTUAL_EXIT:
                return ()
            s = cfg.successors(n)
            return s if s else (VIRTUAL_EXIT,)

        super().__init__(VIRTUAL_EXIT, immediate_dominators(VIRTUAL_EXIT, succ, pred))

    def immediate(self, block: BasicBlock) -> BasicBlock | None:
        """The immediate post-dominator; None when it is the virtual exit or `block` reaches no exit."""
        d = self._idom.get(block)
        return None if d is None or d is VIRTUAL_EXIT else d  # type: ignore[return-value]

    def reaches_exit(self, block: BasicBlock) -> bool:
        return block in self._idom

    def post_dominates(self, a: BasicBlock, b: BasicBlock) -> bool:
        """Does `a` post-dominate `b` (reflexive)? False when either reaches no exit."""
        return self._contains(a, b)

    def strictly_post_dominates(self, a: BasicBlock, b: BasicBlock) -> bool:
        return a is not b and self._contains(a, b)

    def children_of(self, block: BasicBlock | None) -> list[BasicBlock]:
        """Blocks immediately post-dominated by `block` (None: by the virtual exit)."""
        return list(self.children.get(VIRTUAL_EXIT if block is None else block, []))  # type: ignore[arg-type]


def dominance_frontiers(tree: DominatorTree) -> dict[BasicBlock, set[BasicBlock]]:
    """DF(n): blocks `j` with a predecessor dominated by `n` while `n` does not strictly dominate `j`
    (Cooper, Harvey and Kennedy's runner algorithm). Only reachable blocks appear."""
    cfg = tree.cfg
    df: dict[BasicBlock, set[BasicBlock]] = {b: set() for b in cfg.blocks if tree.is_reachable(b)}
    for b in df:
        preds = [p for p in cfg.predecessors(b) if tree.is_reachable(p)]
        if len(preds) < 2:
            continue
        idom = tree.immediate(b)
        for p in preds:
            runner: BasicBlock | None = p
            while runner is not None and runner is not idom:
                df[runner].add(b)
                runner = tree.immediate(runner)
    return df


def iterated_dominance_frontier(df: dict[BasicBlock, set[BasicBlock]],
                                blocks: Iterable[BasicBlock]) -> set[BasicBlock]:
    """DF+ of a set of blocks (where SSA construction puts phis for definitions in `blocks`)."""
    out: set[BasicBlock] = set()
    work = list(blocks)
    while work:
        b = work.pop()
        for j in df.get(b, ()):
            if j not in out:
                out.add(j)
                work.append(j)
    return out
