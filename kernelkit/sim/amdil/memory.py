"""Memories of the AMD IL simulator: the global heap behind the raw and arena UAVs (every
buffer at its own offset, accesses bounds-checked against the buffer they fall in), per-group
LDS, and images (read through resources/samplers, written through typed UAVs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kernelkit.errors import LaunchError

HEAP_ALIGN = 256          # buffers start on 256-byte boundaries, as the runtime allocates them
HEAP_GAP = 256            # and a gap between them (an overrun never lands in the next buffer)

# access sizes of arena UAV and LDS operations: name -> (bytes, signed)
ACCESS_SIZES = {"byte": (1, True), "ubyte": (1, False), "short": (2, True), "ushort": (2, False),
                "dword": (4, False)}


@dataclass
class Region:
    name: str
    start: int
    size: int
    array: np.ndarray | None = None     # the user's array (copied in)
    writable: bool = True               # copied back after the launch


@dataclass
class Heap:
    """The global buffer: every __global/__constant buffer, the data segment, rings."""
    regions: list[Region] = field(default_factory=list)
    data: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint8))
    top: int = HEAP_ALIGN        # offset 0 stays unused: a null pointer is never a buffer

    def reserve(self, name: str, size: int, array: np.ndarray | None = None,
                writable: bool = True) -> int:
        start = (self.top + HEAP_ALIGN - 1) // HEAP_ALIGN * HEAP_ALIGN
        self.regions.append(Region(name, start, int(size), array, writable))
        self.top = start + max(int(size), 1) + HEAP_GAP
        return start

    def place(self, name: str, array: np.ndarray, writable: bool = True) -> int:
        return self.reserve(name, array.nbytes, array, writable)

    def finish(self, init: dict[int, bytes] | None = None) -> None:
        """Allocate the bytes and copy every buffer in."""
        total = (self.top + 15) // 16 * 16
        self.data = np.zeros(total, np.uint8)
        self._starts = np.array([r.start for r in self.regions] or [0], np.int64)
        self._ends = np.array([r.start + r.size for r in self.regions] or [0], np.int64)
        for r in self.regions:
            if r.array is not None:
                self.data[r.start:r.start + r.size] = np.ascontiguousarray(r.array).view(np.uint8) \
                    .reshape(-1)
        for start, raw in (init or {}).items():
            self.data[start:start + len(raw)] = np.frombuffer(raw, np.uint8)
        self.words = self.data.view(np.uint32)

    def copy_back(self) -> None:
        for r in self.regions:
            if r.array is not None and r.writable and r.array.flags.writeable:
                flat = r.array.reshape(-1).view(np.uint8) if r.array.flags.c_contiguous else None
                src = self.data[r.start:r.start + r.size]
                if flat is not None:
                    flat[:] = src
                else:
                    r.array[...] = src.view(r.array.dtype).reshape(r.array.shape)

    def check(self, addr: np.ndarray, size: int, where: Callable[[int], str], what: str) -> None:
        """Every address must lie with its ``size`` bytes inside one buffer."""
        a = addr.astype(np.int64)
        idx = np.searchsorted(self._starts, a, side="right") - 1
        ok = (idx >= 0) & (a + size <= self._ends[np.maximum(idx, 0)]) & \
             (a >= self._starts[np.maximum(idx, 0)])
        if len(self.regions) == 0:
            ok = np.zeros(a.shape, bool)
        if not ok.all():
            bad = int(np.argmin(ok))
            raise LaunchError(f"{where(bad)}: {what} of {size} byte(s) at address "
                              f"{int(a[bad]):#x} is outside every buffer "
                              f"({self.describe(int(a[bad]))})")

    def describe(self, address: int) -> str:
        best = min(self.regions, key=lambda r: min(abs(address - r.start),
                                                   abs(address - (r.start + r.size))), default=None)
        if best is None:
            return "no buffers are bound"
        return f"nearest: {best.name} at [{best.start:#x}, {best.start + best.size:#x})"


def load_bytes(view: np.ndarray, addr: np.ndarray, kind: str) -> np.ndarray:
    """Arena/LDS sub-dword loads from a uint8 array, extended to 32 bits."""
    size, signed = ACCESS_SIZES[kind]
    if size == 4:
        return view.view(np.uint32)[addr >> 2]
    if size == 2:
        v = view.view(np.uint16)[addr >> 1]
        return (v.astype(np.int16).astype(np.int32).view(np.uint32) if signed
                else v.astype(np.uint32))
    v = view[addr]
    return v.astype(np.int8).astype(np.int32).view(np.uint32) if signed else v.astype(np.uint32)


def store_bytes(view: np.ndarray, addr: np.ndarray, value: np.ndarray, kind: str) -> None:
    size, _ = ACCESS_SIZES[kind]
    if size == 4:
        view.view(np.uint32)[addr >> 2] = value
    elif size == 2:
        view.view(np.uint16)[addr >> 1] = value.astype(np.uint16)
    else:
        view[addr] = value.astype(np.uint8)


@dataclass
class SimImage:
    """An image bound to the kernel: ``array`` is (height, width, channels) for 2D or
    (depth, height, width, channels) for 3D; integer arrays are read by read_imagei/ui and
    returned as raw channel values, float arrays as floats."""
    array: np.ndarray
    data_type: int = 0
    channel_order: int = 0

    @property
    def dims(self) -> tuple[int, int, int]:
        a = self.array
        if a.ndim == 3:
            return a.shape[1], a.shape[0], 1
        return a.shape[2], a.shape[1], a.shape[0]

    def texels(self) -> np.ndarray:
        """(depth, height, width, 4) uint32 view of the channels (missing ones: 0, 0, 0, 1)."""
        a = self.array if self.array.ndim == 4 else self.array[None]
        out = np.zeros(a.shape[:3] + (4,), np.uint32)
        one = np.float32(1.0).view(np.uint32) if a.dtype.kind == "f" else np.uint32(1)
        out[..., 3] = one
        c = a.shape[3]
        if a.dtype.kind == "f":
            out[..., :c] = a.astype(np.float32).view(np.uint32)
        else:
            out[..., :c] = a.astype(np.int64).astype(np.uint32)
        return out

    def write_back(self, texels: np.ndarray) -> None:
        a = self.array if self.array.ndim == 4 else self.array[None]
        c = a.shape[3]
        if a.dtype.kind == "f":
            a[...] = texels[..., :c].view(np.float32).astype(a.dtype)
        else:
            a[...] = texels[..., :c].astype(np.int64).astype(a.dtype)
