"""Implicit loop barriers (horizontal inner-loop parallelisation, after PoCL's ImplicitLoopBarriers):
a work-group barrier at the top of an innermost loop whose every iteration all work-items of the
group run, so that the work-item loop becomes the innermost one: the barrier machinery (``barriers``,
``wrapper``) runs each iteration across all packets of the group before the next iteration starts.

Legal when the barrier is reached by all work-items of the group the same number of times: the
loop's header is reached by all or none of them (not a divergent block) and every work-item leaves
the loop in the same iteration (not a divergent loop), with the whole group as the lanes (uniformity
analysis with every work-item value as a root). The loop holds no barrier itself. Adding a barrier
to such a kernel only adds synchronisation: it cannot change the results of a kernel without data
races. One barrier per iteration (at the header, after its phis) is enough to separate the
iterations; PoCL also puts one before the latch, which would double the resumptions.

Cost rule (``-cl-loop-barriers=auto``, the default), per kernel against plain vectorisation: the
loop must hold a load that is contiguous across the work-items of dimension 0 (a packet reads
consecutive elements) and moves by a constant multiple of ``ALIASING_STEP`` bytes from one iteration
to the next: a packet running the loop alone then hits one cache set in every iteration (the naive
sgemm at n = 1024), while the group reads whole lines of one row per iteration. Nothing less: the
barriers are resumption points of one coroutine per packet, which costs more than it gives on
other walks (naive sgemm, run-time n, measured on the Zen 1 CPU here, group x a multiple of 16,
plain / with barriers: n = 1024 1.26x and 1.08x faster with them, n = 384 2.5x-3.5x slower, n = 1000
no gain), so a run-time step is not enough. The kernel must have no barrier of its own, no
``__local`` atomics (their work-items run one at a time) and be a kernel the vectoriser takes (the
group runs packets of W work-items). The packets need work-groups whose size along x is a multiple
of the packet width of kernels with barriers; in a group of another size every work-item runs as
its own coroutine, about 8x slower than plain vectorisation (n = 1024 with 8x8 groups, measured).
So: with a fixed local size (``reqd_work_group_size``, or a build specialised for the launch's local
size) the barriers go in only when its x is such a multiple; without one the binary keeps the
kernel both ways (a copy ``<kernel>.kk.plain`` without the barriers) and the entry
``kk.run.<kernel>`` chooses per launch by the enqueued local size along x.
``-cl-loop-barriers=always`` adds the barriers to every legal loop, ``never`` to none. Each kernel
that gets them is named in the build log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis import CFG, LoopForest
from kernelkit.ir.analysis.loops import Loop
from kernelkit.ir.analysis.strides import StrideAnalysis
from kernelkit.ir.analysis.uniformity import UniformityAnalysis, WorkItemRoots
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Argument, Function, Module
from kernelkit.ir.transforms.editing import clone_function
from kernelkit.ir.values import ConstantInt, Value
from kernelkit.targets.host.passes import local_atomics
from kernelkit.targets.host.passes.barriers import BARRIER, has_barriers
from kernelkit.targets.host.passes.vectorise import WI_ARG, HostWorkItemRoots

OPTION = "-cl-loop-barriers="
MODES = ("never", "auto", "always")
PLAIN_SUFFIX, LOOPS_SUFFIX = ".kk.plain", ".kk.loops"   # the copy without barriers; the entry with them
ALIASING_STEP = 4096              # bytes: a walk by multiples of this maps every iteration to one cache set
# __mux_work_group_barrier(id, scope, semantics, wi, wg): the work-group scope and the default semantics
# of OpenCL C's barrier(CLK_LOCAL_MEM_FENCE) as the host builtins emit them
BARRIER_ID = 0xFFFF               # (ids only tell barriers apart for debugging; the host does not read them)


def loop_barrier_mode(options) -> str:
    """The last ``-cl-loop-barriers=`` (auto when absent); CompileError for another value."""
    from kernelkit.frontend.options import choice_option

    return choice_option(options, OPTION, MODES, "auto")


def _from_argument(ptr: Value, base: Argument) -> bool:
    while isinstance(ptr, I.GetElementPtrInst):
        ptr = ptr.operands[0]
    return ptr is base


@dataclass(frozen=True)
class GroupRoots(HostWorkItemRoots):
    """Every load from the work-item's MuxWorkItemInfo (its local ids along all dimensions and its
    linear id) differs between the work-items of a group."""

    def for_function(self, function: Function) -> GroupRoots:
        return GroupRoots(self.dimensions, next((a for a in function.args if a.name == WI_ARG), None))

    def classify(self, inst: I.Instruction) -> bool | None:
        if isinstance(inst, I.LoadInst) and self.wi is not None and _from_argument(inst.pointer, self.wi):
            return True
        return super().classify(inst)


@dataclass(frozen=True)
class IterationRoots(WorkItemRoots):
    """The loop's induction variable as the only 'lane' root: strides are per iteration."""

    phi: I.PhiInst | None = field(default=None, compare=False)
    step: int | None = None

    def classify(self, inst: I.Instruction) -> bool | None:
        return True if inst is self.phi else None

    def stride(self, root: I.Instruction) -> int | None:
        return self.step if root is self.phi else None


