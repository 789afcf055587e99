"""Memory the simulated threads see: global buffers at 64-bit virtual addresses (stateless/SVM and
binding-table access), shared local memory per work-group, and atomics with the serialised result of
conflicting lanes. Every access is checked: an out-of-bounds one is a LaunchError naming the kernel,
the work-item and the address."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.errors import LaunchError

ADDRESS_SHIFT = 40                    # buffer i lives at (i + 1) << ADDRESS_SHIFT
OFFSET_MASK = (1 << ADDRESS_SHIFT) - 1
Who = Callable[[int], str]
# SLM messages use the low 28 address bits: IGC 1.0.12504 ORs 0x10000000 into the SLM offsets of
# __local pointer arguments (corpus kernel histogram)
SLM_ADDRESS_MASK = (1 << 28) - 1            # access number -> "work-item (x, y, z)"


class Memory:
    def __init__(self, kernel: str):
        self.kernel = kernel
        self.buffers: list[np.ndarray] = []       # uint8 views of the caller's arrays
        self.names: list[str] = []
        self.slm: np.ndarray | None = None        # (groups in the batch, bytes)

    def add(self, data: np.ndarray, name: str) -> int:
        """Place a buffer; returns its base address."""
        self.buffers.append(data.reshape(-1).view(np.uint8))
        self.names.append(name)
        return len(self.buffers) << ADDRESS_SHIFT

    # ---- flat (64-bit) addresses
    def _locate(self, addresses: np.ndarray, size: int, who: Who, what: str):
        """Yield (buffer, selection, byte offsets) per buffer the addresses fall in."""
        if addresses.size and addresses.dtype.kind in "iu":      # all in one buffer: one pass
            wide = addresses.view(np.int64) if addresses.dtype == np.uint64 else addresses.astype(np.int64)
            lo, hi = int(wide.min()), int(wide.max())
            b = (lo >> ADDRESS_SHIFT) - 1
            if lo >= 0 and b == (hi >> ADDRESS_SHIFT) - 1 and 0 <= b < len(self.buffers) and \
                    (hi & OFFSET_MASK) + size <= self.buffers[b].size:
                yield self.buffers[b], slice(None), wide - ((b + 1) << ADDRESS_SHIFT)
                return
        addresses = addresses.astype(np.uint64)
        ids = (addresses >> np.uint64(ADDRESS_SHIFT)).astype(np.int64) - 1
        offsets = (addresses & np.uint64(OFFSET_MASK)).astype(np.int64)
        lo, hi = int(ids.min()), int(ids.max())
        for b in range(lo, hi + 1):
            sel = ids == b if lo != hi else np.ones(ids.size, bool)
            if lo != hi and not sel.any():
                continue
            off = offsets[sel]
            if b < 0 or b >= len(self.buffers) or off.max() + size > self.buffers[b].size:
                bad = np.flatnonzero(sel)[0] if (b < 0 or b >= len(self.buffers)) else \
                    np.flatnonzero(sel)[np.argmax(off + size > self.buffers[b].size)]
                raise LaunchError(f"kernel {self.kernel}: {who(int(bad))} {what} {size} bytes at address "
                                  f"{int(addresses[bad]):#x}, outside every buffer"
                                  + (f" ({self.names[b]} holds {self.buffers[b].size} bytes)"
                                     if 0 <= b < len(self.buffers) else ""))
            yield self.buffers[b], sel, off

    def load(self, addresses: np.ndarray, size: int, who: Who) -> np.ndarray:
        """(N, size) bytes read at N addresses."""
        out = None
        for buf, sel, off in self._locate(addresses, size, who, "reads"):
            if isinstance(sel, slice):
                return _gather(buf, off, size)
            if out is None:
                out = np.empty((addresses.size, size), np.uint8)
            out[sel] = _gather(buf, off, size)
        return out

    def store(self, addresses: np.ndarray, data: np.ndarray, who: Who) -> None:
        size = data.shape[1]
        for buf, sel, off in self._locate(addresses, size, who, "writes"):
            _scatter(buf, off, data[sel])

    # ---- shared local memory (per work-group)
    def slm_flat(self, groups: np.ndarray, offsets: np.ndarray, size: int, who: Who, what: str,
                 base: np.ndarray | None = None) -> np.ndarray:
        """Flat byte offsets into ``self.slm`` for SLM ``offsets`` of the given work-groups (``base``:
        their first bytes, ``groups`` x the SLM size, when the caller has them)."""
        if self.slm is None or self.slm.shape[1] == 0:
            raise LaunchError(f"kernel {self.kernel}: {who(0)} {what} shared local memory, but the kernel "
                              f"has none")
        limit = self.slm.shape[1]
        offsets = (offsets if offsets.dtype == np.int64 else offsets.astype(np.int64)) & SLM_ADDRESS_MASK
        if offsets.size and offsets.max() + size > limit:
            i = int(np.argmax(offsets + size > limit))
            raise LaunchError(f"kernel {self.kernel}: {who(i)} {what} {size} bytes at local address "
                              f"{int(offsets[i]):#x}, outside the work-group's {limit} bytes of SLM")
        offsets += base if base is not None else groups.astype(np.int64) * limit
        return offsets

    def slm_load(self, groups, offsets, size: int, who: Who, base=None) -> np.ndarray:
        flat = self.slm_flat(groups, offsets, size, who, "reads", base)
        return _gather(self.slm.reshape(-1), flat, size)

    def slm_store(self, groups, offsets, data: np.ndarray, who: Who, base=None) -> None:
        flat = self.slm_flat(groups, offsets, data.shape[1], who, "writes", base)
        _scatter(self.slm.reshape(-1), flat, data)


SHIFTS = {2: 1, 4: 2, 8: 3}


def _aligned(buf: np.ndarray, off: np.ndarray, size: int) -> bool:
    """Every offset (non-negative) a multiple of ``size`` (2, 4 or 8) in a buffer of whole elements."""
    return size in SHIFTS and buf.size % size == 0 and (not off.size or not int(np.bitwise_or.reduce(off)) & (size - 1))


def _gather(buf: np.ndarray, off: np.ndarray, size: int) -> np.ndarray:
    if _aligned(buf, off, size):
        return buf.view(f"<u{size}")[off >> SHIFTS[size]].view(np.uint8).reshape(-1, size)
    return buf[off[:, None] + np.arange(size)]


def _scatter(buf: np.ndarray, off: np.ndarray, data: np.ndarray) -> None:
    size = data.shape[1]
    if _aligned(buf, off, size):
        buf.view(f"<u{size}")[off >> SHIFTS[size]] = np.ascontiguousarray(data).view(f"<u{size}").reshape(-1)
        return
    buf[off[:, None] + np.arange(size)] = data


# ---- atomics: old values as if the lanes ran one after another in lane order
def atomic(read: Callable[[], np.ndarray], write: Callable[[np.ndarray, np.ndarray], None], keys: np.ndarray, op: str,
           src0: np.ndarray | None, src1: np.ndarray | None, dtype: np.dtype) -> np.ndarray:
    """Apply atomic ``op`` for N lanes whose locations are ``keys`` (equal keys: same location).
    ``read()`` gives the current values at the N locations, ``write(values, mask)`` stores the final
    values of the lanes ``mask`` selects (one per location). Returns the N old values."""
    current = read().astype(dtype)
    n = keys.size
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    first = np.ones(n, bool)
    first[1:] = sorted_keys[1:] != sorted_keys[:-1]
    if op in ("add", "sub", "inc", "dec") and not np.issubdtype(dtype, np.floating):
        delta = {"add": lambda: src0, "sub": lambda: -src0.astype(np.int64),
                 "inc": lambda: np.ones(n, np.int64), "dec": lambda: -np.ones(n, np.int64)}[op]()
        d = np.asarray(delta).astype(np.int64)[order]
        csum = np.cumsum(d)
        start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
        before = csum - d - np.where(start > 0, csum[start - 1], 0)
        base = current[order].astype(np.int64)
        old_sorted = (base + before).astype(dtype)
        new_sorted = (base + before + d).astype(dtype)
        old = np.empty_like(old_sorted)
        old[order] = old_sorted
        new = np.empty_like(new_sorted)
        new[order] = new_sorted
        last = np.ones(n, bool)
        last[:-1] = sorted_keys[1:] != sorted_keys[:-1]
        final = np.zeros(n, bool)
        final[order[last]] = True
        write_vals = np.where(final, new, current)
        write(write_vals, final)
        return old
    # general case: rounds, each applying the first pending lane of every location
    _uniq, first_lane, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    location = current[first_lane].copy()
    old = np.empty(n, dtype)
    pending = np.ones(n, bool)
    while pending.any():
        idx = np.flatnonzero(pending)
        _u, first_of = np.unique(inverse[idx], return_index=True)
        lanes = idx[first_of]
        cur = location[inverse[lanes]]
        old[lanes] = cur
        location[inverse[lanes]] = _apply(op, cur, None if src0 is None else src0[lanes],
                                          None if src1 is None else src1[lanes], dtype)
        pending[lanes] = False
    final = np.zeros(n, bool)
    final[first_lane] = True
    write(location[inverse], final)
    return old


def _apply(op: str, old, a, b, dtype):
    with np.errstate(all="ignore"):
        if op in ("add", "fadd"):
            return (old + a).astype(dtype)
        if op in ("sub", "fsub"):
            return (old - a).astype(dtype)
        if op == "inc":
            return (old + 1).astype(dtype)
        if op == "dec":
            return (old - 1).astype(dtype)
        if op in ("min", "minsint", "fmin"):
            return np.minimum(old, a.astype(dtype))
        if op in ("max", "maxsint", "fmax"):
            return np.maximum(old, a.astype(dtype))
        if op == "xchg":
            return a.astype(dtype)
        if op == "cmpxchg":
            return np.where(old == b.astype(dtype), a.astype(dtype), old)
        if op == "fcmpwr":
            return np.where(old == a.astype(dtype), b.astype(dtype), old)
        if op == "and":
            return old & a.astype(dtype)
        if op == "or":
            return old | a.astype(dtype)
        if op == "xor":
            return old ^ a.astype(dtype)
    raise LaunchError(f"atomic operation {op} is not simulated")
