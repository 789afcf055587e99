"""Whole-function vectorisation of host kernels (`kernelkit.ir.transforms.packetise`), run on the
kernels once everything is inlined, before the work-item loops are built.

Build option `-cl-wfv=never|auto|always` (default auto): `auto` vectorises the kernels that have
loops of their own or barriers (a loop-free kernel is vectorised as well by LLVM's loop vectoriser
across the work-item loop, which it already is), `always` every kernel it can, `never` none. Kernels
with `__local` atomics are vectorised in auto mode too: the histogram benchmark (benchmarks/
host_vs_peers.py) runs 2.0x faster vectorised at 8 lanes and 2.7x at 16 on the AMD Zen 4 of session
10 (CPU 111 vs 220 ms, 83 vs 216 ms); an earlier session's contrary measurement on Zen 1 (1573 vs 1229 ms)
predates the packet coroutines and the per-lane atomics as they are now. `__local` atomics are plain read-modify-writes on the host; the W-lane copy makes
them atomics again, run per lane in lane order (`restore_local_atomics`). A
vectorised kernel `k` gets a W-lane copy `__vecz_v<W>_k`; the work-item loop runs it for W
consecutive work-items along x and the scalar kernel for the rest of the row. In a kernel with
barriers the barrier stays one call for the W lanes, so the copy becomes one coroutine per packet
of W work-items (see `barriers`, `wrapper`); such a kernel runs vectorised in the work-groups whose
size along x is a multiple of W. Sub-groups: a packet of W work-items in the W-lane code, one
work-item in scalar code (`transforms.sub_groups`); kernels using them are vectorised in auto mode,
and `intel_reqd_sub_group_size(N)` is honoured for N = 1 (scalar) and N a power of two up to 64
(the kernel is vectorised N lanes wide whatever -cl-wfv says; that must succeed), refused otherwise. Spec 003 metadata: `!codeplay_ca_vecz.base` on `k`,
`!codeplay_ca_vecz.derived` on the copy, `!codeplay_ca_vecz.base.fail` and a build-log line with
the reason when vectorisation fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.abi.opencl_types import ir_size_align
from kernelkit.errors import CompileError
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis.uniformity import WorkItemRoots
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.metadata import MDNode, ValueAsMetadata
from kernelkit.ir.module import Argument, Function, Module
from kernelkit.ir.transforms.packetise import VectorisationFailure, vectorise
from kernelkit.ir.values import ConstantInt, Value
from kernelkit.mux.builtins import uses_sub_groups
from kernelkit.targets.host.passes import local_atomics
from kernelkit.targets.host.sched import WORK_ITEM_FIELDS, field_index

WFV_OPTION = "-cl-wfv="
WFV_MODES = ("never", "auto", "always")
WI_ARG = "kk.wi"
# byte offsets in MuxWorkItemInfo: local_id[0..2], local_linear_id
_LOCAL_ID, _LINEAR = 0, 8 * 3
assert field_index(WORK_ITEM_FIELDS, "local_id") == 0 and field_index(WORK_ITEM_FIELDS, "local_linear_id") == 1


def wfv_mode(options) -> str:
    """The last `-cl-wfv=` of the build options (auto when absent); CompileError for another value."""
    from kernelkit.frontend.options import choice_option

    return choice_option(options, WFV_OPTION, WFV_MODES, "auto")


def host_vector_width(features: str | None = None) -> int:
    """f32 lanes of the host CPU's widest vector registers: 16 with AVX-512, 8 with AVX, else 4."""
    if features is None:
        from kernelkit.llvm_binding import llvm

        features = llvm().get_host_cpu_features().flatten()
    enabled = {f[1:] for f in features.split(",") if f.startswith("+")}
    if "avx512f" in enabled:
        return 16
    if "avx" in enabled:
        return 8
    return 4


# Registers per lane vector in the packets of kernels with loops (and no barriers), below AVX-512:
# two registers per packet give the out-of-order core two independent chains per loop iteration
# (latency-bound bodies: n-body's sqrt/divide, the multiply-add chains of a dot product). Measured
# on the AMD EPYC (AVX2) here, the same process alternating (benchmarks/host_vs_peers.py kernels,
# best of 3-5), 8 vs 16 lanes: sgemm naive 512 1.85x, n-body 4096 1.11x, stencil 1.00x faster.
LOOP_PACKET_REGISTERS = 2

# Registers per lane vector in the packets of kernels with barriers, below AVX-512. Such a kernel
# runs as one coroutine per packet, resumed once per packet in every region between barriers; two
# registers (16 lanes on AVX2) halve those resumptions. Measured on the AMD EPYC (AVX2) here, same
# load, 8 vs 16 lanes: reduce 1.14-1.34x, prefix scan 1.2x, tiled sgemm 512 1.1-1.2x faster.
BARRIER_PACKET_REGISTERS = 2


