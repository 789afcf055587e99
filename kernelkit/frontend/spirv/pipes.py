"""SPIR-V pipes (OpenCL C 2.0, SPIR-V §3.52.20) -> the OpenCL C frontend's IR shape.

Types as clang 22 writes them: OpTypePipe -> ``target("spirv.Pipe", <access>)`` (0 read_only, 1 write_only),
OpTypeReserveId -> ``target("spirv.ReserveId")``. Each pipe instruction becomes the runtime call clang makes
for the OpenCL C builtin (packet size and alignment passed as i32, the packet pointer generic):

=============================================  ==========================================================
OpReadPipe / OpWritePipe                       ``__read_pipe_2`` / ``__write_pipe_2``
OpReservedReadPipe / OpReservedWritePipe       ``__read_pipe_4`` / ``__write_pipe_4``
OpReserve{Read,Write}PipePackets               ``__reserve_read_pipe`` / ``__reserve_write_pipe``
OpCommit{Read,Write}Pipe                       ``__commit_read_pipe`` / ``__commit_write_pipe``
OpGroupReserve*/OpGroupCommit* (scope)         ``__work_group_*`` / ``__sub_group_*`` of the above
OpGetNumPipePackets / OpGetMaxPipePackets      ``__get_pipe_{num,max}_packets_{ro,wo}``
OpIsValidReserveId                             ``is_valid_reserve_id`` (mangled)
=============================================  ==========================================================

A pipe kernel argument's OpenCL C type is its packet type, which SPIR-V's OpTypePipe does not carry:
``packet_type`` finds it where the kernel reads or writes the pipe, from the type of the variable the packet
pointer was cast from (the packet size must agree), else from the packet size alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import Instruction
from kernelkit.formats.spirv import tables as S
from kernelkit.ir import types as T
from kernelkit.mux.mangling import OclType, mangle

if TYPE_CHECKING:
    from kernelkit.frontend.spirv.instructions import FunctionTranslator
    from kernelkit.frontend.spirv.translate import SpirvTranslator

# §3.37 Access Qualifier -> OpenCL C access qualifier of a pipe (clang's target("spirv.Pipe", N) uses the same N)
PIPE_ACCESS = {0: "read_only", 1: "write_only", 2: "read_write"}
RESERVE_ID_TYPE = T.TargetExtType("spirv.ReserveId")

# opcode -> (runtime function, pipe access it needs, operand index of the pipe, of the scope (-1: none));
# the operands after the pipe are passed in order (reserve id, index, packet pointer, counts, size, align)
PIPE_CALLS: dict[str, tuple[str, int, int, int]] = {
    "ReadPipe": ("__read_pipe_2", 0, 2, -1),
    "WritePipe": ("__write_pipe_2", 1, 2, -1),
    "ReservedReadPipe": ("__read_pipe_4", 0, 2, -1),
    "ReservedWritePipe": ("__write_pipe_4", 1, 2, -1),
    "ReserveReadPipePackets": ("__reserve_read_pipe", 0, 2, -1),
    "ReserveWritePipePackets": ("__reserve_write_pipe", 1, 2, -1),
    "CommitReadPipe": ("__commit_read_pipe", 0, 0, -1),
    "CommitWritePipe": ("__commit_write_pipe", 1, 0, -1),
    "GroupReserveReadPipePackets": ("reserve_read_pipe", 0, 3, 2),
    "GroupReserveWritePipePackets": ("reserve_write_pipe", 1, 3, 2),
    "GroupCommitReadPipe": ("commit_read_pipe", 0, 1, 0),
    "GroupCommitWritePipe": ("commit_write_pipe", 1, 1, 0),
    "GetNumPipePackets": ("__get_pipe_num_packets", -1, 2, -1),
    "GetMaxPipePackets": ("__get_pipe_max_packets", -1, 2, -1),
}
PIPE_NO_RESULT = frozenset(("CommitReadPipe", "CommitWritePipe", "GroupCommitReadPipe", "GroupCommitWritePipe"))
# opcode -> operand index of the packet pointer (the packet size and alignment follow it)
_PACKET_POINTER = {"ReadPipe": 3, "WritePipe": 3, "ReservedReadPipe": 5, "ReservedWritePipe": 5}
# the packet size operand of the instructions without a packet pointer
_PACKET_SIZE = {"ReserveReadPipePackets": 4, "ReserveWritePipePackets": 4, "CommitReadPipe": 2,
                "CommitWritePipe": 2, "GroupReserveReadPipePackets": 5, "GroupReserveWritePipePackets": 5,
                "GroupCommitReadPipe": 3, "GroupCommitWritePipe": 3, "GetNumPipePackets": 3,
                "GetMaxPipePackets": 3}
_SCOPE_PREFIX = {S.SCOPE_WORKGROUP: "__work_group_", S.SCOPE_SUBGROUP: "__sub_group_"}
# packet sizes -> the OpenCL C type a packet of that size and alignment is, when nothing else tells
_SIZE_NAMES = {1: "char", 2: "short", 4: "int", 8: "long", 16: "int4", 32: "long4", 64: "long8", 128: "long16"}


def pipe_type(inst: Instruction) -> T.TargetExtType:
    """OpTypePipe (result, access qualifier)."""
    access = inst.operands[1]
    if access not in PIPE_ACCESS:
        raise FormatError(f"OpTypePipe access qualifier {access}", offset=inst.offset + 8,
                          field="OpTypePipe access qualifier")
    return T.TargetExtType("spirv.Pipe", (), (access,))


def pipe_instruction(t: FunctionTranslator, inst: Instruction) -> None:
    """One pipe instruction as the OpenCL C frontend's runtime call."""
    name, ops = inst.name, inst.operands
    callee, needs, pipe_at, scope_at = PIPE_CALLS[name]
    pipe = t.v(ops[pipe_at])
    if not (isinstance(pipe.type, T.TargetExtType) and pipe.type.name == "spirv.Pipe"):
        raise FormatError(f"Op{name}: operand %{ops[pipe_at]} is not a pipe", offset=inst.offset,
                          field=f"Op{name} Pipe")
    access = pipe.type.ints[0] if pipe.type.ints else 0
    if needs >= 0 and access != needs:
        raise FormatError(f"Op{name} on a {PIPE_ACCESS.get(access, access)} pipe", offset=inst.offset,
                          field=f"Op{name} Pipe")
    if needs < 0:
        callee += "_ro" if access == 0 else "_wo"
    if scope_at >= 0:
        scope = t.m.constant_int(ops[scope_at])
        if scope not in _SCOPE_PREFIX:
            raise FormatError(f"Op{name} at scope {scope} (OpenCL has work-group and sub-group ones)",
                              offset=inst.offset, field=f"Op{name} Execution")
        callee = _SCOPE_PREFIX[scope] + callee
    args = [pipe]
    pointer_at = _PACKET_POINTER.get(name)
    for k in range(pipe_at + 1, len(ops)):
        value = t.v(ops[k])
        if k == pointer_at:
            args.append(_generic_packet_pointer(t, inst, value))
        elif isinstance(value.type, T.TargetExtType) and value.type.name == "spirv.ReserveId":
            args.append(value)
        elif value.type == T.i32:
            args.append(value)
        else:
            raise FormatError(f"Op{name}: operand %{ops[k]} is a {value.type}, not a 32-bit integer or a reserve id",
                              offset=inst.offset, field=f"Op{name} operand {k}")
    if len(args) != _arity(name):
        raise FormatError(f"Op{name} has {len(ops)} operands", offset=inst.offset, field=f"Op{name} operands")
    ret = T.void if name in PIPE_NO_RESULT else t.rtype(inst)
    result = call_runtime(t, inst, callee, ret, args)
    if name not in PIPE_NO_RESULT:
        t.set(inst, result)


