"""LSC untyped messages (DG2 and later) as the simulator executes them, after IGC's
documentation/visa/instructions/LSC_UNTYPED.md: ``lsc_load``/``lsc_store`` (SIMT order: vector
component v of lane n at ``data[v].elems[n]``, each component in whole GRFs; transposed order: one
address, the components one after another), ``lsc_load_quad``/``lsc_store_quad`` and the atomics.
Addresses are ``Base + AddrScale * Src0Addrs[n] + AddrImmOffset`` with a16/a32/a64 address
elements; Base is 0 for flat (a 64-bit virtual address on ``.ugm``, an SLM offset on ``.slm``) and
the binding-table surface's address for bti."""

from __future__ import annotations

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.formats.visa.tables import (
    GRF_BYTES,
    LSC_ADDR_SIZES,
    LSC_ADDR_TYPES,
    LSC_DATA_ELEMS,
    LSC_DATA_SIZES,
    LSC_OPS,
    LSC_QUAD_CHANNELS,
    LSC_SFIDS,
)
from kernelkit.sim.visa.memory import atomic

# data size -> (bytes in memory, bytes per element in registers)
DATA_BYTES: dict[str, tuple[int, int]] = {"d8": (1, 1), "d16": (2, 2), "d32": (4, 4), "d64": (8, 8),
                                          "d8c32": (1, 4), "d16c32": (2, 4)}
ADDRESS_DTYPES = {"a16": np.dtype("<u2"), "a32": np.dtype("<u4"), "a64": np.dtype("<u8")}
TRANSPOSED = 2
# lsc_atomic_<op> -> (kernelkit.sim.visa.memory.atomic operation, sources, element kind)
ATOMICS: dict[str, tuple[str, int, str]] = {
    "iinc": ("inc", 0, "u"), "idec": ("dec", 0, "u"), "load": ("load", 0, "u"), "store": ("xchg", 1, "u"),
    "iadd": ("add", 1, "u"), "isub": ("sub", 1, "u"), "smin": ("min", 1, "i"), "smax": ("max", 1, "i"),
    "umin": ("min", 1, "u"), "umax": ("max", 1, "u"), "and": ("and", 1, "u"), "or": ("or", 1, "u"),
    "xor": ("xor", 1, "u"), "fadd": ("fadd", 1, "f"), "fsub": ("fsub", 1, "f"), "fmin": ("fmin", 1, "f"),
    "fmax": ("fmax", 1, "f"),
    # compare-and-swap: Src1Data holds the compared value, Src2Data the new one (as IGC 1.0.12504 emits
    # atomic_cmpxchg on DG2: lsc_atomic_icas.slm ... CMP NEW)
    "icas": ("cmpxchg", 2, "u"), "fcas": ("fcmpwr", 2, "f"),
}


def _refuse(ex, inst, what: str):
    raise LaunchError(f"kernel {ex.program.name}: instruction #{inst.index} ({inst.text}): the vISA simulator "
                      f"does not execute {what}")


