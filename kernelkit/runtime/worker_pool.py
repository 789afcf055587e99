"""The process's host worker threads and each launch's shared block (see
:mod:`kernelkit.targets.host.workers` for the native side).

Each worker is a daemon Python thread whose one foreign call, ``kk.pool.worker``, never returns:
it waits on a futex without the GIL and runs the jobs launches queue. The pool grows to the
largest thread count a launch asked for. A forked child gets a pool of its own (the parent's
workers are not in it). At exit the workers are stopped and joined before the interpreter frees
the code they run (the launch module first waits for the launches still running).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import threading
import time

from kernelkit.targets.host.worker_layout import CACHE_LINE, Job, Pool, Sync


def aligned_buffer(size: int) -> tuple[ctypes.Array, int]:
    """A zeroed buffer of ``size`` bytes starting on a cache line: (the owner to keep, its address)."""
    raw = ctypes.create_string_buffer(size + CACHE_LINE)
    return raw, ctypes.addressof(raw) + (-ctypes.addressof(raw)) % CACHE_LINE


class LaunchBlock:
    """One launch's shared words, each on a cache line of its own — the work-group counter (written by
    every thread), the cancel flag (read at every loop back-edge), the completion (``Sync``) — then
    its ``n`` jobs."""

    def __init__(self, n: int) -> None:
        self._raw, base = aligned_buffer(3 * CACHE_LINE + n * ctypes.sizeof(Job))
        self.counter = ctypes.c_uint64.from_address(base)
        self.cancel = ctypes.c_uint64.from_address(base + CACHE_LINE)
        self.sync = Sync.from_address(base + 2 * CACHE_LINE)
        self.jobs = [Job.from_address(base + 3 * CACHE_LINE + i * ctypes.sizeof(Job)) for i in range(n)]
        self.n = n
        self.first = base + 3 * CACHE_LINE                               # (addresses the native calls take)
        self.last = self.first + (n - 1) * ctypes.sizeof(Job)
        self.sync_address = ctypes.addressof(self.sync)
        self.sync.left = n
        for job, nxt in zip(self.jobs, self.jobs[1:], strict=False):
            job.next = ctypes.addressof(nxt)

    def reset(self) -> None:
        """Ready for another launch once the previous one is done: no group taken, not cancelled, not done,
        and the last job linked to nothing (a later submission may have linked it to its own jobs)."""
        self.counter.value = 0
        self.cancel.value = 0
        self.sync.done = 0
        self.sync.left = self.n
        self.jobs[-1].next = None

    @property
    def done(self) -> bool:
        return bool(self.sync.done)


class WorkerPool:
    def __init__(self) -> None:
        from kernelkit.targets.host.workers import pool_code  # builds native code: loaded on first use

        self.code = pool_code()
        self._raw, self.address = aligned_buffer(ctypes.sizeof(Pool))
        self.pool = Pool.from_address(self.address)
        self.pid = os.getpid()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return len(self._threads)

    def grow(self, n: int) -> None:
        """At least ``n`` workers."""
        with self._lock:
            while len(self._threads) < n:
                t = threading.Thread(target=self.code.worker, args=(self.address,), daemon=True,
                                     name=f"kernelkit-host-{len(self._threads)}")
                t.start()
                self._threads.append(t)

    def submit(self, block: LaunchBlock) -> None:
        """Queue the block's jobs and wake as many workers."""
        if len(self._threads) < block.n:
            self.grow(block.n)
        self.code.submit(self.address, block.first, block.last, block.n)

    def stop(self, seconds: float = 2.0) -> None:
        """Let the workers return (each once it is idle) and join them for up to ``seconds``."""
        self.pool.stop = 1
        self.code.submit(self.address, None, None, 0)
        deadline = time.monotonic() + seconds
        for t in self._threads:
            t.join(max(0.0, deadline - time.monotonic()))

    def wait(self, block: LaunchBlock, seconds: float) -> bool:
        """Wait up to ``seconds`` (less when a signal arrives) for the launch; True when it is done."""
        return bool(self.code.wait(block.sync_address, max(1, int(seconds * 1e9))))


_POOL: WorkerPool | None = None
_POOL_LOCK = threading.Lock()


def worker_pool() -> WorkerPool:
    """This process's pool (created at first use; anew in a forked child)."""
    global _POOL
    pool = _POOL
    if pool is not None:   # (os.getpid is a system call: a forked child forgets the pool instead)
        return pool
    with _POOL_LOCK:
        if _POOL is None or _POOL.pid != os.getpid():
            _POOL = WorkerPool()
        return _POOL


def _forget_in_child() -> None:
    global _POOL, _POOL_LOCK
    _POOL = None   # the parent's workers are not in the child
    _POOL_LOCK = threading.Lock()   # (another thread of the parent may have held it)


os.register_at_fork(after_in_child=_forget_in_child)


@atexit.register
def _stop_at_exit() -> None:
    if _POOL is not None and _POOL.pid == os.getpid():
        _POOL.stop()
