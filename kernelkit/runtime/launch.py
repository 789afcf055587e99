"""Launch a host kernel: one native call per pool thread; the threads share the work-groups.

ctypes releases the GIL during the call, so the threads run the work-item loops in parallel.
``KERNELKIT_THREADS`` sets the thread count (default: all cores).
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field

from kernelkit.errors import LaunchError
from kernelkit.runtime.args import PackedArg
from kernelkit.runtime.ndrange import NDRange
from kernelkit.targets.host.sched import PrintfBuffer, WorkGroupInfo

PRINTF_BUFFER_BYTES = 1 << 20   # CL_DEVICE_PRINTF_BUFFER_SIZE of the host device

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


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
    return os.cpu_count() or 1


def _pool(n: int) -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL._max_workers < n:  # noqa: SLF001 - size check only
            _POOL = ThreadPoolExecutor(max_workers=n, thread_name_prefix="kernelkit-host")
        return _POOL


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


# work-groups per atomic grab: enough chunks per thread to balance uneven groups
CHUNKS_PER_THREAD = 16


def _template(nd: NDRange, state: LaunchState, threads: int) -> WorkGroupInfo:
    wg = WorkGroupInfo()
    wg.chunk = max(1, nd.total_groups // (threads * CHUNKS_PER_THREAD))
    for d in range(3):
        wg.num_groups[d] = nd.num_groups[d]
        wg.global_offset[d] = nd.global_offset[d]
        wg.local_size[d] = nd.local_size[d]
        wg.enqueued_local_size[d] = nd.local_size[d]
        wg.global_size[d] = nd.global_size[d]
    wg.work_dim = nd.work_dim
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
    """One launch running on the pool's threads (each takes work-groups until none is left).

    The caller's thread runs no native code: it waits (``wait``), so Ctrl-C and timeouts reach it
    while the kernel runs, and ``cancel`` asks the threads to stop (the kernel checks the flag at
    every loop back-edge and between work-groups). ``prepare(slots)``, if given, sees every thread
    slot's (loaded object, __local allocations) before any work-group runs (checked mode builds
    its table of valid ranges from them)."""

    def __init__(self, executable, kernel: str, packed: list[PackedArg], nd: NDRange, state: LaunchState,
                 threads: int | None = None, prepare=None):
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise LaunchError(f"{kernel}: threads must be a positive integer, got {threads!r}")
        n = max(1, min(threads or thread_count(), nd.total_groups, executable.max_threads or nd.total_groups))
        self.state = state
        self._executable = executable
        self._counter = ctypes.c_uint64(0)
        self._locals: list[list] = [[] for _ in range(n)]
        self._arrays = [_arg_array(packed, self._locals[s]) for s in range(n)]
        self._packed = packed
        self._objects = executable.acquire(n)
        try:
            if prepare is not None:
                prepare(list(zip(self._objects, self._locals, strict=True)))
            self._template = _template(nd, state, n)
            entries = [obj.entry(kernel) for obj in self._objects]
        except BaseException:
            executable.release(self._objects)
            raise
        self._left = n
        self._left_lock = threading.Lock()
        total = nd.total_groups
        pool = _pool(n)
        self._futures = []
        for s in range(n):
            future = pool.submit(entries[s], ctypes.addressof(self._arrays[s]), ctypes.addressof(self._template),
                                 ctypes.addressof(self._counter), total)
            future.add_done_callback(self._thread_done)
            self._futures.append(future)

    def _thread_done(self, _future) -> None:
        with self._left_lock:
            self._left -= 1
            last = self._left == 0
        if last:
            self._executable.release(self._objects)

    def done(self) -> bool:
        return all(f.done() for f in self._futures)

    def cancel(self) -> None:
        self.state.cancel.value = 1

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: until the end); True when every thread has finished."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for f in self._futures:
            try:
                f.result(None if deadline is None else max(0.0, deadline - time.monotonic()))
            except FutureTimeout:
                return False
        return True

    def wait_uninterrupted(self) -> None:
        """Wait until every thread has finished, whatever signals arrive meanwhile."""
        while True:
            try:
                if self.wait(None):
                    return
            except KeyboardInterrupt:
                continue