def is_valid_reserve_id(t: FunctionTranslator, inst: Instruction) -> None:
    """OpIsValidReserveId (bool, result, reserve id): OpenCL C's ``is_valid_reserve_id``."""
    reserve = t.v(inst.operands[2])
    if reserve.type != RESERVE_ID_TYPE:
        raise FormatError(f"OpIsValidReserveId: %{inst.operands[2]} is not a reserve id", offset=inst.offset,
                          field="OpIsValidReserveId Reserve Id")
    name = mangle("is_valid_reserve_id", [OclType("named", name="ocl_reserveid")])
    t.set(inst, call_runtime(t, inst, name, T.i1, [reserve]))


def _arity(name: str) -> int:
    """Arguments of the runtime call: the pipe plus the operands after it."""
    return {"ReadPipe": 4, "WritePipe": 4, "ReservedReadPipe": 6, "ReservedWritePipe": 6,
            "ReserveReadPipePackets": 4, "ReserveWritePipePackets": 4, "CommitReadPipe": 4, "CommitWritePipe": 4,
            "GroupReserveReadPipePackets": 4, "GroupReserveWritePipePackets": 4, "GroupCommitReadPipe": 4,
            "GroupCommitWritePipe": 4, "GetNumPipePackets": 3, "GetMaxPipePackets": 3}[name]


def _generic_packet_pointer(t: FunctionTranslator, inst: Instruction, value):
    """The packet pointer as clang passes it: a generic pointer (cast from any other address space)."""
    if not isinstance(value.type, T.PointerType):
        raise FormatError(f"Op{inst.name}: the packet pointer is a {value.type}", offset=inst.offset,
                          field=f"Op{inst.name} Pointer")
    return value if value.type.addrspace == 4 else t.b.addrspacecast(value, T.pointer(4))


