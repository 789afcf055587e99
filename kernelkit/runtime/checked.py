"""Checked mode on the host: the table of valid address ranges and the error after a violation."""

from __future__ import annotations

import ctypes

from kernelkit.errors import LaunchError
from kernelkit.runtime.args import PackedArg
from kernelkit.targets.host.passes.checked import GLOBALS_TABLE
from kernelkit.targets.host.sched import SINK_BYTES, CheckTable


class Checker:
    """Collects the ranges a launch may touch; raises a LaunchError naming the first violation."""

    def __init__(self, kernel: str, signature, packed: list[PackedArg]):
        self.kernel = kernel
        self.table = CheckTable()
        self._sink = ctypes.create_string_buffer(SINK_BYTES)
        self.table.sink = ctypes.addressof(self._sink)
        self._ranges: list[tuple[int, int, str]] = []
        for arg, p in zip(signature.args, packed, strict=True):
            if p.array is not None and p.array.nbytes:
                start = p.array.ctypes.data
                self._ranges.append((start, start + p.array.nbytes,
                                     f"argument {arg.index} '{arg.name}' ({arg.type_name}, {p.array.nbytes} bytes)"))
        self._keep: list = []

    def prepare(self, slots) -> None:
        seen = set()
        for obj, local_buffers in slots:
            if id(obj) not in seen:
                seen.add(id(obj))
                self._add_module_globals(obj)
            for buf in local_buffers[0::2]:   # (memory, pointer slot) pairs
                start = ctypes.addressof(buf)
                self._ranges.append((start, start + ctypes.sizeof(buf), f"__local argument ({ctypes.sizeof(buf)} bytes)"))
        flat = (ctypes.c_uint64 * (2 * max(1, len(self._ranges))))()
        for i, (b, e, _) in enumerate(self._ranges):
            flat[2 * i], flat[2 * i + 1] = b, e
        self._keep.append(flat)
        self.table.count = len(self._ranges)
        self.table.ranges = ctypes.addressof(flat)

    def _add_module_globals(self, obj) -> None:
        address = obj.global_address(GLOBALS_TABLE)
        if not address:
            return
        count = ctypes.c_uint64.from_address(address).value
        entries = (ctypes.c_uint64 * (2 * count)).from_address(address + 8)
        for i in range(count):
            b, size = entries[2 * i], entries[2 * i + 1]
            self._ranges.append((b, b + size, f"program variable ({size} bytes)"))

    def _nearest(self, address: int) -> str:
        best = None
        for b, e, what in self._ranges:
            dist = b - address if address < b else max(0, address - e + 1)
            if best is None or dist < best[0]:
                best = (dist, b, e, what)
        if best is None:
            return "no buffer was passed"
        _, b, e, what = best
        if address < b:
            return f"{b - address} bytes before {what}"
        if address >= e:
            return f"{address - e} bytes past the end of {what}"
        return f"overlapping the end of {what} (offset {address - b})"

    def raise_if_violated(self) -> None:
        t = self.table
        if not t.violated:
            return
        gid = tuple(int(x) for x in t.global_id)
        kind = "write" if t.is_store else "read"
        raise LaunchError(f"{self.kernel}: out-of-bounds {kind} of {t.size} bytes at address {t.address:#x} "
                          f"by work-item {gid} (global id): {self._nearest(t.address)}")
