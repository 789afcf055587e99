"""CFG helpers, dominator and post-dominator trees and dominance frontiers against their
brute-force definitions, on every function of the corpus at -O0..-O3 and on hand-made graphs:
- d dominates n iff n is unreachable from the entry once d is removed (or d is n);
- p post-dominates n iff no exit is reachable from n once p is removed (or p is n);
- j is in DF(n) iff n dominates a predecessor of j and does not strictly dominate j;
- reverse post-order: every edge that is not a back edge goes forward in the order."""

from __future__ import annotations

import pytest

from kernelkit.ir import parse
from kernelkit.ir.analysis import CFG, DominatorTree, PostDominatorTree, dominance_frontiers
from kernelkit.ir.analysis.cfg import reachable
from kernelkit.ir.analysis.dominators import iterated_dominance_frontier

from .corpus_functions import LEVELS, corpus_functions


def brute_dominates(cfg: CFG, d, n) -> bool:
    return d is n or n not in cfg.reachable(cfg.entry, avoid=d)


def brute_post_dominates(cfg: CFG, p, n, exits) -> bool:
    if p is n:
        return True
    return not (reachable(n, cfg.successors, avoid=p) & exits)


def check_function(f) -> int:
    cfg = CFG(f)
    dt, pdt = DominatorTree(cfg), PostDominatorTree(cfg)
    live = cfg.reachable()
    exits = set(cfg.exits())
    to_exit = {b for b in cfg.blocks if reachable(b, cfg.successors) & exits}
    checked = 0
    for d in cfg.blocks:
        for n in cfg.blocks:
            if d in live and n in live:
                assert dt.dominates(d, n) == brute_dominates(cfg, d, n), (f.name, d.name, n.name)
            if d in to_exit and n in to_exit:
                assert pdt.post_dominates(d, n) == brute_post_dominates(cfg, d, n, exits), (f.name, d.name, n.name)
            checked += 1
        # immediate dominator: the strict dominator every other strict dominator dominates
        if d in live and d is not cfg.entry:
            idom = dt.immediate(d)
            strict = [x for x in live if x is not d and brute_dominates(cfg, x, d)]
            assert idom in strict and all(brute_dominates(cfg, x, idom) for x in strict)
    df = dominance_frontiers(dt)
    for n in live:
        expected = {j for j in live if any(p in live and dt.dominates(n, p) for p in cfg.predecessors(j))
                    and not dt.strictly_dominates(n, j)}
        assert df[n] == expected, (f.name, n.name)
    order = cfg.reverse_post_order()
    assert set(order) == live and order[0] is cfg.entry
    pos = {b: i for i, b in enumerate(order)}
    for a, b in cfg.edges():
        if a in live and not dt.dominates(b, a):
            assert pos[a] < pos[b], (f.name, a.name, b.name)
    return checked


@pytest.mark.parametrize("level", LEVELS)
def test_dominators_match_definition_on_corpus(level):
    functions = corpus_functions(level)
    assert functions
    assert sum(check_function(f) for f in functions) > 100
    assert any(len(f.blocks) > 5 for f in functions)


DIAMOND_AND_LOOP = """
define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br i1 %d, label %join, label %dead_end
dead_end:
  ret void
join:
  br label %head
head:
  br i1 %d, label %head, label %out
out:
  ret void
unreachable_block:
  br label %join
}
"""


def test_hand_made_graph():
    f = parse(DIAMOND_AND_LOOP).get_function("f")
    blocks = {b.name: b for b in f.blocks}
    cfg = CFG(f)
    dt, pdt = DominatorTree(cfg), PostDominatorTree(cfg)
    assert dt.immediate(blocks["join"]) is blocks["entry"]
    assert dt.immediate(blocks["head"]) is blocks["join"]
    assert not dt.is_reachable(blocks["unreachable_block"])
    assert not dt.dominates(blocks["a"], blocks["join"])
    assert pdt.immediate(blocks["a"]) is blocks["join"]
    assert pdt.immediate(blocks["entry"]) is None          # two exits: only the virtual exit
    assert pdt.post_dominates(blocks["out"], blocks["join"])
    df = dominance_frontiers(dt)
    assert df[blocks["a"]] == {blocks["join"]}
    assert df[blocks["head"]] == {blocks["head"]}
    assert iterated_dominance_frontier(df, [blocks["a"]]) == {blocks["join"]}
    check_function(f)


def test_declaration_has_no_cfg():
    f = parse("declare void @g()").get_function("g")
    with pytest.raises(ValueError, match="declaration"):
        CFG(f)
