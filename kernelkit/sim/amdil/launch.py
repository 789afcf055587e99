"""Launching an AMD IL kernel on the simulator with the runtime's ABI (spec 000).

``launch(text, kernel, args, global_size, local_size, global_offset)``: the metadata block of the
kernel gives the cb1 layout (``kernelkit.abi.amdil.layout_from_metadata``); buffers are placed
in one global heap (pointer arguments receive their byte offsets); cb0 is filled from spec 000's
table (``kernelkit.abi.amdil_cb0``); the data segment is placed in the heap (offset in cb0[8].x)
or bound as its constant buffer; then work-groups run in chunks, all lanes of a chunk at once.

Arguments, in the kernel's order: numpy arrays for __global/__constant pointers (written back),
``LocalArg(nbytes)`` for __local pointers, ``SimImage`` for images, numbers/numpy values for
scalars and vectors, ``bytes`` for structs, ints for samplers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kernelkit.abi.amdil import ImageDesc, LocalArg, fill_cb1, layout_from_metadata
from kernelkit.abi.amdil_cb0 import Dispatch, fill_cb0, hardware_local_end
from kernelkit.errors import KernelkitError, LaunchError
from kernelkit.formats.amdil import records as r
from kernelkit.sim.amdil.decode import DecodedProgram, decode
from kernelkit.sim.amdil.executor import Executor, Lanes
from kernelkit.sim.amdil.memory import Heap, SimImage
from kernelkit.sim.amdil.printf import BUFFER_BYTES as PRINTF_BYTES
from kernelkit.sim.amdil.printf import read_records

# lanes (work-items) executed together: whole work-groups, bounded so that the register file
# (registers x 4 x lanes x 4 bytes) stays near REGISTER_FILE_BYTES
REGISTER_FILE_BYTES = 96 << 20
MAX_LANES = 1 << 18
# cb0[3].z / cb0[4].z: the mask applied to the thread / group id in the private and local
# offset formulas of spec 000. The table lists 0 there, which would give every work-item the same
# private slot; the simulator keeps every id bit (one slot per work-item / work-group).
ID_MASK = 0xFFFFFFFF


@dataclass
class LaunchStats:
    work_items: int
    work_groups: int
    work_item_instructions: int
    printf: list = field(default_factory=list)    # [(format, [(type, bytes)])] in write order


_CACHE: dict[tuple[int, str], DecodedProgram] = {}


def decoded(text: str, kernel: str) -> DecodedProgram:
    key = (hash(text), kernel)
    prog = _CACHE.get(key)
    if prog is None:
        prog = decode(text, kernel)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = prog
    return prog


def _sizes(name: str, value, dims: int | None = None) -> tuple[int, ...]:
    if isinstance(value, int | np.integer):
        value = (int(value),)
    out = tuple(int(v) for v in value)
    if not 1 <= len(out) <= 3 or (dims is not None and len(out) != dims):
        raise LaunchError(f"{name} must have 1 to 3 dimensions"
                          + (f" like global_size ({dims})" if dims else ""))
    return out


def launch(text: str, kernel: str, args, global_size, local_size=None, global_offset=None, *,
           device: str | None = None, max_steps: int = 50_000_000) -> LaunchStats:
    """Run ``kernel`` of the AMD IL program ``text`` over an NDRange (see the module doc)."""
    prog = decoded(text, kernel)
    block = prog.program.find_kernel(kernel)
    layout = layout_from_metadata(block, device)
    gsz = _sizes("global_size", global_size)
    dims = len(gsz)
    lsz = _sizes("local_size", local_size, dims) if local_size is not None else \
        _default_local(gsz, prog, group_limit(block, device))
    off = _sizes("global_offset", global_offset, dims) if global_offset is not None else (0,) * dims
    if any(g <= 0 for g in gsz):
        raise LaunchError(f"{kernel}: global size {gsz} must be positive")
    for g, sz in zip(gsz, lsz, strict=True):
        if sz <= 0 or g % sz:
            raise LaunchError(f"{kernel}: global size {g} is not a multiple of local size {sz}")
    errors = [m.message for m in block.of(r.Message) if m.tag == "error"]
    if errors:      # spec 000 "Error Token": the runtime fails such a kernel
        raise LaunchError(f"{kernel}: the compiler reported an error in the kernel's metadata: "
                          f"{'; '.join(errors)}")
    group_items = math.prod(lsz)
    check_group_limits(kernel, block, group_items)
    max_threads = prog.decls.max_threads or 256
    if group_items > max_threads:
        raise LaunchError(f"{kernel}: {group_items} work-items per group, the kernel declares at "
                          f"most {max_threads} (dcl_max_thread_per_group)")
    if prog.decls.num_threads and tuple(prog.decls.num_threads[:dims]) != lsz:
        raise LaunchError(f"{kernel}: the kernel requires local size {prog.decls.num_threads} "
                          f"(dcl_num_thread_per_group), got {lsz}")

    if isinstance(args, dict):
        values = dict(args)
    else:
        args = list(args)
        if len(args) != len(layout.args):
            raise LaunchError(f"{kernel} takes {len(layout.args)} argument(s) "
                              f"({', '.join(a.name for a in layout.args)}), got {len(args)}")
        values = {a.name: v for a, v in zip(layout.args, args, strict=True)}

    heap = Heap()
    images: dict[tuple[str, int], SimImage] = {}
    cb1_values = {}
    counter_buffers: dict[int, np.ndarray] = {}
    for a in layout.args:
        if a.name not in values:
            raise LaunchError(f"{kernel}: argument {a.name} has no value")
        v = values[a.name]
        if a.kind == "pointer" and a.address_space == "local":
            if not isinstance(v, LocalArg):
                raise LaunchError(f"{kernel}: argument {a.name} is a __local pointer: pass "
                                  f"LocalArg(nbytes)")
            cb1_values[a.name] = v
        elif a.kind == "pointer":
            if not isinstance(v, np.ndarray):
                raise LaunchError(f"{kernel}: argument {a.name} is a pointer: pass a numpy array")
            cb1_values[a.name] = heap.place(a.name, v, writable=a.address_space != "constant")
        elif a.kind == "counter":
            if not isinstance(v, np.ndarray) or v.size < 1 or v.dtype.itemsize != 4:
                raise LaunchError(f"{kernel}: argument {a.name} is a counter32_t: pass a numpy "
                                  f"array of one 32-bit element (its initial value; the final "
                                  f"value is written back)")
            counter_buffers[a.record.id] = v
            cb1_values[a.name] = 0
        elif a.kind == "image":
            if not isinstance(v, SimImage):
                raise LaunchError(f"{kernel}: argument {a.name} is an image: pass a SimImage")
            w, h, dpt = v.dims
            cb1_values[a.name] = ImageDesc(w, h, dpt, v.data_type, v.channel_order)
            kind = "uav" if a.access == "WO" else "resource"
            images[(kind, a.record.id)] = v
        else:
            cb1_values[a.name] = v

    # the data segment: global (heap) or its own constant buffer
    cbs: dict[int, np.ndarray] = {}
    init: dict[int, bytes] = {}
    data_offset = 0
    for seg in prog.program.data_segments:
        raw = seg.to_bytes()
        if seg.cb is None:
            data_offset = heap.reserve("data segment", len(raw))
            init[data_offset] = raw
        else:
            cbs[seg.cb] = np.frombuffer(raw.ljust((len(raw) + 15) // 16 * 16, b"\0"),
                                        np.uint32).reshape(-1, 4).copy()

    memory = block.memory()
    private = sum(int(memory.get(s, 0)) for s in ("private",))
    local_sizes = [cb1_values[a.name].size for a in layout.args
                   if a.kind == "pointer" and a.address_space == "local"]
    local_total = hardware_local_end(layout.static_local, local_sizes)
    emulated_local = int(memory.get("local", 0)) > 0 or any(
        getattr(a.record, "memory", "") == "l" for a in layout.args)
    num_groups = tuple(g // sz for g, sz in zip(gsz, lsz, strict=True))
    total_items = math.prod(gsz)
    total_groups = math.prod(num_groups)
    formats = {rec.id: rec for b in prog.program.metadata for rec in b.of(r.PrintfFormat)}
    printf_base = heap.reserve("printf buffer", PRINTF_BYTES) if formats else 0
    private_ring = heap.reserve("private ring", private * total_items) if private else 0
    local_ring = heap.reserve("local ring", local_total * total_groups) if emulated_local else 0
    heap.finish(init)

    dispatch = Dispatch.ndrange(gsz, lsz, off, private_ring_offset=private_ring,
                                private_per_thread=private, local_ring_offset=local_ring,
                                local_per_group=local_total, data_segment_offset=data_offset,
                                printf_offset=printf_base,
                                printf_size=PRINTF_BYTES if formats else 0)
    cb0 = bytearray(fill_cb0(dispatch))
    cb0[56:60] = ID_MASK.to_bytes(4, "little")
    cb0[72:76] = ID_MASK.to_bytes(4, "little")
    try:
        cb1 = fill_cb1(layout, cb1_values)
    except KernelkitError as e:
        raise LaunchError(f"{kernel}: {e}") from None
    cbs[0] = np.frombuffer(bytes(cb0), np.uint32).reshape(-1, 4).copy()
    cbs[1] = np.frombuffer(cb1.ljust(16, b"\0"), np.uint32).reshape(-1, 4).copy()
    for n, slots in prog.decls.cb_sizes.items():
        where = f"line {prog.decls.cb_lines[n]}: {kernel}"
        if n not in cbs:
            raise LaunchError(f"{where}: the program declares cb{n} but nothing is bound to it")
        if cbs[n].shape[0] < slots and n != 1:
            raise LaunchError(f"{where}: cb{n} is declared with {slots} slots, "
                              f"{cbs[n].shape[0]} are bound")
        if n == 1 and layout.cb1_slots < slots:
            raise LaunchError(f"{where}: dcl_cb cb1[{slots}] but the metadata lays out "
                              f"{layout.cb1_slots} slot(s)")
    hw_local = max(prog.decls.lds_size, local_total if not emulated_local else 0)
    samplers = {}
    for rec in block.of(r.Sampler):      # sampler states: kernel constants and argument values
        if rec.location == 1:
            samplers[rec.id] = rec.value
        elif rec.name in values and isinstance(values[rec.name], int | np.integer):
            samplers[rec.id] = int(values[rec.name])
    counters = {cid: int(buf.reshape(-1).view(np.uint32)[0]) for cid, buf in counter_buffers.items()}
    exe = Executor(prog, kernel, cbs, heap, hw_local, images, max_steps, samplers, counters)

    lsz3 = tuple(lsz) + (1,) * (3 - dims)
    ng3 = tuple(num_groups) + (1,) * (3 - dims)
    off3 = tuple(off) + (0,) * (3 - dims)
    registers = max(len(exe.rows), 1)
    lanes_budget = max(group_items, min(MAX_LANES, REGISTER_FILE_BYTES // (16 * registers)))
    groups_per_chunk = max(1, lanes_budget // group_items)
    for first in range(0, total_groups, groups_per_chunk):
        count = min(groups_per_chunk, total_groups - first)
        exe.run(_lanes(first, count, lsz3, ng3, off3))
    exe.finish()
    heap.copy_back()
    for cid, buf in counter_buffers.items():
        buf.reshape(-1).view(np.uint32)[0] = exe.counters[cid]
    records = read_records(heap.data.tobytes(), printf_base, PRINTF_BYTES, formats) if formats else []
    return LaunchStats(total_items, total_groups, exe.work_item_instructions, records)


def group_limit(block, device: str | None) -> int | None:
    """The work-group size the metadata asks for (spec 000 "Compiler Specified Group Size"):
    ``;lws:size``, the compiler's exact limit, or for ``;limitgroupsize`` a wavefront of the
    device (the size AMD's runtime then gives the kernel)."""
    lws = block.first("lws")
    if lws is not None:
        return lws.size
    if block.first("limitgroupsize") is not None:
        from kernelkit.targets.amdil.info import DEVICES_BY_NAME

        dev = DEVICES_BY_NAME.get(device or block.device or "")
        return dev.wavefront if dev else 64
    return None


def check_group_limits(kernel: str, block, group_items: int) -> None:
    """``;lws:`` is a hard limit. ``;limitgroupsize`` only chooses the default group size: AMD's
    runtime refuses a larger explicit size because a 7XX barrier holds within one wavefront, but
    the simulator runs a whole group in lockstep, where the barrier holds for any size, so it
    accepts one (every corpus kernel then runs on 7XX with the host's local sizes)."""
    lws = block.first("lws")
    if lws is not None and group_items > lws.size:
        raise LaunchError(f"{kernel}: {group_items} work-items per group, the kernel allows at "
                          f"most {lws.size} (lws)")


def _default_local(gsz: tuple[int, ...], prog: DecodedProgram, limit: int | None = None
                   ) -> tuple[int, ...]:
    if prog.decls.num_threads:
        return tuple(prog.decls.num_threads[:len(gsz)])
    budget = min(prog.decls.max_threads or 256, 256, limit or 256)
    out = []
    for g in gsz:
        best = 1
        for cand in range(1, min(g, budget) + 1):
            if g % cand == 0:
                best = cand
        out.append(best)
        budget = max(1, budget // best)
    return tuple(out)


def _lanes(first: int, count: int, lsz, ngroups, offset) -> Lanes:
    group_items = lsz[0] * lsz[1] * lsz[2]
    flat_group = np.repeat(np.arange(first, first + count, dtype=np.int64), group_items)
    local_flat = np.tile(np.arange(group_items, dtype=np.int64), count)
    lx = local_flat % lsz[0]
    ly = (local_flat // lsz[0]) % lsz[1]
    lz = local_flat // (lsz[0] * lsz[1])
    gx = flat_group % ngroups[0]
    gy = (flat_group // ngroups[0]) % ngroups[1]
    gz = flat_group // (ngroups[0] * ngroups[1])
    local = np.stack([lx, ly, lz])
    group = np.stack([gx, gy, gz])
    glob = group * np.array(lsz, np.int64)[:, None] + local + np.array(offset, np.int64)[:, None]
    gsz = np.array(lsz, np.int64) * np.array(ngroups, np.int64)
    abs_flat = (glob[0] - offset[0]) + (glob[1] - offset[1]) * gsz[0] + \
        (glob[2] - offset[2]) * gsz[0] * gsz[1]
    return Lanes(local.astype(np.uint32), group.astype(np.uint32), flat_group.astype(np.uint32),
                 flat_group - first, glob, local_flat.astype(np.uint32),
                 abs_flat.astype(np.uint32), count)


__all__ = ["launch", "LaunchStats", "LocalArg", "SimImage"]
