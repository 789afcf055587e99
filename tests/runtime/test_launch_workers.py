"""The host's native worker threads (kernelkit.runtime.worker_pool): results against numpy with
1..3 threads, the thread count really honoured (a rendezvous that only completes when that many
work-groups run at the same time), cancellation, launch errors, printf, many outstanding launches
and a forked child. Oracles: numpy; OpenCL's rule that work-groups of one launch may run
concurrently and the runtime's documented thread count."""

from __future__ import annotations

import functools
import os
import time

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  if (i < 1000) y[i] = a * x[i] + y[i];
}
kernel void meet(volatile global int *arrived, int n) {     // every group waits for n groups
  atomic_inc(arrived);
  while (atomic_add(arrived, 0) < n) { }
}
kernel void store_past_end(global int *a) { a[get_global_id(0) + 1] = 1; }
kernel void hello(global int *unused) { printf("group %d\n", (int)get_group_id(0)); }
kernel void strided(global int *a, int n) { a[get_global_id(0) * n] = 1; }   // reach: 4 * n * gid
"""


@functools.cache
def prog() -> kernelkit.Program:
    return kernelkit.Program(SRC, ["-cl-std=CL2.0"]).build()


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_results_match_numpy_for_each_thread_count(threads):
    rng = np.random.default_rng(threads)
    x = rng.random(1000, dtype=np.float32)
    y = rng.random(1000, dtype=np.float32)
    want = np.float32(1.5) * x + y
    prog().kernel("saxpy")(np.float32(1.5), x, y, global_size=1000, local_size=7, threads=threads)  # 143 groups
    np.testing.assert_allclose(y, want, rtol=1e-6)


def test_threads_run_work_groups_at_the_same_time():
    from kernelkit.runtime.worker_pool import worker_pool

    arrived = np.zeros(1, np.int32)
    prog().kernel("meet")(arrived, np.int32(3), global_size=3, local_size=1, threads=3, timeout=60)
    assert arrived[0] == 3
    assert worker_pool().size >= 3


def test_fewer_threads_than_a_rendezvous_needs_time_out_and_the_program_runs_on(monkeypatch):
    monkeypatch.setenv("KERNELKIT_THREADS", "2")   # the default thread count
    arrived = np.zeros(1, np.int32)
    with pytest.raises(LaunchError, match="meet: stopped after the launch timeout of 0.3 s"):
        prog().kernel("meet")(arrived, np.int32(3), global_size=3, local_size=1, timeout=0.3)
    assert 1 <= arrived[0] <= 2      # a group per thread ran (or was about to): the third never started
    arrived[0] = 0
    prog().kernel("meet")(arrived, np.int32(2), global_size=2, local_size=1, timeout=60)
    assert arrived[0] == 2


def test_cancel_stops_a_launch_and_waiting_raises():
    arrived = np.zeros(1, np.int32)
    event = prog().kernel("meet").launch(arrived, np.int32(2), global_size=2, local_size=1, threads=1)
    deadline = time.monotonic() + 60
    while arrived[0] == 0 and time.monotonic() < deadline:    # the first group is waiting for the second
        time.sleep(0.001)
    assert not event.done
    event.cancel()
    with pytest.raises(LaunchError, match="cancelled"):
        event.wait()
    assert event.done and arrived[0] == 1


def test_a_checked_mode_violation_is_raised_by_wait():
    a = np.zeros(64, np.int32)
    with pytest.raises(LaunchError, match=r"store_past_end: out-of-bounds write of 4 bytes .* work-item \(63, 0, 0\)"):
        prog().kernel("store_past_end")(a, global_size=64, local_size=8, threads=2, check=True)


def test_printf_of_every_group_arrives_once():
    out = prog().kernel("hello")(np.zeros(1, np.int32), global_size=12, local_size=1, threads=2)
    assert sorted(out.splitlines()) == sorted(f"group {g}" for g in range(12))


def test_many_outstanding_launches_waited_in_reverse_order():
    rng = np.random.default_rng(5)
    xs = [rng.random(1000, dtype=np.float32) for _ in range(8)]
    ys = [rng.random(1000, dtype=np.float32) for _ in range(8)]
    want = [np.float32(3) * x + y for x, y in zip(xs, ys, strict=True)]
    events = [prog().kernel("saxpy").launch(np.float32(3), x, y, global_size=1000, local_size=10, threads=1 + i % 3)
              for i, (x, y) in enumerate(zip(xs, ys, strict=True))]
    for e in reversed(events):
        assert e.wait() == ""
    for y, w in zip(ys, want, strict=True):
        np.testing.assert_allclose(y, w, rtol=1e-6)


def test_a_forked_child_launches_with_workers_of_its_own():
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    prog().kernel("saxpy")(np.float32(2), x, y, global_size=1000, threads=2)     # the parent's pool exists
    pid = os.fork()
    if pid == 0:   # child: exit status 0 only if the launch gives numpy's answer
        ok = False
        try:
            z = np.ones(1000, np.float32)
            prog().kernel("saxpy")(np.float32(2), x, z, global_size=1000, threads=2, timeout=60)
            ok = bool(np.array_equal(z, np.float32(2) * x + 1))
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_launch_proven_in_bounds_is_remembered_only_for_its_sizes_and_scalars():
    """The reach check's memo: the same launch again runs; a larger stride, a smaller buffer or a
    larger NDRange are still refused (the largest index is n * (global size - 1))."""
    k = prog().kernel("strided")
    a = np.zeros(64, np.int32)
    for _ in range(3):
        k(a, np.int32(4), global_size=16)                         # 4 * 15 = 60 < 64
    assert a[::4].all() and not a.reshape(-1, 4)[:, 1:].any()
    with pytest.raises(LaunchError, match=r"argument 0 'a' .* needs 304 bytes \(48 more\)"):
        k(a, np.int32(5), global_size=16)                         # 5 * 15 = 75: (75 + 1) * 4 bytes
    with pytest.raises(LaunchError, match=r"argument 0 'a' .* needs 244 bytes \(4 more\)"):
        k(np.zeros(60, np.int32), np.int32(4), global_size=16)
    with pytest.raises(LaunchError, match=r"argument 0 'a' .* needs 260 bytes \(4 more\)"):
        k(a, np.int32(4), global_size=17)


def test_idle_workers_stop_watching_for_launches_and_sleep():
    """After a launch the workers watch for the next one for about 50 microseconds (SPIN_CYCLES), then
    sleep on the pool's futex: half a second of idleness costs the process next to no CPU."""
    x = np.ones(1000, np.float32)
    for _ in range(20):
        prog().kernel("saxpy")(np.float32(1.0), x, x.copy(), global_size=1000, local_size=8, threads=3)
    time.sleep(0.1)
    before = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - before < 0.05
