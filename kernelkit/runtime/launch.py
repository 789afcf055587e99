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


def environ_value(name: str) -> str | None:
    """``os.environ.get(name)``, read at every launch: without the KeyError a missing name raises inside
    ``os.environ.get`` (2-5 us on the shared 2-core machine; the whole launch takes tens)."""
    environ = os.environ
    data = getattr(environ, "_data", None)
    if data is None:
        return environ.get(name)
    key = _ENCODED_NAMES.get(name)
    if key is None:
        key = _ENCODED_NAMES[name] = environ.encodekey(name)
    raw = data.get(key)
    return None if raw is None else environ.decodevalue(raw)


_ENCODED_NAMES: dict[str, object] = {}


def thread_count() -> int:
    env = environ_value("KERNELKIT_THREADS")
    if env:
        try:
            n = int(env)
        except ValueError:
            raise LaunchError(f"KERNELKIT_THREADS must be a positive integer, got {env!r}") from None
        if n < 1:
            raise LaunchError(f"KERNELKIT_THREADS must be a positive integer, got {env!r}")
        return n
    return _cores()


def launch_threads(kernel: str, threads: int | None, total_groups: int, executable) -> int:
    """The threads a launch runs on: ``threads`` (else KERNELKIT_THREADS, else every core), at most one
    per work-group, one for an executable that runs one launch at a time."""
    if threads is not None and (not isinstance(threads, int) or threads < 1):
        raise LaunchError(f"{kernel}: threads must be a positive integer, got {threads!r}")
    return max(1, min(threads or thread_count(), total_groups, executable.max_threads or total_groups))


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


def arg_array(packed: list[PackedArg], local_buffers: list) -> ctypes.Array:
    """The pointer array a thread's entry call takes: one pointer per argument to the bytes of its value;
    ``__local`` arguments get an allocation of their own (kept in ``local_buffers``)."""
    ptrs = (ctypes.c_void_p * max(1, len(packed)))()
    for i, p in enumerate(packed):
        if p.storage is None:  # __local: a fresh allocation for this thread
            ptrs[i] = local_slot(p.local_bytes, local_buffers)
        else:
            ptrs[i] = ctypes.addressof(p.storage)
    return ptrs


def local_slot(nbytes: int, local_buffers: list) -> int:
    """A fresh ``__local`` allocation of ``nbytes``: the address of the 8 bytes holding its address."""
    mem = ctypes.create_string_buffer(nbytes)
    slot = ctypes.create_string_buffer(ctypes.addressof(mem).to_bytes(8, "little"), 8)
    local_buffers += [mem, slot]
    return ctypes.addressof(slot)


class LaunchSlot:
    """The native memory one launch runs on, for ``n`` threads: its LaunchBlock (work-group counter,
    cancel flag, completion, jobs), the work-group template, each thread's argument array (one shared
    array when there are no ``__local`` arguments; ``locals``: each thread's ``__local`` allocations)
    and the state (printf buffer, checked-mode table). A launch plan (:mod:`kernelkit.runtime.launch_plan`)
    gives a slot to its next launch once the previous launch on it has finished and been waited for."""

    def __init__(self, nd: NDRange, n: int, state: LaunchState, arrays: list[ctypes.Array], locals_: list[list]):
        # (imported here: the pool's native code is built with kernelkit.ir, which importing kernelkit.Program
        # must not load — tests/builder/test_client_imports.py)
        from kernelkit.runtime.worker_pool import LaunchBlock

        self.n = n
        self.state = state
        self.arrays = arrays
        self.locals = locals_
        self.block = LaunchBlock(n)
        state.cancel = self.block.cancel       # (on its own cache line)
        total = nd.total_groups
        self.template = _template(nd, state, n, total)
        self.loads: list = []                  # the loads whose entries the jobs hold
        self.executable = None                 # ... and their executable
        self.lock = threading.Lock()           # (the release lock of the launch running on the slot)
        for job, array in zip(self.block.jobs, arrays, strict=True):
            job.args = ctypes.addressof(array)
            job.tmpl = ctypes.addressof(self.template)
            job.counter = ctypes.addressof(self.block.counter)
            job.total = total
            job.sync = self.block.sync_address

    def point_jobs_at(self, loads: list, kernel: str) -> None:
        """Each job calls ``kernel``'s entry in its thread's load."""
        if loads != self.loads:
            for job, obj in zip(self.block.jobs, loads, strict=True):
                job.entry = obj.entry_address(kernel)
            self.loads = loads


