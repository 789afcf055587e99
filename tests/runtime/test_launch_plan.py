"""Launch plans (kernelkit.runtime.launch_plan): a launch repeating an earlier one's NDRange, options and
argument kinds runs from a plan, and must behave exactly as a first launch — numpy's results with new
buffers and scalars each time; a relaunch that would go out of bounds (a buffer that shrank, a scalar
that grew) refused with the reach check's byte counts; argument mistakes refused with the full path's
errors; cancellation, printf, thread counts and outstanding launches as before. Oracles: numpy, the
reach arithmetic of the kernels below (largest index = scalar * (global size - 1)), the documented
errors. The plan's use is made visible by making the full path's argument packing fail."""

from __future__ import annotations

import functools
import time

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError
from kernelkit.runtime import program as program_module
from kernelkit.runtime.args import ArgumentTypeError

SRC = r"""
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
kernel void strided(global int *a, int n) { a[get_global_id(0) * n] = 1; }   // reach: 4 * n * gid
kernel void meet(volatile global int *arrived, int n) {     // every group waits for n groups
  atomic_inc(arrived);
  while (atomic_add(arrived, 0) < n) { }
}
kernel void hello(global int *tag) { printf("%d:%d\n", tag[0], (int)get_group_id(0)); }
kernel void group_sums(global const float *x, global float *sums, local float *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float s = 0.0f;
    for (size_t i = 0; i < n; ++i) s += tmp[i];
    sums[get_group_id(0)] = s;
  }
}
"""


@functools.cache
def prog() -> kernelkit.Program:
    return kernelkit.Program(SRC, ["-cl-std=CL1.2"]).build()


@pytest.fixture
def planned(monkeypatch):
    """Launches from here on must run from a plan: the full path's argument packing fails."""
    def full_path(*_args, **_kwargs):
        raise AssertionError("the launch took the full path")
    return lambda: monkeypatch.setattr(program_module, "pack_arguments", full_path)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_repeated_launches_with_new_buffers_and_scalars_match_numpy(threads, planned):
    k = prog().kernel("saxpy")
    rng = np.random.default_rng(threads)
    k(np.float32(1), np.zeros(4096, np.float32), np.zeros(4096, np.float32), global_size=(4096,),
      local_size=(64,), threads=threads)
    planned()
    for i in range(6):    # (the third launch of the local size runs the specialised executable)
        a = np.float32(rng.random()) if i % 2 else float(rng.random())
        x, y = rng.random(4096, dtype=np.float32), rng.random(4096, dtype=np.float32)
        want = np.float32(a) * x + y
        k(a, x, y, global_size=(4096,), local_size=(64,), threads=threads)
        np.testing.assert_allclose(y, want, rtol=1e-6)


