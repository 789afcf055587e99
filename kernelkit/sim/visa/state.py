"""The register state of a batch of hardware threads: every root variable as a (threads, bytes) array,
predicates as (threads, predicates, 32) booleans, surfaces and address registers; reading and writing
operand regions for a set of threads and lanes at once."""

from __future__ import annotations

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.sim.visa.decode import DTYPES, Inst, Operand, Program, Raw

LANES = 32                                   # channels of a hardware thread (SIMD32 at most)
ADDRESS_ROOT_SHIFT = 20                      # address registers: root variable << 20 | byte offset


class Machine:
    def __init__(self, program: Program, threads: int):
        self.program = program
        self.threads = threads
        self.regs = [np.zeros((threads, root.nbytes), np.uint8) for root in program.roots]
        self.preds = np.zeros((threads, program.num_predicates, LANES), bool)
        self.surfaces = np.zeros((threads, program.num_surfaces), np.int64)
        self.addresses = np.zeros((threads, max(program.num_addresses, 1), 16), np.int64)

    # ---- general operands
    def _view(self, root: int, dtype: np.dtype) -> np.ndarray:
        arr = self.regs[root]
        return arr.view(dtype) if arr.shape[1] % dtype.itemsize == 0 else arr[:, : arr.shape[1] // dtype.itemsize
                                                                               * dtype.itemsize].view(dtype)

    def _indices(self, op: Operand, n: int, inst: Inst) -> tuple[np.ndarray | slice, bool]:
        offsets = op.element_bytes(n)
        size = op.dtype.itemsize
        nbytes = self.regs[op.root].shape[1]
        if offsets.size and (offsets.min() < 0 or offsets.max() + size > nbytes):
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}) reaches "
                              f"outside variable {self.program.roots[op.root].name} ({nbytes} bytes)")
        aligned = bool(np.all(offsets % size == 0))
        if aligned:
            idx = offsets // size
            if n > 1 and np.all(np.diff(idx) == 1):
                return slice(int(idx[0]), int(idx[0]) + n), True
            return idx, True
        return offsets, False

    def read(self, op: Operand, n: int, rows, inst: Inst) -> np.ndarray:
        """(threads selected by ``rows``, n) values of ``op``; immediates broadcast."""
        if op.kind == "imm":
            value = op.value
            if isinstance(value, np.ndarray):          # packed vector immediate
                return np.broadcast_to(np.resize(value, n), (_count(rows, self.threads), n))
            return np.full((_count(rows, self.threads), n), value, op.dtype)
        if op.kind == "reg":
            idx, aligned = self._indices(op, n, inst)
            if aligned:
                view = self._view(op.root, op.dtype)
                return view[rows][:, idx] if not isinstance(rows, slice) else view[rows, idx]
            raw = self.regs[op.root][rows][:, idx[:, None] + np.arange(op.dtype.itemsize)]
            return np.ascontiguousarray(raw).view(op.dtype).reshape(raw.shape[0], n)
        if op.kind == "indirect":
            return self._read_indirect(op, n, rows, inst)
        if op.kind == "null":
            return np.zeros((_count(rows, self.threads), n), op.dtype)
        raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): a {op.kind} "
                          f"operand cannot be read as a value")

    def write(self, op: Operand, n: int, rows, values: np.ndarray, mask: np.ndarray | None, inst: Inst) -> None:
        """Store ``values`` (threads, n), already of ``op``'s type, where ``mask`` is set."""
        if op.kind == "null":
            return
        if op.kind != "reg":
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): "
                              f"cannot write a {op.kind} operand")
        idx, aligned = self._indices(op, n, inst)
        if not aligned:
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): "
                              f"misaligned destination")
        view = self._view(op.root, op.dtype)
        if isinstance(rows, slice):
            if mask is None:
                view[rows, idx] = values
            else:
                old = view[rows, idx]
                view[rows, idx] = np.where(mask, values, old)
            return
        sel = (rows[:, None], idx if not isinstance(idx, slice) else np.arange(idx.start, idx.stop)[None, :])
        if mask is None:
            view[sel] = values
        else:
            view[sel] = np.where(mask, values, view[sel])

    def _read_indirect(self, op: Operand, n: int, rows, inst: Inst) -> np.ndarray:
        """r[A(sub), imm]: the address register holds (root << ADDRESS_ROOT_SHIFT) + byte offset, as
        ``addr_add`` of an ``&variable`` leaves it; threads are grouped by the address they hold."""
        addr_var, sub, imm = op.addr
        base = self.addresses[rows, addr_var, sub] + imm
        ids = np.arange(self.threads)[rows]
        out = np.empty((ids.size, n), op.dtype)
        for value in np.unique(base):
            sel = base == value
            root, byte = divmod(int(value), 1 << ADDRESS_ROOT_SHIFT)
            if not 0 <= root < len(self.regs):
                raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): "
                                  f"address register holds {int(value):#x}, no variable's address")
            out[sel] = self.read(Operand("reg", op.vtype, root, byte, op.region, op.mod), n, ids[sel], inst)
        return out

    # ---- raw operands (messages)
    def read_raw(self, raw: Raw, count: int, dtype: np.dtype, rows) -> np.ndarray:
        arr = self.regs[raw.root]
        nbytes = count * dtype.itemsize
        if raw.byte + nbytes > arr.shape[1]:
            raise LaunchError(f"kernel {self.program.name}: message operand {self.program.roots[raw.root].name} "
                              f"is smaller than the {nbytes} bytes the message reads")
        chunk = arr[rows, raw.byte: raw.byte + nbytes] if isinstance(rows, slice) else arr[rows][:, raw.byte: raw.byte + nbytes]
        return np.ascontiguousarray(chunk).view(dtype)

    def write_raw(self, raw: Raw, values: np.ndarray, rows, mask: np.ndarray | None = None) -> None:
        """Store ``values`` (threads, k) contiguously; ``mask`` (threads, k) keeps old elements."""
        if raw.null:
            return
        arr = self.regs[raw.root]
        data = np.ascontiguousarray(values)
        nbytes = data.shape[1] * data.dtype.itemsize
        if raw.byte + nbytes > arr.shape[1]:
            raise LaunchError(f"kernel {self.program.name}: message destination {self.program.roots[raw.root].name} "
                              f"is smaller than the {nbytes} bytes the message writes")
        if mask is not None:
            old = self.read_raw(raw, data.shape[1], data.dtype, rows)
            data = np.where(mask, data, old)
        as_bytes = np.ascontiguousarray(data).view(np.uint8).reshape(data.shape[0], nbytes)
        if isinstance(rows, slice):
            arr[rows, raw.byte: raw.byte + nbytes] = as_bytes
        else:
            arr[rows[:, None], np.arange(raw.byte, raw.byte + nbytes)[None, :]] = as_bytes

    # ---- predicates
    def read_pred(self, index: int, lane0: int, n: int, rows) -> np.ndarray:
        return self.preds[rows, index, lane0: lane0 + n]

    def write_pred(self, index: int, lane0: int, n: int, rows, bits: np.ndarray, mask: np.ndarray | None) -> None:
        if index == 0:
            return
        if isinstance(rows, slice):
            cur = self.preds[rows, index, lane0: lane0 + n]
            self.preds[rows, index, lane0: lane0 + n] = bits if mask is None else np.where(mask, bits, cur)
        else:
            sel = (rows[:, None], index, np.arange(lane0, lane0 + n)[None, :])
            self.preds[sel] = bits if mask is None else np.where(mask, bits, self.preds[sel])


def _count(rows, total: int) -> int:
    return total if isinstance(rows, slice) else len(rows)


def typed(dtype_name: str) -> np.dtype:
    return DTYPES[dtype_name]
