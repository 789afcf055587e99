"""Two-stage software pipelining of a single-block loop that writes no memory.

A loop body's instructions are split by their latency depth into stage 1 (the earlier half of the
body's dependency chain, with the induction and the exit test) and stage 2 (the rest). The loop is
rewritten so that one trip of its new body runs stage 1 of iteration ``k + 1`` and stage 2 of
iteration ``k``, which are independent of each other::

    prologue:  S1(0);                      br more(0), kernel, epilogue
    kernel:    S1(k + 1); S2(k);           br more(k + 1), kernel, epilogue
    epilogue:  S2(last);                   br exit

Stage 1's values that stage 2 needs are carried from one trip to the next by phis. Every iteration
still runs each of its instructions exactly once, on the same operands, and the loop-carried
recurrences of stage 2 (accumulators) keep their order: the results are bit-identical to the
original loop's. What changes is the order in which the instructions reach an out-of-order CPU:
two iterations' halves of the chain sit side by side in its scheduler, where before the window
held mostly the waiting tail of one iteration's chain (see :mod:`kernelkit.targets.host.passes.
loop_pipelining` for when the host uses it).

Conditions (the loop is left alone otherwise, :func:`pipeline_loop` returns a reason): one block,
which is its own only latch and its only exit (``br cond, body, exit`` in either order) and has one
predecessor outside the loop; no instruction writes memory or has other side effects (loads move
ahead of stage 2 of the previous iteration, which is safe only then); no header phi takes another
header phi as its next value; the exit condition falls in stage 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kernelkit.ir import instructions as I
from kernelkit.ir.analysis.uniformity import is_pure_call
from kernelkit.ir.module import BasicBlock, Function
from kernelkit.ir.transforms.editing import clone_instruction
from kernelkit.ir.values import Value

# opcodes a pipelined body may hold besides calls (every one writes no memory)
_ALLOWED = frozenset({
    "fneg", "add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem",
    "shl", "lshr", "ashr", "and", "or", "xor", "extractelement", "insertelement", "shufflevector",
    "extractvalue", "insertvalue", "getelementptr", "trunc", "zext", "sext", "fptrunc", "fpext", "fptoui",
    "fptosi", "uitofp", "sitofp", "ptrtoint", "inttoptr", "bitcast", "addrspacecast", "icmp", "fcmp",
    "phi", "select", "freeze", "load", "call", "br"})
# a stage-1 value stage 2 needs is computed again there when it takes at most this many
# instructions, none slower than this (cycles of the latency model)
RECOMPUTE_LIMIT, RECOMPUTE_LATENCY = 8, 5.0
# intrinsics that only read memory (they move like loads)
_READING_INTRINSICS = ("llvm.masked.gather.", "llvm.masked.load.")
# intrinsics is_pure_call lets through that are not plain values
_NOT_MOVABLE = ("llvm.lifetime.", "llvm.stacksave", "llvm.stackrestore", "llvm.coro.", "llvm.experimental.",
                "llvm.trap", "llvm.debugtrap")


@dataclass
class Stages:
    """The split of a loop body: ``first`` holds stage 1's instructions (phis included),
    ``invariant`` the instructions computed from loop-invariant values only (each stage computes
    its own copy); every other non-terminator instruction is in stage 2. ``critical_path``: the
    body's dependency chain in the latency model's cycles; ``recomputed``: stage-1 instructions
    stage 2 runs again on its own iteration's values rather than receive their results."""

    first: set[I.Instruction]
    invariant: set[I.Instruction]
    critical_path: float
    split_at: float
    recomputed: set[I.Instruction]


def _movable(inst: I.Instruction) -> bool:
    if inst.opcode not in _ALLOWED:
        return False
    if isinstance(inst, I.LoadInst):
        return not any(f in ("volatile", "atomic") for f in inst.flags) and "atomic" not in inst.opcode
    if isinstance(inst, I.CallInst):
        fn = inst.called_function
        if fn is None:
            return False
        if fn.name.startswith(_READING_INTRINSICS):
            return True
        return is_pure_call(inst) and not fn.name.startswith(_NOT_MOVABLE)
    return True


