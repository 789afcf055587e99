"""Runs decoded vISA on a batch of hardware threads, all threads and lanes at once.

Every lane has its own program counter; each step executes the instruction at the lowest counter
for every (thread, lane) waiting there. That is vISA's SIMD control flow (spec of ``goto``: lanes
that branch wait at the label, the others continue; a backward branch leaves the non-branching
lanes waiting after it) and keeps the threads of a work-group in lockstep, so a ``barrier`` needs no
waiting: no instruction after it runs before every thread has reached it. NoMask instructions run
on all channels of every thread that has a lane at the instruction."""

from __future__ import annotations

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.sim.visa import alu
from kernelkit.sim.visa.decode import DONE, Inst, Program
from kernelkit.sim.visa.messages import MESSAGES
from kernelkit.sim.visa.native import native_plan
from kernelkit.sim.visa.state import ADDRESS_ROOT_SHIFT, LANES, Machine

NO_OPS = frozenset({"label", "func", "FILE", "LOC", "fence", "barrier", "sbarrier", "lsc_fence", "lifetime", "wait", "yield",
                    "sampler_cache_flush"})
MAX_STEPS = 50_000_000
BRANCHES = frozenset({"goto", "jmp", "ret", "call"})
PREDICATE_LOGIC = frozenset({"mov", "and", "or", "xor", "not"})
UNPLANNED = object()


