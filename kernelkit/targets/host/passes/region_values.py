"""Work-item-invariant and local-id frame fields of a split work-item coroutine.

CoroSplit keeps every value live across a barrier in each work-item's frame, including values
that are the same for the whole work-group (kernel arguments, the local size, the group id) and
the work-item's own local id. Reloaded from the frame in a region loop over work-items, the
former are loads through per-work-item pointers (gathers, branches LLVM cannot see are uniform)
and the latter hide that consecutive work-items touch consecutive elements.

This pass finds, in the ramp (the code up to the first barrier), the frame fields that are
  * stored once in the ramp's entry block with a value computed only from the kernel arguments
    and the work-group info (uniform: work-item 0's copy serves all work-items), or
  * stored with ``local_id[d]`` / ``local_linear_id`` loaded from the work-item info,
and never stored by the resume function. The resume function then takes those values as
parameters (the region loop loads the uniform ones once per region from work-item 0's frame and
passes its loop counters for the ids), the role PoCL's uniformity analysis plays for its
work-item loops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Argument, BasicBlock, Function
from kernelkit.ir.transforms.editing import add_parameters
from kernelkit.ir.values import ConstantSimple, Value
from kernelkit.targets.host.passes.soa_frames import RAMP_FRAME, RESUME_FRAME, field_offset, frame_value
from kernelkit.targets.host.sched import WORK_ITEM_FIELDS, WorkGroupInfo, field_index

ID_PARAMS = ("kk.lid0", "kk.lid1", "kk.lid2", "kk.lin")
WI_NAME, WG_NAME = "kk.wi", "kk.wg"
_PURE_OPS = frozenset("add sub mul shl lshr ashr and or xor udiv sdiv urem srem trunc zext sext getelementptr "
                      "icmp fcmp select fadd fsub fmul fdiv fneg bitcast ptrtoint inttoptr sitofp uitofp "
                      "fptosi fptoui fpext fptrunc freeze".split())
_PURE_CALL = re.compile(r"llvm\.(?:umin|umax|smin|smax)\.i\d+")
_LOCAL_ID_OFFSETS = {0: 0, 8: 1, 16: 2}   # byte offset in MuxWorkItemInfo -> dimension


def _wi_id_offsets() -> dict[int, int]:
    """Byte offset of local_id[d] / local_linear_id in MuxWorkItemInfo -> index into ID_PARAMS."""
    assert field_index(WORK_ITEM_FIELDS, "local_id") == 0 and field_index(WORK_ITEM_FIELDS, "local_linear_id") == 1
    return {**_LOCAL_ID_OFFSETS, 24: 3}


@dataclass
class RegionValues:
    """Frame fields the resume function receives as parameters instead of reloading."""

    uniform: dict[int, T.Type] = field(default_factory=dict)   # frame offset -> type
    ids: dict[int, int] = field(default_factory=dict)          # frame offset -> index into ID_PARAMS
    reloaded: set[int] = field(default_factory=set)            # offsets the resume function loads

    def uniform_param(self, off: int) -> str:
        return f"kk.u{off}"


def _is_variable(v: Value) -> bool:
    return isinstance(v, (I.Instruction, Argument))


def _arg(f: Function, name: str) -> Argument | None:
    return next((a for a in f.args if a.name == name), None)


@dataclass
class _Facts:
    """One function's frame accesses and the local-id loads it makes."""

    field_loads: dict[I.LoadInst, int] = field(default_factory=dict)   # load -> frame offset
    load_types: dict[int, set[T.Type]] = field(default_factory=dict)
    stores: list[tuple[int, Value, BasicBlock]] = field(default_factory=list)  # (offset, value, block)
    ids: dict[I.LoadInst, int] = field(default_factory=dict)           # load -> index into ID_PARAMS


