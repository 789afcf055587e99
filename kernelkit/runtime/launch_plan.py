"""Launch plans: what a kernel's repeated launches with one configuration reuse.

A plan belongs to one kernel and one launch configuration — the NDRange as given (plain integers),
the thread count asked for, ``specialise`` and the environment the launch reads (KERNELKIT_THREADS,
KERNELKIT_SPECIALISE); checked launches have none. Its first launch runs the full path (NDRange
validation, argument packing, reach check) and makes the plan; a later launch with that
configuration does only what can change:

- each argument is checked against the signature by a guard made for it (an exact numpy array
  type, dtype, contiguity, writability, whole pointees; a scalar of the argument's numpy type, or a
  Python int in range / float) and written into a prepared argument block: buffer addresses,
  scalar bytes. A value the guards do not take (a mistake, or a kind they do not cover) sends the
  launch down the full path, which raises the error it always did or runs the launch unplanned;
- the NDRange, the executable (the specialised one once the launch count reaches it), the thread
  count and the printf sites are the plan's;
- the reach proof is remembered by exactly what it used: the byte sizes of the buffers it bounds
  and the integer scalars its expressions name (a different size or scalar re-runs the check, so a
  launch that would go out of bounds is still refused);
- the native memory a launch runs on (:class:`kernelkit.runtime.launch.LaunchSlot`: work-group
  counter, completion, jobs, template, argument arrays, ``__local`` allocations, printf buffer) is
  taken from the plan's free slots and given back when the launch has been waited for, so
  concurrent launches of one plan each have their own.
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np

from kernelkit.runtime.args import LocalMemory, PackedArg, RawBuffer, pack_argument
from kernelkit.runtime.launch import (
    LaunchSlot,
    LaunchState,
    NativeLaunch,
    environ_value,
    launch_threads,
    local_slot,
    new_printf_buffer,
)
from kernelkit.runtime.ndrange import NDRange

_BUFFER, _LOCAL, _SCALAR, _OTHER = "buffer", "local", "scalar", "other"
_CELL = 64        # each argument's bytes start on a cache line (create_string_buffer gave 16)
_PROOFS_LIMIT = 256
_PLANS_LIMIT = 64


def _data_offset() -> int | None:
    """Where an ndarray object holds its data pointer (numpy's PyArrayObject_fields: PyObject_HEAD,
    then ``char *data``) — read there in about 1 us, where ``ndarray.ctypes.data`` and
    ``__array_interface__`` cost 6-9 us each on this machine. Checked against ``ctypes.data`` on
    several arrays (a view, a read-only one, an empty one); None when it is not there."""
    offset = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)
    base = np.arange(12, dtype=np.int32)
    readonly = base[3:]
    readonly.flags.writeable = False
    for probe in (base, base[5:], readonly, np.zeros(0, np.float32), np.ones((4, 3), np.float64)):
        if ctypes.c_void_p.from_address(id(probe) + offset).value != probe.ctypes.data:
            return None
    return offset


_DATA_OFFSET = _data_offset()


_pointer_at = ctypes.c_void_p.from_address   # (an array's data pointer: _pointer_at(id(array) + _DATA_OFFSET))


class _Binding:
    """How one argument reaches a plan's argument blocks, and the guard on the values it takes."""

    def __init__(self, arg, kind: str, packed: PackedArg, value, reached: bool) -> None:
        from kernelkit.abi.opencl_types import NUMPY_DTYPES

        self.index = arg.index
        self.arg = arg
        self.kind = kind
        self.reached = reached     # the reach proof uses its size (a buffer) or its value (a scalar)
        self.size = max(8, arg.size or 0)
        if kind == _BUFFER:
            dtype = NUMPY_DTYPES.get(arg.element or "")
            array = value.array if isinstance(value, RawBuffer) else value
            self.dtype = dtype if dtype is not None else array.dtype   # (a struct or void pointee)
            self.writeable = arg.address_space == "global" and "const" not in arg.type_qualifiers
            self.pointee_size = arg.pointee_size or 0
        elif kind == _LOCAL:
            self.nbytes = packed.local_bytes
        elif kind == _SCALAR:
            self.dtype = NUMPY_DTYPES[arg.element]
            self.scalar_type = self.dtype.type
            self.integer = self.dtype.kind in "iu"
            self.floating = self.dtype.kind == "f"
            if self.integer:
                info = np.iinfo(self.dtype)
                self.low, self.high = int(info.min), int(info.max)
            self.size = max(self.size, self.dtype.itemsize)


def _binding_kind(arg) -> str:
    from kernelkit.abi.opencl_types import NUMPY_DTYPES

    if arg.kind == "pointer":
        return _LOCAL if arg.address_space == "local" else _BUFFER
    if arg.kind == "scalar" and NUMPY_DTYPES.get(arg.element or "") is not None:
        return _SCALAR
    return _OTHER


