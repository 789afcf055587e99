"""Launching a vISA kernel on the simulator with IGC's OpenCL payload (kernelkit.abi.visa).

``launch(routine, payload, args, global_size, local_size, global_offset)``: ``payload`` (a
``kernelkit.abi.visa.Payload``) says what each ``.input`` of the routine carries; work-groups are
split into hardware threads of ``payload.simd`` work-items (local ids in linear x, y, z order), r0
holds the group id (dwords 1, 6, 7), buffers get 64-bit virtual addresses (``__global`` and
``__constant`` pointers; binding-table indices count the ``__global`` ones, then the ``__constant`` ones, as IGC numbers its surfaces),
``__local`` pointers their SLM offsets after the kernel's static SLM (``slm_bytes`` reserves more, for
objects whose own SLM use the vISA does not state). Work-groups run in batches, all threads of a
batch at once.

Arguments, in the kernel's order: numpy arrays for ``__global``/``__constant`` pointers (written
back in place), ``kernelkit.LocalMemory(nbytes)`` (or an int) for ``__local`` pointers, numbers or
numpy values for scalars and vectors, ``bytes`` for structs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kernelkit.abi.visa import GRF_BYTES, Payload
from kernelkit.errors import LaunchError
from kernelkit.formats.visa.model import Routine
from kernelkit.formats.visa.printf_buffer import FIRST_RECORD, PRINTF_BUFFER_BYTES, read_printf_buffer
from kernelkit.sim.visa.decode import DONE, Program, decode
from kernelkit.sim.visa.entry_defs import entry_defined_roots, written_roots
from kernelkit.sim.visa.executor import Executor
from kernelkit.sim.visa.memory import Memory
from kernelkit.sim.visa.state import LANES, Machine

MAX_BATCH_LANES = 1 << 16            # lanes run at once: larger batches leave the caches (saxpy 1M: ~1.5x slower at 1 << 19)
PRIVATE_THREADS = 1024        # hardware threads with private memory at once; r0.5 bits 9:0 name the thread
R0_THREAD_DWORD = 5
R0_GROUP_DWORDS = (1, 6, 7)
SLM_ALIGN = 16


@dataclass
class LaunchStats:
    work_items: int
    work_groups: int
    hardware_threads: int
    lane_operations: int
    printf: list | None = None        # the printf records written: [(format, [(type, bytes)])]


class Geometry:
    """Which work-group and work-items each thread row of a batch runs."""

    def __init__(self, kernel: str, simd: int, local: tuple[int, int, int], groups: np.ndarray,
                 threads_per_group: int, global_offset: tuple[int, int, int], binding_table: list[int]):
        self.kernel = kernel
        self.simd = simd
        self.local = local
        self.groups = groups                                   # (G, 3) group ids of the batch
        self.tpg = threads_per_group
        self.offset = global_offset
        self.binding_table = binding_table
        self.group_of_row = np.repeat(np.arange(len(groups)), threads_per_group)
        lin = (np.arange(threads_per_group)[:, None] * simd + np.arange(LANES)[None, :simd])
        self.local_linear = np.tile(lin, (len(groups), 1))    # (T, simd)

    def with_groups(self, groups: np.ndarray) -> Geometry:
        """The same batch shape (as many groups) for other work-groups: rows and lanes are shared."""
        other = Geometry.__new__(Geometry)
        other.__dict__.update(self.__dict__)
        other.groups = groups
        return other

    def who(self, row: int, lane: int) -> str:
        lx, ly, _lz = self.local
        lin = int(self.local_linear[row, lane]) if lane < self.simd else -1
        g = self.groups[self.group_of_row[row]]
        lid = (lin % lx, lin // lx % ly, lin // (lx * ly))
        gid = tuple(int(g[d]) * self.local[d] + lid[d] + self.offset[d] for d in range(3))
        return f"work-item {gid}"


def _triple(value, name: str, fill: int) -> tuple[int, int, int]:
    if value is None:
        return (fill,) * 3
    values = [int(v) for v in (value if isinstance(value, list | tuple) else [value])]
    if not 1 <= len(values) <= 3:
        raise LaunchError(f"{name} has {len(values)} dimensions (1 to 3)")
    return tuple(values + [fill] * (3 - len(values)))  # type: ignore[return-value]


def launch(routine: Routine | Program, payload: Payload, args: list, global_size, local_size=None,
           global_offset=None, *, signature=None, static_slm: int = 0, slm_bytes: int | None = None,
           segments: dict | None = None, private_bytes: int = 0, printf_strings: list | None = None,
           printf_arguments: dict | None = None) -> LaunchStats:
    program = routine if isinstance(routine, Program) else decode(routine)
    name = program.name
    dims = len(global_size) if isinstance(global_size, list | tuple) else 1
    gsize = _triple(global_size, "global_size", 1)
    lsize = _triple(local_size, "local_size", 1) if local_size is not None else \
        _triple([max(c for c in range(1, min(g, 16 if d == 0 else 1) + 1) if g % c == 0)   # a divisor
                 for d, g in enumerate(gsize[:dims])], "local_size", 1)
    offset = _triple(global_offset, "global_offset", 0)
    for d in range(3):
        if lsize[d] < 1 or gsize[d] < 1 or gsize[d] % lsize[d]:
            raise LaunchError(f"kernel {name}: global size {gsize[d]} is not a multiple of local size "
                              f"{lsize[d]} in dimension {d}")
    ngroups = tuple(gsize[d] // lsize[d] for d in range(3))
    group_items = math.prod(lsize)
    simd = payload.simd
    tpg = -(-group_items // simd)
    memory = Memory(name)
    values = _argument_values(payload, args, memory, signature, static_slm, name)
    for name, data in (segments or {}).items():          # constant_base / global_base -> its bytes
        if isinstance(data, bytes | bytearray):
            data = np.frombuffer(bytes(data), np.uint8).copy()
        values[name] = np.array([memory.add(data, name)], "<u8").view(np.uint8)
    per_batch_limit = None
    if payload.implicit("private_base") is not None:
        # private memory: PRIVATE_THREADS slots of simd x private_bytes, the thread's slot from r0.5
        private = np.zeros(max(8, PRIVATE_THREADS * simd * private_bytes), np.uint8)
        values["private_base"] = np.array([memory.add(private, "private memory")], "<u8").view(np.uint8)
        per_batch_limit = max(1, PRIVATE_THREADS // tpg)
    printf_buffer = None
    if payload.implicit("printf_buffer") is not None:
        printf_buffer = np.zeros(PRINTF_BUFFER_BYTES, np.uint8)
        printf_buffer[:4] = np.array([FIRST_RECORD], "<u4").view(np.uint8)
        values["printf_buffer"] = np.array([memory.add(printf_buffer, "printf buffer")], "<u8").view(np.uint8)
    needed = values.pop("__slm__")
    slm_bytes = needed if slm_bytes is None else max(slm_bytes, needed)
    table = values.pop("__bti__")
    all_groups = np.stack(np.meshgrid(*[np.arange(n) for n in ngroups], indexing="ij"), -1) \
        .transpose(2, 1, 0, 3).reshape(-1, 3)
    per_batch = max(1, MAX_BATCH_LANES // (tpg * simd))
    if per_batch_limit is not None:
        if tpg > PRIVATE_THREADS:
            raise LaunchError(f"kernel {name}: a work-group of {tpg} hardware threads exceeds the "
                              f"{PRIVATE_THREADS} threads with private memory")
        per_batch = min(per_batch, per_batch_limit)
    lane_ops = 0
    machine = None
    shapes: dict[int, tuple[Geometry, np.ndarray, np.ndarray]] = {}   # groups in a batch -> geometry, payload, lane pcs
    keep = frozenset()
    if group_items % simd == 0:          # every lane of every thread starts enabled
        payload_bytes = [(root, byte, nbytes) for root, byte, _off, nbytes in program.input_roots]
        keep = entry_defined_roots(program, simd, payload_bytes + [(program.predefined_roots["%r0"], 0, GRF_BYTES)])
    for start in range(0, len(all_groups), per_batch):
        groups = all_groups[start: start + per_batch]
        shape = shapes.get(len(groups))
        if shape is None:
            geometry = Geometry(name, simd, lsize, groups, tpg, offset, table)
            image = _payload_image(program, payload, values, geometry, lsize, gsize, ngroups, offset, dims)
            starts = np.full((len(groups) * tpg, LANES), DONE, np.int32)
            starts[:, :simd] = np.where(geometry.local_linear < group_items, 0, DONE)
            shape = shapes[len(groups)] = (geometry, image, starts)
        geometry, image, starts = shape[0].with_groups(groups), shape[1], shape[2]
        unchanged: frozenset[int] = frozenset()
        if machine is not None and machine.threads == len(groups) * tpg and machine.image is image:
            machine.reset(keep)
            unchanged = keep - written_roots(program)       # inputs still there from the last batch
        elif machine is not None and machine.threads == len(groups) * tpg:
            machine.reset(keep)
        else:
            machine = Machine(program, len(groups) * tpg)
        machine.image = image
        memory.slm = np.zeros((len(groups), slm_bytes), np.uint8)
        _load_payload(machine, program, image, geometry, unchanged)
        ex = Executor(program, machine, memory, geometry)
        ex.lane_pc[...] = starts
        ex.run()
        lane_ops += ex.lane_ops
    records = None
    if printf_buffer is not None:
        records = read_printf_buffer(printf_buffer.tobytes(), list(printf_strings or []), dict(printf_arguments or {}))
    return LaunchStats(math.prod(gsize), len(all_groups), len(all_groups) * tpg, lane_ops, records)


def _argument_values(payload: Payload, args: list, memory: Memory, signature, static_slm: int, kernel: str) -> dict:
    """Bytes of every argument input, SLM size, binding table."""
    from kernelkit.runtime.args import LocalMemory

    arg_inputs = {i.arg_index: i for i in payload.inputs if i.kind == "argument"}
    count = len(signature.args) if signature is not None else len(arg_inputs)
    if len(args) != count:
        raise LaunchError(f"kernel {kernel} takes {count} arguments, {len(args)} given")
    out: dict = {}
    slm = -(-static_slm // SLM_ALIGN) * SLM_ALIGN
    table: list[int] = []
    for index, value in enumerate(args):
        inp = arg_inputs.get(index)
        arg = signature.args[index] if signature is not None else None
        if inp is None:
            continue
        if inp.type == "ud" and (arg is None or (arg.kind == "pointer" and arg.address_space == "local")):
            nbytes = value.nbytes if isinstance(value, LocalMemory) else getattr(value, "size", value)
            nbytes = int(nbytes)
            align = max(SLM_ALIGN, (arg.pointee_align or 4) if arg is not None else SLM_ALIGN)
            slm = -(-slm // align) * align
            out[index] = np.array([slm], "<u4").view(np.uint8)
            slm += nbytes
            continue
        if inp.type == "uq" and (arg is None or arg.kind == "pointer"):
            if not isinstance(value, np.ndarray):
                raise LaunchError(f"kernel {kernel}: argument {index} is a buffer; pass a numpy array")
            if not value.flags.c_contiguous:
                raise LaunchError(f"kernel {kernel}: argument {index}: the array must be C-contiguous")
            base = memory.add(value, f"argument {index}" + (f" ({arg.name})" if arg is not None else ""))
            table.append((arg is not None and arg.address_space == "constant", index, base))
            out[index] = np.array([base], "<u8").view(np.uint8)
            continue
        raw = value if isinstance(value, bytes | bytearray) else \
            np.asarray(value, dtype=_dtype_of(inp.type)).reshape(-1).tobytes()
        data = np.frombuffer(bytes(raw), np.uint8)
        if data.size < inp.size:
            data = np.concatenate([data, np.zeros(inp.size - data.size, np.uint8)])
        out[index] = data[: inp.size]
    out["__slm__"] = slm
    out["__bti__"] = [base for _constant, _index, base in sorted(table)]    # IGC: __global ones, then __constant
    return out


def _dtype_of(vtype: str) -> np.dtype:
    from kernelkit.sim.visa.decode import DTYPES
    return DTYPES[vtype]


def _payload_image(program: Program, payload: Payload, values: dict, geometry: Geometry,
                   lsize, gsize, ngroups, offset, dims: int) -> np.ndarray:
    """The payload GRFs of every thread of a batch of this shape, but the group ids (_load_payload)."""
    threads = len(geometry.group_of_row)
    size = max(payload.size, max((o + s for _r, _b, o, s in program.input_roots), default=0))
    grf = np.zeros((threads, -(-size // GRF_BYTES) * GRF_BYTES), np.uint8)
    r0 = grf[:, :GRF_BYTES].view("<u4")
    r0[:, R0_THREAD_DWORD] = np.arange(threads) % PRIVATE_THREADS
    lin = geometry.local_linear
    lx, ly, _lz = lsize
    if lx == math.prod(lsize):                # 1-D work-groups: no divisions over every lane
        zero = np.zeros_like(lin)
        lids = (lin, zero, zero)
    else:
        lids = (lin % lx, lin // lx % ly, lin // (lx * ly))
    for inp in payload.inputs:
        where = grf[:, inp.offset: inp.offset + inp.size]
        if inp.kind == "local_id":
            lanes = lids[inp.dim][:, inp.lane: inp.lane + 16]
            words = np.zeros((threads, 16), "<u2")
            words[:, : lanes.shape[1]] = lanes
            where[:] = words.view(np.uint8)
        elif inp.kind == "payload_header":
            header = np.zeros(8, "<u4")
            header[:3] = offset
            header[3:6] = lsize
            where[:] = header.view(np.uint8)
        elif inp.kind == "argument":
            where[:] = values[inp.arg_index][: inp.size]
        elif inp.kind in ("local_size", "enqueued_local_size"):
            where[:] = np.array(lsize, "<u4").view(np.uint8)
        elif inp.kind == "global_size":
            where[:] = np.array(gsize, "<u4").view(np.uint8)
        elif inp.kind == "num_groups":
            where[:] = np.array(ngroups, "<u4").view(np.uint8)
        elif inp.kind == "work_dim":
            where[:] = np.array([dims], "<u4").view(np.uint8)
        elif inp.kind == "buffer_offset":
            where[:] = 0
        elif inp.kind in values:                          # program-scope data segments
            where[:] = values[inp.kind]
        else:
            raise LaunchError(f"kernel {program.name}: the simulator cannot provide the implicit input "
                              f"{inp.name} ({inp.kind})")
    known = {(i.offset, i.size) for i in payload.inputs}
    for _root, _byte, off, nbytes in program.input_roots:
        if (off, nbytes) not in known and off >= GRF_BYTES:
            raise LaunchError(f"kernel {program.name}: input at GRF byte {off} ({nbytes} bytes) is not part of "
                              f"the payload the ABI lays out for it")
    return grf


def _load_payload(machine: Machine, program: Program, image: np.ndarray, geometry: Geometry,
                  unchanged: frozenset[int] = frozenset()) -> None:
    """Write the payload of every thread into the routine's input variables (but the ``unchanged``
    roots, which hold this image already) and %r0 (r0 holds the thread's group id)."""
    r0 = image[:, :GRF_BYTES].view("<u4")
    gids = geometry.groups[geometry.group_of_row]                       # (T, 3)
    for d, dword in enumerate(R0_GROUP_DWORDS):
        r0[:, dword] = gids[:, d]
    for root, byte, off, nbytes in program.input_roots:
        if root not in unchanged:
            machine.regs[root][:, byte: byte + nbytes] = image[:, off: off + nbytes]
    machine.regs[program.predefined_roots["%r0"]][:, :GRF_BYTES] = image[:, :GRF_BYTES]
