"""Memory messages of vISA as the simulator executes them (IGC's documentation/visa/instructions
semantics): surface messages (gather4_scaled, scatter4_scaled, gather_scaled, scatter_scaled,
oword_ld/oword_st, dword_atomic) on SLM (T0) or binding-table surfaces, SVM (A64 stateless)
gather/scatter/block/atomic messages, and ``movs`` (surface handles). Each handler gets the
executor, the instruction, the thread rows and the (rows, exec size) enabled lanes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.formats.visa.tables import ATOMIC_OPS, LSC_OPS, OWORD_NUMS, SVM_BLOCK_NUMS
from kernelkit.sim.visa.lsc import lsc_untyped
from kernelkit.sim.visa.memory import atomic

SLM_SURFACE = 0
STATELESS_SURFACE = 5                      # T255 in IGC's documentation
CHANNELS = 4
U32 = np.dtype("<u4")
# svm block_size field -> bytes (IGC documentation: 0b00 1 byte, 0b01 4 bytes, 0b11 8 bytes; IGC
# 1.0.12504's text writer spells code 2 as 8 bytes too)
SVM_BLOCK_BYTES = {0: 1, 1: 4, 2: 8, 3: 8}
ATOMIC_WIDTH_64 = 0x40


class Access:
    """The enabled lanes of a message (an (rows, exec size) mask), taken in row-major order: values
    per access (``take``), written back (``put``), and who each access is (for error messages)."""

    def __init__(self, ex, rows, enabled: np.ndarray, lane0: int):
        self.ex = ex
        self.all_rows = isinstance(rows, slice)
        self.enabled = enabled
        self.lane0 = lane0
        self.full = ex.all_enabled(enabled)
        self.count = enabled.size if self.full else int(enabled.sum())
        self._rows = rows

    @property
    def thread_ids(self) -> np.ndarray:
        return np.arange(self.ex.m.threads)[self._rows]

    def take(self, values: np.ndarray) -> np.ndarray:
        return values.reshape(-1) if self.full else values[self.enabled]

    def put(self, target: np.ndarray, values: np.ndarray) -> None:
        if self.full:
            target[...] = values.reshape(target.shape)
        else:
            target[self.enabled] = values

    def per_row(self, values: np.ndarray) -> np.ndarray:
        """A value per thread row -> per access."""
        return self.take(np.broadcast_to(values[:, None], self.enabled.shape))

    @property
    def r(self) -> np.ndarray:
        return self.take(np.broadcast_to(np.arange(self.enabled.shape[0])[:, None], self.enabled.shape))

    @property
    def c(self) -> np.ndarray:
        return self.take(np.broadcast_to(np.arange(self.enabled.shape[1])[None, :], self.enabled.shape))

    def who(self, i: int) -> str:
        return self.ex.geometry.who(int(self.thread_ids[self.r[i]]), int(self.c[i]) + self.lane0)

    @property
    def groups(self) -> np.ndarray:
        return self.per_row(self.ex.geometry.group_of_row[self.thread_ids])

    def slm_base(self) -> np.ndarray:
        """First SLM byte (of ``memory.slm`` flattened) of each access's work-group; kept by the
        executor for accesses of every lane of every thread."""
        limit = self.ex.memory.slm.shape[1] if self.ex.memory.slm is not None else 0
        key = ("slm_base", self.enabled.shape, limit)
        if self.full and self.all_rows and key in self.ex.cache:
            return self.ex.cache[key]
        base = self.groups.astype(np.int64) * limit
        if self.full and self.all_rows:
            self.ex.cache[key] = base
        return base


def _operand_scalar(ex, inst, key: str, rows) -> np.ndarray:
    op = inst.fields[key]
    return ex.m.read(op, 1, rows, inst)[:, 0].astype(np.int64)


def _lane_offsets(ex, inst, rows) -> np.ndarray:
    """(rows, exec size) byte offsets of a surface message: the offsets operand + global_offset."""
    offsets = _lanes_of(ex, inst, "offsets", inst.exec_size, U32, rows).astype(np.int64)
    g_op = inst.fields["global_offset"]
    if g_op.kind != "imm" or g_op.value != 0:
        offsets += _operand_scalar(ex, inst, "global_offset", rows)[:, None]
    return offsets


def _surface(ex, inst, index: int, rows) -> tuple[str, np.ndarray | None]:
    """("slm", None) or ("buffer", per-row base addresses) for a surface index."""
    if index == SLM_SURFACE:
        return "slm", None
    if index < 6:
        raise LaunchError(f"kernel {ex.program.name}: instruction #{inst.index} ({inst.text}): surface T{index} "
                          f"is not simulated (only T0 = SLM and binding-table surfaces are)")
    bti = ex.m.surfaces[rows, index]
    table = ex.geometry.binding_table
    if bti.size and (bti.min() < 0 or bti.max() >= len(table)):
        raise LaunchError(f"kernel {ex.program.name}: instruction #{inst.index} ({inst.text}): binding table "
                          f"index {int(bti.max())} names no buffer ({len(table)} bound)")
    return "buffer", np.asarray(table, np.int64)[bti] if len(table) else bti


def _load(ex, kind: str, base, acc: Access, offsets: np.ndarray, size: int) -> np.ndarray:
    if kind == "slm":
        return ex.memory.slm_load(None, offsets, size, acc.who, acc.slm_base())
    addresses = acc.per_row(base) + offsets if base is not None else offsets
    return ex.memory.load(addresses.astype(np.uint64), size, acc.who)


def _store(ex, kind: str, base, acc: Access, offsets: np.ndarray, data: np.ndarray) -> None:
    if kind == "slm":
        ex.memory.slm_store(None, offsets, data, acc.who, acc.slm_base())
        return
    addresses = acc.per_row(base) + offsets if base is not None else offsets
    ex.memory.store(addresses.astype(np.uint64), data, acc.who)


def _lanes_of(ex, inst, raw_key: str, count: int, dtype, rows) -> np.ndarray:
    return ex.m.read_raw(inst.raws[raw_key], count, np.dtype(dtype), rows)


def _channels(mask: int) -> list[int]:
    return [k for k in range(CHANNELS) if mask >> k & 1]


def movs(ex, inst, rows, enabled) -> None:
    dst = inst.dst
    value = ex.m.read(inst.srcs[0], 1, rows, inst)[:, 0].astype(np.int64)
    if dst.kind != "state" or dst.value != 0:
        raise LaunchError(f"kernel {ex.program.name}: instruction #{inst.index} ({inst.text}): movs to a "
                          f"sampler is not simulated")
    ex.m.surfaces[rows, dst.index] = value


def scaled4(ex, inst, rows, enabled, store: bool) -> None:
    kind, base = _surface(ex, inst, inst.fields["surface"], rows)
    _four_channels(ex, inst, rows, enabled, store, kind, base, _lane_offsets(ex, inst, rows))


def _four_channels(ex, inst, rows, enabled, store: bool, kind: str, base, offsets: np.ndarray) -> None:
    """gather4/scatter4: each enabled channel k of lane i at offsets[i] + 4 k; channel-major data."""
    stride = max(inst.exec_size, 8)
    chans = _channels(inst.fields["channels"])
    acc = Access(ex, rows, enabled, inst.lane0)
    if not acc.count:
        return
    n = inst.exec_size
    data = _lanes_of(ex, inst, "data", stride * len(chans), U32, rows)
    lane_off = acc.take(offsets)
    for k, ch in enumerate(chans):
        block = data[:, k * stride: k * stride + n]
        if store:
            _store(ex, kind, base, acc, lane_off + 4 * ch, acc.take(block)[:, None].view(np.uint8).reshape(-1, 4))
        else:
            acc.put(block, _load(ex, kind, base, acc, lane_off + 4 * ch, 4).view(U32).reshape(-1))
    if not store:
        ex.m.write_raw(inst.raws["data"], data, rows)


def scaled(ex, inst, rows, enabled, store: bool) -> None:
    n = inst.exec_size
    nbytes = SVM_BLOCK_NUMS[inst.fields["num_blocks"] & 3]
    kind, base = _surface(ex, inst, inst.fields["surface"], rows)
    offsets = _lane_offsets(ex, inst, rows)
    acc = Access(ex, rows, enabled, inst.lane0)
    if not acc.count:
        return
    data = _lanes_of(ex, inst, "data", n, U32, rows)
    lane_off = acc.take(offsets)
    if store:
        as_bytes = np.ascontiguousarray(acc.take(data)).view(np.uint8).reshape(-1, 4)[:, :nbytes]
        _store(ex, kind, base, acc, lane_off, as_bytes)
        return
    raw = np.zeros((acc.count, 4), np.uint8)
    raw[:, :nbytes] = _load(ex, kind, base, acc, lane_off, nbytes)
    acc.put(data, raw.view(U32).reshape(-1))
    ex.m.write_raw(inst.raws["data"], data, rows)


def oword(ex, inst, rows, enabled, store: bool) -> None:
    owords = OWORD_NUMS[inst.fields["size"] & 7]
    kind, base = _surface(ex, inst, inst.fields["surface"], rows)
    offset = _operand_scalar(ex, inst, "offset", rows) * 16
    threads = ex.m.threads if isinstance(rows, slice) else len(rows)
    acc = Access(ex, rows, np.ones((threads, 1), bool), 0)
    nbytes = owords * 16
    if store:
        data = _lanes_of(ex, inst, "data", nbytes, np.uint8, rows)
        _store(ex, kind, base, acc, offset, data)
        return
    ex.m.write_raw(inst.raws["data"], _load(ex, kind, base, acc, offset, nbytes), rows)


def _atomic_dtype(inst, op: str) -> np.dtype:
    width64 = inst.fields["op"] & ATOMIC_WIDTH_64
    if op in ("fmax", "fmin", "fcmpwr", "fadd", "fsub"):
        return np.dtype("<f4")
    if op in ("minsint", "maxsint"):
        return np.dtype("<i8" if width64 else "<i4")
    return np.dtype("<u8" if width64 else "<u4")


def _run_atomic(ex, inst, rows, enabled, kind, base, addresses: np.ndarray) -> None:
    op = ATOMIC_OPS.get(inst.fields["op"] & 0x1F)
    if op is None:
        raise LaunchError(f"kernel {ex.program.name}: instruction #{inst.index} ({inst.text}): unknown atomic "
                          f"operation")
    dtype = _atomic_dtype(inst, op)
    n = inst.exec_size
    acc = Access(ex, rows, enabled, inst.lane0)
    if not acc.count:
        return
    src = [None if inst.raws[k].null else acc.take(_lanes_of(ex, inst, k, n, dtype, rows))
           for k in ("src0", "src1")]
    lane_addr = acc.take(addresses)
    size = dtype.itemsize
    if kind == "slm":
        flat = ex.memory.slm_flat(None, lane_addr, size, acc.who, "updates", acc.slm_base())
        keys = flat
        store = ex.memory.slm.reshape(-1)

        def read():
            return store[flat[:, None] + np.arange(size)].copy().view(dtype).reshape(-1)

        def write(values, mask):
            store[flat[mask][:, None] + np.arange(size)] = np.ascontiguousarray(values[mask].astype(dtype)) \
                .view(np.uint8).reshape(-1, size)
    else:
        full = (acc.per_row(base) + lane_addr if base is not None else lane_addr).astype(np.uint64)
        keys = full.astype(np.int64)

        def read():
            return ex.memory.load(full, size, acc.who).view(dtype).reshape(-1)

        def write(values, mask):
            ex.memory.store(full[mask], np.ascontiguousarray(values[mask].astype(dtype)).view(np.uint8)
                            .reshape(-1, size), acc.who)
    old = atomic(read, write, keys, op, src[0], src[1], dtype)
    if not inst.raws["dst"].null:
        out = _lanes_of(ex, inst, "dst", n, dtype, rows)
        acc.put(out, old)
        ex.m.write_raw(inst.raws["dst"], out, rows)


def dword_atomic(ex, inst, rows, enabled) -> None:
    kind, base = _surface(ex, inst, inst.fields["surface"], rows)
    offsets = _lanes_of(ex, inst, "offsets", inst.exec_size, U32, rows).astype(np.int64)
    _run_atomic(ex, inst, rows, enabled, kind, base, offsets)


def svm_atomic(ex, inst, rows, enabled) -> None:
    addresses = _lanes_of(ex, inst, "addresses", inst.exec_size, np.uint64, rows).astype(np.int64)
    _run_atomic(ex, inst, rows, enabled, "flat", None, addresses)


def svm_scattered(ex, inst, rows, enabled, store: bool) -> None:
    n = inst.exec_size
    block = SVM_BLOCK_BYTES[inst.fields["block_size"] & 3]
    blocks = SVM_BLOCK_NUMS[inst.fields["num_blocks"] & 3]
    acc = Access(ex, rows, enabled, inst.lane0)
    if not acc.count:
        return
    addresses = ex.m.raw_view(inst.raws["addresses"], n, np.dtype(np.uint64), rows) if acc.all_rows else \
        _lanes_of(ex, inst, "addresses", n, np.uint64, rows)
    lane_addr = acc.take(addresses).view(np.int64)
    if np.may_share_memory(lane_addr, addresses):     # a load may overwrite its own addresses
        lane_addr = lane_addr.copy()
    if block == 1:
        per_lane = max(blocks, 4)
        data = _lanes_of(ex, inst, "data", n * per_lane, np.uint8, rows)
        cols = acc.c[:, None] * per_lane + np.arange(blocks)
        if store:
            ex.memory.store(lane_addr.astype(np.uint64), data[acc.r[:, None], cols], acc.who)
        else:
            data[acc.r[:, None], cols] = ex.memory.load(lane_addr.astype(np.uint64), blocks, acc.who)
            ex.m.write_raw(inst.raws["data"], data, rows)
        return
    dtype = np.dtype(f"<u{block}")
    if acc.full and acc.all_rows:           # every lane: registers read and written in place
        data = ex.m.raw_view(inst.raws["data"], n * blocks, dtype, rows)
        for j in range(blocks):
            where = (lane_addr + j * block if j else lane_addr).view(np.uint64)
            if store:
                ex.memory.store(where, data[:, j * n: j * n + n].reshape(-1, 1).view(np.uint8), acc.who)
            else:
                data[:, j * n: j * n + n] = ex.memory.load(where, block, acc.who).view(dtype).reshape(-1, n)
        if not store and not np.shares_memory(data, ex.m.regs[inst.raws["data"].root]):
            ex.m.write_raw(inst.raws["data"], data, rows)
        return
    data = _lanes_of(ex, inst, "data", n * blocks, dtype, rows)
    for j in range(blocks):
        where = (lane_addr + j * block).astype(np.uint64)
        if store:
            ex.memory.store(where, acc.take(data[:, j * n: j * n + n])[:, None].view(np.uint8).reshape(-1, block),
                            acc.who)
        else:
            acc.put(data[:, j * n: j * n + n], ex.memory.load(where, block, acc.who).view(dtype).reshape(-1))
    if not store:
        ex.m.write_raw(inst.raws["data"], data, rows)


def svm_block(ex, inst, rows, enabled, store: bool) -> None:
    owords = OWORD_NUMS[inst.fields["size"] & 7]
    threads = ex.m.threads if isinstance(rows, slice) else len(rows)
    acc = Access(ex, rows, np.ones((threads, 1), bool), 0)
    address = ex.m.read(inst.fields["address"], 1, rows, inst)[:, 0].astype(np.uint64)
    nbytes = owords * 16
    if store:
        ex.memory.store(address, _lanes_of(ex, inst, "data", nbytes, np.uint8, rows), acc.who)
    else:
        ex.m.write_raw(inst.raws["data"], ex.memory.load(address, nbytes, acc.who), rows)


def svm_scaled4(ex, inst, rows, enabled, store: bool) -> None:
    g_off = ex.m.read(inst.fields["address"], 1, rows, inst)[:, 0].astype(np.int64)
    offsets = _lanes_of(ex, inst, "offsets", inst.exec_size, np.uint64, rows).astype(np.int64) + g_off[:, None]
    _four_channels(ex, inst, rows, enabled, store, "flat", None, offsets)


def _both(fn: Callable, store: bool) -> Callable:
    return lambda ex, inst, rows, enabled: fn(ex, inst, rows, enabled, store)


MESSAGES: dict[str, Callable] = {
    "movs": movs,
    "gather4_scaled": _both(scaled4, False), "scatter4_scaled": _both(scaled4, True),
    "gather_scaled": _both(scaled, False), "scatter_scaled": _both(scaled, True),
    "oword_ld": _both(oword, False), "oword_ld_unaligned": _both(oword, False), "oword_st": _both(oword, True),
    "dword_atomic": dword_atomic, "svm_atomic": svm_atomic,
    "svm_gather": _both(svm_scattered, False), "svm_scatter": _both(svm_scattered, True),
    "svm_block_ld": _both(svm_block, False), "svm_block_st": _both(svm_block, True),
    "svm_gather4scaled": _both(svm_scaled4, False), "svm_scatter4scaled": _both(svm_scaled4, True),
    **{name: lsc_untyped for name, _kind in LSC_OPS.values()},
}
