"""Checked mode on the host: the table of valid address ranges and the error after a violation."""

from __future__ import annotations

import ctypes
import json

from kernelkit.errors import LaunchError
from kernelkit.runtime.args import PackedArg
from kernelkit.targets.host.passes.checked import GLOBALS_TABLE, SITES_TABLE
from kernelkit.targets.host.passes.private_bounds import ARGUMENT_PREFIX
from kernelkit.targets.host.sched import SINK_BYTES, CheckTable

# SPIR address spaces (kind bits 1-3 of a violation)
ADDRESS_SPACES = {0: "private", 1: "global", 2: "constant", 3: "local", 4: "generic"}


def image_ranges(arg, packed: PackedArg) -> list[tuple[int, int, str]]:
    from kernelkit.runtime.images import checked_ranges

    return checked_ranges(arg, packed.keep) if arg.kind == "image" else []


class Checker:
    """Collects the ranges a launch may touch; raises a LaunchError naming the first violation."""

    def __init__(self, kernel: str, signature, packed: list[PackedArg]):
        self.kernel = kernel
        self.table = CheckTable()
        self._sink = ctypes.create_string_buffer(SINK_BYTES)
        self.table.sink = ctypes.addressof(self._sink)
        self._ranges: list[tuple[int, int, str]] = []
        self._arguments: dict[int, str] = {}
        self._arg_bounds = (ctypes.c_uint64 * (2 * max(1, len(packed))))()
        for i, (arg, p) in enumerate(zip(signature.args, packed, strict=True)):
            if p.array is not None and p.array.nbytes:
                start = p.array.ctypes.data
                what = f"argument {arg.index} '{arg.name}' ({arg.type_name}, {p.array.nbytes} bytes)"
                self._ranges.append((start, start + p.array.nbytes, what))
                self._arg_bounds[2 * i], self._arg_bounds[2 * i + 1] = start, start + p.array.nbytes
                self._arguments[i] = what
            self._ranges += image_ranges(arg, p)
        self.table.args = ctypes.addressof(self._arg_bounds)
        self._keep: list = []
        self._objects: list = []
        self._site_document: dict | None = None

    def prepare(self, slots) -> None:
        seen = set()
        for obj, local_buffers in slots:
            if id(obj) not in seen:
                seen.add(id(obj))
                self._objects.append(obj)
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
        return _relative(address, b, e, what)

    def _sites(self) -> dict:
        if self._site_document is None:
            self._site_document = {}
            for obj in self._objects:
                address = obj.global_address(SITES_TABLE)
                if address:
                    size = ctypes.c_uint64.from_address(address).value
                    self._site_document = json.loads(bytes.fromhex(ctypes.string_at(address + 8, size).decode()))
                    break
        return self._site_document

    def _where(self, site: int) -> str:
        sites = self._sites().get("sites") or []
        if 0 < site < len(sites) and sites[site][1]:
            file, line, column = sites[site]
            return f" at {file or '<source>'}:{line}:{column}" if column else f" at {file or '<source>'}:{line}"
        return ""

    def _object(self, index: int) -> str:
        objects = self._sites().get("objects") or []
        return objects[index] if 0 < index < len(objects) else "a private object"

    def raise_if_violated(self) -> None:
        t = self.table
        if not t.violated:
            return
        gid = tuple(int(x) for x in t.global_id)
        kind = "write" if t.is_store else "read"
        space = ADDRESS_SPACES.get((t.kind >> 1) & 7, "unknown")
        head = (f"{self.kernel}: out-of-bounds {kind} of {t.size} bytes at address {t.address:#x} by work-item "
                f"{gid} (global id) in {space} memory{self._where(int(t.site))}")
        if t.end:
            what = self._object(int(t.object))
            if what.startswith(ARGUMENT_PREFIX):    # a buffer parameter's buffer
                what = self._arguments.get(int(what[len(ARGUMENT_PREFIX):]), "a buffer argument")
                raise LaunchError(f"{head}: {_relative(t.address, t.base, t.end, what)}")
            raise LaunchError(f"{head}: offset {t.address - t.base} of {what} ({t.end - t.base} bytes)")
        if t.unknown:
            raise LaunchError(f"{head}: the pointer points to private memory but was not derived from a "
                              f"private variable in the kernel (it was loaded from memory or made from an "
                              f"integer), so checked mode cannot bound it; run this kernel unchecked")
        raise LaunchError(f"{head}: {self._nearest(t.address)}")


def _relative(address: int, begin: int, end: int, what: str) -> str:
    """Where ``address`` is relative to the range [begin, end) of ``what``."""
    if address < begin:
        return f"offset -{begin - address}: {begin - address} bytes before {what}"
    if address >= end:
        return f"offset {address - begin}: {address - end} bytes past the end of {what}"
    return f"offset {address - begin}: overlapping the end of {what}"