class NativeLaunch:
    """One launch running on the host's worker threads (each takes work-groups until none is left).

    The workers are native threads that wait without the GIL (:mod:`kernelkit.runtime.worker_pool`):
    the hand-off is a futex wake, the completion another. The caller's thread runs no native code: it
    waits (``wait``) in slices of at most ``_WAIT_SLICE`` seconds, so Ctrl-C and timeouts reach it
    while the kernel runs, and ``cancel`` asks the threads to stop (the kernel checks the flag at
    every loop back-edge and between work-groups). ``prepare(slots)``, if given, sees every thread
    slot's (loaded object, __local allocations) before any work-group runs (checked mode builds
    its table of valid ranges from them). The loads go back to the executable once the launch is
    seen finished (by ``done``/``wait``, or by the next launch). ``keep``: what the arguments' bytes
    point to (alive until the launch is over)."""

    def __init__(self, executable, kernel: str, slot: LaunchSlot, prepare=None, keep=None):
        if _PENDING:
            _reap()
        self.slot = slot
        self.state = slot.state
        self._keep = keep
        self._executable = executable
        self._block = block = slot.block
        block.reset()
        shared = not executable.per_thread_globals and not executable.serial
        if shared and slot.loads and slot.executable is executable:
            self._objects = slot.loads    # (one load every launch shares: nothing to acquire or give back)
        else:
            self._objects = executable.acquire(slot.n, _reap)
        slot.executable = executable
        try:
            if prepare is not None:
                prepare(list(zip(self._objects, slot.locals, strict=True)))
            slot.point_jobs_at(self._objects, kernel)
        except BaseException:
            executable.release(self._objects)
            raise
        self._released = False
        self._release_lock = slot.lock
        self._pool = pool = _worker_pool()
        with _PENDING_LOCK:
            _PENDING.add(self)
        pool.submit(block)

    @classmethod
    def from_packed(cls, executable, kernel: str, packed: list[PackedArg], nd: NDRange, state: LaunchState,
                    threads: int | None = None, prepare=None) -> NativeLaunch:
        """A launch on a slot of its own, made for these packed arguments."""
        n = launch_threads(kernel, threads, nd.total_groups, executable)
        locals_: list[list] = [[] for _ in range(n)]
        if any(p.storage is None for p in packed):   # __local arguments: an allocation per thread
            arrays = [arg_array(packed, locals_[s]) for s in range(n)]
        else:
            arrays = [arg_array(packed, [])] * n
        return cls(executable, kernel, LaunchSlot(nd, n, state, arrays, locals_), prepare, keep=packed)

    def _release(self) -> None:
        """The launch has finished: its loads go back to the executable (once)."""
        with self._release_lock:
            if self._released:
                return
            self._released = True
        self._keep = None   # (the arguments are the caller's again)
        with _PENDING_LOCK:
            _PENDING.discard(self)
        self._executable.release(self._objects)

    def done(self) -> bool:
        if self._released:
            return True
        if self._block.done:
            self._release()
            return True
        return False

    def cancel(self) -> None:
        with self._release_lock:   # (once finished, the slot may be another launch's)
            if not self._released:
                self.state.cancel.value = 1

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: until the end); True when every thread has finished."""
        if self._released:
            return True
        if self._block.sync.done:   # (finished already: no native call)
            self._release()
            return True
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


def _worker_pool():
    global _WORKER_POOL
    if _WORKER_POOL is None:
        from kernelkit.runtime.worker_pool import worker_pool

        _WORKER_POOL = worker_pool
    return _WORKER_POOL()


_WORKER_POOL = None   # worker_pool.worker_pool, once imported


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