def test_relaunch_refused_when_a_buffer_shrinks_or_a_scalar_grows(planned):
    k = prog().kernel("strided")
    a = np.zeros(64, np.int32)
    k(a, np.int32(4), global_size=16)                             # 4 * 15 = 60 < 64
    planned()
    k(a, np.int32(4), global_size=16)
    assert a[::4].all() and not a.reshape(-1, 4)[:, 1:].any()
    # (buffer, scalar, bytes needed = (scalar * 15 + 1) * 4): each refused, also after a launch that fit
    refused = [(a, np.int32(5), 304), (np.zeros(60, np.int32), np.int32(4), 244), (np.zeros(60, np.int32), 4, 244),
               (np.zeros(75, np.int32), 5, 304), (a, 5, 304)]
    for buffer, n, needs in refused:
        with pytest.raises(LaunchError, match=rf"argument 0 'a' .* needs {needs} bytes \({needs - buffer.nbytes} more\)"):
            k(buffer, n, global_size=16)
        b = np.zeros(needs // 4, np.int32)
        k(b, n, global_size=16)                                    # the buffer that fits runs
        assert b[::int(n)].all() and b.sum() == 16


def test_argument_mistakes_in_a_relaunch_get_the_full_paths_errors():
    k = prog().kernel("saxpy")
    x, y = np.ones(256, np.float32), np.ones(256, np.float32)
    k(np.float32(2), x, y, global_size=256)
    k(np.float32(2), x, y, global_size=256)
    with pytest.raises(ArgumentTypeError, match=r"argument 1 \(x: .*float32.*got float64"):
        k(np.float32(2), np.ones(256), y, global_size=256)
    readonly = np.ones(256, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(LaunchError, match="read-only but the kernel may write it"):
        k(np.float32(2), x, readonly, global_size=256)
    with pytest.raises(LaunchError, match="C-contiguous"):
        k(np.float32(2), np.ones(512, np.float32)[::2], y, global_size=256)
    with pytest.raises(ArgumentTypeError, match=r"dtype float32 .*got float64"):
        k(np.float64(2), x, y, global_size=256)
    with pytest.raises(ArgumentTypeError, match=r"takes 3 argument"):
        k(np.float32(2), x, global_size=256)
    with pytest.raises(ArgumentTypeError, match="pass a numpy array, got list"):
        k(np.float32(2), [1.0] * 256, y, global_size=256)
    s = prog().kernel("strided")
    a = np.zeros(64, np.int32)
    s(a, 1, global_size=16)
    s(a, 1, global_size=16)
    with pytest.raises(LaunchError, match=r"does not fit in int"):
        s(a, 1 << 40, global_size=16)
    np.testing.assert_array_equal(y, 5.0)    # the two good launches ran, the refused ones did not


def test_local_memory_relaunches_and_a_new_local_size_match_numpy(planned, monkeypatch):
    k = prog().kernel("group_sums")
    rng = np.random.default_rng(3)
    for i, group in enumerate((32, 32, 32, 32, 16)):
        if i == 1:
            planned()
        if i == 4:
            monkeypatch.undo()    # another __local size: the full path, then a plan of its own
        x = rng.random(1024, dtype=np.float32)
        sums = np.zeros(1024 // group, np.float32)
        k(x, sums, kernelkit.LocalMemory(4 * group), global_size=1024, local_size=group, threads=2)
        np.testing.assert_allclose(sums, x.reshape(-1, group).sum(1), rtol=1e-5)


def test_outstanding_launches_of_one_plan_each_have_their_own_arguments(planned):
    k = prog().kernel("saxpy")
    rng = np.random.default_rng(9)
    k(np.float32(1), np.zeros(2048, np.float32), np.zeros(2048, np.float32), global_size=2048, threads=2)
    planned()
    xs = [rng.random(2048, dtype=np.float32) for _ in range(8)]
    ys = [rng.random(2048, dtype=np.float32) for _ in range(8)]
    want = [np.float32(i) * x + y for i, (x, y) in enumerate(zip(xs, ys, strict=True))]
    events = [k.launch(np.float32(i), x, y, global_size=2048, threads=2) for i, (x, y) in enumerate(zip(xs, ys, strict=True))]
    for e in reversed(events):
        assert e.wait() == ""
        assert e.done
    for y, w in zip(ys, want, strict=True):
        np.testing.assert_allclose(y, w, rtol=1e-6)


def _first_group_waits(event, arrived) -> bool:
    """One thread, two groups, each waiting for both: the first group arrives and never finishes."""
    deadline = time.monotonic() + 60
    while arrived[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.001)
    return arrived[0] == 1 and not event.done


def test_cancel_and_timeout_of_planned_launches_and_the_plan_runs_on(planned):
    k = prog().kernel("meet")
    for attempt in range(2):          # the first from the full path, the second from its plan
        if attempt:
            planned()
        arrived = np.zeros(1, np.int32)
        event = k.launch(arrived, np.int32(2), global_size=2, local_size=1, threads=1)
        assert _first_group_waits(event, arrived)
        event.cancel()
        with pytest.raises(LaunchError, match="cancelled"):
            event.wait()
        assert event.done and arrived[0] == 1
    arrived = np.zeros(1, np.int32)
    with pytest.raises(LaunchError, match="meet: stopped after the launch timeout of 0.2 s"):
        k(arrived, np.int32(2), global_size=2, local_size=1, threads=1, timeout=0.2)
    arrived = np.zeros(1, np.int32)
    k(arrived, np.int32(1), global_size=2, local_size=1, threads=1, timeout=60)   # no group waits
    assert arrived[0] == 2


def test_planned_launches_run_on_the_threads_asked_for(planned):
    k = prog().kernel("meet")
    arrived = np.zeros(1, np.int32)
    k(arrived, np.int32(3), global_size=3, local_size=1, threads=3, timeout=60)
    planned()
    for _ in range(2):    # completes only when 3 work-groups run at the same time
        arrived[0] = 0
        k(arrived, np.int32(3), global_size=3, local_size=1, threads=3, timeout=60)
        assert arrived[0] == 3


def test_each_planned_launch_prints_its_own_output_once(planned):
    k = prog().kernel("hello")
    k(np.zeros(1, np.int32), global_size=6, local_size=1, threads=2)
    planned()
    for tag in (7, 8, 9):
        out = k(np.array([tag], np.int32), global_size=6, local_size=1, threads=2)
        assert sorted(out.splitlines()) == sorted(f"{tag}:{g}" for g in range(6))


def test_planned_calls_keep_no_argument_alive_after_they_return(planned):
    import gc
    import weakref

    k = prog().kernel("saxpy")
    k(np.float32(1), np.ones(64, np.float32), np.ones(64, np.float32), global_size=64)
    planned()
    x, y = np.ones(64, np.float32), np.ones(64, np.float32)
    k(np.float32(2), x, y, global_size=64)
    np.testing.assert_array_equal(y, 3.0)
    gone = [weakref.ref(x), weakref.ref(y)]
    del x, y
    gc.collect()
    assert [r() for r in gone] == [None, None]


def test_a_kernel_looked_up_again_launches_from_its_plan(planned):
    prog().kernel("strided")(np.zeros(64, np.int32), np.int32(1), global_size=8)
    planned()
    a = np.zeros(64, np.int32)
    prog().kernel("strided")(a, np.int32(2), global_size=8)       # a[0, 2, ..., 14]
    prog().strided(a, np.int32(3), global_size=8)                 # a[0, 3, ..., 21]
    np.testing.assert_array_equal(np.flatnonzero(a), sorted(set(range(0, 16, 2)) | set(range(0, 24, 3))))