def _induction(loop: Loop) -> tuple[I.PhiInst, int] | None:
    """An integer phi of the header that each latch advances by the same constant."""
    for phi in loop.header.phis():
        if not isinstance(phi.type, T.IntType):
            continue
        steps = set()
        for value, block in phi.incoming():
            if block not in loop:
                continue
            if isinstance(value, I.BinaryOp) and value.opcode == "add" and phi in value.operands:
                other = value.operands[1] if value.operands[0] is phi else value.operands[0]
                steps.add(other.value if isinstance(other, ConstantInt) else None)
            else:
                steps.add(None)
        if len(steps) == 1 and None not in steps:
            return phi, steps.pop()
    return None


def _aliasing_loads(f: Function, loop: Loop, lanes: StrideAnalysis) -> list[I.LoadInst]:
    """Loads of ``loop`` contiguous across the work-items of dimension 0 that move by a constant
    multiple of ALIASING_STEP bytes per iteration."""
    induction = _induction(loop)
    if induction is None:
        return []
    iterations = StrideAnalysis(UniformityAnalysis(f, IterationRoots(frozenset({0}), *induction)))
    out = []
    for block in loop.blocks:
        for inst in block.instructions:
            if not isinstance(inst, I.LoadInst) or not lanes.stride(inst.pointer).contiguous(lanes.size_of(inst.type)):
                continue
            step = iterations.stride(inst.pointer).step
            if step and step % ALIASING_STEP == 0:
                out.append(inst)
    return out


def candidate_loops(f: Function) -> list[Loop]:
    """The innermost loops of ``f`` that can take an implicit barrier (see the module docstring)."""
    cfg = CFG(f)
    loops = LoopForest(cfg)
    if not loops.reducible:
        return []
    group = UniformityAnalysis(f, GroupRoots(frozenset({0, 1, 2})).for_function(f), cfg=cfg, loops=loops)
    out = []
    for loop in _all_loops(loops):
        if loop.children or loop.header in group.divergent_blocks or group.is_divergent_loop(loop):
            continue
        if any(isinstance(i, I.CallInst) and i.called_function is not None and i.called_function.name == BARRIER
               for b in loop.blocks for i in b.instructions):
            continue
        out.append(loop)
    return out


def _all_loops(forest: LoopForest) -> list[Loop]:
    out, todo = [], list(forest)
    while todo:
        loop = todo.pop()
        out.append(loop)
        todo.extend(loop.children)
    return out


def profitable_loops(f: Function, loops: list[Loop]) -> list[Loop]:
    """The loops of ``loops`` the cost rule picks (see the module docstring)."""
    if not loops:
        return []
    lanes = StrideAnalysis(UniformityAnalysis(f, HostWorkItemRoots(frozenset({0})).for_function(f)))
    return [loop for loop in loops if _aliasing_loads(f, loop, lanes)]


def add_loop_barrier(module: Module, f: Function, loop: Loop) -> None:
    """A work-group barrier at the top of ``loop``'s header (after its phis)."""
    fnty = T.FunctionType(T.void, (T.i32, T.i32, T.i32, T.ptr, T.ptr))
    barrier = module.declare_function(BARRIER, fnty)
    wi, wg = f.args[-2], f.args[-1]
    from kernelkit.targets.host.builtins import BARRIER_SCOPE_WORK_GROUP, BARRIER_SEMANTICS_DEFAULT

    first = next(i for i in loop.header.instructions if not isinstance(i, I.PhiInst))
    b = IRBuilder().position_before(first)
    b.call(barrier, [const(T.i32, BARRIER_ID), const(T.i32, BARRIER_SCOPE_WORK_GROUP),
                     const(T.i32, BARRIER_SEMANTICS_DEFAULT), wi, wg], function_type=fnty)


