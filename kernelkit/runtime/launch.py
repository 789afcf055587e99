"""Launch a host kernel: one native call per thread; the threads share the work-groups.

ctypes releases the GIL during the call, so the threads run the work-item loops in parallel.
``KERNELKIT_THREADS`` sets the thread count (default: all cores).
"""

from __future__ import annotations

import ctypes
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

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
            raise ValueError(f"KERNELKIT_THREADS must be a positive integer, got {env!r}") from None
        if n < 1:
            raise ValueError(f"KERNELKIT_THREADS must be a positive integer, got {env!r}")
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


def run_ndrange(executable, kernel: str, packed: list[PackedArg], nd: NDRange, state: LaunchState,
                threads: int | None = None, prepare=None) -> None:
    """Run all work-groups on ``threads`` threads (each takes work-groups until none is left).

    ``prepare(slots)``, if given, sees every thread slot's (loaded object, __local allocations)
    before any work-group runs (checked mode builds its table of valid ranges from them)."""
    n = max(1, min(threads or thread_count(), nd.total_groups))
    counter = ctypes.c_uint64(0)
    locals_per_slot: list[list] = [[] for _ in range(n)]
    arrays = [_arg_array(packed, locals_per_slot[s]) for s in range(n)]
    objects = [executable.instance(s) for s in range(n)]
    if prepare is not None:
        prepare(list(zip(objects, locals_per_slot, strict=True)))
    template = _template(nd, state, n)

    def work(slot: int) -> None:
        obj = objects[slot]
        obj.entry(kernel)(ctypes.addressof(arrays[slot]), ctypes.addressof(template),
                          ctypes.addressof(counter), nd.total_groups)

    if n == 1:
        work(0)
    else:
        futures = [_pool(n - 1).submit(work, s) for s in range(1, n)]
        work(0)
        for f in futures:
            f.result()
