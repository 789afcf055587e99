"""Uniformity analysis against the OpenCL semantics of hand-written kernels: each kernel passes
values to the undefined functions `uniform(x)` / `divergent(x)`, chosen by reading the source
(which work-items can see different values there), compiled at -O0 (private variables in memory)
and -O2 (SSA, loops rotated). The analysis must call every argument what the source says."""

from __future__ import annotations

import pytest

from kernelkit.frontend import compile_opencl
from kernelkit.ir import CallInst, parse
from kernelkit.ir.analysis import CFG, StrideAnalysis, UniformityAnalysis, WorkItemRoots

SOURCE = r"""
void uniform(int);
void divergent(int);

kernel void shapes(global int *a, global int *b, int n) {
  int lid = get_local_id(0);
  int gid = get_global_id(0);
  int g = get_group_id(0);
  uniform(n * 2);
  uniform(g);
  divergent(lid);
  divergent(gid + n);
  uniform((int)get_local_id(1));
  uniform((int)get_local_size(0));
  uniform(a[g]);
  divergent(a[gid]);
  int x = 0;
  if (lid < 4) x = 1;
  divergent(x);
  int y = 0;
  if (n > 4) y = 3;
  uniform(y);
  int i;
  for (i = 0; i < n; i++) {
    uniform(i);
    if (b[i] == gid) break;
  }
  divergent(i);
  int j;
  for (j = 0; j < n; j++)
    b[j + n] = j;
  uniform(j);
  for (int s = n / 2; s > 0; s >>= 1) {
    uniform(s);
    if (lid < s)
      a[lid] += a[lid + s];
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  divergent(atomic_inc(b));
}
"""

ALL_DIMS = r"""
void uniform(int);
void divergent(int);
kernel void dims(global int *a) {
  divergent((int)get_local_id(1));
  divergent((int)get_global_id(2));
  uniform((int)get_group_id(1));
  uniform((int)get_num_groups(0));
}
"""


def observations(source: str, level: str, roots: WorkItemRoots):
    module = parse(compile_opencl(source, ["-cl-std=CL1.2", level]).ir_text)
    # at -O0 the kernel is a wrapper calling clang's __clang_ocl_kern_imp_<name>
    kernel = max((f for f in module.functions if not f.is_declaration),
                 key=lambda f: sum(isinstance(i, CallInst) for i in f.instructions()))
    ua = UniformityAnalysis(kernel, roots)
    out = []
    for inst in kernel.instructions():
        if isinstance(inst, CallInst) and inst.called_function is not None \
                and inst.called_function.name in ("uniform", "divergent"):
            out.append((inst.called_function.name, ua.is_divergent_use(inst.args[0], inst), inst))
    return ua, out


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_uniformity_follows_opencl_semantics(level):
    ua, obs = observations(SOURCE, level, WorkItemRoots())
    assert len(obs) >= 15
    wrong = [(name, str(inst)) for name, divergent, inst in obs if divergent != (name == "divergent")]
    if level == "-O0":
        # private variables are tracked per variable, not per program point: a variable written in
        # a loop that lanes leave in different iterations differs between lanes (the lanes that left
        # keep their last value), so reading it inside the loop is conservatively divergent too
        in_divergent_loop = {b for lp in ua.divergent_loops for b in lp.blocks}
        wrong = [(n, t) for n, t in wrong
                 if not (n == "uniform" and any(t == str(i) and i.parent in in_divergent_loop
                                                for _, _, i in obs))]
    assert wrong == []
    # the early-exit loop is left by lanes in different iterations; the store loop is not
    assert sum(ua.is_divergent_loop(lp) for lp in ua.loops) == 1
    assert any(ua.is_divergent_branch(b) for b in ua.cfg.blocks)


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_roots_of_all_dimensions(level):
    _, obs = observations(ALL_DIMS, level, WorkItemRoots.all_dimensions())
    assert len(obs) == 4
    assert [(n, d) for n, d, _ in obs] == [(n, n == "divergent") for n, _, _ in obs]


STRIDES = r"""
kernel void strides(global float *a, global float4 *v, int n) {
  int gid = get_global_id(0);
  a[gid] = 1.0f;              // contiguous: stride 4 bytes
  a[2 * gid + n] = 2.0f;      // stride 8 bytes
  a[n] = 3.0f;                // uniform
  v[gid].y = 4.0f;            // 16 bytes
  a[gid * gid] = 5.0f;        // varying
}
"""


def test_strides_of_store_addresses():
    module = parse(compile_opencl(STRIDES, ["-cl-std=CL1.2", "-O2"]).ir_text)
    kernel = module.kernels()[0]
    sa = StrideAnalysis(UniformityAnalysis(kernel))
    stores = [i for i in kernel.instructions() if i.opcode == "store"]
    steps = [sa.stride(s.pointer).step for s in stores]
    assert steps == [4, 8, 0, 16, None]
    assert sa.element_stride(stores[0].pointer, stores[0].value.type) == 1


def test_block_classification():
    ua, _ = observations(SOURCE, "-O2", WorkItemRoots())
    # blocks run by a subset of the lanes are exactly those between a divergent branch and its
    # post-dominator or inside a divergent loop: the entry never is
    assert ua.cfg.entry not in ua.divergent_blocks
    assert ua.divergent_blocks
    assert CFG(ua.function).exits()[0] not in ua.divergent_blocks


@pytest.mark.parametrize("level", ["-O0", "-O3"])
def test_whole_corpus_roots_and_ids(level):
    """On every corpus function: each work-item id of dimension 0 is divergent, each group id
    uniform, and the stride of get_global_id(0) is 1."""
    from .corpus_functions import corpus_functions

    roots_seen = 0
    for f in corpus_functions(level):
        ua = UniformityAnalysis(f)
        sa = StrideAnalysis(ua)
        for inst in f.instructions():
            fn = inst.called_function if isinstance(inst, CallInst) else None
            if fn is None or not inst.args or getattr(inst.args[0], "value", None) != 0:
                continue
            if fn.name in ("_Z13get_global_idj", "_Z12get_local_idj"):
                assert ua.is_divergent(inst) and sa.stride(inst).step == 1
                roots_seen += 1
            elif fn.name == "_Z12get_group_idj":
                assert ua.is_uniform(inst)
    assert roots_seen > 20