def _facts(f: Function, frame: Value | None) -> _Facts:
    fx = _Facts()
    wi = _arg(f, WI_NAME)
    id_offsets = _wi_id_offsets()
    for inst in f.instructions():
        if not isinstance(inst, (I.LoadInst, I.StoreInst)):
            continue
        ptr = inst.pointer
        off = field_offset(ptr, frame) if isinstance(ptr, I.Instruction) and frame is not None else None
        if isinstance(inst, I.StoreInst):
            if off is not None:
                fx.stores.append((off, inst.value, inst.parent))
            continue
        if off is not None:
            fx.field_loads[inst] = off
            fx.load_types.setdefault(off, set()).add(inst.type)
        elif wi is not None and inst.type == T.i64:
            wi_off = 0 if ptr is wi else field_offset(ptr, wi) if isinstance(ptr, I.Instruction) else None
            if wi_off in id_offsets:
                fx.ids[inst] = id_offsets[wi_off]
    return fx


def _condition(term: I.Instruction | None) -> Value | None:
    if isinstance(term, I.SwitchInst) or (isinstance(term, I.BranchInst) and len(term.operands) == 3):
        return term.operands[0]
    return None


def _uniform(f: Function, fx: _Facts, fields: set[int], wg: bool) -> tuple[set[Value], set[BasicBlock]]:
    """(uniform values, uniformly reached blocks): the greatest fixed point, given that the
    frame fields ``fields`` hold work-group-uniform values (``wg``: loads through the work-group
    info pointer are uniform too)."""
    params = {a for a in f.args if a.name not in (WI_NAME, RESUME_FRAME)}
    defs = [i for i in f.instructions() if not i.type.is_void]
    uni: set[Value] = set(defs) | params
    blocks = set(f.blocks)
    preds = {b: b.predecessors for b in f.blocks}
    wg_arg = _arg(f, WG_NAME)
    wg_ptrs: set[Value] = {wg_arg} if wg and wg_arg is not None else set()

    def uniform(v: Value) -> bool:
        return not _is_variable(v) or v in uni

    changed = True
    while changed:
        changed = False
        for inst in defs:
            if inst not in uni:
                continue
            op = inst.opcode
            if isinstance(inst, I.LoadInst):
                ok = fx.field_loads.get(inst) in fields or inst.pointer in wg_ptrs
            elif isinstance(inst, I.PhiInst):
                ok = inst.parent in blocks and all(uniform(v) for v in inst.operands
                                                   if not isinstance(v, BasicBlock))
            elif op in _PURE_OPS or (isinstance(inst, I.CallInst) and inst.called_function is not None
                                     and _PURE_CALL.fullmatch(inst.called_function.name)):
                ok = all(uniform(v) for v in inst.operands)
                if ok and isinstance(inst, I.GetElementPtrInst) and inst.operands[0] in wg_ptrs:
                    wg_ptrs.add(inst)
            else:
                ok = False
            if not ok:
                uni.discard(inst)
                changed = True
        for b in list(blocks):
            for p in preds[b]:
                cond = _condition(p.terminator)
                if p not in blocks or (cond is not None and not uniform(cond)):
                    blocks.discard(b)
                    changed = True
                    break
    return uni, blocks


def _reachable(sources: set[BasicBlock]) -> set[BasicBlock]:
    seen: set[BasicBlock] = set()
    todo = [s_ for b in sources for s_ in b.successors]
    while todo:
        b = todo.pop()
        if b not in seen:
            seen.add(b)
            todo += b.successors
    return seen


def analyse(ramp: Function, resume: Function) -> RegionValues | None:
    rf = _facts(ramp, frame_value(ramp, RAMP_FRAME))
    sf = _facts(resume, frame_value(resume, RESUME_FRAME))
    fields = {off for off, _, _ in rf.stores} | {off for off, _, _ in sf.stores}
    types: dict[int, set[T.Type]] = {}
    for fx in (rf, sf):
        for off, ts in fx.load_types.items():
            types.setdefault(off, set()).update(ts)
    resume_stored = {off for off, _, _ in sf.stores}
    for off in list(fields):
        if off not in sf.load_types or len(types[off]) != 1:
            fields.discard(off)
            continue
        # a reload of the field the resume function stored in the same region would see the new
        # value; the region loop passes the value of the region's start
        loads = {ld.parent for ld, o in sf.field_loads.items() if o == off}
        if off in resume_stored and _reachable({b for o, _, b in sf.stores if o == off}) & loads:
            fields.discard(off)
    while True:
        ru, rb = _uniform(ramp, rf, fields, True)
        su, sb = _uniform(resume, sf, fields, False)
        bad = {off for off, v, b in rf.stores if (_is_variable(v) and v not in ru) or b not in rb}
        bad |= {off for off, v, b in sf.stores if (_is_variable(v) and v not in su) or b not in sb}
        if not bad & fields:
            break
        fields -= bad
    rv = RegionValues(reloaded=set(sf.load_types))
    for off in fields:
        rv.uniform[off] = next(iter(types[off]))
    for off, v, _ in rf.stores:
        if (v in rf.ids and off not in resume_stored and types.get(off) == {T.i64}
                and sum(o == off for o, _, _ in rf.stores) == 1):
            rv.ids[off] = rf.ids[v]
    if not rv.uniform and not rv.ids:
        return None
    return rv


