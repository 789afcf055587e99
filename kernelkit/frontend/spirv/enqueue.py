"""SPIR-V device-side enqueue (OpenCL C 2.0, SPIR-V §3.52.19) -> the OpenCL C frontend's IR shape.

Types as clang 22 writes them: OpTypeQueue -> ``target("spirv.Queue")``, OpTypeDeviceEvent ->
``target("spirv.DeviceEvent")`` (kernelkit.frontend.spirv.types). Instructions:

* OpBuildNDRange -> the ``ndrange_t`` value clang's ``ndrange_1D/2D/3D`` returns, built in place: {work
  dimension, global work offset[3], global work size[3], local work size[3]}; the dimensions past the work
  dimension hold offset 0, size 1, local size 0 (what kernelkit's ndrange library writes);
* OpEnqueueKernel -> ``__enqueue_kernel_basic`` (no events, no local sizes), ``__enqueue_kernel_basic_events``,
  ``__enqueue_kernel_varargs`` or ``__enqueue_kernel_events_varargs`` (the local sizes as a size_t array), with
  the block kernel as ``addrspacecast (ptr @kernel to ptr addrspace(4))`` and the block literal (its captured
  context) as a generic pointer, as clang calls them;
* OpGetKernelWorkGroupSize, OpGetKernelPreferredWorkGroupSizeMultiple, OpGetKernelNDrange* ->
  ``__get_kernel_*_impl``;
* OpGetDefaultQueue, OpEnqueueMarker and the event instructions -> the OpenCL C builtins (clang's mangling).

The Invoke operand names the block kernel. The Khronos translator names the exported body of the block's
entry point (kernelkit.frontend.spirv.translate renames such bodies): the entry point itself is meant. Block
kernels get no kernel_arg_* metadata, as clang's have none (they are not source kernels).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import Instruction
from kernelkit.frontend.spirv.pipes import call_runtime
from kernelkit.ir import Function, GlobalVariable
from kernelkit.ir import types as T
from kernelkit.ir.values import ConstantExpr, ConstantSimple, const_int, poison
from kernelkit.mux.mangling import OclType, mangle

if TYPE_CHECKING:
    from kernelkit.frontend.spirv.instructions import FunctionTranslator

KERNEL_BODY_PREFIX = "__spirv_kernel_body_"
QUEUE_TYPE = T.TargetExtType("spirv.Queue")
DEVICE_EVENT_TYPE = T.TargetExtType("spirv.DeviceEvent")

_EVENT = (OclType("named", name="ocl_clkevent"), DEVICE_EVENT_TYPE)
_EVENT_POINTER = (OclType("pointer", element=_EVENT[0], address_space=4), T.pointer(4))
_CONST_EVENT_POINTER = (OclType("pointer", element=_EVENT[0], address_space=4, qualifiers=frozenset({"const"})),
                        T.pointer(4))
_INT, _UINT = (OclType.scalar("int"), T.i32), (OclType.scalar("uint"), T.i32)
# opcode -> (OpenCL C builtin, its parameters as (mangling type, IR type)); result type from the instruction
_BUILTINS: dict[str, tuple[str, tuple]] = {
    "GetDefaultQueue": ("get_default_queue", ()),
    "CreateUserEvent": ("create_user_event", ()),
    "IsValidEvent": ("is_valid_event", (_EVENT,)),
    "RetainEvent": ("retain_event", (_EVENT,)),
    "ReleaseEvent": ("release_event", (_EVENT,)),
    "SetUserEventStatus": ("set_user_event_status", (_EVENT, _INT)),
    "CaptureEventProfilingInfo": ("capture_event_profiling_info",
                                  (_EVENT, (OclType("named", name="clk_profiling_info"), T.i32),
                                   (OclType("pointer", element=OclType.scalar("void"), address_space=1),
                                    T.pointer(1)))),
    "EnqueueMarker": ("enqueue_marker", ((OclType("named", name="ocl_queue"), QUEUE_TYPE), _UINT,
                                         _CONST_EVENT_POINTER, _EVENT_POINTER)),
}
ENQUEUE_NO_RESULT = frozenset(("RetainEvent", "ReleaseEvent", "SetUserEventStatus", "CaptureEventProfilingInfo"))
# opcode -> (runtime function, operand index of the Invoke; an ND Range operand precedes it when > 2)
_KERNEL_QUERIES = {
    "GetKernelWorkGroupSize": ("__get_kernel_work_group_size_impl", 2),
    "GetKernelPreferredWorkGroupSizeMultiple": ("__get_kernel_preferred_work_group_size_multiple_impl", 2),
    "GetKernelNDrangeSubGroupCount": ("__get_kernel_sub_group_count_for_ndrange_impl", 3),
    "GetKernelNDrangeMaxSubGroupSize": ("__get_kernel_max_sub_group_size_for_ndrange_impl", 3),
}
ENQUEUE_OPS = frozenset({"BuildNDRange", "EnqueueKernel", *_BUILTINS, *_KERNEL_QUERIES})


def enqueue_instruction(t: FunctionTranslator, inst: Instruction) -> None:
    if inst.name == "BuildNDRange":
        _build_ndrange(t, inst)
    elif inst.name == "EnqueueKernel":
        _enqueue_kernel(t, inst)
    elif inst.name in _KERNEL_QUERIES:
        _kernel_query(t, inst)
    else:
        _builtin(t, inst)


def _operand(t: FunctionTranslator, inst: Instruction, k: int, want: T.Type, what: str):
    value = t.v(inst.operands[k])
    if value.type != want:
        raise FormatError(f"Op{inst.name}: {what} %{inst.operands[k]} is a {value.type}, not a {want}",
                          offset=inst.offset, field=f"Op{inst.name} {what}")
    return value


def _builtin(t: FunctionTranslator, inst: Instruction) -> None:
    fname, params = _BUILTINS[inst.name]
    first = 0 if inst.name in ENQUEUE_NO_RESULT else 2
    if len(inst.operands) != first + len(params):
        raise FormatError(f"Op{inst.name} has {len(inst.operands)} operands", offset=inst.offset,
                          field=f"Op{inst.name} operands")
    args = [_operand(t, inst, first + k, ir, f"operand {first + k}") for k, (_, ir) in enumerate(params)]
    ret = T.void if inst.name in ENQUEUE_NO_RESULT else t.rtype(inst)
    result = call_runtime(t, inst, mangle(fname, [ocl for ocl, _ in params]), ret, args)
    if inst.name not in ENQUEUE_NO_RESULT:
        t.set(inst, result)


def _build_ndrange(t: FunctionTranslator, inst: Instruction) -> None:
    """OpBuildNDRange (ndrange_t, result, GlobalWorkSize, LocalWorkSize, GlobalWorkOffset)."""
    st = t.rtype(inst)
    elements = getattr(st, "elements", None)
    if (not elements or len(elements) != 4 or elements[0] != T.i32
            or any(not (isinstance(e, T.ArrayType) and e.count == 3 and isinstance(e.element, T.IntType)
                        and e == elements[1]) for e in elements[1:])):
        raise FormatError(f"OpBuildNDRange result type {st} is not ndrange_t {{i32, [3 x size_t] x 3}}",
                          offset=inst.offset, field="OpBuildNDRange Result Type")
    size_t = elements[1].element
    gws, lws, off = (t.v(o) for o in inst.operands[2:5])
    shape = gws.type
    if shape == size_t:
        dims = 1
    elif isinstance(shape, T.ArrayType) and shape.element == size_t and shape.count in (2, 3):
        dims = shape.count
    else:
        raise FormatError(f"OpBuildNDRange GlobalWorkSize is a {shape}, not size_t or size_t[2|3]",
                          offset=inst.offset, field="OpBuildNDRange GlobalWorkSize")
    if lws.type != shape or off.type != shape:
        raise FormatError("OpBuildNDRange LocalWorkSize and GlobalWorkOffset must have GlobalWorkSize's type",
                          offset=inst.offset, field="OpBuildNDRange operands")
    b = t.b
    agg = b.insert_value(poison(st), const_int(T.i32, dims), [0])
    for field, value, fill in ((1, off, 0), (2, gws, 1), (3, lws, 0)):
        for k in range(3):
            if k >= dims:
                part = const_int(size_t, fill)
            else:
                part = value if dims == 1 else b.extract_value(value, [k])
            agg = b.insert_value(agg, part, [field, k])
    t.set(inst, agg)


def _block_kernel(t: FunctionTranslator, inst: Instruction, k: int):
    """The Invoke operand as clang passes a block kernel: ``addrspacecast (ptr @kernel to ptr addrspace(4))``."""
    fn = t.v(inst.operands[k])
    if not isinstance(fn, Function):
        raise FormatError(f"Op{inst.name}: Invoke %{inst.operands[k]} is not a function", offset=inst.offset,
                          field=f"Op{inst.name} Invoke")
    if fn.name.startswith(KERNEL_BODY_PREFIX):
        fn = t.m.ir.get_function(fn.name[len(KERNEL_BODY_PREFIX):]) or fn
    if not fn.args or fn.args[0].type != T.pointer(4):
        raise FormatError(f"Op{inst.name}: Invoke {fn.name} does not take the block literal (a generic pointer) first",
                          offset=inst.offset, field=f"Op{inst.name} Invoke")
    t.m.block_kernels.add(fn.name)
    return ConstantExpr(T.pointer(4), "addrspacecast", [fn])


def _block_literal(t: FunctionTranslator, inst: Instruction, k: int):
    """The Param operand (the block literal, a generic pointer); a literal in global memory (a block
    capturing nothing) as clang writes it, a constant cast of the global."""
    value = _operand(t, inst, k, T.pointer(4), "Param")
    if getattr(value, "opcode", None) == "addrspacecast" and isinstance(value.operands[0], GlobalVariable):
        return ConstantExpr(T.pointer(4), "addrspacecast", [value.operands[0]])
    return value


def _kernel_query(t: FunctionTranslator, inst: Instruction) -> None:
    fname, invoke_at = _KERNEL_QUERIES[inst.name]
    if len(inst.operands) != invoke_at + 4:
        raise FormatError(f"Op{inst.name} has {len(inst.operands)} operands", offset=inst.offset,
                          field=f"Op{inst.name} operands")
    args = [_block_kernel(t, inst, invoke_at), _block_literal(t, inst, invoke_at + 1)]
    if invoke_at > 2:
        args.insert(0, _operand(t, inst, 2, T.pointer(0), "ND Range"))
    t.set(inst, call_runtime(t, inst, fname, t.rtype(inst), args))


def _is_null(value) -> bool:
    return isinstance(value, ConstantSimple) and value.keyword in ("null", "zeroinitializer")


def _enqueue_kernel(t: FunctionTranslator, inst: Instruction) -> None:
    """OpEnqueueKernel (i32, result, Queue, Flags, ND Range, Num Events, Wait Events, Ret Event, Invoke, Param,
    Param Size, Param Align, Local Size...)."""
    ops = inst.operands
    if len(ops) < 12:
        raise FormatError(f"OpEnqueueKernel has {len(ops)} operands", offset=inst.offset, field="OpEnqueueKernel operands")
    head = [_operand(t, inst, 2, QUEUE_TYPE, "Queue"), _operand(t, inst, 3, T.i32, "Flags"),
            _operand(t, inst, 4, T.pointer(0), "ND Range")]
    events = [_operand(t, inst, 5, T.i32, "Num Events"), _operand(t, inst, 6, T.pointer(4), "Wait Events"),
              _operand(t, inst, 7, T.pointer(4), "Ret Event")]
    block = [_block_kernel(t, inst, 8), _block_literal(t, inst, 9)]
    with_events = not (getattr(events[0], "value", None) == 0 and _is_null(events[1]) and _is_null(events[2]))
    locals_ = _local_sizes(t, inst, ops[12:])
    args = head + (events if with_events else []) + block + locals_
    fname = "__enqueue_kernel_" + ("events_varargs" if with_events and locals_ else "varargs" if locals_
                                   else "basic_events" if with_events else "basic")
    t.set(inst, call_runtime(t, inst, fname, t.rtype(inst), args))


def _local_sizes(t: FunctionTranslator, inst: Instruction, ids: tuple[int, ...]) -> list:
    """The Local Size operands as clang passes them: their count and a pointer to a size_t array of them
    (the translator's operands point into such an array already: the first one is its start)."""
    if not ids:
        return []
    values = [t.v(i) for i in ids]
    if all(isinstance(v.type, T.PointerType) and v.type.addrspace == 0 for v in values):
        return [const_int(T.i32, len(values)), values[0]]
    size_t = T.IntType(t.m.pointer_bits)
    if any(v.type != size_t for v in values):
        raise FormatError(f"OpEnqueueKernel Local Size operands must all be {size_t} or all private pointers to them",
                          offset=inst.offset, field="OpEnqueueKernel Local Size")
    from kernelkit.ir import IRBuilder

    array = IRBuilder().position_at_start(t.entry).alloca(T.ArrayType(size_t, len(values)), align=size_t.bits // 8)
    for k, v in enumerate(values):
        t.b.store(v, t.b.gep(T.ArrayType(size_t, len(values)), array, [const_int(T.i64, 0), const_int(T.i64, k)]))
    return [const_int(T.i32, len(values)), array]
