"""The AMD IL executor: runs decoded instructions for many work-items at once.

Lanes are work-items (whole work-groups, group after group); registers are a uint32 array
(register, component, lane). Structured control flow keeps an explicit execution mask: ``if``
narrows it, ``else`` flips it inside the entry mask, ``break``/``continue``/``ret`` park lanes
until their ``endloop``/the call returns. All lanes run in lockstep, so a barrier in uniform
control flow holds by construction (``fence_*`` are no-ops), and LDS is one row per work-group.
Instructions are compiled once per launch into closures (one builder per opcode family).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.sim.amdil import alu
from kernelkit.sim.amdil.atomics import compile_atomic
from kernelkit.sim.amdil.counters import compile_append
from kernelkit.sim.amdil.decode import DecodedProgram, Instr, Operand
from kernelkit.sim.amdil.image_ops import compile_image_read, compile_typed_uav
from kernelkit.sim.amdil.memory import ACCESS_SIZES, Heap, SimImage, load_bytes, store_bytes

U32 = np.uint32
ONE_F = 0x3F800000            # a "1" component selector reads 1.0f
SIGN = U32(0x80000000)
FLOW = {"if_logicalnz", "if_logicalz", "else", "endif", "whileloop", "endloop", "break",
        "break_logicalnz", "break_logicalz", "continue", "continue_logicalnz",
        "continue_logicalz", "ret", "ret_dyn", "call", "endmain"}


@dataclass
class Lanes:
    """Per-lane ids of one chunk of work-groups (all arrays have one entry per lane)."""
    local_id: np.ndarray        # (3, L) uint32
    group_id: np.ndarray        # (3, L) uint32, absolute
    group_flat: np.ndarray      # (L,) uint32, absolute flat group id
    group_row: np.ndarray       # (L,) int64, group index within the chunk (LDS row)
    global_id: np.ndarray       # (3, L) int64 (for messages)
    local_flat: np.ndarray      # (L,) uint32
    abs_flat: np.ndarray        # (L,) uint32
    groups: int                 # work-groups in the chunk

    @property
    def count(self) -> int:
        return self.local_flat.shape[0]


@dataclass
class Frame:
    """An open if or loop."""
    kind: str
    entry: np.ndarray
    taken: np.ndarray | None = None      # if: lanes that took the then-branch
    broken: np.ndarray | None = None     # loop: lanes that left with break
    continued: np.ndarray | None = None  # loop: lanes waiting for the next iteration


class Executor:
    def __init__(self, program: DecodedProgram, kernel: str, cbs: dict[int, np.ndarray],
                 heap: Heap, lds_bytes: int, images: dict[tuple[str, int], SimImage],
                 max_steps: int = 50_000_000, samplers: dict[int, int] | None = None,
                 counters: dict[int, int] | None = None):
        self.program = program
        self.kernel = kernel
        self.cbs = cbs
        self.heap = heap
        self.lds_bytes = lds_bytes
        self.images = images
        self.samplers = samplers or {}
        self.counters = dict(counters or {})   # GDS append counter id -> value
        self.max_steps = max_steps
        self.rows = {n: i for i, n in enumerate(program.registers())}
        self.literals = {n: np.array(v, U32) for n, v in program.literals.items()}
        self._texels = {k: img.texels() for k, img in images.items()}
        self.work_item_instructions = 0
        self._code: dict[int, list] = {}
        self._main = self._compile(program.main)
        for fid, body in program.functions.items():
            self._code[fid] = self._compile(body)

    # -- running ---------------------------------------------------------------------------
    def run(self, lanes: Lanes) -> None:
        L = lanes.count
        self.lanes = lanes
        self.L = L
        self.regs = np.zeros((max(len(self.rows), 1), 4, L), U32)
        self.xtemps = {n: np.zeros((size, 4, L), U32)
                       for n, size in self.program.decls.indexed_temps.items()}
        self.lds = np.zeros((lanes.groups, (self.lds_bytes + 3) // 4), U32)
        self.special = self._special(lanes)
        self.mask = np.ones(L, bool)
        self.full = True
        self.active = L
        self.returned = np.zeros(L, bool)
        self.loops: list[Frame] = []
        self.steps = 0
        self._run_body(self.program.main, self._main)

    def _special(self, lanes: Lanes) -> dict[str, np.ndarray]:
        L = lanes.count
        zero = np.zeros(L, U32)

        def vec(*rows):
            return np.stack([np.asarray(r, U32) for r in rows] + [zero] * (4 - len(rows)))
        return {
            "vTidInGrp": vec(*lanes.local_id),
            "vTidInGrpFlat": vec(lanes.local_flat),
            "vThreadGrpId": vec(*lanes.group_id),
            "vThreadGrpIdFlat": vec(lanes.group_flat),
            "vAbsTid": vec(*(lanes.global_id.astype(U32))),
            "vAbsTidFlat": vec(lanes.abs_flat),
        }

    def where(self, lane: int) -> str:
        g = self.lanes.global_id[:, lane]
        return f"kernel {self.kernel}, work-item ({int(g[0])}, {int(g[1])}, {int(g[2])})"

    def _set_mask(self, mask: np.ndarray) -> None:
        self.mask = mask
        self.active = int(np.count_nonzero(mask))
        self.full = self.active == self.L

    def _act(self):
        """Indices of the active lanes (a slice when every lane is active)."""
        return slice(None) if self.full else np.flatnonzero(self.mask)

    def _run_body(self, body: list[Instr], code: list) -> None:
        pc = 0
        n = len(body)
        while pc < n:
            fn = code[pc]
            if fn is not None:
                if self.active:
                    fn()
                    self.work_item_instructions += self.active
                pc += 1
                continue
            ins = body[pc]
            self.steps += 1
            if self.steps > self.max_steps:
                raise LaunchError(f"kernel {self.kernel}: more than {self.max_steps} control-flow "
                                  f"steps (line {ins.line}): an endless loop?")
            pc = self._flow(ins, pc, body)
            if pc < 0:
                return

    def _cond(self, ins: Instr) -> np.ndarray:
        return np.broadcast_to(self._read(ins.srcs[0], (0,))()[0] != 0, (self.L,))

    def _flow(self, ins: Instr, pc: int, body: list[Instr]) -> int:
        op = ins.op
        self.work_item_instructions += self.active
        if op in ("if_logicalnz", "if_logicalz"):
            if not self.active:
                return ins.target + 1
            cond = self._cond(ins)
            if op == "if_logicalz":
                cond = ~cond
            taken = self.mask & cond
            self.loops.append(Frame("if", self.mask, taken))
            self._set_mask(taken)
            if not self.active:
                return (ins.other if ins.other >= 0 else ins.target)
            return pc + 1
        if op == "else":
            frame = self.loops[-1]
            self._set_mask(frame.entry & ~frame.taken)
            if not self.active:
                return ins.target
            return pc + 1
        if op == "endif":
            frame = self.loops.pop()
            self._set_mask(frame.entry & self._alive())
            return pc + 1
        if op == "whileloop":
            if not self.active:
                return ins.other + 1
            z = np.zeros(self.L, bool)
            self.loops.append(Frame("loop", self.mask, broken=z, continued=z.copy()))
            return pc + 1
        if op == "endloop":
            frame = self.loops[-1]
            frame.continued[:] = False
            again = frame.entry & ~frame.broken & ~self.returned
            if again.any():
                self._set_mask(again)
                return ins.target + 1
            self.loops.pop()
            self._set_mask(frame.entry & ~self.returned)
            return pc + 1
        if op.startswith(("break", "continue")):
            if not self.active:
                return pc + 1
            frame = next(f for f in reversed(self.loops) if f.kind == "loop")
            leave = self.mask.copy()
            if op.endswith("_logicalnz"):
                leave &= self._cond(ins)
            elif op.endswith("_logicalz"):
                leave &= ~self._cond(ins)
            if op.startswith("break"):
                frame.broken |= leave
            else:
                frame.continued |= leave
            self._set_mask(self.mask & ~leave)
            return pc + 1
        if op in ("ret", "ret_dyn"):
            self.returned |= self.mask
            self._set_mask(np.zeros(self.L, bool))
            return pc + 1
        if op == "endmain":
            return -1
        if op == "call":
            if not self.active:
                return pc + 1
            fid = int(ins.params["function"])
            saved = (self.mask, self.returned, self.loops)
            self.returned = np.zeros(self.L, bool)
            self.loops = []
            self._run_body(self.program.functions[fid], self._code[fid])
            self.mask, self.returned, self.loops = saved
            self._set_mask(self.mask)
            return pc + 1
        raise LaunchError(f"line {ins.line}: {op} is not a control-flow instruction")

    def _alive(self) -> np.ndarray:
        alive = ~self.returned
        loop = next((f for f in reversed(self.loops) if f.kind == "loop"), None)
        if loop is not None:
            alive = alive & ~loop.broken & ~loop.continued
        return alive

    # -- operands ---------------------------------------------------------------------------
    def _read(self, op: Operand, comps: tuple[int, ...]) -> Callable[[], np.ndarray]:
        """A function giving the source's selected components at the destination positions
        ``comps``: an array (len(comps), lanes) or (len(comps), 1)."""
        sel = [op.select[c] for c in comps]
        k = len(sel)
        f = op.file
        if f == "l":
            if op.num not in self.literals:
                raise self._bad(op, f"literal l{op.num} is not declared")
            vals = self.literals[op.num]
            const = np.array([vals[s] if s < 4 else (0 if s == 4 else ONE_F) for s in sel],
                             U32).reshape(k, 1)
            if op.negate:
                const = const ^ SIGN
            return lambda: const
        if f == "cb":
            return self._read_cb(op, sel)
        if f == "x":
            base = self._read_indexed(op)
            reader = lambda: _select(base(), sel)    # noqa: E731
        elif f == "r":
            row = self.rows[op.num]
            if all(s < 4 for s in sel):
                lo = sel[0]
                if sel == list(range(lo, lo + k)):
                    reader = lambda: self.regs[row, lo:lo + k]    # noqa: E731
                else:
                    idx = np.array(sel)
                    reader = lambda: self.regs[row, idx]          # noqa: E731
            else:
                reader = lambda: _select(self.regs[row], sel)    # noqa: E731
        elif f in self._special_names():
            name = f
            reader = lambda: _select(self.special[name], sel)    # noqa: E731
        else:
            raise self._bad(op, f"{f} registers cannot be read")
        if op.negate:
            return lambda: reader() ^ SIGN
        return reader

    @staticmethod
    def _special_names():
        from kernelkit.sim.amdil.decode import SPECIAL_REGISTERS
        return SPECIAL_REGISTERS

    def _bad(self, op: Operand, message: str) -> LaunchError:
        return LaunchError(f"{self.kernel}: operand {op.text}: {message}")

    def _read_cb(self, op: Operand, sel: list[int]) -> Callable[[], np.ndarray]:
        if op.num not in self.cbs:
            raise self._bad(op, f"constant buffer cb{op.num} is not bound")
        cb = self.cbs[op.num]
        ext = np.concatenate([cb, np.zeros((cb.shape[0], 1), U32),
                              np.full((cb.shape[0], 1), ONE_F, U32)], axis=1)
        if op.index_reg is None:
            if op.index_offset >= cb.shape[0]:
                raise self._bad(op, f"cb{op.num} has {cb.shape[0]} slots (missing slot "
                                    f"{op.index_offset})")
            const = ext[op.index_offset, sel].reshape(-1, 1).copy()
            if op.negate:
                const ^= SIGN
            return lambda: const
        row, comp, off = self.rows[op.index_reg], op.index_comp, op.index_offset
        sel_arr = np.array(sel)

        def read():
            idx = self.regs[row, comp].astype(np.int64) + off
            bad = (idx < 0) | (idx >= cb.shape[0])
            if (bad & self.mask).any():
                lane = int(np.argmax(bad & self.mask))
                raise LaunchError(f"{self.where(lane)}: cb{op.num}[{int(idx[lane])}] is outside "
                                  f"its {cb.shape[0]} slots")
            v = ext[np.clip(idx, 0, cb.shape[0] - 1)][:, sel_arr].T
            return v ^ SIGN if op.negate else v
        return read

    def _xindex(self, op: Operand) -> Callable[[], np.ndarray]:
        size = self.program.decls.indexed_temps.get(op.num)
        if size is None:
            raise self._bad(op, f"indexed temp array x{op.num} is not declared")
        off = op.index_offset
        if op.index_reg is None:
            if off >= size:
                raise self._bad(op, f"x{op.num} has {size} elements")
            return lambda: np.full(self.L, off, np.int64)
        row, comp = self.rows[op.index_reg], op.index_comp

        def index():
            idx = self.regs[row, comp].astype(np.int32).astype(np.int64) + off
            bad = ((idx < 0) | (idx >= size)) & self.mask
            if bad.any():
                lane = int(np.argmax(bad))
                raise LaunchError(f"{self.where(lane)}: private element x{op.num}[{int(idx[lane])}]"
                                  f" is outside its {size} elements (byte address "
                                  f"{int(idx[lane]) * 16:#x})")
            return np.clip(idx, 0, size - 1)
        return index

    def _read_indexed(self, op: Operand) -> Callable[[], np.ndarray]:
        index = self._xindex(op)

        def read():
            arr = self.xtemps[op.num]
            return arr[index(), :, np.arange(self.L)].T
        return read

    def _writer(self, op: Operand) -> tuple[tuple[int, ...], Callable[[np.ndarray], None]]:
        """The components a destination writes and a function storing a result into them
        (only in active lanes)."""
        comps = op.select
        consts = op.dst_consts
        k = len(comps)
        if op.file == "r":
            row = self.rows[op.num]
            lo = comps[0] if comps else 0
            contiguous = list(comps) == list(range(lo, lo + k))
            key = slice(lo, lo + k) if contiguous else np.array(comps)

            def write(res):
                if self.full:
                    self.regs[row, key] = res
                else:
                    self.regs[row, key] = np.where(self.mask, res, self.regs[row, key])
                for c, v in consts:
                    self._write_const(row, c, v)
            return comps, write
        if op.file == "x":
            index = self._xindex(op)
            comp_arr = np.array(comps)

            def xwrite(res):
                arr = self.xtemps[op.num]
                act = self._act()
                lanes = np.arange(self.L)[act]
                idx = index()[act]
                res = np.broadcast_to(res, (k, self.L))
                for j, c in enumerate(comp_arr):
                    arr[idx, c, lanes] = res[j][act]
                for c, v in consts:
                    arr[idx, c, lanes] = 0 if v == 0 else ONE_F
            return comps, xwrite
        raise self._bad(op, f"{op.file} registers cannot be written")

    def _write_const(self, row: int, c: int, v: int) -> None:
        val = U32(0 if v == 0 else ONE_F)
        if self.full:
            self.regs[row, c] = val
        else:
            self.regs[row, c][self.mask] = val

    # -- compiling --------------------------------------------------------------------------
    def _compile(self, body: list[Instr]) -> list:
        out = []
        for ins in body:
            if ins.op in FLOW:
                out.append(None)
                continue
            try:
                out.append(self._compile_one(ins))
            except LaunchError as e:
                raise LaunchError(f"line {ins.line}: {e} ({ins.text.strip()})") from None
        return out

    def _compile_one(self, ins: Instr) -> Callable[[], None]:
        op = ins.op
        if op.startswith("dcl_") or op.startswith("fence") or op == "nop":
            return lambda: None
        n = len(ins.srcs)
        if op in alu.UNARY and n == 1 or op in alu.BINARY and n == 2 or op in alu.TERNARY and n == 3:
            return self._compile_alu(ins)
        if op in alu.PAIR_OPS or op in alu.CONVERT_OPS:
            return self._compile_pair(ins)
        if op.startswith("uav_raw_") or op.startswith("uav_arena_"):
            return self._compile_uav(ins)
        if op.startswith("lds_"):
            return self._compile_lds(ins)
        if op.startswith("uav_"):
            if op in ("uav_store", "uav_load"):
                return compile_typed_uav(self, ins)
            return compile_atomic(self, ins, space="uav")
        if op in ("sample", "load"):
            return compile_image_read(self, ins)
        if op.startswith("append_buf_"):
            return compile_append(self, ins)
        if op in alu.UNARY or op in alu.BINARY or op in alu.TERNARY:
            raise LaunchError(f"{op} takes a different number of operands than {n}")
        raise LaunchError(f"unknown opcode {op!r}")

    def _compile_alu(self, ins: Instr) -> Callable[[], None]:
        comps, write = self._writer(ins.dst)
        if not comps:
            return lambda: write(np.zeros((0, 1), U32))
        readers = [self._read(s, comps) for s in ins.srcs]
        if ins.op in alu.UNARY:
            fn = alu.UNARY[ins.op]
            (a,) = readers
            return lambda: write(fn(a()))
        if ins.op in alu.BINARY:
            fn = alu.BINARY[ins.op]
            a, b = readers
            return lambda: write(fn(a(), b()))
        fn = alu.TERNARY[ins.op]
        a, b, c = readers
        return lambda: write(fn(a(), b(), c()))

    def _compile_pair(self, ins: Instr) -> Callable[[], None]:
        comps, write = self._writer(ins.dst)
        if ins.op in alu.CONVERT_OPS:
            wide_src, fn = alu.CONVERT_OPS[ins.op]
            if wide_src:
                r = self._read(ins.srcs[0], (0, 1))
                return lambda: write(np.broadcast_to(fn(_join(r())), (len(comps), self.L)))
            r = self._read(ins.srcs[0], (comps[0],))
            return lambda: write(np.stack(alu.split64(fn(r()[0]))))
        nsrc, fn, wide = alu.PAIR_OPS[ins.op]
        if len(ins.srcs) != nsrc:
            raise LaunchError(f"{ins.op} takes {nsrc} sources")
        pos = comps if len(comps) == 2 else (0, 1)
        readers = [self._read(s, pos) for s in ins.srcs]
        if wide:
            if len(comps) != 2:
                raise LaunchError(f"{ins.op} writes a component pair")
            return lambda: write(np.stack(alu.split64(fn(*[_join(r()) for r in readers]))))
        return lambda: write(np.broadcast_to(
            alu.split64(fn(*[_join(r()) for r in readers]))[0], (len(comps), self.L)))

    def _lane_values(self, reader: Callable[[], np.ndarray], act) -> np.ndarray:
        v = reader()
        return np.broadcast_to(v, (v.shape[0], self.L))[:, act]

    def _write_lanes(self, dst: Operand, comps, vals: np.ndarray, act) -> None:
        row = self.rows[dst.num]
        for j, c in enumerate(comps):
            self.regs[row, c, act] = vals[j]

    def _compile_uav(self, ins: Instr) -> Callable[[], None]:
        op = ins.op
        heap = self.heap
        if op == "uav_raw_load":
            comps = ins.dst.select
            count = max(comps) + 1
            addr = self._read(ins.srcs[0], (0,))
            dst = ins.dst

            def raw_load():
                act = self._act()
                a = self._lane_values(addr, act)[0]
                self._check(heap, a, 4 * count, "raw UAV load", act)
                w = (a >> 2).astype(np.int64)
                vals = [heap.words[w + c] for c in comps]
                self._write_lanes(dst, comps, vals, act)
            return raw_load
        if op == "uav_raw_store":
            comps = ins.dst.select
            addr = self._read(ins.srcs[0], (0,))
            value = self._read(ins.srcs[1], comps)
            span = 4 * (max(comps) + 1)

            def raw_store():
                act = self._act()
                a = self._lane_values(addr, act)[0]
                v = self._lane_values(value, act)
                self._check(heap, a, span, "raw UAV store", act)
                w = (a >> 2).astype(np.int64)
                for j, c in enumerate(comps):
                    heap.words[w + c] = v[j]
            return raw_store
        kind = ins.params.get("size", "dword")
        if kind not in ACCESS_SIZES:
            raise LaunchError(f"unknown access size {kind!r}")
        size = ACCESS_SIZES[kind][0]
        if op == "uav_arena_load":
            addr = self._read(ins.srcs[0], (0,))
            dst = ins.dst

            def arena_load():
                act = self._act()
                a = self._lane_values(addr, act)[0]
                self._check(heap, a, size, "arena UAV load", act)
                v = load_bytes(heap.data, a.astype(np.int64), kind)
                self._write_lanes(dst, dst.select[:1], [v], act)
            return arena_load
        if op == "uav_arena_store":
            addr = self._read(ins.srcs[0], (0,))
            value = self._read(ins.srcs[1], (0,))

            def arena_store():
                act = self._act()
                a = self._lane_values(addr, act)[0]
                self._check(heap, a, size, "arena UAV store", act)
                store_bytes(heap.data, a.astype(np.int64), self._lane_values(value, act)[0], kind)
            return arena_store
        raise LaunchError(f"unknown UAV instruction {op!r}")

    def _check(self, heap: Heap, a: np.ndarray, size: int, what: str, act) -> None:
        lanes = np.arange(self.L)[act]
        heap.check(a, size, lambda i: self.where(int(lanes[i])), what)

    def _compile_lds(self, ins: Instr) -> Callable[[], None]:
        op = ins.op
        rows = lambda act: self.lanes.group_row[act]    # noqa: E731
        nbytes = self.lds_bytes

        def check(a, span, act, what):
            bad = (a.astype(np.int64) + span > nbytes) | (a.astype(np.int64) < 0)
            if bad.any():
                lane = int(np.arange(self.L)[act][int(np.argmax(bad))])
                raise LaunchError(f"{self.where(lane)}: {what} of {span} byte(s) at LDS address "
                                  f"{int(a[int(np.argmax(bad))]):#x} is outside the "
                                  f"{nbytes} bytes of local memory")
        if op.startswith("lds_load"):
            # one dword (or byte/short, extended) into every written component
            comps = ins.dst.select
            addr = self._read(ins.srcs[0], (0,))
            kind = op[len("lds_load_"):] if op != "lds_load" else "dword"
            if kind not in ACCESS_SIZES:
                raise LaunchError(f"unknown LDS load {op!r}")
            dst = ins.dst

            def lds_load():
                act = self._act()
                a = self._lane_values(addr, act)[0].astype(np.int64)
                check(a, ACCESS_SIZES[kind][0], act, "LDS load")
                r = rows(act)
                if kind != "dword":
                    b = self.lds.view(np.uint8)
                    v = load_bytes(b.reshape(-1), r * b.shape[1] + a, kind)
                else:
                    v = self.lds[r, a >> 2]
                self._write_lanes(dst, comps, [v] * len(comps), act)
            return lds_load
        if op.startswith("lds_store"):
            addr = self._read(ins.srcs[0], (0,))
            kind = op[len("lds_store_"):] if op != "lds_store" else "dword"
            if kind not in ACCESS_SIZES:
                raise LaunchError(f"unknown LDS store {op!r}")
            value = self._read(ins.srcs[1], (0,))

            def lds_store():
                act = self._act()
                a = self._lane_values(addr, act)[0].astype(np.int64)
                check(a, ACCESS_SIZES[kind][0], act, "LDS store")
                v = self._lane_values(value, act)[0]
                r = rows(act)
                if kind != "dword":
                    b = self.lds.view(np.uint8)
                    store_bytes(b.reshape(-1), r * b.shape[1] + a, v, kind)
                else:
                    self.lds[r, a >> 2] = v
            return lds_store
        return compile_atomic(self, ins, space="lds")

    def finish(self) -> None:
        """Write images back to the caller's arrays."""
        for key, img in self.images.items():
            if key[0] == "uav":
                img.write_back(self._texels[key])


def _select(v: np.ndarray, sel: list[int]) -> np.ndarray:
    """Rows of a (4, L) array by selectors (4: constant 0, 5: constant 1.0f)."""
    if all(s < 4 for s in sel):
        return v[sel]
    out = np.empty((len(sel),) + v.shape[1:], U32)
    for j, s in enumerate(sel):
        out[j] = v[s] if s < 4 else (0 if s == 4 else ONE_F)
    return out


def _join(v: np.ndarray) -> np.ndarray:
    return alu.join64(v[0], v[1])