class ArgumentBlock:
    """One slot's argument bytes: every argument's value in one cache-aligned buffer, the pointer
    array(s) the entry calls take, and the per-thread ``__local`` allocations."""

    def __init__(self, bindings: list[_Binding], n: int, has_local: bool) -> None:
        offsets, end = [], 0
        for b in bindings:
            offsets.append(end)
            end += -(-b.size // _CELL) * _CELL
        self._raw = ctypes.create_string_buffer(max(end, 1) + _CELL)
        base = ctypes.addressof(self._raw) + (-ctypes.addressof(self._raw)) % _CELL
        self.cells: list = [None] * len(bindings)
        self.keep: list = [None] * len(bindings)     # what an "other" argument's bytes live in
        self.locals: list[list] = [[] for _ in range(n)]
        count = max(1, len(bindings))
        self.arrays = [(ctypes.c_void_p * count)() for _ in range(n if has_local else 1)]
        for b, off in zip(bindings, offsets, strict=True):
            if b.kind == _BUFFER:
                self.cells[b.index] = ctypes.c_uint64.from_address(base + off)
            elif b.kind == _SCALAR:
                self.cells[b.index] = np.frombuffer((ctypes.c_char * b.size).from_address(base + off), b.dtype, 1)
            for t, array in enumerate(self.arrays):
                if b.kind == _LOCAL:
                    array[b.index] = local_slot(b.nbytes, self.locals[t])
                elif b.kind != _OTHER:
                    array[b.index] = base + off
        if not has_local:
            self.arrays = self.arrays * n

    def bind(self, bindings: list[_Binding], values, kernel: str) -> list | None:
        """Write ``values``; the sizes and scalars the reach proof uses (in binding order), or None
        when a value is not one these bindings take (the full path then checks and packs it)."""
        cells = self.cells
        offset = _DATA_OFFSET
        proof: list = []
        for b in bindings:
            v = values[b.index]
            kind = b.kind
            if kind is _BUFFER:
                t = type(v)
                if t is RawBuffer:
                    v = v.array
                    if type(v) is not np.ndarray:
                        return None
                    raw = True
                elif t is np.ndarray:
                    raw = False
                else:
                    return None
                flags = v.flags
                if not flags.c_contiguous or (b.writeable and not flags.writeable):
                    return None
                if not raw:
                    d = v.dtype
                    if (d is not b.dtype and d != b.dtype) or (b.pointee_size and v.nbytes % b.pointee_size):
                        return None
                cells[b.index].value = (_pointer_at(id(v) + offset).value or 0) if offset is not None else v.ctypes.data
                if b.reached:
                    proof.append(v.nbytes)
            elif kind is _SCALAR:
                t = type(v)
                if t is not b.scalar_type:
                    if b.integer:
                        if t is not int or not b.low <= v <= b.high:
                            return None
                    elif t is not float or not b.floating:
                        return None
                cells[b.index][0] = v
                if b.reached:
                    proof.append(v)
            elif kind is _LOCAL:
                if type(v) is not LocalMemory or v.nbytes != b.nbytes:
                    return None
            else:   # vectors, structs, images, samplers: packed as the full path packs them
                if b.reached:
                    return None
                packed = pack_argument(kernel, b.arg, v)
                self.keep[b.index] = packed
                address = ctypes.addressof(packed.storage)
                for array in self.arrays:
                    array[b.index] = address
        return proof


def _reached_arguments(signature, reaches) -> set[int]:
    """The arguments a reach proof depends on: the buffers it bounds, the scalars its expressions name."""
    out = {r.arg for r in reaches if r.arg < len(signature.args)}
    for r in reaches:
        for _, mono in r.offset:
            for sym in mono:
                for prefix in ("uarg", "arg"):
                    if sym.startswith(prefix) and sym[len(prefix):].isdigit():
                        out.add(int(sym[len(prefix):]))
                        break
    return out


class LaunchPlan:
    """One kernel's launches with one configuration (see the module docstring)."""

    def __init__(self, kernel, nd: NDRange, local_size, specialise, threads, packed: list[PackedArg], values) -> None:
        self.kernel = kernel
        self.nd = nd
        self._threads = threads
        self._local_size = local_size
        self._specialise = specialise
        reached = _reached_arguments(kernel.signature, kernel.reach)
        self.bindings = [_Binding(arg, _binding_kind(arg), p, v, arg.index in reached)
                         for arg, p, v in zip(kernel.signature.args, packed, values, strict=True)]
        self._has_local = any(b.kind == _LOCAL for b in self.bindings)
        self._has_other = any(b.kind == _OTHER for b in self.bindings)
        self._proofs: set[tuple] = set()
        self._free: list[_Slot] = []
        mode = kernel.may_specialise(nd, local_size, specialise)
        self._counting = mode is None
        self._use(kernel.program.specialised_executable(kernel.name, nd.local_size, False) if mode
                  else kernel.program.executable(False, kernel.info.needs_work_item_copy(nd.global_size[0],
                                                                                        nd.local_size[0])))

    def _use(self, exe) -> None:
        self.exe = exe
        self.sites = exe.binary.printf_sites
        self.n = launch_threads(self.kernel.name, self._threads, self.nd.total_groups, exe)
        self._free.clear()

    def _slot(self) -> _Slot:
        free = self._free
        if free:
            try:
                return free.pop()
            except IndexError:   # (another thread took the last one)
                pass
        return _Slot(self)

    def _give_back(self, slot: _Slot) -> None:
        if self._has_other:
            slot.arguments.keep[:] = [None] * len(self.bindings)   # (the arguments are the caller's again)
        if len(self._free) < 4 and slot.launch.n == self.n:
            self._free.append(slot)

    def launch(self, values, timeout, private: bool = False):
        """Start a launch of ``values`` (an Event), or None when a value is not one the plan takes.
        ``private``: the caller waits for the event and lets no one else see it, so the slot's own
        Event is used again."""
        kernel = self.kernel
        if len(values) != len(self.bindings):
            return None
        slot = self._slot()
        proof = slot.arguments.bind(self.bindings, values, kernel.name)
        if proof is None:
            self._free.append(slot)
            return None
        try:
            if kernel.reach:
                self._check_reach(values, tuple(proof))
        except BaseException:
            self._free.append(slot)
            raise
        if self._counting and kernel.program._launched(kernel.name, self.nd.local_size) >= kernel.hot_launches:
            self._counting = False
            n, sites = self.n, self.sites
            self._use(kernel.program.specialised_executable(kernel.name, self.nd.local_size, False))
            if (self.n, sites) != (n, self.sites):   # (the slot was made for the other executable)
                slot = self._slot()
                slot.arguments.bind(self.bindings, values, kernel.name)
        state = slot.launch.state
        if state.printf is not None:
            state.printf.offset = 0
        native = NativeLaunch(self.exe, kernel.name, slot.launch, keep=values)   # (alive while it runs)
        if not private:
            return kernel.event(native, slot.finish, timeout, slot.recycle)
        if slot.event is None:
            slot.event = kernel.event(native, slot.finish, timeout, slot.recycle)
            return slot.event
        return slot.event.rearm(native, slot.finish, timeout, slot.recycle)

    def _check_reach(self, values, proof: tuple) -> None:
        if proof in self._proofs:
            return
        from kernelkit.runtime.reach import check_reach

        kernel = self.kernel
        check_reach(kernel.name, kernel.signature, kernel.reach, values, self.nd)
        if len(self._proofs) >= _PROOFS_LIMIT:
            self._proofs.clear()
        self._proofs.add(proof)


class _Slot:
    """A plan's slot: the native memory of one launch at a time (``launch``: the LaunchSlot, ``arguments``:
    its argument block), what ends such a launch (``finish``), what gives the slot back (``recycle``),
    and the Event that launches waited for by their caller use again."""

    __slots__ = ("launch", "arguments", "finish", "recycle", "event")

    def __init__(self, plan: LaunchPlan) -> None:
        self.arguments = ArgumentBlock(plan.bindings, plan.n, plan._has_local)
        printf, printf_data = new_printf_buffer() if plan.sites else (None, None)
        state = LaunchState(printf, printf_data, None)
        self.launch = LaunchSlot(plan.nd, plan.n, state, self.arguments.arrays, self.arguments.locals)
        self.finish = plan.kernel.finisher(plan.sites, state)
        self.recycle = functools.partial(plan._give_back, self)
        self.event = None


def _plain(sizes) -> bool:
    """An int, a tuple of ints or None (what a plan's key may hold as given)."""
    if sizes is None or type(sizes) is int:
        return True
    if type(sizes) is tuple:
        for v in sizes:
            if type(v) is not int:
                return False
        return True
    return False


class LaunchPlans:
    """A kernel's plans by configuration."""

    def __init__(self) -> None:
        self._plans: dict[tuple, LaunchPlan] = {}

    @staticmethod
    def key(global_size, local_size, global_offset, threads, specialise) -> tuple | None:
        """The configuration of an unchecked launch, or None for one that gets no plan (sizes other than
        plain ints or tuples of them, unusual ``threads``/``specialise`` values: the full path judges them)."""
        if type(global_size) is list:
            global_size = tuple(global_size)
        if type(local_size) is list:
            local_size = tuple(local_size)
        if not (_plain(global_size) and _plain(local_size) and _plain(global_offset)):
            return None
        if not (threads is None or type(threads) is int) or not (specialise is None or type(specialise) is bool):
            return None
        return (global_size, local_size, global_offset, threads, specialise,
                environ_value("KERNELKIT_THREADS"), environ_value("KERNELKIT_SPECIALISE"))

    def get(self, key: tuple) -> LaunchPlan | None:
        return self._plans.get(key)

    def add(self, key: tuple, plan: LaunchPlan) -> None:
        if len(self._plans) >= _PLANS_LIMIT:
            self._plans.clear()
        self._plans[key] = plan