def _to_base(store: I.StoreInst, base: Value, off: int) -> None:
    """``store`` writes field ``off`` of work-item 0's frame ``base`` instead."""
    ptr = IRBuilder().position_before(store).gep(T.i8, base, [const(T.i64, off)], f"kk.base.{off}", ["inbounds"])
    store.set_operand(1, ptr)


def rewrite_resume(resume: Function, rv: RegionValues, index_offset: int) -> None:
    """Replace the reloads of the fields by new parameters, and let the stores of uniform fields,
    of the suspend index and of the "finished" mark go to work-item 0's frame ``%kk.base`` (the
    only copy read: every work-item stores the same value there)."""
    frame = frame_value(resume, RESUME_FRAME)
    params = [(ty, rv.uniform_param(off)) for off, ty in sorted(rv.uniform.items())]
    params += [(T.ptr, "kk.base"), *((T.i64, p) for p in ID_PARAMS)]
    new = add_parameters(resume, params)
    uniform = dict(zip(sorted(rv.uniform), new, strict=False))
    base, ids = new[len(uniform)], new[len(uniform) + 1:]
    shared = set(rv.uniform) | {index_offset}
    for inst in list(resume.instructions()):
        if not isinstance(inst, (I.LoadInst, I.StoreInst)):
            continue
        ptr = inst.pointer
        off = field_offset(ptr, frame) if isinstance(ptr, I.Instruction) else None
        if isinstance(inst, I.LoadInst) and off is not None and (off in uniform or off in rv.ids):
            inst.replace_all_uses_with(uniform[off] if off in uniform else ids[rv.ids[off]])
            inst.erase()
        elif isinstance(inst, I.StoreInst) and off in shared:
            _to_base(inst, base, off)
        elif isinstance(inst, I.StoreInst) and ptr is frame and isinstance(inst.value, ConstantSimple) \
                and inst.value.keyword == "null":
            inst.set_operand(1, base)


FRAMES_OFFSET = WorkGroupInfo.frames.offset


def rewrite_ramp(ramp: Function, rv: RegionValues, index_offset: int) -> None:
    """The ramp's stores of uniform fields and of fields no region reloads (the suspend index,
    the resume and destroy pointers) go to work-item 0's frame only (see :func:`rewrite_resume`)."""
    frame = frame_value(ramp, RAMP_FRAME)
    base = None
    for inst in list(ramp.instructions()):
        if inst is frame and isinstance(inst, I.CallInst) and inst.called_function is not None \
                and inst.called_function.name == "kk_frame_soa":
            b = IRBuilder().position_after(inst)
            fp = b.gep(T.i8, inst.args[1], [const(T.i64, FRAMES_OFFSET)], "kk.base.fp", ["inbounds"])
            base = b.load(T.ptr, fp, "kk.base")
            continue
        if base is None or not isinstance(inst, I.StoreInst):
            continue
        ptr = inst.pointer
        off = field_offset(ptr, frame) if isinstance(ptr, I.Instruction) else None
        if off is not None:
            if off in rv.uniform or off in rv.ids or off == index_offset or off not in rv.reloaded:
                _to_base(inst, base, off)
        elif ptr is frame:
            inst.set_operand(1, base)
