"""Loop masks for whole-function vectorisation (vecz's divergent-loop handling): every loop whose
lanes may leave it in different iterations, or that runs under divergent control, becomes a loop
that runs while any lane of the packet is still in it, with a per-lane `active` flag carried
around it.

For a loop with header H, latches and exit edges X_k -> E_k, `mask_divergent_loops` builds (per
work-item the function computes what it computed before; `ANY_LANE` is the identity there):

    P:   phis of H's incoming values from outside the loop; br NH
    NH:  active = phi [true, P], [active', L]; H's phis; exit = phi ...; live-out phis
         br active, H, L                            (the old body runs for the active lanes)
    H .. latches: br .., L ..                       (back edges now go to L)
    X_k: br .., T_k ..;  T_k: br L                  (an exit leaves through its stub)
    L:   active' = phi [active, NH], [true, latch], [false, T_k]
         exit'   = phi [exit, NH],  [exit, latch],  [k, T_k]       (with several exits)
         v'      = phi [v0, NH],    [v0, latch],    [v, T_k]       (per live-out v; v0 its NH phi)
         H's phis' next values: phi [p, NH], [latch value, latch], [p, T_k]
         br ANY_LANE(active'), NH, D
    D:   switch exit' -> D_k;  D_k: br E_k         (E_k's phis read v' from D_k)

In the packetised function `active` is the loop mask (in a divergent region it starts as the
region's mask at the loop), L's phis become the per-lane blends of the exit masks and live-out
values, the branch at L is uniform (the loop runs while any lane is active) and the exit switch is
an ordinary divergent region. The first incoming value of every L phi is the one from NH (the
lanes that were already inactive keep their value; `Packetiser._phi_to_select` starts from it).
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis import CFG
from kernelkit.ir.analysis.loops import Loop
from kernelkit.ir.analysis.uniformity import UniformityAnalysis
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import BasicBlock, Function
from kernelkit.ir.values import ConstantInt, ConstantSimple, Value

# i1 -> i1: true when the argument is true in any lane of the packet (the identity per work-item)
ANY_LANE = "__kk_vecz_any_lane"


@dataclass(eq=False)
class MaskedLoop:
    header: BasicBlock       # NH: the loop mask `active` and the carried values
    latch: BasicBlock        # L: the blends; br any(active'), header, dispatch
    preheader: BasicBlock    # P
    active: I.PhiInst


class MaskedLoopRoots:
    """The roots of the wrapped analysis, plus `ANY_LANE` calls as packet-uniform collectives."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.dimensions = inner.dimensions

    def classify(self, inst: I.Instruction) -> bool | None:
        return self.inner.classify(inst)

    def stride(self, root: I.Instruction) -> int | None:
        return self.inner.stride(root)

    def collective(self, inst: I.Instruction) -> bool:
        fn = inst.called_function if isinstance(inst, I.CallInst) else None
        return (fn is not None and fn.name == ANY_LANE) or self.inner.collective(inst)

    def for_function(self, function: Function) -> MaskedLoopRoots:
        return MaskedLoopRoots(self.inner.for_function(function))


def mask_divergent_loops(g: Function, roots) -> list[MaskedLoop]:
    """Give loop masks to the divergent loops of `g` and to the loops under divergent control,
    outermost first (see the module docstring); returns them, outer loops first."""
    roots = roots if isinstance(roots, MaskedLoopRoots) else MaskedLoopRoots(roots)
    done: list[MaskedLoop] = []
    headers: set[BasicBlock] = set()
    while True:
        ua = UniformityAnalysis(g, roots, cfg=CFG(g))
        if not ua.loops.reducible:
            return done
        todo = [lp for lp in ua.loops if lp.header not in headers
                and (lp in ua.divergent_loops or lp.header in ua.divergent_blocks)]
        if not todo:
            return done
        loop = min(todo, key=lambda lp: lp.depth)
        masked = _mask_loop(g, loop, ua, len(done))
        done.append(masked)
        headers.add(masked.header)


def any_lane_function(g: Function) -> Function:
    fnty = T.FunctionType(T.i1, (T.i1,))
    fn = g.module.declare_function(ANY_LANE, fnty)  # type: ignore[union-attr]
    if "memory(none)" not in fn.attributes:
        fn.attributes = [*fn.attributes, "nounwind", "willreturn", "memory(none)"]
    return fn


def remove_any_lane_declaration(g: Function) -> None:
    module = g.module
    fn = module.get_function(ANY_LANE) if module is not None else None
    if fn is not None and not fn.uses:
        module.remove_function(fn)  # type: ignore[union-attr]


def _retarget(term: I.Instruction, old: BasicBlock, new: BasicBlock) -> None:
    for i, op in enumerate(term.operands):
        if op is old:
            term.set_operand(i, new)


def _new_block(g: Function, name: str, after: BasicBlock) -> BasicBlock:
    return g.add_block(BasicBlock(name), after=after)


