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
        self._views: dict = {}
        self.image = None                 # the payload image last loaded (kernelkit.sim.visa.launch)

    def reset(self, keep: frozenset[int] = frozenset()) -> None:
        """Every register, predicate, surface and address register back to zero (a new batch of
        threads on the same storage: no fresh pages to fault in), except the roots in ``keep``
        (every byte of them is written before it can be read)."""
        for root, arr in enumerate(self.regs):
            if root not in keep:
                arr.fill(0)
        self.preds.fill(False)
        self.surfaces.fill(0)
        self.addresses.fill(0)

    # ---- general operands
    def _view(self, root: int, dtype: np.dtype) -> np.ndarray:
        key = (root, dtype)
        view = self._views.get(key)
        if view is None:
            arr = self.regs[root]
            usable = arr.shape[1] // dtype.itemsize * dtype.itemsize
            view = (arr if usable == arr.shape[1] else arr[:, :usable]).view(dtype)
            self._views[key] = view
        return view

    def _plan(self, op: Operand, n: int, inst: Inst) -> tuple[str, object]:
        """How ``n`` elements of ``op`` are selected, resolved once per operand and execution size:
        ("slice", s) contiguous elements, ("one", i) a scalar region (one element broadcast),
        ("index", idx) element indices, ("bytes", offsets) misaligned elements."""
        plan = op.plans.get(n)
        if plan is not None:
            return plan
        offsets = op.element_bytes(n)
        size = op.dtype.itemsize
        nbytes = self.regs[op.root].shape[1]
        if offsets.size and (offsets.min() < 0 or offsets.max() + size > nbytes):
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}) reaches "
                              f"outside variable {self.program.roots[op.root].name} ({nbytes} bytes)")
        if np.any(offsets % size):
            plan = ("bytes", offsets)
        else:
            idx = offsets // size
            first = int(idx[0])
            if np.all(idx == first):
                plan = ("one", first)
            elif np.all(np.diff(idx) == 1):
                plan = ("slice", slice(first, first + n))
            else:
                plan = ("index", idx)
        op.plans[n] = plan
        return plan

    def read(self, op: Operand, n: int, rows, inst: Inst) -> np.ndarray:
        """(threads selected by ``rows``, n) values of ``op``; immediates and scalar regions are
        broadcast read-only views (callers never write into what they read)."""
        count = _count(rows, self.threads)
        if op.kind == "imm":
            value = op.value
            if isinstance(value, np.ndarray):          # packed vector immediate
                return np.broadcast_to(np.resize(value, n), (count, n))
            return np.broadcast_to(np.asarray(value, op.dtype), (count, n))
        if op.kind == "reg":
            how, where = self._plan(op, n, inst)
            if how == "bytes":
                raw = self.regs[op.root][rows][:, where[:, None] + np.arange(op.dtype.itemsize)]
                return np.ascontiguousarray(raw).view(op.dtype).reshape(raw.shape[0], n)
            view = self._view(op.root, op.dtype)
            if how == "one":
                column = view[rows, where: where + 1] if isinstance(rows, slice) else view[rows, where][:, None]
                return np.broadcast_to(column, (count, n))
            if isinstance(rows, slice) or how == "slice":
                return view[rows, where] if isinstance(rows, slice) else view[rows, where.start: where.stop]
            return view[rows[:, None], where[None, :]]
        if op.kind == "indirect":
            return self._read_indirect(op, n, rows, inst)
        if op.kind == "null":
            return np.zeros((count, n), op.dtype)
        raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): a {op.kind} "
                          f"operand cannot be read as a value")

    def destination(self, op: Operand, n: int, rows, inst: Inst) -> np.ndarray | None:
        """A writable (threads, n) view of a destination of contiguous elements for every thread, else None."""
        if op.kind != "reg" or not isinstance(rows, slice):
            return None
        how, where = self._plan(op, n, inst)
        return self._view(op.root, op.dtype)[rows, where] if how == "slice" else None

    def write(self, op: Operand, n: int, rows, values: np.ndarray, mask: np.ndarray | None, inst: Inst) -> None:
        """Store ``values`` (threads, n) or (threads, 1), converted to ``op``'s type on assignment,
        where ``mask`` is set."""
        if op.kind == "null":
            return
        if op.kind != "reg":
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): "
                              f"cannot write a {op.kind} operand")
        how, where = self._plan(op, n, inst)
        if how == "bytes":
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): "
                              f"misaligned destination")
        view = self._view(op.root, op.dtype)
        if how == "one":
            where = slice(where, where + 1)
            values = values[:, :1] if values.ndim == 2 else values
            mask = mask if mask is None else mask[:, :1]
        if isinstance(rows, slice) and isinstance(where, slice):
            if mask is None:
                view[rows, where] = values
            else:
                np.copyto(view[rows, where], values, casting="unsafe", where=mask)
            return
        cols = np.arange(where.start, where.stop) if isinstance(where, slice) else where
        sel = (np.arange(self.threads)[rows][:, None], cols[None, :])
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

    def raw_view(self, raw: Raw, count: int, dtype: np.dtype, rows) -> np.ndarray:
        """(threads, count) elements at ``raw`` for every thread (``rows`` a slice): a writable view of
        the registers when aligned, else a copy (read_raw). Callers that write into it write the
        registers."""
        size = dtype.itemsize
        arr = self.regs[raw.root]
        if not isinstance(rows, slice) or raw.byte % size or arr.shape[1] % size or \
                raw.byte + count * size > arr.shape[1]:
            return self.read_raw(raw, count, dtype, rows)
        first = raw.byte // size
        return self._view(raw.root, dtype)[rows, first: first + count]

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