def loop_shape(block: BasicBlock) -> tuple[BasicBlock, BasicBlock] | str:
    """``(preheader, exit)`` of the single-block loop ``block``, or why it does not qualify."""
    term = block.terminator
    if not isinstance(term, I.BranchInst) or len(term.operands) != 3:
        return "the body does not end in a conditional branch"
    succs = term.successors()
    if block not in succs or succs[0] is succs[1]:
        return "the block is not a loop that exits from its end"
    exit_block = succs[1] if succs[0] is block else succs[0]
    outside = [p for p in block.predecessors if p is not block]
    if len(outside) != 1:
        return "the loop has more than one entering block"
    for phi in block.phis():
        if len(phi.operands) != 4:
            return "a header phi has other incoming blocks"
    return outside[0], exit_block


def analyse(block: BasicBlock, latency: Callable[[I.Instruction], float],
            keep_with_user: Callable[[I.Instruction], bool] = lambda inst: False) -> Stages | str:
    """The stage split of ``block`` (a loop, see :func:`loop_shape`), or why there is none.
    ``keep_with_user(inst)``: ``inst`` (with one user) must be in its user's stage (a pattern a
    later pass rewrites as a whole, such as ``1 / sqrt(x)``)."""
    body = [i for i in block.instructions if not i.is_terminator]
    members = set(body)
    for inst in body:
        if not _movable(inst):
            return f"the body holds {inst.opcode}, which may write memory or have side effects"
    phis = [p for p in body if isinstance(p, I.PhiInst)]
    for phi in phis:
        nxt = phi.value_for(block)
        if isinstance(nxt, I.PhiInst) and nxt in members:
            return "a header phi's next value is another header phi"
    # loop-invariant instructions: no operand computed in the loop, no memory read
    invariant: set[I.Instruction] = set()
    for inst in body:
        if isinstance(inst, I.PhiInst) or isinstance(inst, I.LoadInst) or isinstance(inst, I.CallInst):
            continue
        if all(op not in members or op in invariant for op in inst.operands):
            invariant.add(inst)
    # start time of every instruction (phis and invariants at 0)
    start: dict[I.Instruction, float] = {}
    finish: dict[I.Instruction, float] = {}
    for inst in body:
        if isinstance(inst, I.PhiInst) or inst in invariant:
            start[inst], finish[inst] = 0.0, 0.0
            continue
        t = max((finish[op] for op in inst.operands if op in finish), default=0.0)
        start[inst], finish[inst] = t, t + latency(inst)
    critical = max(finish.values(), default=0.0)
    split_at = critical / 2
    first = {i for i in body if i not in invariant and (isinstance(i, I.PhiInst) or start[i] < split_at)}
    cond = block.terminator.operands[0]
    # the exit test and the induction stay in stage 1 whatever their depth
    needed = [cond] if isinstance(cond, I.Instruction) and cond in members else []
    while needed:
        v = needed.pop()
        if v in invariant or (v in first and not isinstance(v, I.PhiInst)):
            continue
        if isinstance(v, I.PhiInst):
            v = v.value_for(block)
            if not (isinstance(v, I.Instruction) and v in members) or v in first:
                continue
        first.add(v)
        needed.extend(op for op in v.operands if isinstance(op, I.Instruction) and op in members)
    # a phi is in stage 1 when its next value is: stage 1 of iteration k + 1 cannot wait for stage 2 of k
    changed = True
    while changed:
        changed = False
        for phi in phis:
            nxt = phi.value_for(block)
            in_first = not (isinstance(nxt, I.Instruction) and nxt in members) or nxt in first or nxt in invariant
            if phi in first and not in_first:
                first.discard(phi)
                changed = True
        for inst in body:
            if inst in first and not isinstance(inst, I.PhiInst) and any(
                    op in members and op not in first and op not in invariant for op in inst.operands):
                first.discard(inst)
                changed = True
    if isinstance(cond, I.Instruction) and cond in members and cond not in first and cond not in invariant:
        return "the exit condition depends on the loop's later stage"
    # a cheap stage-1 value only stage 2 uses moves down (fewer values carried between trips), and
    # so does one that must stay with its stage-2 user
    changed = True
    while changed:
        changed = False
        for inst in reversed(body):
            if inst not in first or isinstance(inst, I.PhiInst) or inst is cond:
                continue
            users = [u.user for u in inst.uses]
            if not (latency(inst) <= 1 or (len(users) == 1 and keep_with_user(inst))):
                continue
            if users and all(u in members and u not in first and not isinstance(u, I.PhiInst) for u in users):
                first.discard(inst)
                changed = True
    second = [i for i in body if i not in first and i not in invariant]
    if not second or all(isinstance(i, I.PhiInst) for i in first):
        return "the body does not split into two stages"
    return Stages(first, invariant, critical, split_at, _recomputed(body, first, invariant, latency))


