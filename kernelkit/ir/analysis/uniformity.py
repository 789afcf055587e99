"""Uniformity (divergence) analysis: which values, branches and blocks differ between the
work-items that run together as the lanes of one SIMD packet.

Roots (`WorkItemRoots`) are the calls whose result differs between lanes: the work-item ids of the
packet's dimensions (by default dimension 0, as a vectoriser along dimension 0 sees it; all three
for a target whose lanes span the whole work-group), the linear ids and the sub-group local id.
Divergence then spreads

- by data dependence: an instruction with a divergent operand is divergent; atomic read-modify-
  writes, volatile/atomic loads and calls to functions that are not known to be pure are divergent;
  a private variable (alloca) is divergent when a divergent value, a store under divergent control
  or an escaping use reaches its memory (its address is then per lane);
- by control (sync) dependence: at a branch on a divergent condition the lanes split; the phis of
  the blocks where the split paths meet again (the joins, found between the branch and its
  immediate post-dominator) are divergent, and the blocks in between run on a subset of the lanes
  (`divergent_blocks`);
- through divergent loop exits (temporal divergence): when lanes leave a loop in different
  iterations, every value defined in the loop is divergent where it is used outside the loop, and
  the exit blocks' phis are divergent.

An irreducible function is treated conservatively: every phi and every block is divergent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kernelkit.ir import instructions as I
from kernelkit.ir.analysis.cfg import CFG
from kernelkit.ir.analysis.dominators import DominatorTree, PostDominatorTree
from kernelkit.ir.analysis.loops import Loop, LoopForest
from kernelkit.ir.module import Argument, BasicBlock, Function, GlobalValue
from kernelkit.ir.values import Constant, Value

# Work-item functions by OpenCL/mux base name (OpenCL C 3.0 s6.15.1; spec 003 "Builtins").
ID_PER_DIMENSION = frozenset({"get_global_id", "get_local_id"})
LINEAR_IDS = frozenset({"get_global_linear_id", "get_local_linear_id", "get_sub_group_local_id"})
UNIFORM_WORK_ITEM_FUNCTIONS = frozenset({
    "get_work_dim", "get_global_size", "get_local_size", "get_enqueued_local_size", "get_num_groups",
    "get_group_id", "get_global_offset", "get_sub_group_size", "get_max_sub_group_size",
    "get_num_sub_groups", "get_enqueued_num_sub_groups", "get_sub_group_id"})
SUB_GROUP_UNIFORM_RESULTS = ("sub_group_reduce_", "sub_group_any", "sub_group_all", "sub_group_broadcast")
# intrinsics that read or write no memory a lane can tell apart, and mark-only intrinsics
_IGNORED_INTRINSICS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias")
_PURE_ATTRIBUTES = ("readnone", "memory(none)")
_MANGLED = re.compile(r"^_Z(\d+)")


def builtin_base_name(name: str) -> str:
    """`get_local_id` for `__mux_get_local_id`, `_Z12get_local_idj` and `get_local_id`."""
    if name.startswith("__mux_"):
        return name[6:]
    m = _MANGLED.match(name)
    if m:
        start = m.end()
        return name[start:start + int(m.group(1))]
    return name


@dataclass(frozen=True)
class WorkItemRoots:
    """The work-item functions whose results differ between lanes.

    `dimensions`: the dimensions the lanes span (get_global_id/get_local_id of another constant
    dimension are uniform). A call with a non-constant dimension is a root.
    """

    dimensions: frozenset[int] = frozenset({0})

    @classmethod
    def all_dimensions(cls) -> WorkItemRoots:
        return cls(frozenset({0, 1, 2}))

    def classify(self, inst: I.Instruction) -> bool | None:
        """True: a root; False: uniform whatever the lanes (given uniform operands); None: not a
        work-item function (the ordinary rules apply). Targets whose work-item ids are not calls
        (loads from a work-item structure, once builtins are inlined) override this and `stride`."""
        if not isinstance(inst, I.CallInst):
            return None
        call = inst
        fn = call.called_function
        if fn is None:
            return None
        base = builtin_base_name(fn.name)
        if base in LINEAR_IDS:
            return True
        if base in ID_PER_DIMENSION:
            args = call.args
            dim = args[0] if args else None
            if dim is None or not hasattr(dim, "value") or not isinstance(dim, Constant):
                return bool(self.dimensions)
            return dim.value in self.dimensions  # type: ignore[attr-defined]
        if base in UNIFORM_WORK_ITEM_FUNCTIONS:
            return False
        return None

    def collective(self, inst: I.Instruction) -> bool:
        """Is `inst` a sub-group collective whose result is the same for every lane whatever its
        operands (reductions, any/all, broadcasts: a packet of lanes is one sub-group)?"""
        fn = inst.called_function if isinstance(inst, I.CallInst) else None
        return fn is not None and builtin_base_name(fn.name).startswith(SUB_GROUP_UNIFORM_RESULTS)

    def for_function(self, function: Function) -> WorkItemRoots:
        """The same roots for a copy of the function they were made for (targets whose roots are
        parameters map them to the copy's)."""
        return self

    def stride(self, root: I.Instruction) -> int | None:
        """How a root changes from one lane to the next along dimension 0 (None: not linear)."""
        fn = root.called_function if isinstance(root, I.CallInst) else None
        if fn is None:
            return None
        base = builtin_base_name(fn.name)
        if base in LINEAR_IDS:
            return 1
        dim = root.args[0] if root.args else None
        if base in ID_PER_DIMENSION and isinstance(dim, Constant) and getattr(dim, "value", None) == 0:
            return 1
        return None


def _attributes_text(items: Iterable) -> list[str]:
    out: list[str] = []
    for a in items:
        out.extend(getattr(a, "attributes", [a]))
    return [str(x) for x in out]


def is_pure_call(call: I.CallInst) -> bool:
    """Does the call read or write no memory (LLVM `memory(none)`/`readnone` on the call or callee)?"""
    attrs = _attributes_text(call.attributes)
    fn = call.called_function
    if fn is not None:
        if fn.name.startswith("llvm.") and not fn.name.startswith(("llvm.mem", "llvm.masked.")):
            return True
        attrs += _attributes_text(fn.attributes)
    return any(a in _PURE_ATTRIBUTES for a in attrs)


def reads_only(call: I.CallInst) -> bool:
    """Does the call write no memory (`memory(read)`, `memory(argmem: read)`, `readonly`)?"""
    attrs = _attributes_text(call.attributes)
    fn = call.called_function
    if fn is not None:
        attrs += _attributes_text(fn.attributes)
    return any(a == "readonly" or (a.startswith("memory(") and "write" not in a) for a in attrs)


def _underlying_allocas(ptr: Value, seen: set[int] | None = None) -> set[I.AllocaInst] | None:
    """Private variables a pointer may point into; None when it may point elsewhere too."""
    seen = seen if seen is not None else set()
    if id(ptr) in seen:
        return set()
    seen.add(id(ptr))
    if isinstance(ptr, I.AllocaInst):
        return {ptr}
    if isinstance(ptr, I.GetElementPtrInst) or (isinstance(ptr, I.CastInst) and ptr.opcode in
                                                ("bitcast", "addrspacecast")):
        return _underlying_allocas(ptr.operands[0], seen)
    if isinstance(ptr, I.PhiInst | I.SelectInst):
        ops = [v for v, _ in ptr.incoming()] if isinstance(ptr, I.PhiInst) else ptr.operands[1:]
        out: set[I.AllocaInst] = set()
        for op in ops:
            sub = _underlying_allocas(op, seen)
            if sub is None:
                return None
            out |= sub
        return out
    return None


def _derived_allocas(value: Value) -> set[I.AllocaInst]:
    """Allocas a (pointer) value is derived from, ignoring other possibilities."""
    if value.type.is_pointer:
        return _underlying_allocas(value) or set()
    return set()


class UniformityAnalysis:
    """Divergence of every value, branch, block and loop of `function` (see the module docstring)."""

    def __init__(self, function: Function, roots: WorkItemRoots | None = None, *, cfg: CFG | None = None,
                 domtree: DominatorTree | None = None, postdomtree: PostDominatorTree | None = None,
                 loops: LoopForest | None = None) -> None:
        self.function = function
        self.roots = roots or WorkItemRoots()
        self.cfg = cfg or CFG(function)
        self.domtree = domtree or DominatorTree(self.cfg)
        self.postdomtree = postdomtree or PostDominatorTree(self.cfg)
        self.loops = loops or LoopForest(self.cfg, self.domtree)
        self._divergent: set[Value] = set()
        self._branches: dict[BasicBlock, set[BasicBlock]] = {}   # divergent branch -> its joins
        self.divergent_blocks: set[BasicBlock] = set()
        self.divergent_loops: set[Loop] = set()
        self._run()

    # -- queries
    def is_divergent(self, value: Value) -> bool:
        return value in self._divergent

    def is_uniform(self, value: Value) -> bool:
        return value not in self._divergent

    def is_divergent_use(self, value: Value, user: I.Instruction) -> bool:
        """Is `value` divergent as `user` sees it (temporal divergence: a loop-invariant-per-lane
        value read after lanes left its divergent loop in different iterations)?"""
        return value in self._divergent or self._temporal(value, user)

    def is_divergent_branch(self, block: BasicBlock) -> bool:
        """Does the block's terminator send lanes different ways?"""
        return block in self._branches

    def joins(self, block: BasicBlock) -> set[BasicBlock]:
        """The join blocks of the divergent branch ending `block` (empty for a uniform branch)."""
        return set(self._branches.get(block, ()))

    def is_divergent_loop(self, loop: Loop) -> bool:
        """Do lanes leave `loop` in different iterations?"""
        return loop in self.divergent_loops

    def divergent_values(self) -> set[Value]:
        return set(self._divergent)

    # -- fixpoint
    def _run(self) -> None:
        order = [b for b in self.cfg.reverse_post_order()]
        if not self.loops.reducible:
            self.divergent_blocks.update(order)
            for b in order:
                self._divergent.update(b.phis())
        changed = True
        while changed:
            changed = False
            for block in order:
                for inst in block.instructions:
                    if inst not in self._divergent and self._evaluate(inst):
                        self._divergent.add(inst)
                        changed = True
                    changed |= self._effects(inst)
                term = block.terminator
                if term is not None and block not in self._branches and self._divergent_condition(term):
                    self._divergent_branch(block)
                    changed = True

    def _temporal(self, value: Value, user: I.Instruction) -> bool:
        if not self.divergent_loops or not isinstance(value, I.Instruction) or value.parent is None:
            return False
        if isinstance(user, I.PhiInst):  # a phi reads its operand at the end of the incoming block
            places = [b for v, b in user.incoming() if v is value]
        else:
            places = [user.parent]
        return any(value.parent in lp and any(p not in lp for p in places) for lp in self.divergent_loops)

    def _operand_divergent(self, op: Value, user: I.Instruction) -> bool:
        if isinstance(op, BasicBlock | Constant | GlobalValue | Argument):
            return False
        return op in self._divergent or self._temporal(op, user)

    def _evaluate(self, inst: I.Instruction) -> bool:
        """Is `inst` divergent given what is known now?"""
        kind = self.roots.classify(inst)
        if kind is True:
            return True
        if self.roots.collective(inst):
            return False
        if kind is False:
            ops = inst.args if isinstance(inst, I.CallInst) else inst.operands
            return any(self._operand_divergent(op, inst) for op in ops)
        if isinstance(inst, I.AtomicRMWInst | I.CmpXchgInst):
            return True
        if isinstance(inst, I.LoadInst):
            return inst.volatile or inst.atomic or self._operand_divergent(inst.pointer, inst)
        if isinstance(inst, I.AllocaInst):
            return False  # made divergent by _effects
        if isinstance(inst, I.CallInst):
            return self._call_divergent(inst)
        if isinstance(inst, I.PhiInst):
            if any(self._operand_divergent(v, inst) for v, _ in inst.incoming()):
                return True
            return False  # joins are marked when their branch is found divergent
        if inst.type.is_void:
            return False
        return any(self._operand_divergent(op, inst) for op in inst.operands)

    def _call_divergent(self, call: I.CallInst) -> bool:
        if call.type.is_void:
            return False
        args_divergent = any(self._operand_divergent(a, call) for a in call.args)
        fn = call.called_function
        if fn is None:
            return True
        if is_pure_call(call) or (fn.is_declaration and reads_only(call)):
            # a function of its arguments (and of memory that uniform pointers address identically
            # for every lane); a call that may write memory (atomics) can answer each lane differently
            return args_divergent or any(self._is_divergent_alloca(a) for a in call.args)
        return True

    def _is_divergent_alloca(self, value: Value) -> bool:
        return any(a in self._divergent for a in _derived_allocas(value))

    def _effects(self, inst: I.Instruction) -> bool:
        """Mark the private variables `inst` writes or lets escape; True when something changed."""
        targets: set[I.AllocaInst] = set()
        divergent_block = inst.parent in self.divergent_blocks
        if isinstance(inst, I.StoreInst):
            ptr_allocas = _underlying_allocas(inst.pointer)
            if ptr_allocas and (divergent_block or self._operand_divergent(inst.value, inst)
                                or self._operand_divergent(inst.pointer, inst)):
                targets |= ptr_allocas
            targets |= _derived_allocas(inst.value)  # the address escapes
        elif isinstance(inst, I.CallInst):
            fn = inst.called_function
            if fn is not None and fn.name.startswith(_IGNORED_INTRINSICS):
                return False
            pointed = set().union(*(_derived_allocas(a) for a in inst.args)) if inst.args else set()
            if pointed and (divergent_block or fn is None or not fn.is_declaration
                            or any(self._operand_divergent(a, inst) for a in inst.args)):
                targets |= pointed
        elif isinstance(inst, I.AtomicRMWInst | I.CmpXchgInst):
            targets |= _derived_allocas(inst.operands[0])
            for op in inst.operands[1:]:
                targets |= _derived_allocas(op)
        elif isinstance(inst, I.CastInst) and inst.opcode == "ptrtoint":
            targets |= _derived_allocas(inst.operands[0])
        new = targets - self._divergent
        self._divergent |= new
        return bool(new)

    def _divergent_condition(self, term: I.Instruction) -> bool:
        if isinstance(term, I.BranchInst):
            return len(term.operands) == 3 and self._operand_divergent(term.operands[0], term)
        if isinstance(term, I.SwitchInst | I.IndirectBrInst):
            return self._operand_divergent(term.operands[0], term)
        return False

    def _divergent_branch(self, block: BasicBlock) -> None:
        """Record a divergent branch: its joins' phis, the blocks run by a subset of the lanes, and
        the loops lanes now leave in different iterations."""
        succs = self.cfg.successors(block)
        stop = self.postdomtree.immediate(block)   # None: the virtual exit
        loop = self.loops.loop_of(block)
        headers = set()
        lp = loop
        while lp is not None:
            headers.add(lp.header)
            lp = lp.parent
        labels: dict[BasicBlock, int] = {}
        incoming: dict[BasicBlock, list[int]] = {}
        for i, s in enumerate(succs):
            labels[s] = labels.get(s, 0) | (1 << i)
            incoming.setdefault(s, []).append(1 << i)
        work = list(succs)
        while work:
            b = work.pop()
            if b is stop or b is block or b in headers:
                continue
            for s in self.cfg.successors(b):
                new = labels.get(s, 0) | labels[b]
                incoming.setdefault(s, [])
                if labels[b] not in incoming[s]:
                    incoming[s].append(labels[b])
                if new != labels.get(s):
                    labels[s] = new
                    work.append(s)
        joins = set()
        for b, lab in labels.items():
            if b is block or b in headers:
                continue
            if lab & (lab - 1) and len([x for x in incoming[b] if x]) >= 2:
                joins.add(b)
        self._branches[block] = joins
        for b in labels:
            if b is not stop and b is not block and b not in headers:
                self.divergent_blocks.add(b)
        for j in joins:
            for phi in j.phis():
                if not _same_incoming(phi):
                    self._divergent.add(phi)
        lp = loop
        while lp is not None and (stop is None or stop not in lp):
            self._divergent_loop(lp)
            lp = lp.parent

    def _divergent_loop(self, loop: Loop) -> None:
        if loop in self.divergent_loops:
            return
        self.divergent_loops.add(loop)
        self.divergent_blocks.update(loop.blocks)
        for exit_block in loop.exits():
            for phi in exit_block.phis():
                self._divergent.add(phi)


def _same_incoming(phi: I.PhiInst) -> bool:
    values = [v for v, _ in phi.incoming()]
    return all(v is values[0] for v in values)