def packet_width(native: int, has_barriers: bool, uses_sub_groups: bool, has_loops: bool = False) -> int:
    """Lanes of a kernel's vectorised copy: ``native`` (the host's f32 lanes), doubled below
    AVX-512 for kernels with barriers or loops that do not use sub-groups (sub-group size = native
    width)."""
    if uses_sub_groups or native >= 16:
        return native
    if has_barriers:
        return native * BARRIER_PACKET_REGISTERS
    return native * LOOP_PACKET_REGISTERS if has_loops else native


def _offset_from(ptr: Value, base: Argument) -> int | None:
    """Constant byte offset of `ptr` from argument `base` (None: not from it, or not constant)."""
    total = 0
    while isinstance(ptr, I.GetElementPtrInst):
        ty: T.Type = ptr.source_type
        for i, index in enumerate(ptr.operands[1:]):
            if not isinstance(index, ConstantInt):
                return None
            if i == 0:
                total += index.value * ir_size_align(ty, 8)[0]
            elif isinstance(ty, T.LiteralStructType | T.NamedStructType):
                total += sum(_padded(ty, k) for k in range(index.value))
                ty = ty.elements[index.value]
            elif isinstance(ty, T.ArrayType | T.VectorType):
                ty = ty.element
                total += index.value * ir_size_align(ty, 8)[0]
            else:
                return None
        ptr = ptr.operands[0]
    return total if ptr is base else None


def _padded(struct: T.Type, k: int) -> int:
    """Bytes from member k's start to member k+1's (i64-only structures here: no padding)."""
    return ir_size_align(struct.elements[k], 8)[0]  # type: ignore[attr-defined]


@dataclass(frozen=True)
class HostWorkItemRoots(WorkItemRoots):
    """Roots of an inlined host kernel: its loads of MuxWorkItemInfo.local_id[0] and
    .local_linear_id (lanes one apart); local_id[1..2] are uniform across a packet."""

    wi: Argument | None = field(default=None, compare=False)

    def for_function(self, function: Function) -> HostWorkItemRoots:
        wi = next((a for a in function.args if a.name == WI_ARG), None)
        return HostWorkItemRoots(self.dimensions, wi)

    def classify(self, inst: I.Instruction) -> bool | None:
        if isinstance(inst, I.LoadInst) and self.wi is not None:
            off = _offset_from(inst.pointer, self.wi)
            if off in (_LOCAL_ID, _LINEAR):
                return True
            if off is not None:
                return False
            if _derived_from(inst.pointer, self.wi):
                return True   # a dimension chosen at run time
        return super().classify(inst)

    def stride(self, root: I.Instruction) -> int | None:
        if isinstance(root, I.LoadInst) and self.wi is not None:
            return 1 if _offset_from(root.pointer, self.wi) in (_LOCAL_ID, _LINEAR) else None
        return super().stride(root)


def _derived_from(ptr: Value, base: Argument) -> bool:
    while isinstance(ptr, I.GetElementPtrInst):
        ptr = ptr.operands[0]
    return ptr is base


def _has_loops(f: Function) -> bool:
    from kernelkit.ir.analysis import CFG, LoopForest

    return any(True for _ in LoopForest(CFG(f)))


BARRIER = "__mux_work_group_barrier"
LOCAL_ATOMIC_PREFIX = local_atomics.MARK[1:]
# intel_reqd_sub_group_size values the host honours: 1 (scalar code) or a packet width
REQUIRABLE_SUB_GROUP_SIZES = (1, 2, 4, 8, 16, 32, 64)


_SELECT_OPERATION = {pred: op for op, pred in local_atomics.SELECT_PREDICATES.items()}


def restore_local_atomics(g: Function) -> None:
    """Turn the plain read-modify-writes `local_atomics` made of `g`'s __local atomics back into
    `atomicrmw`s, which the packetiser runs once per lane in lane order (a vector load/op/store
    would update a word several lanes address as one access); the W-lane copy is lowered again
    afterwards."""
    for old in [i for i in g.instructions() if isinstance(i, I.LoadInst) and i.name.startswith(LOCAL_ATOMIC_PREFIX)]:
        found = _read_modify_write(old)
        if found is None:
            raise VectorisationFailure("atomics on __local memory whose read-modify-write was changed")
        operation, value, new, store, compare = found
        rmw = IRBuilder().position_before(old).atomicrmw(operation, old.pointer, value, "monotonic",
                                                         align=old.align)
        for inst in (store, new, compare):
            if inst is not None:
                inst.erase()
        old.replace_all_uses_with(rmw)
        old.erase()


