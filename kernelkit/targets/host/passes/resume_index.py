"""The suspend index of a split work-item coroutine as a parameter of its resume function.

CoroSplit's switch lowering stores the index of the suspend point a work-item stopped at in its
frame (``%index.addr``, an ``iN`` field) and the resume function dispatches on it. The region
driver (see :mod:`wrapper`) runs every work-item of a group with work-item 0's index, so the
resume function takes it as an ``i32`` parameter instead of loading it: a caller passing a
constant gets one region, once the resume function is inlined. The resume function is then no
longer one ``llvm.coro.resume`` can call: the ramp's stores of the resume and destroy functions into
the frame become stores of a marker (``@kk.running``), all the driver reads of that slot being
whether it is null (finished), so the standalone copies of both functions are not compiled.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Function, GlobalVariable, Module
from kernelkit.ir.transforms.editing import add_parameters
from kernelkit.ir.values import ConstantInt, const_int
from kernelkit.targets.host.passes.wrapper import ResumeInfo

INDEX_FIELD = "index.addr"   # CoroSplit's names for the suspend index's frame field and its load
INDEX_LOAD = "index"
MAX_SPECIALISED_REGIONS = 16  # each specialised region is a copy of the kernel's resume code
RUNNING = "kk.running"        # what a running work-item's frame holds for its resume function


def suspend_points(resume: Function) -> int:
    """The number of suspend indices the resume function's entry switch dispatches on."""
    for inst in resume.instructions():
        if isinstance(inst, I.SwitchInst):
            return sum(1 for _ in inst.cases())
    return 0


def _index_load(resume: Function) -> tuple[int, I.LoadInst] | None:
    for inst in resume.instructions():
        if (isinstance(inst, I.LoadInst) and inst.name == INDEX_LOAD
                and isinstance(inst.pointer, I.GetElementPtrInst) and inst.pointer.name == INDEX_FIELD
                and inst.pointer.source_type == T.i8 and len(inst.pointer.operands) == 2
                and isinstance(inst.pointer.operands[1], ConstantInt) and isinstance(inst.type, T.IntType)):
            return inst.pointer.operands[1].value, inst
    return None


def _byte_index_stores(f: Function, bits: int) -> None:
    """Stores of the ``i<bits>`` index become whole-byte stores (the loop vectoriser cannot
    handle i2 stores)."""
    for inst in list(f.instructions()):
        if (isinstance(inst, I.StoreInst) and inst.pointer.name.startswith(INDEX_FIELD)
                and isinstance(inst.value, ConstantInt) and inst.value.type == T.IntType(bits)):
            new = IRBuilder().position_before(inst).store(const_int(T.i8, inst.value.value % (1 << bits)),
                                                          inst.pointer, align=inst.align)
            new.metadata = dict(inst.metadata)
            inst.erase()


def _mark_running(module: Module, ramp: Function | None, functions: list[Function | None]) -> None:
    """The ramp's stores of ``functions`` (into the frame) store the marker instead."""
    if ramp is None:
        return
    marker = module.get_global(RUNNING)
    if marker is None:
        marker = module.add_global(GlobalVariable(RUNNING, T.i8, const_int(T.i8, 0), constant=True))
        marker.linkage = "internal"
    for fn in functions:
        for user in list(fn.users) if fn is not None else []:
            if isinstance(user, I.StoreInst) and user.value is fn and user.function is ramp:
                user.set_operand(0, marker)


def specialise_resume(module: Module, kernel: str, barriers: int) -> ResumeInfo | None:
    """Give ``<kernel>.resume`` the suspend index as a parameter; returns the ResumeInfo, or None
    if CoroSplit's output has another shape."""
    f = module.get_function(f"{kernel}.resume")
    if f is None or f.is_declaration or suspend_points(f) > barriers + 1:
        # the region driver runs every work-item of a group with work-item 0's suspend index, which
        # needs one suspend point per barrier (barriers.to_coroutine makes them noduplicate);
        # otherwise the generic rounds resume each work-item where it stopped
        return None
    found = _index_load(f)
    if found is None or found[1].type.bits > 32:
        return None
    offset, load = found
    bits = load.type.bits
    (idx,) = add_parameters(f, [(T.i32, "kk.idx")])
    if bits == 32:
        load.replace_all_uses_with(idx)
    else:
        b = IRBuilder().position_before(load)
        load.replace_all_uses_with(b.trunc(idx, load.type) if bits < 32 else b.zext(idx, load.type))
    load.erase()
    f.attributes.append("alwaysinline")
    _mark_running(module, module.get_function(kernel), [f, module.get_function(f"{kernel}.destroy")])
    # suspend indices 0..barriers-1 are the barriers (the last index is the final suspend)
    cases = barriers if barriers <= MAX_SPECIALISED_REGIONS else 0
    ty = f"i{bits}"
    if bits < 8:
        for g in (f, module.get_function(kernel)):
            _byte_index_stores(g, bits)
        ty = "i8"
    return ResumeInfo(f.name, offset, ty, cases)
