"""Which root variables a kernel writes whole before it can read them: a new batch of threads need not
zero those (kernelkit.sim.visa.state.Machine.reset). Only the entry block is looked at — the
instructions before the first branch or branch target, where every lane of a full thread is enabled —
and only unpredicated ALU writes count; any read (a source, a message's raw operand, an operand of
its other fields) of a root not yet fully written keeps it zeroed. A kernel with indirect operands or
address registers (which reach roots by value) keeps every root zeroed."""

from __future__ import annotations

import numpy as np

from kernelkit.sim.visa import alu
from kernelkit.sim.visa.decode import Operand, Program

ALU_WRITES = frozenset({"cmp", "fminmax", "sel", "setp", "bfn", "mov"}) | frozenset(alu.OPERATIONS)
NOT_WHOLE = frozenset({"madw", "addc", "subb"})      # second destinations: not tracked
STOPS = frozenset({"goto", "jmp", "call", "ret", "fret", "fcall", "ifcall"})


def entry_defined_roots(program: Program, simd: int, input_bytes: list[tuple[int, int, int]]) -> frozenset[int]:
    """Roots every byte of which the entry block writes before reading any, for threads whose ``simd``
    lanes all start enabled; ``input_bytes`` (root, byte, size) are written by the payload first."""
    key = ("entry_defined", simd, tuple(input_bytes))
    found = program.cache.get(key)
    if found is not None:
        return found
    found = program.cache[key] = frozenset(_analyse(program, simd, input_bytes))
    return found


def _analyse(program: Program, simd: int, input_bytes) -> set[int]:
    written = [np.zeros(root.nbytes, bool) for root in program.roots]
    read_first: set[int] = set()
    for root, byte, size in input_bytes:
        written[root][byte: byte + size] = True
    targets = {inst.target for inst in program.insts if inst.target is not None}
    for inst in program.insts:
        operands = [*inst.srcs, *(v for v in inst.fields.values() if isinstance(v, Operand))]
        if any(op.kind in ("indirect", "address") for op in operands + [inst.dst] if op is not None):
            return set()
    for inst in program.insts:
        if inst.index in targets and inst.index > 0 or inst.name in STOPS:
            break
        for op in [*inst.srcs, *(v for v in inst.fields.values() if isinstance(v, Operand))]:
            if op.kind == "reg" and not written[op.root].all():
                read_first.add(op.root)
        for raw in inst.raws.values():
            if not raw.null and not written[raw.root].all():
                read_first.add(raw.root)
        dst = inst.dst
        whole_lanes = inst.nomask or inst.lane0 + inst.exec_size <= simd
        if inst.name in ALU_WRITES and inst.name not in NOT_WHOLE and inst.pred is None and whole_lanes \
                and dst is not None and dst.kind == "reg":
            offsets = dst.element_bytes(inst.exec_size)[:, None] + np.arange(dst.dtype.itemsize)
            cover = written[dst.root]
            if offsets.min() >= 0 and offsets.max() < cover.size:
                cover[offsets.reshape(-1)] = True
        elif dst is not None and dst.kind == "reg" and not written[dst.root].all():
            read_first.add(dst.root)           # a partial write: keep the rest zeroed
    return {root for root, cover in enumerate(written) if cover.all() and root not in read_first}


def written_roots(program: Program) -> frozenset[int]:
    """Roots any instruction may write: destinations, operands of other fields (second destinations)
    and every raw operand of a message; every root when an indirect operand or address register
    could reach any of them."""
    found = program.cache.get("written")
    if found is not None:
        return found
    roots: set[int] = set()
    for inst in program.insts:
        operands = [inst.dst, *(v for v in inst.fields.values() if isinstance(v, Operand))]
        if any(op is not None and op.kind in ("indirect", "address") for op in operands + inst.srcs):
            roots = set(range(len(program.roots)))
            break
        roots.update(op.root for op in operands if op is not None and op.kind == "reg")
        roots.update(raw.root for raw in inst.raws.values() if not raw.null)
    found = program.cache["written"] = frozenset(roots)
    return found