def _recomputed(body: list[I.Instruction], first: set[I.Instruction], invariant: set[I.Instruction],
                latency: Callable[[I.Instruction], float]) -> set[I.Instruction]:
    """Stage-1 values stage 2 computes again instead of receiving them through a phi: those whose
    instructions (back to stage-1 phis and invariants) are at most RECOMPUTE_LIMIT, none slower
    than RECOMPUTE_LATENCY. A value carried between trips holds its registers across the whole
    trip; a load and a subtraction again cost less than spilling it (the body writes no memory,
    so a load gives the same value twice)."""
    members = set(body)

    def chain(v: I.Instruction, out: set[I.Instruction]) -> bool:
        if v in out or v in invariant or isinstance(v, I.PhiInst):
            return True
        if v not in first or latency(v) > RECOMPUTE_LATENCY or len(out) >= RECOMPUTE_LIMIT:
            return False
        out.add(v)
        return all(chain(op, out) for op in v.operands if isinstance(op, I.Instruction) and op in members)

    second = [i for i in body if i not in first and i not in invariant]
    wanted = {op for i in second for op in i.operands
              if isinstance(op, I.Instruction) and op in first and not isinstance(op, I.PhiInst)}
    recomputed: set[I.Instruction] = set()
    for v in (i for i in body if i in wanted):
        out: set[I.Instruction] = set()
        if chain(v, out):
            recomputed |= out
    return recomputed


def pipeline_loop(block: BasicBlock, latency: Callable[[I.Instruction], float],
                  keep_with_user: Callable[[I.Instruction], bool] = lambda inst: False) -> str | None:
    """Pipeline the single-block loop ``block`` in two stages (module docstring); returns None when
    done, else the reason it was left alone."""
    shape = loop_shape(block)
    if isinstance(shape, str):
        return shape
    pre, exit_block = shape
    stages = analyse(block, latency, keep_with_user)
    if isinstance(stages, str):
        return stages
    _rewrite(block, pre, exit_block, stages)
    return None


