"""Divergent regions: where a packet's lanes go different ways, and the masks that linearise them.

A divergent region starts at a branch on a divergent condition that is not itself under divergent
control (`branch`), holds the blocks lanes may run between that branch and its immediate
post-dominator (`blocks`, in an order where every block comes after its predecessors), and ends at
that post-dominator (`join`; None when the lanes only meet again at the function's exit).

Control-flow conversion (`transforms.packetise`) runs the region's blocks one after the other for
all lanes, each block under its mask (the lanes that would have reached it); the supported regions
are single-entry, with the join reached from the region only, and acyclic but for the loops that
carry loop masks (`transforms.loop_masks`): their back edges (`loop_back_edges`) stay, and a
region's order keeps each such loop's blocks together, header first and latch last.

A join also reached from outside its region (inlined library code: `if (uniform) return;` before a
divergent `if` whose post-dominator is that return's block) gets a join of its own first
(`split_shared_joins`): a new block that the region's edges into the old join go through.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.ir.analysis.uniformity import UniformityAnalysis
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import BasicBlock


class VectorisationFailure(Exception):
    """The function cannot be vectorised; `reason` says why (for the build log)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(eq=False)
class DivergentRegion:
    branch: BasicBlock
    blocks: list[BasicBlock]
    join: BasicBlock | None

    def __contains__(self, block: object) -> bool:
        return any(b is block for b in self.blocks)


def divergent_regions(ua: UniformityAnalysis,
                      loop_back_edges: frozenset[tuple[BasicBlock, BasicBlock]] = frozenset()) -> list[DivergentRegion]:
    """The outermost divergent regions of `ua.function`; raises VectorisationFailure for the
    shapes control-flow conversion does not handle (divergent loops without loop masks, other
    loops or unstructured entries inside a region). `loop_back_edges`: (latch, header) edges of
    the loops with loop masks."""
    if not ua.loops.reducible:
        raise VectorisationFailure("irreducible control flow")
    if ua.divergent_loops:
        raise VectorisationFailure("divergent loop (work-items leave it in different iterations)")
    cfg = ua.cfg
    order = cfg.reverse_post_order()
    position = {b: i for i, b in enumerate(order)}
    regions = []
    for block in order:
        if not ua.is_divergent_branch(block) or block in ua.divergent_blocks:
            continue
        join = ua.postdomtree.immediate(block)
        members = _members(ua, block, join)
        if members is None:
            raise VectorisationFailure("loop under divergent control")
        blocks = sorted(members, key=position.__getitem__)
        for b in blocks:
            for s in cfg.successors(b):
                if s in members and position[s] <= position[b] and (b, s) not in loop_back_edges:
                    raise VectorisationFailure("loop under divergent control")
            if any(p is not block and p not in members for p in cfg.predecessors(b)):
                raise VectorisationFailure("divergent region entered from outside its branch")
        for latch, header in loop_back_edges:
            if latch in members:
                first, last = blocks.index(header), blocks.index(latch)
                if not all(ua.domtree.dominates(header, b) for b in blocks[first:last + 1]):
                    raise VectorisationFailure("internal: a masked loop's blocks are not contiguous")
        if join is not None and any(p is not block and p not in members for p in cfg.predecessors(join)):
            raise VectorisationFailure("divergent region's join reached from outside the region")
        for b in blocks:
            term = b.terminator
            if term is None or term.opcode not in ("br", "switch", "ret"):
                raise VectorisationFailure(f"terminator {term.opcode if term else None!r} under divergent control")
            if term.opcode == "ret" and (join is not None or term.operands):
                raise VectorisationFailure("return of a value under divergent control")
        regions.append(DivergentRegion(block, blocks, join))
    return regions


def _members(ua: UniformityAnalysis, branch: BasicBlock, join: BasicBlock | None) -> set[BasicBlock] | None:
    """The blocks reachable from `branch`'s successors without passing `join`; None when `branch`
    itself is reached again (a loop)."""
    members: set[BasicBlock] = set()
    work = [s for s in ua.cfg.successors(branch) if s is not join]
    while work:
        b = work.pop()
        if b in members:
            continue
        if b is branch:
            return None
        members.add(b)
        work.extend(s for s in ua.cfg.successors(b) if s is not join)
    return members


def split_shared_joins(ua: UniformityAnalysis) -> bool:
    """Give the first outermost divergent region whose join is also reached from outside the region
    a join of its own: a new block between the region's edges into the old join (the branch's own
    edge included) and the old join, holding phis of the values those edges brought. The packet
    then reaches the old join either from the new block or, all lanes together, from outside.
    Returns whether a join was split (the caller recomputes `ua` and asks again)."""
    cfg = ua.cfg
    for block in cfg.reverse_post_order():
        if not ua.is_divergent_branch(block) or block in ua.divergent_blocks:
            continue
        join = ua.postdomtree.immediate(block)
        if join is None or ua.domtree.dominates(join, block):   # (a loop's header: not a plain join)
            continue
        members = _members(ua, block, join)
        if members is None:
            continue
        preds = list(dict.fromkeys(cfg.predecessors(join)))
        inside = [p for p in preds if p is block or p in members]
        if len(inside) == len(preds):
            continue
        own = ua.function.add_block(BasicBlock(f"{join.name}.region"), after=inside[-1])
        b = IRBuilder().position_at_end(own)
        for phi in list(join.phis()):
            pairs = list(phi.incoming())
            new = IRBuilder().position_at_start(own).phi(phi.type, f"{phi.name}.region" if phi.name else "")
            for v, p in pairs:
                if any(p is q for q in inside):
                    new.add_incoming(v, p)
            phi.set_operands([x for v, p in pairs if not any(p is q for q in inside) for x in (v, p)] + [new, own])
        b.br(join)
        for p in inside:
            term = p.terminator
            for i, op in enumerate(term.operands):
                if op is join:
                    term.set_operand(i, own)
        return True
    return False
