"""The host worker pool's shared layouts: the pool, job and completion blocks the native workers
(:mod:`kernelkit.targets.host.workers`) and the runtime (:mod:`kernelkit.runtime.worker_pool`) both
read, the futex numbers, and the native functions' signatures. Importing it loads no IR model or
LLVM, so ``kernelkit.Program`` stays light until a launch needs the workers."""

from __future__ import annotations

import ctypes

SYS_FUTEX = 202              # x86-64 Linux
FUTEX_WAIT_PRIVATE = 128     # FUTEX_WAIT | FUTEX_PRIVATE_FLAG
FUTEX_WAKE_PRIVATE = 129     # FUTEX_WAKE | FUTEX_PRIVATE_FLAG
CACHE_LINE = 64


class Pool(ctypes.Structure):
    """The queue of jobs every worker takes from."""

    _fields_ = [("seq", ctypes.c_uint64),      # futex word: bumped by every submission
                ("lock", ctypes.c_uint64),     # futex mutex over head/tail: 0 free, 1 held, 2 held + waiters
                ("stop", ctypes.c_uint64),     # 1: idle workers return
                ("head", ctypes.c_void_p),     # first queued job
                ("tail", ctypes.c_void_p)]     # last queued job


class Job(ctypes.Structure):
    """One thread's part of a launch."""

    _fields_ = [("next", ctypes.c_void_p), ("entry", ctypes.c_void_p), ("args", ctypes.c_void_p),
                ("tmpl", ctypes.c_void_p), ("counter", ctypes.c_void_p), ("total", ctypes.c_uint64),
                ("sync", ctypes.c_void_p)]


class Sync(ctypes.Structure):
    """A launch's completion: ``done`` (futex word) becomes 1 when ``left`` jobs reach 0."""

    _fields_ = [("done", ctypes.c_uint64), ("left", ctypes.c_uint64)]


WorkerFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
SubmitFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32)
WaitFn = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64)