def _rewrite(block: BasicBlock, pre: BasicBlock, exit_block: BasicBlock, stages: Stages) -> None:
    f: Function = block.parent
    term = block.terminator
    body = [i for i in block.instructions if not i.is_terminator]
    members = set(body)
    first, invariant = stages.first, stages.invariant
    phis = [p for p in body if isinstance(p, I.PhiInst)]
    first_phis = [p for p in phis if p in first]
    second_phis = [p for p in phis if p not in first]
    name = block.name or "loop"
    prologue = BasicBlock(f"{name}.pipe.pro")
    kernel = BasicBlock(f"{name}.pipe")
    epilogue = BasicBlock(f"{name}.pipe.epi")
    f.add_block(prologue, after=block)
    f.add_block(kernel, after=prologue)
    f.add_block(epilogue, after=kernel)

    def emit(target: BasicBlock, stage: list[I.Instruction], vmap: dict[Value, Value]) -> None:
        for inst in stage:
            c = clone_instruction(inst, vmap)
            target.append(c)
            vmap[inst] = c

    recomputed = stages.recomputed
    stage1 = [i for i in body if i in first and not isinstance(i, I.PhiInst)]
    stage2 = [i for i in body if i in recomputed or (i not in first and i not in invariant and not isinstance(i, I.PhiInst))]
    inv = [i for i in body if i in invariant]
    in_second = set(stage2)

    def used_later(v: I.Instruction) -> bool:
        """Used outside the loop, or by stage 2 without being computed there again."""
        if any(u.user is not term and u.user not in members for u in v.uses):
            return True
        return v not in recomputed and any(u.user in in_second for u in v.uses)

    carried = [v for v in body if v in first and used_later(v)]

    # prologue: stage 1 of iteration 0
    pro_map: dict[Value, Value] = {p: p.value_for(pre) for p in phis}
    emit(prologue, inv, pro_map)
    emit(prologue, stage1, pro_map)

    # kernel: header phis, stage 1 of iteration k + 1, stage 2 of iteration k
    ker1: dict[Value, Value] = {}
    ker2: dict[Value, Value] = {}

    def phis_for(values: list[I.Instruction], suffix: str, vmap: dict[Value, Value]) -> dict[Value, I.PhiInst]:
        out = {}
        for v in values:
            phi = I.PhiInst(v.type, "phi", (), f"{v.name}{suffix}" if v.name else "")
            kernel.append(phi)
            out[v] = vmap[v] = phi
        return out

    next_phis = phis_for(first_phis, ".next", ker1)         # at iteration k + 1
    carry_phis = phis_for(carried, ".carried", ker2)        # at iteration k
    acc_phis = phis_for(second_phis, "", ker2)              # at iteration k
    emit(kernel, inv, ker1)
    emit(kernel, stage1, ker1)
    ker2.update({i: ker1[i] for i in inv})
    emit(kernel, stage2, ker2)

    # epilogue: stage 2 of the last iteration
    epi: dict[Value, Value] = {}
    for v in carried:
        e = I.PhiInst(v.type, "phi", (), "")
        epilogue.append(e)
        e.add_incoming(pro_map[v], prologue)
        e.add_incoming(ker1[v], kernel)
        epi[v] = e
    for p in second_phis:
        e = I.PhiInst(p.type, "phi", (), "")
        epilogue.append(e)
        e.add_incoming(p.value_for(pre), prologue)
        e.add_incoming(ker2.get(p.value_for(block), p.value_for(block)), kernel)
        epi[p] = e
    emit(epilogue, inv, epi)
    emit(epilogue, stage2, epi)

    # the kernel's phis
    for p, q in next_phis.items():
        nxt = p.value_for(block)
        q.add_incoming(pro_map.get(nxt, nxt), prologue)
        q.add_incoming(ker1.get(nxt, nxt), kernel)
    for v, c in carry_phis.items():
        c.add_incoming(pro_map[v], prologue)
        c.add_incoming(ker1[v], kernel)
    for p, r in acc_phis.items():
        nxt = p.value_for(block)
        r.add_incoming(p.value_for(pre), prologue)
        r.add_incoming(ker2.get(nxt, nxt), kernel)

    # branches: prologue and kernel test "one more iteration", the epilogue leaves
    for target, vmap in ((prologue, pro_map), (kernel, ker1)):
        br = clone_instruction(term, vmap)
        for i, op in enumerate(br.operands):
            if op is block:
                br.set_operand(i, kernel)
            elif op is exit_block:
                br.set_operand(i, epilogue)
        if target is prologue:
            br.metadata.pop("llvm.loop", None)
        target.append(br)
    epi_br = I.BranchInst(term.type, "br", [exit_block])
    epilogue.append(epi_br)

    # the entering edge, the exit's phis and every use after the loop
    pre_term = pre.terminator
    for i, op in enumerate(pre_term.operands):
        if op is block:
            pre_term.set_operand(i, prologue)
    for phi in exit_block.phis():
        ops = phi.operands
        for i in range(1, len(ops), 2):
            if ops[i] is block:
                v = ops[i - 1]
                phi.set_operand(i - 1, epi.get(v, v) if v in members else v)
                phi.set_operand(i, epilogue)
    for inst in body:
        for use in list(inst.uses):
            if use.user in members or use.user is term:
                continue
            if getattr(use.user, "parent", None) in (prologue, kernel, epilogue):
                continue
            use.user.set_operand(use.index, epi[inst] if inst in epi else pro_map[inst])
    block.erase()