class Executor:
    def __init__(self, program: Program, machine: Machine, memory, geometry):
        self.program = program
        self.m = machine
        self.memory = memory
        self.geometry = geometry          # .who(row, lane) -> "work-item (x, y, z)", .group_of_row
        self.lane_pc = np.full((machine.threads, LANES), DONE, np.int32)
        self.lane_ops = 0
        self.cache: dict = {}             # per batch: values messages reuse (kernelkit.sim.visa.messages)
        self._alive_full: dict = {}       # converged: (lane0, n) -> every live thread has all n lanes
        self._known: tuple | None = None  # (enabled mask, whether all of it is set) of the current step

    def run(self) -> None:
        """Converged (every live lane at one instruction, no per-lane counters kept) until a branch
        splits the lanes; divergent (lowest counter first) until they meet again."""
        insts = self.program.insts
        alive = self.lane_pc != DONE
        pc, converged, steps = 0, True, 0
        any_alive = bool(alive.any())
        while any_alive:
            steps += 1
            if steps > MAX_STEPS:
                raise LaunchError(f"kernel {self.program.name}: more than {MAX_STEPS} steps; stopped at "
                                  f"instruction #{pc} ({insts[min(pc, len(insts) - 1)].text})")
            if converged:
                if pc >= len(insts):
                    raise LaunchError(f"kernel {self.program.name}: execution ran past the last instruction")
                inst = insts[pc]
                if inst.name not in BRANCHES:
                    self.step(inst, slice(None), alive, advance=False, converged=True)
                    pc += 1
                    continue
                if inst.pred is None and inst.name in ("goto", "jmp"):      # every live lane jumps
                    pc = inst.target
                    continue
                if inst.pred is None and inst.name == "ret" and self.program.routine.is_kernel:
                    self.lane_pc[...] = DONE                              # every live lane ends
                    break
                self.lane_pc[...] = np.where(alive, pc, DONE)
                self.step(inst, slice(None), alive)
            else:
                at = self.lane_pc == pc
                threads_at = at.any(1)
                rows = slice(None) if threads_at.all() else np.flatnonzero(threads_at)
                self.step(insts[pc], rows, at[rows])
            if insts[pc].name == "ret":
                alive = self.lane_pc != DONE
                self._alive_full = {}
                any_alive = bool(alive.any())
                if not any_alive:
                    break
            pc = int(self.lane_pc.min())
            converged = bool(np.all(self.lane_pc[alive] == pc))

    # ---- one instruction for the selected threads; ``active`` (rows, 32) lanes waiting at it
    def step(self, inst: Inst, rows, active: np.ndarray, advance: bool = True, converged: bool = False) -> None:
        name = inst.name
        if name in NO_OPS:
            if advance:
                self._advance(rows, active, inst)
            return
        if name in ("goto", "jmp", "ret", "call"):
            self._branch(inst, rows, active)
            return
        if name == "addr_add":
            self._addr_add(inst, rows)
            if advance:
                self._advance(rows, active, inst)
            return
        n, lane0 = inst.exec_size, inst.lane0
        if n > LANES - lane0:
            self._unsupported(inst, "an execution size beyond 32 channels")
        everywhere = None
        if inst.nomask:
            enabled, everywhere = np.ones((active.shape[0], n), bool), True
        else:
            enabled = active[:, lane0: lane0 + n]
            if converged:
                everywhere = self._alive_full.get((lane0, n))
                if everywhere is None:
                    everywhere = self._alive_full[(lane0, n)] = bool(enabled.all())
        handler = MESSAGES.get(name)
        if handler is not None:
            if inst.pred is not None:
                enabled, everywhere = enabled & self._pred(inst, rows, n, lane0), None
            everywhere = self.all_enabled(enabled, everywhere)
            self.lane_ops += enabled.size if everywhere else int(enabled.sum())
            handler(self, inst, rows, enabled)
            self._known = None
        elif name in ("cmp", "fminmax", "sel", "setp", "addc", "subb", "bfn", "madw") or name in alu.OPERATIONS:
            self._alu(inst, rows, enabled, n, lane0, everywhere)
        else:
            self._unsupported(inst, "this instruction")
        if advance:
            self._advance(rows, active, inst)

    def all_enabled(self, enabled: np.ndarray, known: bool | None = None) -> bool:
        """Whether every lane of ``enabled`` is set (remembered for the current step's mask)."""
        if known is None:
            if self._known is not None and self._known[0] is enabled:
                return self._known[1]
            known = bool(enabled.all())
        self._known = (enabled, known)
        return known

    def _unsupported(self, inst: Inst, what: str):
        raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): the vISA "
                          f"simulator does not execute {what}")

    def _advance(self, rows, active: np.ndarray, inst: Inst) -> None:
        if isinstance(rows, slice):
            self.lane_pc[active] = inst.index + 1
        else:
            sub = self.lane_pc[rows]
            sub[active] = inst.index + 1
            self.lane_pc[rows] = sub

    def _pred(self, inst: Inst, rows, n: int, lane0: int) -> np.ndarray:
        index, inverse, control = inst.pred
        if control:
            width = self.program.routine.predicates[index - 1].num_elements if index else 1
            bits = self.m.read_pred(index, 0, width, rows)
            bits = ~bits if inverse else bits
            red = bits.any(1) if control == 1 else bits.all(1)
            return np.repeat(red[:, None], n, 1)
        bits = self.m.read_pred(index, lane0, n, rows)
        return ~bits if inverse else bits

    # ---- control flow
    def _branch(self, inst: Inst, rows, active: np.ndarray) -> None:
        lane_pc = self.lane_pc[rows] if not isinstance(rows, slice) else self.lane_pc
        nxt = inst.index + 1
        if inst.name == "ret":
            if self.program.routine.is_kernel:
                new = np.where(active, DONE, lane_pc)
            else:
                self._unsupported(inst, "returns from subroutines")
        elif inst.name == "call":
            self._unsupported(inst, "subroutine calls")
        else:
            n, lane0 = inst.exec_size, inst.lane0
            if inst.pred is None:
                taken = np.ones(active.shape, bool)
            elif n == 1 or inst.name == "jmp":
                taken = np.repeat(self._pred(inst, rows, 1, lane0), LANES, 1)
            else:
                bits = np.zeros(active.shape, bool)
                bits[:, lane0: lane0 + n] = self._pred(inst, rows, n, lane0)
                taken = bits
            new = np.where(active, np.where(taken, inst.target, nxt), lane_pc)
        if isinstance(rows, slice):
            self.lane_pc[...] = new
        else:
            self.lane_pc[rows] = new

    # ---- arithmetic
    def _alu(self, inst: Inst, rows, enabled: np.ndarray, n: int, lane0: int, everywhere: bool | None = None) -> None:
        m = self.m
        name = inst.name
        if any(s.kind == "pred" for s in inst.srcs) or (
                inst.dst is not None and inst.dst.kind == "pred" and name in PREDICATE_LOGIC):
            self._predicate_alu(inst, rows, enabled, n, lane0)
            return
        mask = enabled
        if inst.pred is not None and name != "sel":
            mask, everywhere = mask & self._pred(inst, rows, n, lane0), None
        if everywhere is None:
            everywhere = bool(mask.all())
        self.lane_ops += mask.size if everywhere else int(mask.sum())
        full = None if everywhere else mask
        dst = inst.dst
        plan = inst.cache.get("native", UNPLANNED)
        if plan is UNPLANNED:
            plan = inst.cache["native"] = native_plan(inst)
        if plan is not None:
            srcs = plan.sources(lambda op: m.read(op, n, rows, inst))
            if name != "cmp":
                out = m.destination(dst, n, rows, inst) if full is None else None
                with np.errstate(all="ignore"):
                    result = plan.run(srcs, out)
                if result is not out:
                    m.write(dst, n, rows, result, full, inst)
                return
            result = plan.compare(srcs)
            if dst.kind == "pred":
                m.write_pred(dst.index, lane0, n, rows, result, full)
            else:
                m.write(dst, n, rows, np.where(result, -1, 0).astype(np.int64).astype(dst.dtype), full, inst)
            return
        srcs = [alu.modify(alu.widen(m.read(s, n, rows, inst), s.vtype), s.mod, s.vtype) for s in inst.srcs]
        types = [s.vtype for s in inst.srcs]
        try:
            if name == "cmp":
                result = alu.compare(inst.fields["spec"], srcs[0], srcs[1])
                if dst.kind == "pred":
                    m.write_pred(dst.index, lane0, n, rows, result, full)
                else:
                    m.write(dst, n, rows, np.where(result, -1, 0).astype(np.int64).astype(dst.dtype), full, inst)
                return
            if name == "setp":
                src = inst.srcs[0]
                if src.scalar:
                    value = srcs[0][:, :1].astype(np.int64)
                    bits = ((value >> np.arange(n)) & 1).astype(bool)
                else:
                    bits = (srcs[0].astype(np.int64) & 1).astype(bool)
                m.write_pred(dst.index, lane0, n, rows, bits, full)
                return
            if name == "sel":
                pick = self._pred(inst, rows, n, lane0) if inst.pred is not None else np.ones(mask.shape, bool)
                a, b = srcs
                if a.dtype != b.dtype:
                    kind = np.float64 if a.dtype.kind == "f" or b.dtype.kind == "f" else np.int64
                    a, b = a.astype(kind), b.astype(kind)
                result = np.where(pick, a, b)
            elif name == "fminmax":
                result = alu.minmax(bool(inst.fields["spec"]), srcs[0], srcs[1])
            elif name in ("addc", "subb"):
                a = srcs[0].astype(np.int64) & 0xFFFFFFFF
                b = srcs[1].astype(np.int64) & 0xFFFFFFFF
                wide = a + b if name == "addc" else a - b
                carry = (wide >> 32) & 1 if name == "addc" else (wide < 0).astype(np.int64)
                carry_op = inst.fields["dst2"]
                m.write(carry_op, n, rows, carry.astype(carry_op.dtype), full, inst)
                result = wide
            elif name == "bfn":
                result = alu.bfn(inst.fields["func_ctrl"], srcs, types)
            elif name == "madw":
                self._madw(inst, rows, srcs, types, n, full)
                return
            else:
                result = alu.OPERATIONS[name](srcs, types)
        except (TypeError, KeyError, IndexError) as exc:
            raise LaunchError(f"kernel {self.program.name}: instruction #{inst.index} ({inst.text}): "
                              f"cannot execute ({exc})") from None
        if dst.kind == "pred":
            m.write_pred(dst.index, lane0, n, rows, result.astype(bool), full)
            return
        m.write(dst, n, rows, alu.convert(result, dst.vtype, inst.sat, dst.dtype), full, inst)

    def _predicate_alu(self, inst: Inst, rows, enabled: np.ndarray, n: int, lane0: int) -> None:
        """Logic on predicates lane by lane, and moves between predicates and general variables
        (a predicate as an integer holds lane i in bit i)."""
        m = self.m
        name, dst = inst.name, inst.dst
        mask = enabled if inst.pred is None else enabled & self._pred(inst, rows, n, lane0)
        self.lane_ops += int(mask.sum())
        full = None if mask.all() else mask
        if dst.kind == "pred":
            bits = []
            for src in inst.srcs:
                if src.kind == "pred":
                    value = m.read_pred(src.index, lane0, n, rows)
                else:
                    scalar = m.read(src, 1, rows, inst)[:, :1].astype(np.int64)
                    value = ((scalar >> np.arange(lane0, lane0 + n)) & 1).astype(bool)
                bits.append(~value if src.mod == alu.NOT else value)
            ops = {"mov": lambda b: b[0], "and": lambda b: b[0] & b[1], "or": lambda b: b[0] | b[1],
                   "xor": lambda b: b[0] ^ b[1], "not": lambda b: ~b[0]}
            if name not in PREDICATE_LOGIC:
                self._unsupported(inst, "this operation on predicates")
            m.write_pred(dst.index, lane0, n, rows, ops[name](bits), full)
            return
        if name != "mov" or n != 1:
            self._unsupported(inst, "this use of a predicate as a value")
        src = inst.srcs[0]
        width = self.program.routine.predicates[src.index - 1].num_elements if src.index else 1
        bits = m.read_pred(src.index, 0, width, rows).astype(np.uint64)
        value = (bits << np.arange(width, dtype=np.uint64)).sum(1, dtype=np.uint64)[:, None]
        m.write(dst, 1, rows, value.astype(dst.dtype), full, inst)

    def _addr_add(self, inst: Inst, rows) -> None:
        """A(sub) = &variable (its root and byte) + offset in bytes, for indirect operands."""
        dst, base, offset = inst.dst, inst.srcs[0], inst.srcs[1]
        if dst is None or dst.kind != "address" or base.kind != "reg":
            self._unsupported(inst, "this form of addr_add")
        n = inst.exec_size
        value = (base.root << ADDRESS_ROOT_SHIFT) + base.byte
        added = self.m.read(offset, n, rows, inst).astype(np.int64) + value
        self.m.addresses[rows, dst.index, dst.byte: dst.byte + n] = added

    def _madw(self, inst: Inst, rows, srcs, types, n: int, mask) -> None:
        a, b, c = (x.astype(np.int64) for x in srcs)
        unsigned = all(t in alu.UNSIGNED_TYPES for t in types)
        if unsigned:
            wide = (a & 0xFFFFFFFF).astype(np.uint64) * (b & 0xFFFFFFFF).astype(np.uint64) + \
                (c & 0xFFFFFFFF).astype(np.uint64)
        else:
            wide = (a * b + c).astype(np.uint64)
        low = (wide & np.uint64(0xFFFFFFFF)).astype(np.int64)
        high = (wide >> np.uint64(32)).astype(np.int64)
        dst = inst.dst
        m = self.m
        m.write(dst, n, rows, low.astype(dst.dtype), mask, inst)
        size = dst.dtype.itemsize
        grf = -(-n * size // 32) * 32
        from dataclasses import replace
        m.write(replace(dst, byte=dst.byte + grf), n, rows, high.astype(dst.dtype), mask, inst)
