"""Load host object code into the process (MCJIT) and hand out the work-item loop entries.

Static ``__local`` variables are module globals, so two threads running different work-groups
need different copies: the object is loaded once per thread slot that runs such a kernel
(``instance(slot)``), each load with its own globals. Kernels without static ``__local``
variables share one load.
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

    def entry(self, kernel: str) -> EntryFn:
        fn = self._entries.get(kernel)
        if fn is None:
            address = self._engine.get_function_address(entry_name(kernel))
            if not address:
                raise KeyError(kernel)
            fn = self._entries[kernel] = EntryFn(address)
        return fn

    def global_address(self, symbol: str) -> int:
        return self._engine.get_global_value_address(symbol)


class Executable:
    """All loads of one host object; ``instance(slot)`` is the load thread ``slot`` uses."""

    def __init__(self, object_code: bytes, per_thread_globals: bool):
        self.object_code = object_code
        self.per_thread_globals = per_thread_globals
        self._loads: dict[int, LoadedObject] = {}
        self._lock = threading.Lock()

    def instance(self, slot: int) -> LoadedObject:
        key = slot if self.per_thread_globals else 0
        with self._lock:
            obj = self._loads.get(key)
            if obj is None:
                obj = self._loads[key] = LoadedObject(self.object_code)
            return obj
