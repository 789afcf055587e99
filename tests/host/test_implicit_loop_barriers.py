"""Implicit loop barriers (issue 10, point 3; targets/host/passes/implicit_loop_barriers.py): every
runnable corpus kernel built with `-cl-loop-barriers=always` gives the results of the build without
them; loops with work-group-uniform trip counts (naive sgemm, nested and 2-D/3-D groups, trip counts
from arguments, group ids and local sizes, divergent code inside the loop) give numpy's results with
the barriers; loops whose trip count differs between work-items get none; the cost rule picks the
naive sgemm and leaves a loop that walks memory contiguously alone."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from corpus_harness import Case, assert_same_outputs, cases

import kernelkit
from kernelkit.targets.host.passes.implicit_loop_barriers import loop_barrier_mode

CASES = [c for c in cases() if not c.run.get("stdout")
         and not any(a["kind"] in ("struct", "union") for a in c.kernel["args"])]
LOG = re.compile(r"kernel (\w+): implicit barriers in (\d+) loop")


@functools.cache
def program(file: str, cl_std: str, mode: str) -> kernelkit.Program:
    return kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}", f"-cl-loop-barriers={mode}"]).build()


_with_barriers: set[str] = set()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_implicit_loop_barriers_equal_the_plain_build(case: Case):
    assert_same_outputs(case, program(case.file, case.cl_std, "never"), program(case.file, case.cl_std, "always"))
    if any(m.group(1) == case.name for m in LOG.finditer(program(case.file, case.cl_std, "always").build_log)):
        _with_barriers.add(case.id)


def test_some_corpus_kernels_take_loop_barriers():
    # (runs after the differential test above in file order; the corpus has uniform loops)
    if not _with_barriers:
        for case in CASES:
            if any(m.group(1) == case.name for m in LOG.finditer(program(case.file, case.cl_std, "always").build_log)):
                _with_barriers.add(case.id)
    assert len(_with_barriers) >= 3, _with_barriers


KERNELS = """
kernel void sgemm(int m, int n, int p, global const float *A, global const float *B, global float *C) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < p; ++k)
    acc += A[row * p + k] * B[k * n + col];
  if (row < m && col < n)
    C[row * n + col] = acc;
}
// the same with a fixed group size, a multiple of the packet width: the cost rule may pick it
__attribute__((reqd_work_group_size(16, 16, 1)))
kernel void sgemm_fixed(int m, int n, int p, global const float *A, global const float *B, global float *C) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < p; ++k)
    acc += A[row * p + k] * B[k * n + col];
  if (row < m && col < n)
    C[row * n + col] = acc;
}
// trip counts from the group id and the local size (uniform in a group), nested, a divergent if inside
kernel void shapes(global const int *x, global int *y, int w) {
  size_t i = get_global_id(0), j = get_global_id(1), l = get_local_id(0);
  int acc = 0;
  for (size_t g = 0; g <= get_group_id(0); ++g)
    for (size_t s = 0; s < get_local_size(0); ++s) {
      int v = x[(j * w + s * 3 + g) % (w * 4)];
      if ((l + s) % 3 == 0)
        acc += v;
      else
        acc -= v >> 1;
    }
  y[j * get_global_size(0) + i] = acc;
}
// a trip count that differs between work-items: no barrier may go there
kernel void ragged(global const int *x, global int *y) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (size_t k = 0; k < i % 5; ++k)
    acc += x[k * get_global_size(0) + i];
  y[i] = acc;
}
// a packet alone walks B by 4096 bytes per iteration (one cache set): the cost rule picks it, and
// without a fixed local size the entry chooses per launch between it and a copy without barriers
kernel void strided(global const float *A, global const float *B, global float *C) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < 64; ++k)
    acc += A[row * 64 + k] * B[k * 1024 + col];
  C[row * get_global_size(0) + col] = acc;
}
// walks memory contiguously along k: the cost rule leaves it alone
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void rows(int n, global const float *A, global float *out) {
  int r = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[r * n + k];
  out[r] = acc;
}
// chosen by the cost rule, but its shuffle by a mask that differs between work-items (an element
// picked at a varying index) keeps it from being vectorised
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void unvectorised(int n, global const float *A, global int *hits, global float *out) {
  int col = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[k * 1024 + col];
  int4 h = vload4(0, hits);
  int m = col % 5;
  int picked = m < 4 ? shuffle(h, (uint4)(m)).s0 : hits[4];
  hits[5 + col] = picked * col;
  out[col] = acc;
}
"""


@functools.cache
def kernels(mode: str, std: str = "CL1.2") -> kernelkit.Program:
    return kernelkit.Program(KERNELS, [f"-cl-std={std}", f"-cl-loop-barriers={mode}"]).build()


def logged(prog: kernelkit.Program) -> set[str]:
    return {m.group(1) for m in LOG.finditer(prog.build_log)}


def test_sgemm_with_sizes_not_multiples_of_the_group():
    mode = "always"
    rng = np.random.default_rng(3)
    m, n, p = 37, 45, 29
    A = rng.random((48, p), dtype=np.float32)      # rows of the padded global size
    B = rng.random((p, 48), dtype=np.float32)
    C = np.zeros((m, n), np.float32)
    kernels(mode).kernel("sgemm")(np.int32(m), np.int32(n), np.int32(p), A, B[:, :n].copy(), C,
                                   global_size=(n, m), local_size=(n, 1))
    np.testing.assert_allclose(C, A[:m].astype(np.float64) @ B[:, :n], rtol=1e-5)
    assert "sgemm" in logged(kernels(mode))
    for mode, name in (("always", "sgemm"), ("always", "sgemm_fixed")):
        C2 = np.zeros((m, n), np.float32)
        kernels(mode).kernel(name)(np.int32(m), np.int32(n), np.int32(p), A, B[:, :n].copy(), C2,
                                   global_size=(48, 48), local_size=(16, 16))
        np.testing.assert_allclose(C2, C, rtol=1e-6)


def shapes_reference(x: np.ndarray, w: int, gsize: tuple[int, int], lsize: tuple[int, int]) -> np.ndarray:
    out = np.zeros((gsize[1], gsize[0]), np.int64)
    for j in range(gsize[1]):
        for i in range(gsize[0]):
            group, lid, acc = i // lsize[0], i % lsize[0], 0
            for g in range(group + 1):
                for s in range(lsize[0]):
                    v = int(x[(j * w + s * 3 + g) % (w * 4)])
                    acc = acc + v if (lid + s) % 3 == 0 else acc - (v >> 1)
            out[j, i] = acc
    return out.astype(np.int32)


def test_nested_uniform_loops_with_divergent_bodies_in_2d_groups():
    rng = np.random.default_rng(4)
    w = 6
    x = rng.integers(-1000, 1000, w * 4, dtype=np.int32)
    for gsize, lsize in (((48, 4), (24, 2)), ((40, 3), (20, 1))):
        y = np.zeros(gsize[0] * gsize[1], np.int32)
        kernels("always").kernel("shapes")(x, y, np.int32(w), global_size=gsize, local_size=lsize)
        np.testing.assert_array_equal(y.reshape(gsize[1], gsize[0]), shapes_reference(x, w, gsize, lsize))
    assert "shapes" in logged(kernels("always"))


def test_non_uniform_remainder_groups_of_opencl_2():
    rng = np.random.default_rng(6)
    w = 5
    x = rng.integers(-1000, 1000, w * 4, dtype=np.int32)
    prog = kernels("always", "CL2.0")
    y = np.zeros(37 * 2, np.int32)
    prog.kernel("shapes")(x, y, np.int32(w), global_size=(37, 2), local_size=(16, 1))
    ref = np.zeros((2, 37), np.int32)
    for j in range(2):
        for i in range(37):
            group, lid = i // 16, i % 16
            size = 16 if group < 2 else 5          # the remainder group's own local size
            acc = 0
            for g in range(group + 1):
                for s in range(size):
                    v = int(x[(j * w + s * 3 + g) % (w * 4)])
                    acc = acc + v if (lid + s) % 3 == 0 else acc - (v >> 1)
            ref[j, i] = acc
    np.testing.assert_array_equal(y.reshape(2, 37), ref)


def test_no_barrier_where_work_items_iterate_differently_and_the_cost_rule():
    always, auto = logged(kernels("always")), logged(kernels("auto"))
    assert "ragged" not in always and "ragged" not in auto
    # auto: a run-time step (sgemm's n) is not enough
    assert "rows" in always and "rows" not in auto and "sgemm" in always and "sgemm" not in auto
    assert "sgemm_fixed" not in auto and "strided" in auto
    assert not logged(kernels("never"))
    x = np.arange(64 * 5, dtype=np.int32)
    y = np.zeros(64, np.int32)
    kernels("always").kernel("ragged")(x, y, global_size=(64,), local_size=(16,))
    np.testing.assert_array_equal(y, [sum(x[k * 64 + i] for k in range(i % 5)) for i in range(64)])
    A = np.random.default_rng(8).random((32, 19), dtype=np.float32)
    out = np.zeros(32, np.float32)
    kernels("always").kernel("rows")(np.int32(19), A, out, global_size=(32,), local_size=(16,))
    np.testing.assert_allclose(out, A.astype(np.float64).sum(1), rtol=1e-5)


def test_option_values():
    assert loop_barrier_mode([]) == "auto"
    assert loop_barrier_mode(["-cl-loop-barriers=never", "-cl-loop-barriers=always"]) == "always"
    with pytest.raises(kernelkit.CompileError, match="-cl-loop-barriers=never\\|auto\\|always"):
        kernelkit.Program("kernel void k() {}", ["-cl-loop-barriers=sometimes"]).build()


def test_auto_leaves_kernels_the_vectoriser_does_not_take():
    prog = kernels("auto")
    assert "unvectorised" not in logged(prog)
    assert "kernel unvectorised: no implicit loop barriers (-cl-loop-barriers=auto): not vectorised" in prog.build_log
    assert "kernel unvectorised: not vectorised (-cl-wfv=auto): extractelement with a varying index" in prog.build_log
    assert "unvectorised" in logged(kernels("always"))
    n = 32
    A = np.random.default_rng(2).random((n, 1024), dtype=np.float32)
    for mode in ("auto", "always"):
        out, hits = np.zeros(n, np.float32), np.arange(5 + n, dtype=np.int32) + 3
        kernels(mode).kernel("unvectorised")(np.int32(n), A, hits, out, global_size=(n,), local_size=(16,))
        np.testing.assert_allclose(out, A[:, :n].astype(np.float64).sum(0), rtol=1e-5)
        cols = np.arange(n)
        np.testing.assert_array_equal(hits[5:], (cols % 5 + 3) * cols)


@pytest.mark.parametrize("local", [None, (16, 2), (8, 4), (4, 1)])
def test_entry_chooses_per_launch(local):
    # x a multiple of the barrier packet width: the loops with barriers; else the copy without them
    rng = np.random.default_rng(11)
    A = rng.random((4, 64), dtype=np.float32)
    B = rng.random((64, 1024), dtype=np.float32)
    C = np.zeros((4, 32), np.float32)
    kernels("auto").kernel("strided")(A, B, C, global_size=(32, 4), local_size=local)
    np.testing.assert_allclose(C, A.astype(np.float64) @ B[:, :32], rtol=1e-5)