class Lsc:
    """One LSC message: its decoded fields and per-lane addresses."""

    def __init__(self, ex, inst, rows, enabled):
        from kernelkit.sim.visa.messages import Access

        f = inst.fields
        self.ex, self.inst, self.rows = ex, inst, rows
        self.sfid = LSC_SFIDS[f["sfid"]]
        self.kind = LSC_OPS[inst_sub(inst)][1]
        self.addr_type = LSC_ADDR_TYPES.get(f["addr_type"], "invalid")
        self.addr_size = LSC_ADDR_SIZES.get(f["addr_size"], "invalid")
        dsize = LSC_DATA_SIZES.get(f["data_size"], "invalid")
        if dsize not in DATA_BYTES:
            _refuse(ex, inst, f"LSC data size {dsize}")
        if self.addr_size not in ADDRESS_DTYPES:
            _refuse(ex, inst, f"LSC address size {self.addr_size}")
        self.mem_bytes, self.reg_bytes = DATA_BYTES[dsize]
        self.transposed = f["data_order"] == TRANSPOSED
        if "quad" in self.kind:
            self.components = [k for k, (bit, _c) in enumerate(LSC_QUAD_CHANNELS) if f["chmask"] & bit]
        else:
            self.components = list(range(LSC_DATA_ELEMS.get(f["data_elems"], 1)))
        self.n = inst.exec_size
        self.acc = Access(ex, rows, enabled, inst.lane0)

    # ---- addresses
    def addresses(self) -> np.ndarray:
        """(rows, exec size) addresses (int64): flat virtual addresses, or SLM offsets on .slm."""
        ex, inst = self.ex, self.inst
        f = inst.fields
        raw = ex.m.read_raw(inst.raws["src0"], self.n, ADDRESS_DTYPES[self.addr_size], self.rows)
        addr = raw.astype(np.int64) if self.addr_size != "a64" else raw.view(np.int64).copy()
        if f["scale"] not in (0, 1):
            addr *= f["scale"]
        if f["imm_offset"]:
            addr += f["imm_offset"]
        if self.addr_type == "flat":
            return addr
        if self.addr_type == "bti" and self.sfid != "slm":
            surface = f["surface"]
            index = ex.m.read(surface, 1, self.rows, inst)[:, 0].astype(np.int64)
            table = ex.geometry.binding_table
            if index.size and (index.min() < 0 or index.max() >= len(table)):
                raise LaunchError(f"kernel {ex.program.name}: instruction #{inst.index} ({inst.text}): binding "
                                  f"table index {int(index.max())} names no buffer ({len(table)} bound)")
            return addr + np.asarray(table, np.int64)[index][:, None]
        _refuse(ex, inst, f"LSC {self.addr_type} addressing on .{self.sfid}")

    def component(self, k: int) -> int:
        """Byte offset of vector component ``k`` (SIMT order) in the data operand."""
        return k * -(-self.n * self.reg_bytes // GRF_BYTES) * GRF_BYTES

    # ---- memory
    def load(self, lane_addr: np.ndarray) -> np.ndarray:
        if self.sfid == "slm":
            return self.ex.memory.slm_load(None, lane_addr, self.mem_bytes, self.acc.who, self.acc.slm_base())
        return self.ex.memory.load(lane_addr, self.mem_bytes, self.acc.who)

    def store(self, lane_addr: np.ndarray, data: np.ndarray) -> None:
        if self.sfid == "slm":
            self.ex.memory.slm_store(None, lane_addr, data, self.acc.who, self.acc.slm_base())
        else:
            self.ex.memory.store(lane_addr, data, self.acc.who)


def inst_sub(inst) -> int:
    from kernelkit.formats.visa.tables import LSC_OP_BY_NAME
    return LSC_OP_BY_NAME[inst.name]


def lsc_untyped(ex, inst, rows, enabled) -> None:
    msg = Lsc(ex, inst, rows, enabled)
    if msg.kind in ("load", "load_quad", "store", "store_quad"):
        _load_store(msg, msg.kind.startswith("store"))
    elif msg.kind == "atomic":
        _atomic(msg)
    else:
        _refuse(ex, inst, inst.name)


def _load_store(msg: Lsc, store: bool) -> None:
    ex, inst, acc = msg.ex, msg.inst, msg.acc
    if not acc.count:
        return
    raw = inst.raws["src1" if store else "dst"]
    if raw.null:                                        # a prefetch: nothing to do
        return
    addr = msg.addresses()
    threads = addr.shape[0]
    reg, mem = msg.reg_bytes, msg.mem_bytes
    if msg.transposed:                                  # SIMD1: components one after another
        nbytes = len(msg.components) * reg
        data = ex.m.read_raw(raw, nbytes, np.dtype(np.uint8), msg.rows).reshape(threads, len(msg.components), reg)
        lane = addr[:, 0][acc.enabled[:, 0]]
        for k in msg.components:
            if store:
                msg.store(lane + k * mem, np.ascontiguousarray(data[acc.enabled[:, 0], k, :mem]))
            else:
                data[acc.enabled[:, 0], k, :mem] = msg.load(lane + k * mem)
        if not store:
            ex.m.write_raw(raw, data.reshape(threads, nbytes), msg.rows)
        return
    nbytes = msg.component(len(msg.components))
    data = ex.m.read_raw(raw, nbytes, np.dtype(np.uint8), msg.rows).copy()
    lane_addr = acc.take(addr)
    for slot, k in enumerate(msg.components):
        start = msg.component(slot)
        block = data[:, start: start + msg.n * reg].reshape(threads, msg.n, reg)
        where = lane_addr + k * mem
        if store:
            msg.store(where, np.ascontiguousarray(acc.take(block[:, :, :mem]) if not acc.full
                                                  else block[:, :, :mem].reshape(-1, mem)))
        else:
            loaded = np.zeros((lane_addr.size, reg), np.uint8)
            loaded[:, :mem] = msg.load(where)
            if acc.full:
                block[...] = loaded.reshape(block.shape)
            else:
                block[acc.enabled] = loaded
    if not store:
        ex.m.write_raw(raw, data, msg.rows)


def _atomic(msg: Lsc) -> None:
    ex, inst, acc = msg.ex, msg.inst, msg.acc
    name = inst.name.removeprefix("lsc_atomic_")
    entry = ATOMICS.get(name)
    if entry is None:
        _refuse(ex, inst, f"the LSC atomic {name}")
    if msg.transposed or len(msg.components) != 1 or msg.mem_bytes not in (4, 8) and name not in ("load", "store"):
        _refuse(ex, inst, "this form of LSC atomic")
    if not acc.count:
        return
    op, sources, kind = entry
    size = msg.mem_bytes
    dtype = np.dtype(f"<{kind}{size}")
    src = []
    for key in ("src1", "src2")[:sources]:
        values = ex.m.read_raw(inst.raws[key], msg.n * msg.reg_bytes, np.dtype(np.uint8), msg.rows)
        src.append(acc.take(values.reshape(values.shape[0], msg.n, msg.reg_bytes)[:, :, :size].copy().view(dtype)
                            .reshape(values.shape[0], msg.n)))
    lane_addr = acc.take(msg.addresses())
    if msg.sfid == "slm":
        flat = ex.memory.slm_flat(None, lane_addr, size, acc.who, "updates", acc.slm_base())
        keys, backing = flat, ex.memory.slm.reshape(-1)

        def read():
            return backing[flat[:, None] + np.arange(size)].copy().view(dtype).reshape(-1)

        def write(values, mask):
            backing[flat[mask][:, None] + np.arange(size)] = np.ascontiguousarray(values[mask].astype(dtype)) \
                .view(np.uint8).reshape(-1, size)
    else:
        keys = lane_addr

        def read():
            return ex.memory.load(lane_addr, size, acc.who).copy().view(dtype).reshape(-1)

        def write(values, mask):
            ex.memory.store(lane_addr[mask], np.ascontiguousarray(values[mask].astype(dtype)).view(np.uint8)
                            .reshape(-1, size), acc.who)
    if op == "load":
        old = read()
    elif op == "cmpxchg":                 # kernelkit.sim.visa.memory: new value first, compared second
        old = atomic(read, write, keys, op, src[1], src[0], dtype)
    else:                                 # fcmpwr: compared value first, new second; others: one source
        old = atomic(read, write, keys, op, src[0] if src else None, src[1] if len(src) > 1 else None, dtype)
    dst = inst.raws["dst"]
    if not dst.null:
        out = ex.m.read_raw(dst, msg.n * msg.reg_bytes, np.dtype(np.uint8), msg.rows).copy()
        lanes = out.reshape(out.shape[0], msg.n, msg.reg_bytes)
        values = np.zeros((old.size, msg.reg_bytes), np.uint8)
        values[:, :size] = np.ascontiguousarray(old.astype(dtype)).view(np.uint8).reshape(-1, size)
        if acc.full:
            lanes[...] = values.reshape(lanes.shape)
        else:
            lanes[acc.enabled] = values
        ex.m.write_raw(dst, out, msg.rows)