def _mask_loop(g: Function, loop: Loop, ua: UniformityAnalysis, index: int) -> MaskedLoop:
    cfg, dt = ua.cfg, ua.domtree
    header = loop.header
    members = set(loop.blocks)
    outside = [p for p in cfg.predecessors(header) if p not in members]
    latches = list(loop.latches)
    exits = loop.exit_edges()
    if any(b.terminator is None or b.terminator.opcode not in ("br", "switch") for b in loop.blocks):
        from kernelkit.ir.transforms.divergent_regions import VectorisationFailure

        raise VectorisationFailure("loop leaving through a terminator other than br/switch")
    targets = list(dict.fromkeys(e for _, e in exits))   # the exit blocks, each once
    # values of the loop used outside it (but for the exit blocks' phis on the exit edges)
    live_outs: dict[Value, list[tuple[I.Instruction, int]]] = {}
    defined_in = {inst: block for block in loop.blocks for inst in block.instructions}   # (phis move)
    for block in loop.blocks:
        for inst in block.instructions:
            for use in inst.uses:
                user = use.user
                if not isinstance(user, I.Instruction) or user.parent in members:
                    continue
                if isinstance(user, I.PhiInst) and user.parent in targets and user.operands[use.index + 1] in members:
                    continue
                live_outs.setdefault(inst, []).append((user, use.index))
    before = g.blocks[g.blocks.index(header) - 1]
    pre = _new_block(g, f"vecz.pre{index}", before)
    nh = _new_block(g, f"vecz.loop{index}", pre)
    last = max(loop.blocks, key=g.blocks.index)
    latch = _new_block(g, f"vecz.latch{index}", last)
    dispatch = _new_block(g, f"vecz.exits{index}", latch)
    stubs = []
    after = last
    for k, (x, e) in enumerate(exits):
        stub = _new_block(g, f"vecz.leave{index}.{k}", after)
        after = stub
        _retarget(x.terminator, e, stub)  # type: ignore[arg-type]
        IRBuilder().position_at_end(stub).br(latch)
        stubs.append(stub)
    exit_blocks = []
    after = dispatch
    for k, e in enumerate(targets):
        d = _new_block(g, f"vecz.exit{index}.{k}", after)
        after = d
        IRBuilder().position_at_end(d).br(e)
        exit_blocks.append(d)
    for p in outside:
        _retarget(p.terminator, header, pre)  # type: ignore[arg-type]
    for lt in latches:
        _retarget(lt.terminator, header, latch)  # type: ignore[arg-type]
    pb = IRBuilder().position_at_end(pre)
    nb = IRBuilder().position_at_end(nh)
    lb = IRBuilder().position_at_end(latch)

    def blend(ty: T.Type, carried: Value, on_exit: list[Value], on_latch: Value, name: str) -> I.PhiInst:
        phi = lb.phi(ty, name)
        phi.add_incoming(carried, nh)
        for lt in latches:
            phi.add_incoming(on_latch, lt)
        for stub, v in zip(stubs, on_exit, strict=True):
            phi.add_incoming(v, stub)
        return phi

    true, false = ConstantInt(T.i1, 1), ConstantInt(T.i1, 0)
    active = nb.phi(T.i1, f"vecz.active{index}")
    active.add_incoming(true, pre)
    active_next = blend(T.i1, active, [false] * len(stubs), true, f"vecz.active{index}.next")
    active.add_incoming(active_next, latch)
    # the header's phis: values from outside through P, the next iteration's through L
    for phi in list(header.phis()):
        entry = pb.phi(phi.type, "")
        for v, b in phi.incoming():
            if b not in members:
                entry.add_incoming(v, b)
        latch_values = {b: v for v, b in phi.incoming() if b in members}
        nxt = lb.phi(phi.type, "")
        nxt.add_incoming(phi, nh)
        for lt in latches:
            nxt.add_incoming(latch_values[lt], lt)
        for stub in stubs:
            nxt.add_incoming(phi, stub)
        phi.set_operands([entry, pre, nxt, latch])
        nh.insert(len(nh.phis()), phi)
    exit_id: Value | None = None
    if len(targets) > 1:
        current = nb.phi(T.i32, f"vecz.exit{index}")
        current.add_incoming(ConstantInt(T.i32, 0), pre)
        exit_id = blend(T.i32, current, [ConstantInt(T.i32, targets.index(e)) for _, e in exits], current,
                        f"vecz.exit{index}.next")
        current.add_incoming(exit_id, latch)
    # the exit blocks' phis: the value of the edge each lane left by
    for e, d in zip(targets, exit_blocks, strict=True):
        for phi in e.phis():
            carried = nb.phi(phi.type, "")
            carried.add_incoming(ConstantSimple(phi.type, "poison"), pre)
            on_exit = [phi.value_for(x) if e_k is e else carried for x, e_k in exits]
            nxt = blend(phi.type, carried, on_exit, carried, "")
            carried.add_incoming(nxt, latch)
            kept = [(v, b) for v, b in phi.incoming() if b not in members]
            phi.set_operands([x for pair in [*kept, (nxt, d)] for x in pair])
    for v, uses in live_outs.items():
        carried = nb.phi(v.type, "")
        carried.add_incoming(ConstantSimple(v.type, "poison"), pre)
        on_exit = [v if dt.dominates(defined_in[v], x) else carried for x, _ in exits]
        nxt = blend(v.type, carried, on_exit, carried, "")
        carried.add_incoming(nxt, latch)
        for user, i in uses:
            user.set_operand(i, nxt)
    pb.br(nh)
    nb.cbr(active, header, latch)
    fn = any_lane_function(g)
    anyone = lb.call(fn, [active_next], "", function_type=fn.function_type)
    lb.cbr(anyone, nh, dispatch)
    db = IRBuilder().position_at_end(dispatch)
    if exit_id is None:
        db.br(exit_blocks[0])
    else:
        db.switch(exit_id, exit_blocks[0], [(ConstantInt(T.i32, k), d) for k, d in enumerate(exit_blocks)
                                             if k > 0])
    return MaskedLoop(nh, latch, pre, active)


__all__ = ["ANY_LANE", "MaskedLoop", "MaskedLoopRoots", "any_lane_function", "mask_divergent_loops",
           "remove_any_lane_declaration"]
