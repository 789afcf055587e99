"""Runaway kernels (issue 19.8): a launch timeout and Ctrl-C stop a kernel stuck in an endless
loop with a clear error, and the process stays usable (the same Program runs again)."""

from __future__ import annotations

import functools
import os
import signal
import threading
import time

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""
kernel void spin(global int *a, int stop) {            // endless unless a[i] reaches stop
  int i = get_global_id(0);
  while (a[i] != stop) a[i] = (a[i] * 5 + 1) & 0xff;
}
kernel void spin_at_barrier(global int *a, local int *t, int stop) {
  int i = get_local_id(0);
  t[i] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (;;) { if (t[i] == stop) break; t[i] = (t[i] * 5 + 1) & 0xff; }
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[(i + 1) % get_local_size(0)];
}
kernel void forever(global int *a) { for (;;) { } }
kernel void barrier_forever(global int *a, local int *t) {   // stopped between barrier rounds
  for (int i = 1; i != 0; i = t[0]) { t[get_local_id(0)] = i; barrier(CLK_LOCAL_MEM_FENCE); }
}
"""


@functools.cache
def prog() -> kernelkit.Program:
    return kernelkit.Program(SRC).build()


def reference_spin(start: np.ndarray, stop: int) -> np.ndarray:
    out = start.copy()
    for i, v in enumerate(out):
        while v != stop:
            v = (v * 5 + 1) & 0xFF
        out[i] = v
    return out


@pytest.mark.parametrize("kernel,args", [
    ("spin", lambda a: (a, np.int32(1000))),
    ("spin_at_barrier", lambda a: (a, kernelkit.LocalMemory(4 * 64), np.int32(1000))),
    ("forever", lambda a: (a,)),
    ("barrier_forever", lambda a: (a, kernelkit.LocalMemory(4 * 64))),
])
def test_timeout_stops_an_endless_kernel_and_the_program_runs_again(kernel, args):
    a = np.zeros(4096, np.int32)
    launch = prog().kernel(kernel)       # built before the clock starts: the bound is about the timeout
    t0 = time.monotonic()
    with pytest.raises(LaunchError, match=rf"{kernel}: stopped after the launch timeout of 0.3 s"):
        launch(*args(a), global_size=4096, local_size=64, timeout=0.3)
    assert time.monotonic() - t0 < 10
    b = np.arange(128, dtype=np.int32) % 7
    prog().kernel("spin")(b, np.int32(1), global_size=128)   # 1 is reached from every start (x*5+1 mod 256)
    np.testing.assert_array_equal(b, reference_spin(np.arange(128, dtype=np.int32) % 7, 1))


def test_ctrl_c_stops_a_running_launch():
    a = np.zeros(1024, np.int32)
    # Python's own handler, even where SIGINT is ignored (background jobs of a non-interactive shell)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    forever = prog().kernel("forever")   # built before the clock starts
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            forever(a, global_size=1024, timeout=30)   # (the timeout only bounds a failure)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - t0 < 10
    event = prog().kernel("spin").launch(a, np.int32(1000), global_size=1024)
    event.cancel()
    with pytest.raises(LaunchError, match="cancelled"):
        event.wait()
    b = np.zeros(4, np.int32)
    done = prog().kernel("spin").launch(b, np.int32(0), global_size=4)
    done.wait()
    done.cancel()                        # too late: the launch finished, its result stands
    assert done.wait() == "" and done.done


def test_timeout_must_be_positive():
    with pytest.raises(LaunchError, match="timeout must be a positive number"):
        prog().kernel("forever")(np.zeros(4, np.int32), global_size=4, timeout=-1)


LOOP_IR = """
define void @k(ptr %a, {ty} %n, ptr %kk.wi, ptr %kk.wg) {{
entry:
  br label %loop
loop:
  %other = phi float [ 0.0, %entry ], [ %other.next, %loop ]   ; a phi that is not the induction
  %i = phi {ty} [ {start}, %entry ], [ %i.next, %loop ]
  %other.next = fadd float %other, 1.0
  store {ty} %i, ptr %a
  %i.next = add {ty} %i, {step}
  %more = icmp {pred} {ty} {tested}, {bound}
  br i1 %more, label %loop, label %exit
exit:
  ret void
}}
"""


@pytest.mark.parametrize("ty,start,step,pred,tested,bound,polled", [
    ("i32", 0, 1, "slt", "%i.next", 32, False),           # for (i = 0; i < 32; ++i): 32 iterations
    ("i32", 31, -1, "sge", "%i.next", 0, False),          # counting down
    ("i32", 0, 1, "slt", "%i.next", "%n", False),         # i < n, n known at launch: ends within 2^32 steps
    ("i32", 0, 1, "ne", "%i", "%n", False),               # i != n stepping by one: reaches n
    ("i32", 0, 1, "sle", "%i.next", "%n", True),          # i <= n: endless for n = INT_MAX
    ("i64", 0, 1, "slt", "%i.next", "%n", True),          # a 64-bit bound: up to 2^63 steps
    ("i8", 0, 1, "ule", "%i.next", 255, True),            # uchar i <= 255: never false (C wraps uchar)
    ("i32", 0, 2, "ne", "%i.next", 7, True),              # i != 7 stepping by 2: never false
    ("i64", 0, 1, "slt", "%i.next", 1 << 40, True),       # ends, but after 2^40 steps
])
def test_polls_only_where_the_loop_is_not_provably_short(ty, start, step, pred, tested, bound, polled):
    """The iteration counts are C's (OpenCL C 6.1: unsigned arithmetic wraps modulo 2^bits)."""
    from kernelkit.targets.host.passes.cancellation import add_cancellation_points

    text = LOOP_IR.format(ty=ty, start=start, step=step, pred=pred, tested=tested, bound=bound)
    out = add_cancellation_points(text, ["k"])
    assert ("load atomic i64" in out) == polled
