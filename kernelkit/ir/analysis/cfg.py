"""The control-flow graph of one function: successor/predecessor maps, reachability and orders.

Blocks are `kernelkit.ir.BasicBlock` objects (hashed by identity). Successors are the distinct
blocks a terminator names, in operand order; a block reached twice (a switch with two cases to
one block, `br i1 %c, label %a, label %a`) appears once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

from kernelkit.ir.module import BasicBlock, Function

N = TypeVar("N", bound=Hashable)


def _unique(blocks: Iterable[BasicBlock]) -> list[BasicBlock]:
    seen: dict[int, BasicBlock] = {}
    for b in blocks:
        seen.setdefault(id(b), b)
    return list(seen.values())


class CFG:
    """Successors and predecessors of every block of `function` (a definition)."""

    def __init__(self, function: Function) -> None:
        if function.is_declaration:
            raise ValueError(f"@{function.name} is a declaration: it has no control-flow graph")
        self.function = function
        self.entry: BasicBlock = function.entry
        self.blocks: list[BasicBlock] = list(function.blocks)
        self._succ: dict[BasicBlock, list[BasicBlock]] = {b: _unique(b.successors) for b in self.blocks}
        self._pred: dict[BasicBlock, list[BasicBlock]] = {b: [] for b in self.blocks}
        for b in self.blocks:
            for s in self._succ[b]:
                self._pred[s].append(b)

    def successors(self, block: BasicBlock) -> list[BasicBlock]:
        return self._succ[block]

    def predecessors(self, block: BasicBlock) -> list[BasicBlock]:
        return self._pred[block]

    def exits(self) -> list[BasicBlock]:
        """Blocks without successors (ret, unreachable), in function order."""
        return [b for b in self.blocks if not self._succ[b]]

    def reachable(self, start: BasicBlock | None = None, *, avoid: BasicBlock | None = None) -> set[BasicBlock]:
        """Blocks reachable from `start` (default: the entry) without passing through `avoid`."""
        return reachable(start or self.entry, self.successors, avoid=avoid)

    def reverse_post_order(self) -> list[BasicBlock]:
        """The reachable blocks in reverse post-order of a depth-first walk from the entry."""
        return reverse_post_order(self.entry, self.successors)

    def edges(self) -> Iterator[tuple[BasicBlock, BasicBlock]]:
        for b in self.blocks:
            for s in self._succ[b]:
                yield b, s


def reachable(start: N, successors: Callable[[N], Iterable[N]], *, avoid: N | None = None) -> set[N]:
    """Nodes reachable from `start` (included unless it is `avoid`) in a graph given by `successors`."""
    if start == avoid:
        return set()
    seen = {start}
    stack = [start]
    while stack:
        n = stack.pop()
        for s in successors(n):
            if s not in seen and s != avoid:
                seen.add(s)
                stack.append(s)
    return seen


def post_order(start: N, successors: Callable[[N], Iterable[N]]) -> list[N]:
    """Depth-first post-order (iterative, successors visited in the order given)."""
    order: list[N] = []
    seen = {start}
    stack: list[tuple[N, Iterator[N]]] = [(start, iter(successors(start)))]
    while stack:
        node, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(successors(s))))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def reverse_post_order(start: N, successors: Callable[[N], Iterable[N]]) -> list[N]:
    return post_order(start, successors)[::-1]
