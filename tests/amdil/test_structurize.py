"""The structuriser (kernelkit.ir.transforms.structurize) on what it must handle: switches,
loops with several exits, short-circuit conditions, early returns — checked by running the
AMD IL it produces against the same computation in Python — and irreducible control flow,
which it refuses naming the edge."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.errors import CompileError
from kernelkit.ir import parse
from kernelkit.ir.transforms import structurize as S

UNSTRUCTURED = """
kernel void k(global const int *in, global int *out, int limit) {
  int gid = get_global_id(0);
  int v = in[gid], acc = 0;
  if (v < 0 && gid > 3) { out[gid] = -1; return; }
  for (int i = 0; i < 40; ++i) {
    if (i == v) break;                  /* leaves to one place */
    if (acc > limit) goto done;         /* and to another */
    switch ((i + gid) % 4) {
      case 0: acc += i; break;
      case 1: acc -= 1; /* fall through */
      case 2: acc += 3; break;
      default: if (i > 7 || v == 5) acc *= 2;
    }
  }
  acc += 1000;
done:
  out[gid] = acc;
}"""


def python_version(v: int, gid: int, limit: int) -> int:
    if v < 0 and gid > 3:
        return -1
    acc = 0
    for i in range(40):
        if i == v:
            break
        if acc > limit:
            return acc
        r = (i + gid) % 4
        if r == 0:
            acc += i
        elif r in (1, 2):
            acc += (-1 if r == 1 else 0) + 3
        elif i > 7 or v == 5:
            acc *= 2
    return acc + 1000


@pytest.mark.parametrize("device", ["rv770", "cayman"])
def test_unstructured_control_flow_runs_as_written(device):
    rng = np.random.default_rng(5)
    values = rng.integers(-3, 45, 128).astype(np.int32)
    out = np.zeros(128, np.int32)
    kernelkit.Program(UNSTRUCTURED).build(f"amdil:{device}").k(values, out, 500, global_size=128,
                                                                local_size=32)
    want = [python_version(int(v), g, 500) for g, v in enumerate(values)]
    assert out.tolist() == want


IRREDUCIBLE = """
define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %b, label %exit
b:
  br i1 %d, label %a, label %exit
exit:
  ret void
}
"""


def test_irreducible_control_flow_is_refused_naming_the_edge():
    fn = parse(IRREDUCIBLE).get_function("f")
    with pytest.raises(CompileError, match=r"irreducible control flow \(edge %\w+ -> %\w+"):
        S.structurize(fn)


def test_region_tree_of_a_loop_with_two_exits():
    fn = parse("""
define void @g(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %j, %latch ]
  %c = icmp eq i32 %i, %n
  br i1 %c, label %out1, label %latch
latch:
  %j = add i32 %i, 1
  %d = icmp ult i32 %j, 100
  br i1 %d, label %head, label %out2
out1:
  br label %end
out2:
  br label %end
end:
  ret void
}""").get_function("g")
    tree = S.structurize(fn)
    loops = [n for n in tree if isinstance(n, S.Loop)]
    assert len(loops) == 1 and [b.name for b in loops[0].exits] == ["out1", "out2"]
    dispatch = tree[tree.index(loops[0]) + 1]
    assert isinstance(dispatch, S.If) and isinstance(dispatch.test, S.ExitIs)
    assert isinstance(tree[-1], S.Return) and tree[-2].block.name == "end"
