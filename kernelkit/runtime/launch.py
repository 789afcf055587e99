"""Launch a host kernel: one job per thread for the native worker threads; the threads share the
work-groups.

``KERNELKIT_THREADS`` sets the thread count (default: all cores).
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import os
import threading
import time
from dataclasses import dataclass, field

from kernelkit.errors import LaunchError
from kernelkit.runtime.args import PackedArg
from kernelkit.runtime.ndrange import NDRange
from kernelkit.targets.host.sched import PrintfBuffer, WorkGroupInfo

PRINTF_BUFFER_BYTES = 1 << 20   # CL_DEVICE_PRINTF_BUFFER_SIZE of the host device


def thread_count() -> int:
    env = os.environ.get("KERNELKIT_THREADS")
    if env:
        try:
            n = int(env)
        except ValueError:
            raise LaunchError(f"KERNELKIT_THREADS must be a positive integer, got {env!r}") from None
        if n < 1:
            raise LaunchError(f"KERNELKIT_THREADS must be a positive integer, got {env!r}")
        return n
    return _cores()


@functools.cache
def _cores() -> int:
    return os.cpu_count() or 1   # (read from /sys: once, not at every launch)


@dataclass
class LaunchState:
    """Buffers one launch shares across its threads."""

    printf: PrintfBuffer | None
    printf_data: ctypes.Array | None
    check: ctypes.Structure | None
    cancel: ctypes.c_uint64 = field(default_factory=ctypes.c_uint64)   # set to 1 to stop the launch


def new_printf_buffer() -> tuple[PrintfBuffer, ctypes.Array]:
    data = ctypes.create_string_buffer(PRINTF_BUFFER_BYTES)
    return PrintfBuffer(ctypes.addressof(data), PRINTF_BUFFER_BYTES, 0), data


# work-groups per atomic grab: enough chunks per thread to balance uneven groups, and small enough
# that a thread preempted on a shared machine holds little work back at the end of the launch
CHUNKS_PER_THREAD = 64


def _template(nd: NDRange, state: LaunchState, threads: int, total_groups: int) -> WorkGroupInfo:
    wg = WorkGroupInfo(num_groups=nd.num_groups, global_offset=nd.global_offset, local_size=nd.local_size,
                       enqueued_local_size=nd.local_size, global_size=nd.global_size, work_dim=nd.work_dim,
                       chunk=max(1, total_groups // (threads * CHUNKS_PER_THREAD)))
    wg.printf = ctypes.addressof(state.printf) if state.printf is not None else None
    wg.check = ctypes.addressof(state.check) if state.check is not None else None
    wg.cancel = ctypes.addressof(state.cancel)
    return wg


def _arg_array(packed: list[PackedArg], local_buffers: list) -> ctypes.Array:
    ptrs = (ctypes.c_void_p * max(1, len(packed)))()
    for i, p in enumerate(packed):
        if p.storage is None:  # __local: a fresh allocation for this thread
            mem = ctypes.create_string_buffer(p.local_bytes)
            slot = ctypes.create_string_buffer(ctypes.addressof(mem).to_bytes(8, "little"), 8)
            local_buffers += [mem, slot]
            ptrs[i] = ctypes.addressof(slot)
        else:
            ptrs[i] = ctypes.addressof(p.storage)
    return ptrs


class NativeLaunch:
    """One launch running on the host's worker threads (each takes work-groups until none is left).

    The workers are native threads that wait without the GIL (:mod:`kernelkit.runtime.worker_pool`):
    the hand-off is a futex wake, the completion another. The caller's thread runs no native code: it
    waits (``wait``) in slices of at most ``_WAIT_SLICE`` seconds, so Ctrl-C and timeouts reach it
    while the kernel runs, and ``cancel`` asks the threads to stop (the kernel checks the flag at
    every loop back-edge and between work-groups). ``prepare(slots)``, if given, sees every thread
    slot's (loaded object, __local allocations) before any work-group runs (checked mode builds
    its table of valid ranges from them). The loads go back to the executable once the launch is
    seen finished (by ``done``/``wait``, or by the next launch)."""

    def __init__(self, executable, kernel: str, packed: list[PackedArg], nd: NDRange, state: LaunchState,
                 threads: int | None = None, prepare=None):
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise LaunchError(f"{kernel}: threads must be a positive integer, got {threads!r}")
        total = nd.total_groups
        n = max(1, min(threads or thread_count(), total, executable.max_threads or total))
        _reap()
        self.state = state
        self._executable = executable
        # (imported here: the pool's native code is built with kernelkit.ir, which importing kernelkit.Program
        # must not load — tests/builder/test_client_imports.py)
        from kernelkit.runtime.worker_pool import LaunchBlock, worker_pool

        self._block = LaunchBlock(n)
        self._block.cancel.value = state.cancel.value
        state.cancel = self._block.cancel       # (on its own cache line)
        self._locals: list[list] = [[] for _ in range(n)]
        if any(p.storage is None for p in packed):   # __local arguments: an allocation per thread
            self._arrays = [_arg_array(packed, self._locals[s]) for s in range(n)]
        else:
            self._arrays = [_arg_array(packed, [])] * n
        self._packed = packed
        self._objects = executable.acquire(n, _reap)
        try:
            if prepare is not None:
                prepare(list(zip(self._objects, self._locals, strict=True)))
            self._template = _template(nd, state, n, total)
            entries = [obj.entry_address(kernel) for obj in self._objects]
        except BaseException:
            executable.release(self._objects)
            raise
        self._released = False
        self._release_lock = threading.Lock()
        for job, entry, array in zip(self._block.jobs, entries, self._arrays, strict=True):
            job.entry = entry
            job.args = ctypes.addressof(array)
            job.tmpl = ctypes.addressof(self._template)
            job.counter = ctypes.addressof(self._block.counter)
            job.total = total
            job.sync = ctypes.addressof(self._block.sync)
        self._pool = worker_pool()
        with _PENDING_LOCK:
            _PENDING.add(self)
        self._pool.submit(self._block)

    def _release(self) -> None:
        """The launch has finished: its loads go back to the executable (once)."""
        with self._release_lock:
            if self._released:
                return
            self._released = True
        with _PENDING_LOCK:
            _PENDING.discard(self)
        self._executable.release(self._objects)

    def done(self) -> bool:
        if self._block.done:
            self._release()
            return True
        return False

    def cancel(self) -> None:
        self.state.cancel.value = 1

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: until the end); True when every thread has finished."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._pool.wait(self._block, _WAIT_SLICE if deadline is None
                                  else min(_WAIT_SLICE, deadline - time.monotonic())):
            if deadline is not None and time.monotonic() >= deadline:
                return self.done()
        self._release()
        return True

    def wait_uninterrupted(self) -> None:
        """Wait until every thread has finished, whatever signals arrive meanwhile."""
        while True:
            try:
                if self.wait(None):
                    return
            except KeyboardInterrupt:
                continue


# the longest the caller's thread stays in native code while waiting (signals are handled between)
_WAIT_SLICE = 0.05

# launches not yet seen finished (their loads not yet given back)
_PENDING: set[NativeLaunch] = set()
_PENDING_LOCK = threading.Lock()


def _reap() -> None:
    """Give back the loads of every launch that has finished meanwhile."""
    with _PENDING_LOCK:
        pending = list(_PENDING)
    for launch in pending:
        launch.done()


@atexit.register
def _finish_at_exit() -> None:
    """Launches still running at exit run to their end (their code must outlive them)."""
    with _PENDING_LOCK:
        pending = list(_PENDING)
    for launch in pending:
        launch.wait_uninterrupted()