def add_implicit_loop_barriers(module: Module, kernels: list[str], options, log: list[str],
                               exclude: frozenset[str] = frozenset(), local_sizes: dict | None = None,
                               packet: int = 1, copies: dict[str, str] | None = None) -> set[str]:
    """Add the barriers to the kernels of ``module`` (but ``exclude``) the mode and the cost rule
    choose; returns the kernels that got them. ``local_sizes``: the kernels' fixed local sizes;
    ``packet``: the packet width of kernels with barriers; ``copies`` receives kernel -> its copy
    without them (auto mode, no fixed local size)."""
    mode = loop_barrier_mode(options)
    if mode == "never":
        return set()
    from kernelkit.targets.host.passes.vectorise import wfv_mode

    chosen: set[str] = set()
    for name in kernels:
        f = module.get_function(name)
        if f is None or f.is_declaration or name in exclude or has_barriers(f) or not f.args \
                or f.args[-2].name != WI_ARG:
            continue
        if any(i.name.startswith(local_atomics.MARK[1:]) for i in f.instructions()):
            continue
        loops = candidate_loops(f)
        fixed = (local_sizes or {}).get(name)
        if mode == "auto":
            if wfv_mode(options) == "never" or (fixed is not None and fixed[0] % packet):
                continue
            loops = profitable_loops(f, loops)
            if loops and fixed is None and copies is not None:
                copies[name] = clone_function(f, name + PLAIN_SUFFIX).name
        for loop in loops:
            add_loop_barrier(module, f, loop)
        if loops:
            chosen.add(name)
            log.append(f"kernelkit: kernel {name}: implicit barriers in {len(loops)} loop(s) "
                       f"(-cl-loop-barriers={mode}): the work-item loop runs inside each iteration")
    return chosen


def vectorise_with_loop_barriers(text: str, kernels: list[str], options, vectorise, local_sizes: dict,
                                 packet: int):
    """``vectorise(module, kernels)`` (-> VectorisedKernels) of module ``text`` with the implicit
    loop barriers; in auto mode a kernel the vectoriser then does not take is built again without
    them (run per work-item, the barriers would cost more than they give). Returns the module (as
    kernelkit.ir), the vectoriser's result and the copies without barriers (kernel -> copy; see
    :func:`add_dispatchers`)."""
    from kernelkit.ir import parse

    log: list[str] = []
    copies: dict[str, str] = {}
    module = parse(text)
    chosen = add_implicit_loop_barriers(module, kernels, options, log, local_sizes=local_sizes, packet=packet,
                                        copies=copies)
    wfv = vectorise(module, kernels + list(copies.values()))
    lost = {k for k in chosen if k not in wfv.widths} if loop_barrier_mode(options) == "auto" else set()
    if lost:
        log = [line for line in log if not any(f"kernel {k}:" in line for k in lost)]
        log += [f"kernelkit: kernel {k}: no implicit loop barriers (-cl-loop-barriers=auto): not vectorised"
                for k in sorted(lost)]
        copies = {}
        module = parse(text)
        add_implicit_loop_barriers(module, kernels, options, [], frozenset(lost), local_sizes, packet, copies)
        wfv = vectorise(module, kernels + list(copies.values()))
    wfv.log[:0] = log
    return module, wfv, copies


def add_dispatchers(module: Module, copies: dict[str, str], packet: int) -> None:
    """``kk.run.<kernel>`` of each kernel of ``copies`` becomes a choice: the entry with the loop
    barriers when the enqueued local size along x is a multiple of ``packet``, else the copy's."""
    from kernelkit.targets.host.passes.sched_fields import wg_field
    from kernelkit.targets.host.passes.wrapper import entry_name

    for kernel, copy in copies.items():
        loops, plain = module.get_function(entry_name(kernel)), module.get_function(entry_name(copy))
        loops.name = entry_name(kernel) + LOOPS_SUFFIX
        loops.linkage = plain.linkage = "internal"
        choice = module.add_function(Function(entry_name(kernel), loops.function_type))
        choice.attributes = ["nounwind"]
        for a, b in zip(choice.args, loops.args, strict=True):
            a.name = b.name
        tmpl = choice.args[1]
        entry, with_loops, without = (choice.append_block(n) for n in ("entry", "loops", "plain"))
        b = IRBuilder(entry)
        x = b.load(T.i64, wg_field(b, tmpl, "enqueued_local_size", 0, "lx.p"), "lx")
        whole = b.icmp("eq", b.urem(x, const(T.i64, packet), "rem"), const(T.i64, 0), "packets")
        b.cbr(whole, with_loops, without)
        for block, target in ((with_loops, loops), (without, plain)):
            b.position_at_end(block)
            b.call(target, list(choice.args))
            b.ret_void()
