"""Whole-function vectorisation (the approach of the oneAPI Construction Kit's vecz): a copy of a
kernel in which each instruction works on `width` work-items at once, the lanes of a packet along
dimension 0 (lane l is the work-item whose local id is the scalar kernel's plus l).

- Private variables whose contents differ between lanes get one copy per lane (`[W x T]`).
- Uniform values (`ir.analysis.uniformity`) stay scalar; varying ones become vectors: a scalar
  `T` becomes `<W x T>`; an OpenCL vector `<n x T>` becomes `<W*n x T>` with lane l's elements at
  `l*n .. l*n+n-1`, so element-wise operations stay one instruction and extract/insert/shuffle
  become shuffles.
- Work-item id roots become `splat(id) + <0, 1, ..>` (times their stride).
- Memory (`ir.analysis.strides`): a uniform address stays a scalar access; consecutive elements
  are one vector load/store from lane 0's address; anything else is a gather/scatter.
- Divergent control flow (`transforms.divergent_regions`) is linearised: the blocks of a region
  run one after the other under block masks, phis become selects on edge masks, memory accesses
  in the region are masked and divisors of inactive lanes are replaced by 1. Divergent loops and
  loops under divergent control first get loop masks (`transforms.loop_masks`): they run while
  any lane is active, the header's block mask is the loop mask, live-out values are blended per lane.
- Calls: element-wise LLVM intrinsics take their vector form; other pure calls run once per lane;
  calls with side effects, atomics and volatile accesses run once per lane in lane order, under
  divergence only for the active lanes (`transforms.lane_guards`; printf's record reservation is
  such an atomic);
  sub-group builtins work across the packet's lanes (`transforms.sub_groups`).

`vectorise(f, width, roots)` returns the new function (added to f's module) or raises
`VectorisationFailure` with the reason; `f` itself is never changed.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis import CFG, StrideAnalysis, UniformityAnalysis
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import BasicBlock, Function, GlobalValue
from kernelkit.ir.transforms.boscc import add_superword_branches, any_lane
from kernelkit.ir.transforms.divergent_regions import (
    DivergentRegion,
    VectorisationFailure,
    divergent_regions,
    split_shared_joins,
)
from kernelkit.ir.transforms.editing import clone_function, remove_unreachable_blocks
from kernelkit.ir.transforms.lane_guards import guard_lane_copies
from kernelkit.ir.transforms.loop_masks import (
    ANY_LANE,
    MaskedLoopRoots,
    mask_divergent_loops,
    remove_any_lane_declaration,
)
from kernelkit.ir.transforms.packet_memory import PacketMemory, type_suffix
from kernelkit.ir.transforms.scalarise import scalarise
from kernelkit.ir.transforms.sub_groups import packetise_sub_group_call
from kernelkit.ir.values import Constant, ConstantAggregate, ConstantInt, ConstantSimple, ConstantSplat, Value

# LLVM intrinsics that apply to each element (their vector form is the same intrinsic, overloaded
# on the vector type); arguments of another type than the result (immargs such as ctlz's i1) stay.
ELEMENTWISE_INTRINSICS = frozenset(
    "sqrt fabs floor ceil trunc rint nearbyint round roundeven copysign minnum maxnum minimum maximum "
    "fma fmuladd sin cos tan exp exp2 exp10 log log2 log10 pow smin smax umin umax abs ctpop ctlz cttz "
    "bitreverse bswap fshl fshr sadd.sat uadd.sat ssub.sat usub.sat canonicalize".split())
# element-wise tests, overloaded on their first argument's type (an i1 per element)
ELEMENTWISE_TESTS = frozenset({"is.fpclass"})
# intrinsics that only mark things (their per-lane copies would add nothing)
_MARKERS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl")
_DIVISIONS = frozenset({"udiv", "sdiv", "urem", "srem"})


def vectorise(f: Function, width: int, roots, *, name: str | None = None, pointer_size: int = 8,
              once_per_packet: frozenset[str] = frozenset(), prepare=None) -> Function:
    """A `width`-lane copy of `f` named `name` (default `__vecz_v<width>_<f>`), in f's module.
    Calls of the functions named in `once_per_packet` (work-group barriers) run once for all lanes:
    their arguments must be uniform and they must not be under divergent control. `prepare(copy)`
    edits the copy before it is packetised (target-specific undoing of scalar-only lowerings)."""
    if f.is_declaration or not f.return_type.is_void:
        raise VectorisationFailure("only kernels (functions returning void) are vectorised")
    g = clone_function(f, name or f"__vecz_v{width}_{f.name}")
    try:
        if prepare is not None:
            prepare(g)
        scalarise(g, pointer_size)
        Packetiser(g, width, roots.for_function(g), pointer_size, once_per_packet).run()
    except VectorisationFailure:
        module = g.module
        if module is not None:
            module.remove_function(g)
            remove_any_lane_declaration(f)
        raise
    remove_any_lane_declaration(g)
    return g


class Packetiser(PacketMemory):
    """Rewrites function `g` in place into its `width`-lane form (see the module docstring)."""

    def __init__(self, g: Function, width: int, roots, pointer_size: int = 8,
                 once_per_packet: frozenset[str] = frozenset()) -> None:
        self.g = g
        self.once_per_packet = once_per_packet
        self.w = width
        self.roots = MaskedLoopRoots(roots)
        self.pointer_size = pointer_size
        self.vec: dict[Value, Value] = {}
        self.replaced: list[I.Instruction] = []
        self.block_mask: dict[BasicBlock, Value] = {}
        self.edge_mask: dict[tuple[BasicBlock, BasicBlock], Value] = {}
        self.pending_phis: list[tuple[I.PhiInst, I.PhiInst]] = []
        self.lane_guards: list[tuple[I.Instruction, Value]] = []
        self.lane_results: dict[I.Instruction, list[I.Instruction]] = {}

    # ------------------------------------------------------------------ driver
    def run(self) -> None:
        g = self.g
        remove_unreachable_blocks(g)
        for inst in g.instructions():
            inst.debug_records = []
        masked = mask_divergent_loops(g, self.roots)
        self.masked_headers = {m.header: m for m in masked}
        self.masked_latches = {m.latch: m for m in masked}
        self.ua = UniformityAnalysis(g, self.roots, cfg=CFG(g))
        while split_shared_joins(self.ua):
            self.ua = UniformityAnalysis(g, self.roots, cfg=CFG(g))
        self.sa = StrideAnalysis(self.ua, self.pointer_size)
        self.regions = divergent_regions(self.ua, frozenset((m.latch, m.header) for m in masked))
        self.region_of: dict[BasicBlock, DivergentRegion] = {}
        for r in self.regions:
            for b in r.blocks:
                self.region_of[b] = r
        self.branch_region = {r.branch: r for r in self.regions}
        self.join_region = {r.join: r for r in self.regions if r.join is not None}
        self.varying = self._varying_set()
        for block in self.ua.cfg.reverse_post_order():
            self._block(block)
        for new, old in self.pending_phis:
            loop = self.masked_headers.get(old.parent)  # type: ignore[arg-type]
            for v, b in old.incoming():
                if loop is not None and old is loop.active and b is loop.preheader and (b, old.parent) in self.edge_mask:
                    new.add_incoming(self.edge_mask[(b, old.parent)], b)   # the region's lanes enter
                    continue
                new.add_incoming(self._vop(v, IRBuilder().position_before(b.terminator)), b)
        self._linearise()
        self._erase_replaced()
        guard_lane_copies(self.g, self.lane_guards)
        add_superword_branches(self.g)

    def _varying_set(self) -> set[Value]:
        """Values that become vectors: the divergent ones, phis and loads the control-flow
        conversion touches, divisions under divergent control, and everything computed from them."""
        seeds: set[Value] = {v for v in self.ua.divergent_values() if isinstance(v, I.Instruction)}
        for block in self.region_of:
            for inst in block.instructions:
                if isinstance(inst, I.PhiInst | I.LoadInst) or inst.opcode in _DIVISIONS:
                    seeds.add(inst)
        for join in self.join_region:
            seeds.update(p for p in join.phis() if not _same_incoming(p))
        out: set[Value] = set()
        work = list(seeds)
        while work:
            v = work.pop()
            if v in out:
                continue
            out.add(v)
            for user in v.users:
                if isinstance(user, I.Instruction) and not user.type.is_void and user not in out \
                        and not _is_any_lane(user):
                    work.append(user)
        for v in out:
            if isinstance(v, I.AllocaInst) and v.operands:
                raise VectorisationFailure("private array of a run-time length whose contents differ between work-items")
            if isinstance(v, I.CmpXchgInst) or _reads_lane_results(v):
                continue   # (per lane: each lane's {value, success} is read apart)
            if isinstance(v, I.AggregateOpInst) or isinstance(v.type, T.ArrayType | T.LiteralStructType |
                                                                 T.NamedStructType):
                raise VectorisationFailure(f"varying aggregate value ({v.opcode})")
        return out

    # ------------------------------------------------------------------ types and constants
    def widen(self, ty: T.Type) -> T.Type:
        if isinstance(ty, T.IntType | T.FloatType | T.PointerType):
            return T.VectorType(ty, self.w)
        if isinstance(ty, T.VectorType) and not ty.scalable:
            return T.VectorType(ty.element, ty.count * self.w)
        raise VectorisationFailure(f"varying value of type {ty}")

    def _int_vector(self, values: list[int], bits: int = 32) -> Constant:
        ty = T.VectorType(T.IntType(bits), len(values))
        return ConstantAggregate(ty, [ConstantInt(T.IntType(bits), v) if v >= 0 else ConstantSimple(T.IntType(bits), "poison")
                                      for v in values])

    def all_true(self) -> Constant:
        return ConstantSplat(T.VectorType(T.i1, self.w), [ConstantInt(T.i1, 1)])

    # ------------------------------------------------------------------ operands
    def _splat(self, v: Value, b: IRBuilder) -> Value:
        ty = v.type
        if isinstance(ty, T.VectorType):
            n = ty.count
            return b.shuffle_vector(v, ConstantSimple(ty, "poison"),
                                    self._int_vector([j for _ in range(self.w) for j in range(n)]))
        wide = self.widen(ty)
        if isinstance(v, ConstantInt | Constant) and not isinstance(v, GlobalValue):
            if isinstance(v, ConstantSimple):
                return ConstantSimple(wide, "zeroinitializer" if v.keyword in ("null", "zeroinitializer")
                                      else v.keyword)
            if isinstance(v, ConstantInt) or type(v).__name__ == "ConstantFP":
                return ConstantSplat(wide, [v])
        first = b.insert_element(ConstantSimple(wide, "poison"), v, ConstantInt(T.i32, 0))
        return b.shuffle_vector(first, ConstantSimple(wide, "poison"), ConstantSimple(
            T.VectorType(T.i32, self.w), "zeroinitializer"))

    def _vop(self, v: Value, b: IRBuilder) -> Value:
        got = self.vec.get(v)
        if got is not None:
            return got
        if v in self.varying:
            raise VectorisationFailure(f"internal: {v.opcode} used before its vector form")  # type: ignore[attr-defined]
        return self._splat(v, b)

    def _lane(self, v: Value, lane: int, b: IRBuilder) -> Value:
        """Lane `lane` of a vector form (an OpenCL vector for <W*n> forms)."""
        ty = v.type
        n = ty.count // self.w  # type: ignore[attr-defined]
        if n == 1:
            return b.extract_element(v, ConstantInt(T.i32, lane))
        return b.shuffle_vector(v, ConstantSimple(ty, "poison"), self._int_vector(list(range(lane * n, lane * n + n))))

    def _mask_for(self, mask: Value, ty: T.Type, b: IRBuilder) -> Value:
        """A <W x i1> mask stretched to the lanes of vector form `ty` (<W*n x T>)."""
        n = ty.count // self.w  # type: ignore[attr-defined]
        if n == 1:
            return mask
        return b.shuffle_vector(mask, ConstantSimple(mask.type, "poison"),
                                self._int_vector([lane for lane in range(self.w) for _ in range(n)]))

    def _pure(self, call: I.CallInst) -> bool:
        from kernelkit.ir.analysis.uniformity import is_pure_call

        fn = call.called_function
        return is_pure_call(call) or (fn is not None and fn.name.startswith(_MARKERS))

    # ------------------------------------------------------------------ blocks
    def _block(self, block: BasicBlock) -> None:
        originals = list(block.instructions)
        b = IRBuilder().position_at_start(block)
        region = self.region_of.get(block)
        loop = self.masked_headers.get(block)
        if region is not None:   # (a masked loop's header: the lanes entering it, not its back edge)
            masks = [self.edge_mask[(p, block)] for p in self.ua.cfg.predecessors(block)
                     if loop is None or p is not loop.latch]
            self.block_mask[block] = self._or_all(masks, b)
        if (region is not None or block in self.join_region) and loop is None:
            for phi in block.phis():
                self._phi_to_select(phi, block, b)
        for inst in originals:
            if inst.is_terminator:
                if block in self.branch_region or region is not None:
                    self._edge_masks(block, inst)
                elif any(op in self.varying for op in inst.operands):
                    raise VectorisationFailure(f"internal: {inst.opcode} on a varying value outside a region")
                continue
            if isinstance(inst, I.PhiInst):
                if (loop is not None or region is None and block not in self.join_region) \
                        and inst in self.varying:
                    new = I.PhiInst(self.widen(inst.type), "phi", (), inst.name)
                    new.insert_before(inst)
                    self.vec[inst] = new
                    self.pending_phis.append((new, inst))
                    self.replaced.append(inst)
                continue
            self._instruction(inst, region)

    def _or_all(self, masks: list[Value], b: IRBuilder) -> Value:
        acc = masks[0]
        for m in masks[1:]:
            acc = b.or_(acc, m)
        return acc

    def _phi_to_select(self, phi: I.PhiInst, block: BasicBlock, b: IRBuilder) -> None:
        pairs = list(phi.incoming())
        if _same_incoming(phi):
            only = pairs[0][0]
            if only in self.varying:
                self.vec[phi] = self._vop(only, b)
            else:
                phi.replace_all_uses_with(only)
            self.replaced.append(phi)
            return
        acc = self._vop(pairs[0][0], b)
        for v, pred in pairs[1:]:
            mask = self._mask_for(self.edge_mask[(pred, block)], acc.type, b)
            acc = b.select(mask, self._vop(v, b), acc)
        self.vec[phi] = acc
        self.replaced.append(phi)

    def _edge_masks(self, block: BasicBlock, term: I.Instruction) -> None:
        b = IRBuilder().position_before(term)
        mask = self.block_mask.get(block)

        def guarded(m: Value) -> Value:
            return m if mask is None else b.and_(mask, m)

        def cond(v: Value) -> Value:
            return self._vop(v, b)

        out: dict[BasicBlock, Value] = {}
        if isinstance(term, I.BranchInst) and len(term.operands) == 3:
            c, t, f = term.operands
            if t is f:
                out[t] = mask if mask is not None else self.all_true()
            else:
                cv = cond(c)
                out[t] = guarded(cv)
                out[f] = guarded(b.xor(cv, self.all_true()))
        elif isinstance(term, I.BranchInst):
            out[term.operands[0]] = mask if mask is not None else self.all_true()  # type: ignore[index]
        elif isinstance(term, I.SwitchInst):
            value = cond(term.operands[0])
            taken = []
            per: dict[BasicBlock, list[Value]] = {}
            for case, dest in term.cases():
                eq = b.insert(I.CompareInst("icmp", "eq", value, self._vop(case, b)))
                taken.append(eq)
                per.setdefault(dest, []).append(eq)
            any_case = self._or_all(taken, b) if taken else None
            default = term.operands[1]
            per.setdefault(default, []).append(b.xor(any_case, self.all_true()) if any_case is not None
                                              else self.all_true())
            for dest, ms in per.items():
                out[dest] = guarded(self._or_all(ms, b))
        for dest, m in out.items():
            self.edge_mask[(block, dest)] = m

    # ------------------------------------------------------------------ instructions
    def _instruction(self, inst: I.Instruction, region: DivergentRegion | None) -> None:
        b = IRBuilder().position_before(inst)
        if self.roots.classify(inst) is True:
            self._root(inst)
            return
        if isinstance(inst, I.StoreInst):
            self._store(inst, region, b)
            return
        if isinstance(inst, I.CallInst):
            self._call(inst, region, b)
            return
        if isinstance(inst, I.AtomicRMWInst | I.CmpXchgInst):
            self._per_lane(inst, b, self.block_mask.get(inst.parent) if region is not None else None)
            return
        if inst not in self.varying:
            return
        if _reads_lane_results(inst):
            wide = self.widen(inst.type)
            new = ConstantSimple(wide, "poison")
            for lane, result in enumerate(self.lane_results[inst.operands[0]]):
                new = b.insert_element(new, b.extract_value(result, inst.indices), ConstantInt(T.i32, lane))
        elif isinstance(inst, I.AllocaInst):   # one private copy per lane, [W x T]; lane l's is element l
            copies = T.ArrayType(inst.allocated_type, self.w)
            block = b.alloca(copies, None, inst.align, inst.addrspace, inst.name)
            new = b.gep(copies, block, [ConstantInt(T.i64, 0), self._int_vector(list(range(self.w)), 64)])
        elif isinstance(inst, I.LoadInst) and (inst.volatile or inst.atomic):   # per lane, in lane order
            self._per_lane(inst, b, self.block_mask.get(inst.parent) if region is not None else None)
            return
        elif isinstance(inst, I.LoadInst):
            new = self._load(inst, region, b)
        elif isinstance(inst, I.BinaryOp):
            ops = [self._vop(op, b) for op in inst.operands]
            if inst.opcode in _DIVISIONS and region is not None:
                one = ConstantSplat(ops[1].type, [ConstantInt(inst.type.scalar, 1)])
                ops[1] = b.select(self._mask_for(self.block_mask[inst.parent], ops[1].type, b), ops[1], one)
            new = b.insert(I.BinaryOp(ops[0].type, inst.opcode, ops, inst.name, inst.flags))
            _keep_fpmath(inst, new)
        elif isinstance(inst, I.CompareInst):
            new = b.insert(I.CompareInst(inst.opcode, inst.predicate, self._vop(inst.operands[0], b),
                                         self._vop(inst.operands[1], b), inst.name, inst.flags))
        elif isinstance(inst, I.CastInst):
            new = b.cast(inst.opcode, self._vop(inst.operands[0], b), self.widen(inst.type), inst.name,
                         inst.flags)
        elif isinstance(inst, I.SelectInst):
            c, x, y = inst.operands
            xv, yv = self._vop(x, b), self._vop(y, b)
            cv = c if c not in self.varying and not isinstance(c.type, T.VectorType) else self._vop(c, b)
            if cv is not c and not isinstance(c.type, T.VectorType):
                cv = self._mask_for(cv, xv.type, b)
            new = b.select(cv, xv, yv, inst.name)
        elif isinstance(inst, I.GetElementPtrInst):
            if any(isinstance(op.type, T.VectorType) for op in inst.operands):
                raise VectorisationFailure("getelementptr with vector operands")
            ops = [self._vop(op, b) if op in self.varying else op for op in inst.operands]
            new = b.insert(I.GetElementPtrInst(inst.source_type, ops[0], ops[1:], inst.name, inst.flags))
        elif isinstance(inst, I.FreezeInst):
            new = b.freeze(self._vop(inst.operands[0], b), inst.name)
        elif isinstance(inst, I.VectorOpInst):
            new = self._vector_op(inst, b)
        else:
            raise VectorisationFailure(f"varying {inst.opcode}")
        self.vec[inst] = new
        self.replaced.append(inst)

    def _root(self, inst: I.Instruction) -> None:
        stride = self.roots.stride(inst)
        if stride is None or not isinstance(inst.type, T.IntType):
            raise VectorisationFailure("work-item id whose lanes are not a known stride apart")
        after = inst.parent.instructions[inst.parent.index_of(inst) + 1]  # type: ignore[union-attr]
        b = IRBuilder().position_before(after)
        steps = ConstantAggregate(self.widen(inst.type), [ConstantInt(inst.type, lane * stride)
                                                          for lane in range(self.w)])
        self.vec[inst] = b.add(self._splat(inst, b), steps)

    def _vector_op(self, inst: I.Instruction, b: IRBuilder) -> Value:
        if inst.opcode == "extractelement":
            vec, index = inst.operands
            if not isinstance(index, ConstantInt) or vec not in self.varying and index in self.varying:
                raise VectorisationFailure("extractelement with a varying index")
            n = vec.type.count  # type: ignore[attr-defined]
            src = self._vop(vec, b)
            return b.shuffle_vector(src, ConstantSimple(src.type, "poison"),
                                    self._int_vector([lane * n + index.value for lane in range(self.w)]))
        if inst.opcode == "insertelement":
            vec, elt, index = inst.operands
            if not isinstance(index, ConstantInt):
                raise VectorisationFailure("insertelement with a varying index")
            n = vec.type.count  # type: ignore[attr-defined]
            wide = self._vop(vec, b)
            ev = self._vop(elt, b)
            stretched = b.shuffle_vector(ev, ConstantSimple(ev.type, "poison"),
                                         self._int_vector([lane for lane in range(self.w) for _ in range(n)]))
            total = self.w * n
            return b.shuffle_vector(wide, stretched, self._int_vector(
                [total + i if i % n == index.value else i for i in range(total)]))
        a, c, mask = inst.operands
        n = a.type.count  # type: ignore[attr-defined]
        values = shuffle_mask(mask)
        if values is None:
            raise VectorisationFailure("shufflevector with a mask that is not constant")
        out = []
        for lane in range(self.w):
            for m in values:
                out.append(-1 if m < 0 else lane * n + m if m < n else self.w * n + lane * n + (m - n))
        return b.shuffle_vector(self._vop(a, b), self._vop(c, b), self._int_vector(out))

    # ------------------------------------------------------------------ calls
    def _call(self, inst: I.CallInst, region: DivergentRegion | None, b: IRBuilder) -> None:
        fn = inst.called_function
        if fn is not None and fn.name.startswith(_MARKERS):
            if any(a in self.varying for a in inst.args):
                self.replaced.append(inst)
            return
        if packetise_sub_group_call(self, inst, region, b):
            return
        if _is_any_lane(inst):   # the loop runs on while any lane is active
            inst.replace_all_uses_with(any_lane(self._vop(inst.args[0], b), b))
            self.replaced.append(inst)
            return
        args_varying = any(a in self.varying for a in inst.args)
        if fn is not None and fn.name in self.once_per_packet:
            if args_varying or region is not None:
                raise VectorisationFailure(f"{fn.name} with varying arguments or under divergent control")
            return
        if self._pure(inst):
            if inst not in self.varying and not args_varying:
                return
            if fn is not None and fn.name.startswith("llvm."):
                base = fn.name[5:].rsplit(".", 1)[0]
                shape = (inst.type if base in ELEMENTWISE_INTRINSICS else
                         inst.args[0].type if base in ELEMENTWISE_TESTS and inst.args else None)
                if shape is not None and fn.name == f"llvm.{base}.{type_suffix(shape)}":
                    wide = self.widen(shape)
                    args = [self._vop(a, b) if a.type == shape else a for a in inst.args]
                    call = self._intrinsic(f"llvm.{base}.{type_suffix(wide)}", self.widen(inst.type), args,
                                           [list(x) for x in inst.arg_attributes], b)
                    _keep_fpmath(inst, call)
                    self.vec[inst] = call
                    self.replaced.append(inst)
                    return
            self._per_lane(inst, b)
            return
        self._per_lane(inst, b, self.block_mask.get(inst.parent) if region is not None else None)

    def _per_lane(self, inst: I.Instruction, b: IRBuilder, mask: Value | None = None) -> None:
        """One copy of `inst` per lane, in lane order (calls, atomics); under a `mask`, the copy of
        a lane runs only when the lane is active (`transforms.lane_guards`). A compare-exchange's
        per-lane {value, success} results are kept apart for its extractvalues."""
        from kernelkit.ir.transforms.editing import clone_instruction

        struct = isinstance(inst, I.CmpXchgInst)
        if not inst.type.is_void and not struct and not isinstance(inst.type, T.IntType | T.FloatType | T.PointerType):
            raise VectorisationFailure(f"{inst.opcode} returning {inst.type} run per work-item")
        results = []
        for lane in range(self.w):
            bit = b.extract_element(mask, ConstantInt(T.i32, lane)) if mask is not None else None
            vmap = {}
            for op in inst.operands:
                if op in self.vec:
                    vmap[op] = self._lane(self.vec[op], lane, b)
            copy = clone_instruction(inst, vmap)
            copy.metadata = {}
            b.insert(copy)
            results.append(copy)
            if bit is not None:
                self.lane_guards.append((copy, bit))
        if struct:
            self.lane_results[inst] = results
        elif not inst.type.is_void and inst.uses:
            wide = self.widen(inst.type)
            acc: Value = ConstantSimple(wide, "poison")
            for lane, r in enumerate(results):
                acc = b.insert_element(acc, r, ConstantInt(T.i32, lane))
            self.vec[inst] = acc
        self.replaced.append(inst)

    # ------------------------------------------------------------------ control flow
    def _linearise(self) -> None:
        for region in self.regions:
            chain = [region.branch, *region.blocks]
            tail = region.join
            if tail is None:
                tail = BasicBlock("vecz.exit", self.g)
                self.g.blocks.append(tail)
                IRBuilder().position_at_end(tail).ret_void()
            for phi in (region.join.phis() if region.join is not None else []):
                if phi not in self.replaced:
                    self.replaced.append(phi)
            for block, nxt in zip(chain, [*chain[1:], tail], strict=True):
                term = block.terminator
                assert term is not None
                if term not in self.replaced:
                    self.replaced.append(term)
                if block is region.branch and region.blocks:
                    self._skip_when_no_lane_enters(region, tail, term)
                elif block in self.masked_latches:   # a loop with a loop mask: again while any lane is active
                    IRBuilder().position_before(term).cbr(term.operands[0], self.masked_latches[block].header, nxt)
                else:
                    IRBuilder().position_before(term).br(nxt)

    def _skip_when_no_lane_enters(self, region: DivergentRegion, tail: BasicBlock, term: I.Instruction) -> None:
        """BOSCC's none-active path: the region's branch jumps over the region's blocks when no lane
        enters them. Values of the region used from `tail` on (the join's selects: values and edge
        masks) come through phis there: their own value after the region, no lane (false masks)
        or poison after the jump."""
        b = IRBuilder().position_before(term)
        entering = [self.edge_mask[(region.branch, s)] for s in self.ua.cfg.successors(region.branch)
                    if s in region]
        b.cbr(any_lane(self._or_all(entering, b), b), region.blocks[0], tail)
        members = set(region.blocks)
        last = region.blocks[-1]
        for block in region.blocks:
            for inst in block.instructions:
                outside = [u for u in inst.uses if isinstance(u.user, I.Instruction)
                           and u.user.parent not in members and u.user not in self.replaced]
                if not outside or inst in self.replaced:
                    continue
                phi = I.PhiInst(inst.type, "phi", (), "")
                tail.instructions.insert(0, phi)
                phi.parent = tail
                for u in outside:
                    u.set(phi)
                none = (ConstantSimple(inst.type, "zeroinitializer") if inst.type == T.VectorType(T.i1, self.w)
                        else ConstantSimple(inst.type, "poison"))
                phi.add_incoming(inst, last)
                phi.add_incoming(none, region.branch)

    def _erase_replaced(self) -> None:
        for inst in self.replaced:
            inst.drop_operands()
        for inst in self.replaced:
            if inst.uses:
                users = {u.user.opcode for u in inst.uses if isinstance(u.user, I.Instruction)}  # type: ignore[attr-defined]
                raise VectorisationFailure(f"internal: replaced {inst.opcode} still used by {sorted(users)}")
            inst.remove_from_parent()


def _reads_lane_results(inst: object) -> bool:
    """An extractvalue of a compare-exchange's {value, success} (run per lane)."""
    return isinstance(inst, I.AggregateOpInst) and inst.opcode == "extractvalue" \
        and isinstance(inst.operands[0], I.CmpXchgInst)


