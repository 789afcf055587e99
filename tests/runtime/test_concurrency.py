"""Launches from several Python threads on one Program, and asynchronous launches (events), give
the results of sequential launches. Oracle: numpy on the same inputs (issue 19.1: static __local
storage was shared by concurrent launches, 53 of 100 wrong with 4 threads)."""

from __future__ import annotations

import functools
import threading

import numpy as np

import kernelkit

SRC = r"""
kernel void mix(global const int *in, global int *out, global int *total, local int *scratch) {
  local int tile[64];                          // static __local
  int lid = get_local_id(0), gid = get_global_id(0);
  tile[lid] = in[gid];
  if (lid == 0) scratch[0] = 0;               // argument __local
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&scratch[0], tile[63 - lid]);    // local atomics
  barrier(CLK_LOCAL_MEM_FENCE);
  int acc = scratch[0];
  for (int r = 0; r < 32; ++r) acc += tile[(lid + r) & 63];   // a window for a racing launch
  out[gid] = acc;
  if (lid == 0) atomic_add(total, scratch[0]); // global atomics
  if (gid == 0) printf("first %d\n", in[0]);
}
"""
N = 64 * 512


@functools.cache
def kernel() -> kernelkit.Kernel:
    return kernelkit.Program(SRC, ["-cl-std=CL1.2"]).build().kernel("mix")


def expected(inp: np.ndarray) -> tuple[np.ndarray, int, str]:
    groups = inp.reshape(-1, 64)
    lid = np.arange(64)
    out = groups.sum(axis=1, keepdims=True) + sum(groups[:, (lid + r) & 63] for r in range(32))
    return out.reshape(-1), int(inp.sum()), f"first {inp[0]}\n"


def run_once(seed: int, results: list, threads: int | None = None) -> None:
    inp = np.random.default_rng(seed).integers(-1000, 1000, N).astype(np.int32)
    out = np.zeros(N, np.int32)
    total = np.zeros(1, np.int32)
    printed = kernel()(inp, out, total, kernelkit.LocalMemory(4), global_size=N, local_size=64, threads=threads)
    want_out, want_total, want_print = expected(inp)
    results.append(np.array_equal(out, want_out) and total[0] == want_total and printed == want_print)


def test_launches_from_many_python_threads_match_sequential_launches(capsys):
    results: list[bool] = []

    def worker(first: int) -> None:
        for seed in range(first, first + 4):
            run_once(seed, results, threads=2)

    workers = [threading.Thread(target=worker, args=(10 * i,)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert results == [True] * 16


def test_asynchronous_launches_return_events():
    inputs = [np.random.default_rng(s).integers(-9, 9, N).astype(np.int32) for s in range(3)]
    outs = [np.zeros(N, np.int32) for _ in inputs]
    totals = [np.zeros(1, np.int32) for _ in inputs]
    events = [kernel().launch(i, o, t, kernelkit.LocalMemory(4), global_size=N, local_size=64)
              for i, o, t in zip(inputs, outs, totals, strict=True)]
    assert all(isinstance(e, kernelkit.Event) for e in events)
    printed = [e.wait() for e in events]
    assert all(e.done for e in events)
    for inp, out, total, text in zip(inputs, outs, totals, printed, strict=True):
        want_out, want_total, want_print = expected(inp)
        np.testing.assert_array_equal(out, want_out)
        assert total[0] == want_total and text == want_print
    assert events[0].wait() == printed[0]   # waiting again returns the same output
