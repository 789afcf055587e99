"""Load host object code into the process (MCJIT) and hand out the work-item loop entries.

Static ``__local`` variables are module globals, so two threads running work-groups at the same
time need different copies: a launch takes one load per thread (``acquire(n)``), each load with
its own globals, and gives them back when it ends, so concurrent launches from several Python
threads never share one. Modules without static ``__local`` variables share one load; a module
that also has program-scope ``__global`` variables (which must stay shared) has one load and runs
one launch at a time on one thread.
"""

from __future__ import annotations

import ctypes
import threading

from kernelkit.llvm_binding import llvm
from kernelkit.targets.host.codegen import target_machine
from kernelkit.targets.host.passes.wrapper import entry_name

# void run(ptr args, ptr wg_template, ptr next_group, i64 total_groups)
EntryFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)


class LoadedObject:
    """One MCJIT load of an object file."""

    def __init__(self, object_code: bytes):
        b = llvm()
        self._engine = b.create_mcjit_compiler(b.parse_assembly(""), target_machine())
        self._engine.add_object_file(b.ObjectFileRef.from_data(object_code))
        self._engine.finalize_object()
        self._entries: dict[str, EntryFn] = {}
        self._addresses: dict[str, int] = {}

    def entry(self, kernel: str) -> EntryFn:
        fn = self._entries.get(kernel)
        if fn is None:
            address = self._engine.get_function_address(entry_name(kernel))
            if not address:
                raise KeyError(kernel)
            fn = self._entries[kernel] = EntryFn(address)
        return fn

    def entry_address(self, kernel: str) -> int:
        """The address of ``kernel``'s entry (what a worker thread calls)."""
        address = self._addresses.get(kernel)
        if address is None:
            address = self._addresses[kernel] = ctypes.cast(self.entry(kernel), ctypes.c_void_p).value
        return address

    def global_address(self, symbol: str) -> int:
        return self._engine.get_global_value_address(symbol)


class Executable:
    """All loads of one host object; a launch acquires the loads its threads run and releases them."""

    def __init__(self, object_code: bytes, per_thread_globals: bool, serial: bool = False):
        self.object_code = object_code
        self.per_thread_globals = per_thread_globals
        self.serial = serial                 # one launch at a time, on one thread
        self._shared: LoadedObject | None = None
        self._free: list[LoadedObject] = []
        self._lock = threading.Lock()
        self._serial_lock = threading.Lock()

    @property
    def max_threads(self) -> int | None:
        return 1 if self.serial else None

    def _shared_load(self) -> LoadedObject:
        with self._lock:
            if self._shared is None:
                self._shared = LoadedObject(self.object_code)
            return self._shared

    def acquire(self, n: int, reap=None) -> list[LoadedObject]:
        """``n`` loads for one launch's ``n`` threads, used by no other launch until ``release``.
        ``reap()``, called while a serial executable is busy, lets finished launches release theirs."""
        if not self.per_thread_globals:
            if self.serial:
                while not self._serial_lock.acquire(timeout=0.002):
                    if reap is not None:
                        reap()
            return [self._shared_load()] * n
        with self._lock:
            taken, self._free = self._free[:n], self._free[n:]
        while len(taken) < n:
            taken.append(LoadedObject(self.object_code))
        return taken

    def release(self, loads: list[LoadedObject]) -> None:
        if not self.per_thread_globals:
            if self.serial:
                self._serial_lock.release()
            return
        with self._lock:
            self._free += loads
