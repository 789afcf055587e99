"""Barrier kernels whose work-items take different paths around the barriers (issue 10, point 1),
on the host against numpy and PoCL, over sizes that are not multiples of the tile / group size.

Root cause of the wrong results this family guards against: the region driver of the host's
barrier lowering resumes all work-items of a group with work-item 0's suspend index (one index
per barrier); LLVM's optimiser, run before CoroSplit, duplicated a barrier's suspend point into
both arms of a branch in front of it (jump threading of `row < M ? A[...] : 0`), so work-items
that took the other arm waited at the same barrier under another index and ran work-item 0's
continuation. Suspend points are now `noduplicate`, and a resume function with more suspend
points than barriers is driven per work-item.

The corpus part runs every barrier kernel of tests/corpus (found in the sources; a new one must
get a numpy model here) at sizes whose last group is partial (OpenCL C 2.0 non-uniform groups)
or whose data is not a multiple of the tile."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import numpy as np
import pytest
from corpus_harness import CORPUS, manifest

import kernelkit

HERE = Path(__file__).resolve().parent
SOURCE = (HERE / "divergent_barriers.cl").read_text()
LEVELS = ("-O0", "-O2")


@functools.cache
def program(source: str, options: tuple[str, ...]) -> kernelkit.Program:
    return kernelkit.Program(source, list(options)).build()


def own(level: str) -> kernelkit.Program:
    return program(SOURCE, ("-cl-std=CL2.0", level))


def round_up(n: int, m: int) -> int:
    return (n + m - 1) // m * m


# ---------------------------------------------------------------- the shapes of issue 10

@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mnk", [(19, 21, 13), (1, 17, 9), (33, 5, 16), (16, 16, 16)], ids=str)
def test_bounds_guarded_tiled_sgemm(level, mnk):
    M, N, K = mnk
    rng = np.random.default_rng(sum(mnk))
    A = rng.random((M, K), dtype=np.float32)
    B = rng.random((K, N), dtype=np.float32)
    C = np.zeros((M, N), np.float32)
    own(level).kernel("sgemm_guarded")(np.int32(M), np.int32(N), np.int32(K), A, B, C,
                                       global_size=(round_up(N, 8), round_up(M, 8)), local_size=(8, 8))
    np.testing.assert_allclose(C, A.astype(np.float64) @ B, rtol=1e-5)


def tree_sums(values: np.ndarray, local: int) -> np.ndarray:
    """`for (s = ls / 2; s > 0; s >>= 1) if (lid < s) tmp[lid] += tmp[lid + s]` per group, in numpy."""
    out = []
    for start in range(0, len(values), local):
        tmp = values[start:start + local].copy()
        s = len(tmp) // 2
        while s > 0:
            tmp[:s] += tmp[s:2 * s]
            s //= 2
        out.append(tmp[0])
    return np.array(out, values.dtype)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", [1000, 64, 65, 129])
def test_guarded_tree_reduction(level, n):
    data = np.random.default_rng(n).integers(0, 100, n).astype(np.int32)
    groups = round_up(n, 64) // 64
    partial = np.zeros(groups, np.int32)
    own(level).kernel("reduce_guarded")(np.int32(n), data, partial, kernelkit.LocalMemory(64 * 4),
                                        global_size=(groups * 64,), local_size=(64,))
    np.testing.assert_array_equal(partial, np.add.reduceat(data, np.arange(0, n, 64)))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", [50, 64, 7])
def test_work_items_that_skip_work_still_reach_the_barrier(level, n):
    data = np.arange(n, dtype=np.int32) + 5
    out = np.full(n, -1, np.int32)
    own(level).kernel("skip_but_reach")(np.int32(n), data, out, global_size=(round_up(n, 64),),
                                        local_size=(64,))
    expected = np.full(n, -1, np.int32)
    pairs = np.arange(n) ^ 1
    ok = pairs < n
    expected[ok] = 3 * data[pairs[ok]]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("sizes", [(64, 64), (100, 32), (37, 16)], ids=str)
def test_varying_trip_counts_before_a_barrier(level, sizes):
    n, local = sizes
    data = np.arange(n, dtype=np.int32) * 7
    out = np.zeros(n, np.int32)
    own(level).kernel("varying_work_then_barrier")(data, out, global_size=(n,), local_size=(local,))
    lid = np.arange(n) % local
    acc = np.array([sum(int(data[g]) + i for i in range(int(lid[g]) % 5)) for g in range(n)], np.int32)
    expected = np.empty(n, np.int32)
    for start in range(0, n, local):
        chunk = acc[start:start + local]
        expected[start:start + len(chunk)] = chunk[::-1]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("sizes", [(1000, 64), (77, 16), (5, 8)], ids=str)
def test_non_uniform_work_groups(level, sizes):
    n, local = sizes
    data = np.random.default_rng(n).integers(-50, 50, n).astype(np.int32)
    groups = round_up(n, local) // local
    partial = np.zeros(groups, np.int32)
    own(level).kernel("group_sum_any_size")(data, partial, kernelkit.LocalMemory(local * 4),
                                            global_size=(n,), local_size=(local,))
    np.testing.assert_array_equal(partial, np.add.reduceat(data, np.arange(0, n, local)))


def test_same_results_as_pocl(pocl_env):
    """The CL1.2 shapes on PoCL, same inputs and sizes."""
    import pyopencl as cl

    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SOURCE).build(options=["-cl-std=CL1.2"])
    mf = cl.mem_flags
    M, N, K = 19, 21, 13
    rng = np.random.default_rng(3)
    A, B = rng.random((M, K), dtype=np.float32), rng.random((K, N), dtype=np.float32)
    ours = np.zeros((M, N), np.float32)
    own("-O2").kernel("sgemm_guarded")(np.int32(M), np.int32(N), np.int32(K), A, B, ours,
                                       global_size=(24, 24), local_size=(8, 8))
    bufs = [cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=A),
            cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=B),
            cl.Buffer(ctx, mf.WRITE_ONLY, ours.nbytes)]
    prog.sgemm_guarded(queue, (24, 24), (8, 8), np.int32(M), np.int32(N), np.int32(K), *bufs)
    theirs = np.empty_like(ours)
    cl.enqueue_copy(queue, theirs, bufs[2])
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)
    n = 1000
    data = rng.integers(0, 100, n).astype(np.int32)
    ours = np.zeros(16, np.int32)
    own("-O2").kernel("reduce_guarded")(np.int32(n), data, ours, kernelkit.LocalMemory(256),
                                        global_size=(1024,), local_size=(64,))
    dbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    pbuf = cl.Buffer(ctx, mf.WRITE_ONLY, ours.nbytes)
    prog.reduce_guarded(queue, (1024,), (64,), np.int32(n), dbuf, pbuf, cl.LocalMemory(256))
    theirs = np.empty_like(ours)
    cl.enqueue_copy(queue, theirs, pbuf)
    queue.finish()
    np.testing.assert_array_equal(ours, theirs)


# ---------------------------------------------------------------- every barrier kernel of the corpus

def corpus_barrier_kernels() -> set[str]:
    """Kernels of the runnable corpus files whose body calls a barrier."""
    out = set()
    for file, fd in manifest()["files"].items():
        if fd.get("images"):
            continue
        text = (CORPUS / file).read_text()
        for k in fd["kernels"]:
            m = re.search(rf"^(?:kernel|__kernel)[^;{{]*?\b{k['name']}\(", text, flags=re.M | re.S)
            if m is None:
                continue
            body_start = text.index("{", m.end())
            depth, i = 0, body_start
            while True:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
                if depth == 0:
                    break
            if re.search(r"\b(work_group_)?barrier\(", text[body_start:i]):
                out.add(k["name"])
    return out


def corpus_program(file: str, level: str, std: str = "CL2.0") -> kernelkit.Program:
    return program((CORPUS / file).read_text(), (f"-cl-std={std}", level))


def per_group(n: int, local: int):
    for start in range(0, n, local):
        yield start, min(local, n - start)


def run_copy_through_local(level, n, local):
    src = np.arange(n, dtype=np.float32)
    dst = np.zeros(n, np.float32)
    corpus_program("address_spaces.cl", level).kernel("copy_through_local")(
        src, dst, kernelkit.LocalMemory(local * 4), global_size=(n,), local_size=(local,))
    expected = np.concatenate([src[s:s + m][::-1] for s, m in per_group(n, local)])
    np.testing.assert_array_equal(dst, expected)


def run_two_local_buffers(level, n, local):
    data = np.arange(n, dtype=np.int32) * 3 + 1
    d0 = data.copy()
    corpus_program("address_spaces.cl", level).kernel("two_local_buffers")(
        data, kernelkit.LocalMemory(local * 4), kernelkit.LocalMemory(local * 16),
        global_size=(n,), local_size=(local,))
    expected = np.concatenate([2 * d0[s:s + m] + d0[s] for s, m in per_group(n, local)])
    np.testing.assert_array_equal(data, expected)


def run_histogram(level, n, local):
    # the kernel clears and publishes 16 bins with its first 16 work-items: groups of 16 or more
    if n % local:
        n += max(16 - n % local, 0)
    data = np.random.default_rng(n).integers(0, 256, n).astype(np.uint8)
    bins = np.zeros(16, np.uint32)
    corpus_program("atomics.cl", level).kernel("histogram")(
        data, bins, kernelkit.LocalMemory(16 * 4), global_size=(n,), local_size=(local,))
    np.testing.assert_array_equal(bins, np.bincount(data & 15, minlength=16))


def run_reduce_sum(level, n, local):
    data = np.random.default_rng(n).random(n).astype(np.float32)
    groups = round_up(n, local) // local
    partial = np.zeros(groups, np.float32)
    corpus_program("reductions.cl", level).kernel("reduce_sum")(
        data, partial, kernelkit.LocalMemory(local * 4), global_size=(n,), local_size=(local,))
    np.testing.assert_allclose(partial, tree_sums(data.astype(np.float64), local), rtol=1e-5)


def run_transpose_tile(level, n, local):
    width, height = n, 2 * n + 5    # the data is not a multiple of the 16x16 tile
    src = np.random.default_rng(n).random((height, width)).astype(np.float32)
    out = np.zeros((width, height), np.float32)
    corpus_program("reductions.cl", level).kernel("transpose_tile")(
        src, out, np.int32(width), np.int32(height),
        global_size=(round_up(width, 16), round_up(height, 16)), local_size=(16, 16))
    np.testing.assert_array_equal(out, src.T)


def run_reduce_max_static(level, n, local):
    groups = max(1, n // 64)    # reqd_work_group_size(64): whole groups only
    data = np.random.default_rng(n).integers(-1000, 1000, groups * 64).astype(np.int32)
    out = np.zeros_like(data)
    corpus_program("reductions.cl", level).kernel("reduce_max_static")(
        data, out, global_size=(groups * 64,), local_size=(64,))
    np.testing.assert_array_equal(out, np.repeat(data.reshape(groups, 64).max(1), 64))


def run_generic_pointers(level, n, local):
    g = np.arange(n, dtype=np.float32)
    g0 = g.copy()
    corpus_program("generic_cl30.cl", level, "CL3.0").kernel("generic_pointers")(
        g, kernelkit.LocalMemory(local * 4), np.int32(1), global_size=(n,), local_size=(local,))
    lid = np.concatenate([np.arange(m) for _, m in per_group(n, local)])
    bias = np.array([0.5, 1.0, 1.5, 2.0], np.float32)
    np.testing.assert_array_equal(g, 2 * g0 + bias[lid % 4])


CORPUS_MODELS = {
    "copy_through_local": run_copy_through_local, "two_local_buffers": run_two_local_buffers,
    "histogram": run_histogram, "reduce_sum": run_reduce_sum, "transpose_tile": run_transpose_tile,
    "reduce_max_static": run_reduce_max_static, "generic_pointers": run_generic_pointers,
}
# (global size, local size): partial last groups, a single partial group, odd group sizes
CORPUS_SIZES = [(100, 32), (37, 16), (200, 64)]


def test_every_corpus_barrier_kernel_has_a_model():
    assert corpus_barrier_kernels() == set(CORPUS_MODELS)


@pytest.mark.parametrize("name", sorted(CORPUS_MODELS))
def test_corpus_barrier_kernels_at_non_multiple_sizes(name):
    for n, local in CORPUS_SIZES:
        CORPUS_MODELS[name]("-O2", n, local)


@pytest.mark.parametrize("level", LEVELS)
def test_builds_for_avx512_cpus(level):
    """Every kernel of the file compiles for an AVX-512 CPU on any host: LLVM's own assertions are the
    oracle (llvmlite's LLVM is an assertions build). At -O0 the cancellation flag's monotonic load, put in
    the region loops' parallel access group, made LLVM 22's loop vectoriser assert ("underlying
    instruction may write to memory") for x86-64-v4/znver4 only; it ran the kernels on AVX2 CPUs."""
    prog = kernelkit.Program(SOURCE, ["-cl-std=CL2.0", level]).build("host", cpu="x86-64-v4")
    assert {"sgemm_guarded", "reduce_guarded", "skip_but_reach"} <= set(prog.kernel_names)
