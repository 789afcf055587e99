"""Work-item coroutine frames laid out structure-of-arrays, so region loops can vectorise.

CoroSplit gives each work-item a frame (array of structures: work-item ``l``'s field at byte
``off`` lives at ``frames + l * size + off``); a region loop over work-items then reads its live
values with a stride of a whole frame. After splitting, when every frame access of the ramp and
of the resume function is a constant-offset field access that stays inside one 8-byte word, the
frame is re-laid out in 8-byte columns: byte ``off`` of work-item ``l`` lives at
``base + (off // 8) * 8 * ROWS + l * 8 + off % 8``. The "frame pointer" of work-item ``l``
becomes ``base + l * 8`` and each field offset is rewritten to ``(off // 8) * 8 * ROWS +
off % 8``, so consecutive work-items' copies of a value are 8 bytes apart.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.module import Function, Module
from kernelkit.ir.values import ConstantInt, Value, const_int
from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE
from kernelkit.targets.host.passes.printf import type_size

WORD = 8
# rows of the re-laid-out frame: room for the largest work-group, plus padding so that rows are not
# a power of two apart (all of a work-item's fields would otherwise fall into the same cache set)
ROW_ITEMS = MAX_WORK_GROUP_SIZE + 8
RAMP_FRAME = "kk.coro.mem"      # the frame pointer in the ramp (kk_frame's result)
RESUME_FRAME = "kk.coro.hdl"    # the resume function's frame parameter


def soa_offset(off: int) -> int:
    return (off // WORD) * WORD * ROW_ITEMS + off % WORD


def field_offset(inst: I.Instruction, frame: Value) -> int | None:
    """``off`` if ``inst`` is ``getelementptr inbounds i8, ptr frame, i64 off``."""
    if (isinstance(inst, I.GetElementPtrInst) and inst.source_type == T.i8 and len(inst.operands) == 2
            and inst.operands[0] is frame and isinstance(inst.operands[1], ConstantInt)):
        return inst.operands[1].value
    return None


def _access_size(user: I.Instruction, ptr: Value) -> int | None:
    """Bytes a load/store accesses through ``ptr``, or None if ``user`` uses it otherwise."""
    if isinstance(user, I.LoadInst) and user.pointer is ptr:
        ty = user.type
    elif isinstance(user, I.StoreInst) and user.pointer is ptr and user.value is not ptr:
        ty = user.value.type
    else:
        return None
    try:
        return type_size(str(ty))
    except ValueError:
        return None


def frame_value(f: Function, name: str) -> Value | None:
    """The frame pointer of a ramp (the call named ``name``) or a resume function (its parameter)."""
    for a in f.args:
        if a.name == name:
            return a
    for inst in f.instructions():
        if inst.name == name:
            return inst
    return None


def convertible(frame: Value) -> bool:
    """Are all uses of ``frame`` word-contained constant-offset field accesses?"""
    for use in frame.uses:
        user = use.user
        off = field_offset(user, frame)
        if off is not None:
            for u in user.uses:
                size = _access_size(u.user, user)
                if size is None or off % WORD + size > WORD:
                    return False
            continue
        if isinstance(user, I.ReturnInst):
            continue
        size = _access_size(user, frame)
        if size is None or size > WORD:
            return False
    return True


def rewrite(frame: Value) -> None:
    for use in list(frame.uses):
        off = field_offset(use.user, frame)
        if off is not None:
            use.user.set_operand(1, const_int(T.i64, soa_offset(off)))


def add_allocator(module: Module) -> Function:
    """``kk_frame_soa(wi, wg, size)``: ``base + lin * 8`` in a per-thread block of
    ``round_up(size, 8) * ROWS`` bytes (allocated once per thread, freed by the loop entry)."""
    from kernelkit.targets.host.passes.barriers import add_frame_allocator

    return add_frame_allocator(module, "kk_frame_soa", row_items=ROW_ITEMS, inline=True)


def _drop_dereferenceable(attrs: list) -> list:
    return [a for a in attrs if not (isinstance(a, str) and a.startswith("dereferenceable"))]


def convert(module: Module, ramp: Function, resume: Function) -> bool:
    """Re-lay out one coroutine kernel's frames (ramp and resume); False if not possible."""
    mem, hdl = frame_value(ramp, RAMP_FRAME), frame_value(resume, RESUME_FRAME)
    if not (isinstance(mem, I.CallInst) and mem.called_function is not None
            and mem.called_function.name == "kk_frame" and hdl is not None):
        return False
    if not (convertible(mem) and convertible(hdl)):
        return False
    rewrite(mem)
    rewrite(hdl)
    # the frame parameter is no longer a 'size'-byte object
    for f in (ramp, resume):
        f.return_attributes = _drop_dereferenceable(f.return_attributes)
        for a in f.args:
            a.attributes = _drop_dereferenceable(a.attributes)
    soa = module.get_function("kk_frame_soa") or module.declare_function("kk_frame_soa", mem.function_type)
    for inst in ramp.instructions():
        if isinstance(inst, I.CallInst) and inst.called_function is not None \
                and inst.called_function.name == "kk_frame":
            inst.set_operand(0, soa)
            inst.calling_conv = ""
    return True