def _read_modify_write(old: I.LoadInst):
    """(operation, operand, new value, store, compare or None) of `local_atomics`' sequence."""
    for user in old.users:
        if isinstance(user, I.BinaryOp) and user.operands[0] is old:
            new, operation, value, compare = user, user.opcode, user.operands[1], None
        elif isinstance(user, I.CompareInst) and user.operands[0] is old and user.predicate in _SELECT_OPERATION:
            selects = [u for u in user.users if isinstance(u, I.SelectInst) and u.operands[1] is old]
            if len(selects) != 1:
                continue
            new, operation, value, compare = selects[0], _SELECT_OPERATION[user.predicate], user.operands[1], user
        else:
            continue
        stores = [u for u in new.users if isinstance(u, I.StoreInst) and u.value is new and u.pointer is old.pointer]
        if len(stores) == 1 and len(new.uses) == 1 and (compare is None or len(compare.uses) == 1):
            return operation, value, new, stores[0], compare
    return None


def _has_barriers(f: Function) -> bool:
    return any(isinstance(i, I.CallInst) and i.called_function is not None
               and i.called_function.name == BARRIER for i in f.instructions())


def _uses_sub_groups(f: Function) -> bool:
    return any(isinstance(i, I.CallInst) and i.called_function is not None
               and uses_sub_groups(i.called_function.name) for i in f.instructions())


def _required_sub_group_size(f: Function) -> int | None:
    md = f.metadata.get("intel_reqd_sub_group_size")
    if md is None or not md.operands:
        return None
    value = getattr(md.operands[0], "value", None)
    return getattr(value, "value", None)


@dataclass
class VectorisedKernels:
    # kernel -> (vector function, W, whether it uses sub-groups: packets only in rows of whole packets)
    widths: dict[str, tuple[str, int, bool]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)


def vectorise_kernels(module: Module, kernels: list[str], options, width: int | None = None) -> VectorisedKernels:
    """Add the W-lane copies of the kernels of `module` to it (see the module docstring)."""
    mode = wfv_mode(options)
    native = width or host_vector_width()
    out = VectorisedKernels()
    for name in kernels:
        f = module.get_function(name)
        if f is None or f.is_declaration:
            continue
        required = _required_sub_group_size(f)
        if required is not None and required not in REQUIRABLE_SUB_GROUP_SIZES:
            raise CompileError(f"kernel {name}: intel_reqd_sub_group_size({required}) is not a host sub-group "
                               f"size: sub-groups are W work-items when the kernel is vectorised, W one of "
                               f"{', '.join(map(str, REQUIRABLE_SUB_GROUP_SIZES[1:]))} (default {native}, "
                               "the vector width), and 1 otherwise")
        width = required if required is not None else packet_width(native, _has_barriers(f), _uses_sub_groups(f), _has_loops(f))
        if width == 1 or (mode == "never" and required is None) or (
                mode == "auto" and required is None and not _has_loops(f) and not _has_barriers(f)
                and not _uses_sub_groups(f)):
            continue
        options_md = MDNode([ValueAsMetadata(ConstantInt(T.i32, width)), ValueAsMetadata(ConstantInt(T.i1, 0)),
                             ValueAsMetadata(ConstantInt(T.i32, 0))])
        wi = next((a for a in f.args if a.name == WI_ARG), None)
        try:
            if wi is None:
                raise VectorisationFailure("no work-item info parameter")
            g = vectorise(f, width, HostWorkItemRoots(frozenset({0}), wi), once_per_packet=frozenset({BARRIER}),
                          prepare=restore_local_atomics)
            local_atomics.lower_local_atomics([g])
        except VectorisationFailure as exc:
            if required is not None:
                raise CompileError(f"kernel {name}: intel_reqd_sub_group_size({required}) needs the kernel "
                                   f"vectorised, which failed: {exc.reason}") from exc
            f.metadata["codeplay_ca_vecz.base.fail"] = options_md
            out.log.append(f"kernelkit: kernel {name}: not vectorised (-cl-wfv={mode}): {exc.reason}")
            continue
        if not _has_barriers(f):   # (a coroutine copy stays visible until its entry calls it)
            g.linkage = "internal"
        f.metadata["codeplay_ca_vecz.base"] = MDNode([options_md, ValueAsMetadata(g)])
        g.metadata["codeplay_ca_vecz.derived"] = MDNode([options_md, ValueAsMetadata(f)])
        out.widths[name] = (g.name, width, _uses_sub_groups(f))
    return out