def call_runtime(t: FunctionTranslator, inst: Instruction, name: str, ret: T.Type, args: list):
    """A call of the runtime function ``name`` (declared on first use; a later use of another type is malformed)."""
    ftype = T.FunctionType(ret, tuple(a.type for a in args))
    fn = t.m.declare_builtin(name, ret, [a.type for a in args])
    if fn.function_type != ftype:
        raise FormatError(f"Op{inst.name}: {name} called as {ftype}, elsewhere as {fn.function_type}",
                          offset=inst.offset, field=f"Op{inst.name} operands")
    return t.b.call(fn, args)


def packet_type(m: SpirvTranslator, pid: int) -> str:
    """The OpenCL C packet type of pipe parameter ``pid``: the pointee type of the variable each packet
    pointer comes from (when its size is the packet size), else the integer or vector type of the packet's
    size; ``int`` for a pipe the kernel never uses."""
    found: set[str] = set()
    sizes: set[int] = set()
    for inst in _pipe_uses(m, pid):
        size_at = _PACKET_POINTER[inst.name] + 1 if inst.name in _PACKET_POINTER else _PACKET_SIZE.get(inst.name)
        if size_at is None or size_at >= len(inst.operands):
            continue
        size = _constant(m, inst.operands[size_at])
        if size is None:
            continue
        sizes.add(size)
        if inst.name in _PACKET_POINTER:
            name = _pointer_origin_type(m, inst.operands[_PACKET_POINTER[inst.name]], size)
            if name is not None:
                found.add(name)
    if len(found) == 1:
        return found.pop()
    if len(sizes) == 1:
        size = sizes.pop()
        return _SIZE_NAMES.get(size, "int")
    return "int"


def _constant(m: SpirvTranslator, rid: int) -> int | None:
    value = m.values.get(rid)
    return int(value.value) if value is not None and isinstance(getattr(value, "value", None), int) else None


def _pipe_uses(m: SpirvTranslator, pid: int) -> list[Instruction]:
    """The pipe instructions reached by parameter ``pid``'s value: through stores to and loads from
    variables, copies, phis, selects and calls of defined functions."""
    from kernelkit.frontend.spirv.pointee import use_index, walk_uses

    uses, _ = use_index(m)
    out = []

    def step(inst: Instruction, value: int, follow) -> bool:
        ops = inst.operands
        if inst.name in PIPE_CALLS:
            if PIPE_CALLS[inst.name][2] < len(ops) and ops[PIPE_CALLS[inst.name][2]] == value:
                out.append(inst)
        elif inst.name == "Store" and len(ops) > 1 and ops[1] == value:
            for load in uses.get(ops[0], ()):
                if load.name == "Load" and len(load.operands) > 2 and load.operands[2] == ops[0]:
                    follow(load.operands[1])
        elif inst.name in ("CopyObject", "Phi", "Select") and len(ops) > 2 and value in ops[2:]:
            follow(ops[1])
        return True

    walk_uses(m, pid, step)
    return out


_CASTS = frozenset(("Bitcast", "PtrCastToGeneric", "GenericCastToPtr", "GenericCastToPtrExplicit", "CopyObject"))


def _pointer_origin_type(m: SpirvTranslator, rid: int, size: int) -> str | None:
    """Follow a packet pointer back through casts to the pointer it was made from; the OpenCL C name of the
    first pointee on the way whose size is ``size`` (the bytes the pipe moves), from the variable back."""
    from kernelkit.abi.opencl_types import ir_size_align

    definitions = _definitions(m)
    chain = []
    for _ in range(64):
        tid = m.value_types.get(rid)
        if tid is None or tid not in m.types.defs or m.types.defs[tid].name != "TypePointer":
            break
        chain.append(m.types.pointee(tid))
        inst = definitions.get(rid)
        if inst is None or inst.name not in _CASTS or len(inst.operands) < 3:
            break
        rid = inst.operands[2]
    for pointee in reversed(chain):
        ty = m.types.ir.get(pointee)
        if ty is None or ty == T.i8 or isinstance(ty, T.TargetExtType | T.VoidType):
            continue
        try:
            if ir_size_align(ty, m.pointer_bits // 8)[0] == size:
                return m.types.opencl_name(pointee)
        except (ValueError, KeyError, FormatError):
            return None
    return None


def _definitions(m: SpirvTranslator) -> dict[int, Instruction]:
    """result id -> its defining instruction inside functions (built once per module)."""
    cached = getattr(m, "_pipe_definitions", None)
    if cached is None:
        cached = {}
        inside = False
        for inst in m.spv.instructions:
            if inst.name == "Function":
                inside = True
            elif inst.name == "FunctionEnd":
                inside = False
            elif inside and inst.name in _CASTS and len(inst.operands) > 2:
                cached[inst.operands[1]] = inst
        m._pipe_definitions = cached
    return cached