def _keep_fpmath(inst: I.Instruction, new: I.Instruction) -> None:
    """The lanes keep the accuracy allowance (``!fpmath``) of the scalar instruction."""
    if "fpmath" in inst.metadata:
        new.metadata["fpmath"] = inst.metadata["fpmath"]


def _is_any_lane(inst: object) -> bool:
    fn = inst.called_function if isinstance(inst, I.CallInst) else None
    return fn is not None and fn.name == ANY_LANE


def _same_incoming(phi: I.PhiInst) -> bool:
    values = [v for v, _ in phi.incoming()]
    return all(v is values[0] for v in values)


def shuffle_mask(mask: Value) -> list[int] | None:
    if isinstance(mask, ConstantAggregate):
        out = []
        for op in mask.operands:
            if isinstance(op, ConstantInt):
                out.append(op.value)
            elif isinstance(op, ConstantSimple):
                out.append(-1)
            else:
                return None
        return out
    if isinstance(mask, ConstantSimple):
        count = mask.type.count  # type: ignore[attr-defined]
        return [0 if mask.keyword == "zeroinitializer" else -1] * count
    if isinstance(mask, ConstantSplat) and isinstance(mask.operands[0], ConstantInt):
        return [mask.operands[0].value] * mask.type.count  # type: ignore[attr-defined]
    return None


__all__ = ["ELEMENTWISE_INTRINSICS", "Packetiser", "VectorisationFailure", "shuffle_mask", "type_suffix", "vectorise"]
