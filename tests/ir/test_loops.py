"""The loop forest against the textbook definition on every corpus function at -O0..-O3 and on
hand-made graphs. For a reducible graph the natural loop of a header h (the target of an edge
x -> h where h dominates x) is exactly {b : h dominates b and h is reachable from b through blocks
h dominates}; loops nest by inclusion; irreducible cycles (two entries) are reported, not taken for loops."""

from __future__ import annotations

import pytest

from kernelkit.ir import parse
from kernelkit.ir.analysis import CFG, DominatorTree, LoopForest
from kernelkit.ir.analysis.cfg import reachable

from .corpus_functions import LEVELS, corpus_functions


def check_loops(f) -> int:
    cfg = CFG(f)
    dt = DominatorTree(cfg)
    forest = LoopForest(cfg, dt)
    assert forest.reducible, f.name
    live = cfg.reachable()
    headers = {h for a, h in cfg.edges() if a in live and dt.dominates(h, a)}
    loops = list(forest)
    assert {lp.header for lp in loops} == headers
    for lp in loops:
        h = lp.header
        def inside(x, h=h):
            return [s for s in cfg.successors(x) if dt.dominates(h, s)]
        expected = {b for b in live if dt.dominates(h, b) and h in reachable(b, inside)}
        assert set(lp.blocks) == expected and lp.blocks[0] is h
        assert set(lp.latches) == {a for a in cfg.predecessors(h) if a in expected}
        assert set(lp.exits()) == {s for b in expected for s in cfg.successors(b) if s not in expected}
        containing = [o for o in loops if o is not lp and set(lp.blocks) < set(o.blocks)]
        assert lp.depth == len(containing) + 1
        if containing:
            assert lp.parent is min(containing, key=lambda o: len(o.blocks))
        else:
            assert lp.parent is None and lp in forest.top_level
    for b in live:
        inner = [lp for lp in loops if b in lp]
        assert forest.loop_of(b) is (min(inner, key=lambda o: len(o.blocks)) if inner else None)
    return len(loops)


@pytest.mark.parametrize("level", LEVELS)
def test_loops_match_definition_on_corpus(level):
    assert sum(check_loops(f) for f in corpus_functions(level)) >= 5


NESTED = """
define void @f(i1 %c, i1 %d) {
entry:
  br label %outer
outer:
  br label %inner
inner:
  br i1 %c, label %inner, label %latch
latch:
  br i1 %d, label %outer, label %exit
exit:
  ret void
}
"""

IRREDUCIBLE = """
define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %x, label %y
x:
  br i1 %d, label %y, label %exit
y:
  br label %x
exit:
  ret void
}
"""


def test_nested_loops():
    f = parse(NESTED).get_function("f")
    b = {x.name: x for x in f.blocks}
    forest = LoopForest(CFG(f))
    outer, = forest.top_level
    inner, = outer.children
    assert outer.header is b["outer"] and inner.header is b["inner"]
    assert inner.parent is outer and inner.depth == 2 and forest.depth(b["exit"]) == 0
    assert outer.exits() == [b["exit"]] and outer.exiting_blocks() == [b["latch"]]
    assert outer.preheader() is b["entry"] and inner.preheader() is b["outer"]
    assert outer.contains_loop(inner) and not inner.contains_loop(outer)
    check_loops(f)


def test_irreducible_cycle_is_reported():
    f = parse(IRREDUCIBLE).get_function("f")
    forest = LoopForest(CFG(f))
    assert not forest.reducible
    assert list(forest) == []
    assert [(a.name, s.name) for a, s in forest.irreducible_edges] in ([("y", "x")], [("x", "y")])
