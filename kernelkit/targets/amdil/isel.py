"""Instruction selection: one kernel's optimised IR -> the lines of its AMD IL body function.

The structured region tree (``kernelkit.ir.transforms.structurize``) becomes
if_logicalnz/else/endif and whileloop/break/continue/endloop; phis become copies on their
edges; every IR value has its own registers (``regs``). Arithmetic lives here, memory in
``memory.MemoryOps``, calls (work-item functions, barriers, LLVM intrinsics) in
``calls.CallOps``. Integers narrower than 32 bits keep garbage above their width and are
extended where it matters (compares, right shifts, division, conversions); i1 is 0 or all ones.
"""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.module import Argument, Function, GlobalVariable
from kernelkit.ir.transforms import structurize as S
from kernelkit.ir.values import Constant, ConstantExpr
from kernelkit.targets.amdil.calls import CallOps
from kernelkit.targets.amdil.casts import ALL, SIGN, CastOps, int_bits
from kernelkit.targets.amdil.counters import CounterOps
from kernelkit.targets.amdil.emitter import Emitter, Operand, constant_bits
from kernelkit.targets.amdil.halfs import HalfOps
from kernelkit.targets.amdil.images import ImageOps
from kernelkit.targets.amdil.memory import MemoryOps
from kernelkit.targets.amdil.printf import PrintfOps
from kernelkit.targets.amdil.regs import Slot, element_slots, slot_count

INT_BINARY = {"add": "iadd", "mul": "imul", "and": "iand", "or": "ior", "xor": "ixor",
              "shl": "ishl"}
FLOAT_BINARY = {"fadd": "add", "fsub": "sub", "fmul": "mul", "fdiv": "div"}
DOUBLE_BINARY = {"fadd": "dadd", "fmul": "dmul", "fdiv": "ddiv"}
# icmp predicate -> (IL op, swap operands, signed)
ICMP = {"eq": ("ieq", False, False), "ne": ("ine", False, False),
        "slt": ("ilt", False, True), "sge": ("ige", False, True),
        "sgt": ("ilt", True, True), "sle": ("ige", True, True),
        "ult": ("ult", False, False), "uge": ("uge", False, False),
        "ugt": ("ult", True, False), "ule": ("uge", True, False)}
# ordered fcmp -> (IL op, swap); the unordered ones are the negation of the opposite ordered one
FCMP = {"oeq": ("eq", False), "olt": ("lt", False), "oge": ("ge", False),
        "ogt": ("lt", True), "ole": ("ge", True)}
FCMP_NEGATED = {"une": "oeq", "uge": "olt", "ult": "oge", "ule": "ogt", "ugt": "ole"}


class KernelSelector(MemoryOps, CallOps, CastOps, CounterOps, HalfOps, ImageOps, PrintfOps):
    """Selects one kernel function; ``args`` maps each argument to its operand slots."""

    def __init__(self, fn: Function, em: Emitter, device, layout: dict):
        self.fn = fn
        self.em = em
        self.device = device
        self.layout = layout           # addresses of globals, private frame, argument slots
        self.values: dict[int, list[Operand]] = {}
        self.exit_flags: dict[int, Slot] = {}
        self.counter_uses: dict[int, set[str]] = {}    # counter id -> {"alloc", "consume"}
        self.barriers = 0
        self.calls: list[int] = []                     # ids of the IL functions called
        MemoryOps.__init__(self)

    # -- values ---------------------------------------------------------------------------
    def val(self, v) -> list[Operand]:
        got = self.values.get(id(v))
        if got is not None:
            return got
        if isinstance(v, ConstantExpr):
            return self.constant_expr(v)
        if isinstance(v, GlobalVariable):
            return [self.global_address(v)]
        if isinstance(v, Constant):
            return constant_bits(v, v.type)   # type: ignore[return-value]
        if isinstance(v, Argument):
            raise CompileError(f"amdil internal: argument %{v.name} has no registers")
        if isinstance(v, I.Instruction):
            return self.result(v)   # defined later (a phi or a value of a later block)
        raise CompileError(f"amdil: operand {v} is not supported")

    def result(self, inst) -> list[Slot]:
        """The registers of an instruction's result."""
        slots = self.em.regs.slots(inst, slot_count(inst.type))
        self.values[id(inst)] = slots
        return slots

    def elems(self, v) -> list[list[Operand]]:
        """The operand slots of each element of a (vector) value."""
        ops = self.val(v)
        n = element_slots(v.type)
        return [ops[i:i + n] for i in range(0, len(ops), n)]

    # -- the function ---------------------------------------------------------------------------
    def select(self) -> list[str]:
        tree = S.structurize(self.fn)
        self.prologue()
        self.walk(tree)
        if not self.em.lines or self.em.lines[-1] != "ret_dyn":
            self.em.emit("ret_dyn")
        return self.em.lines

    def return_value(self, value) -> None:
        raise CompileError(f"amdil: kernel {self.fn.name} returns a value")

    def source_position(self, inst, first: int) -> None:
        """``-g``: the instructions selected for ``inst`` carry its source position as the
        driver's debug programs do (``\tinstr<pad>; file:line:column``), and a change of source
        line starts with a ``;.tmp<n>:`` label of the line table (``debuginfo``)."""
        debug = self.layout.get("debug")
        loc = inst.metadata.get("dbg")
        if debug is None or loc is None or loc.kind != "DILocation":
            return
        try:
            row, col = int(loc.field("line")), int(loc.field("column"))
        except (KeyError, TypeError, ValueError):
            return
        lines = self.em.lines
        marked = [k for k in range(first, len(lines)) if ";" not in lines[k]]
        if not marked:
            return
        where = f"{debug.file}:{row}:{col}"
        for k in marked:
            text = lines[k]
            lines[k] = "\t" + (text.ljust(32) if len(text) < 32 else text + " ") + "; " + where
        if row != getattr(self, "_debug_line", None) and row:
            self._debug_line = row
            lines.insert(marked[0], debug.tmp(row))

    def walk(self, nodes: list) -> None:
        for n in nodes:
            if isinstance(n, S.Block):
                for inst in n.block.instructions:
                    if not inst.is_terminator and inst.opcode != "phi":
                        first = len(self.em.lines)
                        self.instruction(inst)
                        self.source_position(inst, first)
                term = n.block.terminator
                if term is not None and term.opcode == "ret" and term.operands:
                    self.return_value(term.operands[0])
            elif isinstance(n, S.Edge):
                self.edge(n.src, n.dst)
            elif isinstance(n, S.If):
                t = self.test(n.test)
                self.em.emit(f"if_logicalnz {t.file}{t.num}.{'xyzw'[t.comp]}")
                self.walk(n.then)
                if n.else_:
                    self.em.emit("else")
                    self.walk(n.else_)
                self.em.emit("endif")
            elif isinstance(n, S.Loop):
                if len(n.exits) > 1:
                    self.exit_flags[id(n.loop)] = self.em.temp_slots(1)[0]
                self.em.emit("whileloop")
                self.walk(n.body)
                self.em.emit("endloop")
            elif isinstance(n, S.Break):
                self.em.emit("break")
            elif isinstance(n, S.Continue):
                self.em.emit("continue")
            elif isinstance(n, S.SetExit):
                self.em.mov([self.exit_flags[id(n.loop)]], [n.index])
            elif isinstance(n, S.Return):
                self.em.emit("ret_dyn")
            else:
                raise CompileError(f"amdil internal: region node {n}")

    def test(self, t) -> Slot:
        if isinstance(t, S.Branch):
            cond = self.val(t.block.terminator.operands[0])[0]
            return cond if isinstance(cond, Slot) else self.em.one("mov", cond)
        if isinstance(t, S.Case):
            term = t.block.terminator
            v = self.normalized(term.operands[0], signed=False)
            hits = None
            for c in t.value:
                eq = self.icmp_elem("eq", v, constant_bits(c, c.type), int_bits(c.type))
                hits = eq if hits is None else self.em.one("ior", hits, eq)
            return hits
        return self.em.one("ieq", self.exit_flags[id(t.loop)], t.index)

    def edge(self, src, dst) -> None:
        """Parallel copies for the phis of ``dst`` on the edge from ``src``."""
        phis = [i for i in dst.instructions if i.opcode == "phi"]
        if not phis:
            return
        staged = []
        for phi in phis:
            incoming = self.val(phi.value_for(src))
            tmp = self.em.temp_slots(len(incoming))
            self.em.mov(tmp, incoming)
            staged.append((phi, tmp))
        for phi, tmp in staged:
            self.em.mov(self.result(phi), tmp)

    # -- instructions ---------------------------------------------------------------------------
    def instruction(self, inst) -> None:
        op = inst.opcode
        method = getattr(self, "sel_" + op.replace(".", "_"), None)
        if method is None:
            raise CompileError(f"amdil: @{self.fn.name}: {op} instructions are not supported "
                               f"({inst})")
        method(inst)

    def normalized(self, v, signed: bool) -> list[Operand]:
        """Element operands of an integer value with the bits above its width cleared
        (or copies of its sign bit)."""
        bits = int_bits(v.type)
        ops = self.val(v)
        if bits >= 32 or bits == 1:
            return ops
        return [self.extend(o, bits, signed) for o in ops]

    def extend(self, o: Operand, bits: int, signed: bool) -> Operand:
        if isinstance(o, int):
            o &= (1 << bits) - 1
            if signed and o >> (bits - 1):
                o |= ALL ^ ((1 << bits) - 1)
            return o
        if signed:
            t = self.em.one("ishl", o, 32 - bits)
            return self.em.one("ishr", t, 32 - bits)
        return self.em.one("iand", o, (1 << bits) - 1)

    def sel_freeze(self, inst) -> None:
        self.em.mov(self.result(inst), self.val(inst.operands[0]))

    def sel_fneg(self, inst) -> None:
        out = self.result(inst)
        if inst.type.scalar == T.float64:
            for e, d in zip(self.elems(inst.operands[0]), _pairs(out), strict=True):
                self.em.mov([d[0]], [e[0]])
                self.em.op("ixor", [d[1]], [e[1]], [SIGN])
        else:
            self.em.op("ixor", out, self.val(inst.operands[0]), [SIGN] * len(out))

    def binary(self, inst) -> None:
        op = inst.opcode
        a, b = inst.operands
        out = self.result(inst)
        sc = inst.type.scalar
        if sc == T.float32:
            if op == "frem":
                q = self.em.new("div", self.val(a), self.val(b))
                q = self.em.new("round_z", q)
                p = self.em.new("mul", q, self.val(b))
                self.em.op("sub", out, self.val(a), p)
                return
            self.em.op(FLOAT_BINARY[op], out, self.val(a), self.val(b))
            return
        if sc == T.float64:
            self.double_binary(op, out, a, b)
            return
        bits = int_bits(inst.type)
        if bits == 64:
            self.int64_binary(op, out, a, b)
            return
        if op in INT_BINARY:
            self.em.op(INT_BINARY[op], out, self.val(a), self.val(b))
        elif op == "sub":
            neg = self.em.new("inegate", self.val(b))
            self.em.op("iadd", out, self.val(a), neg)
        elif op in ("lshr", "ashr"):
            signed = op == "ashr"
            self.em.op("ishr" if signed else "ushr", out, self.normalized(a, signed),
                       self.val(b))
        elif op in ("udiv", "urem"):
            self.em.op("udiv" if op == "udiv" else "umod", out, self.normalized(a, False),
                       self.normalized(b, False))
        elif op in ("sdiv", "srem"):
            self.signed_division(op, out, self.normalized(a, True), self.normalized(b, True))
        else:
            raise CompileError(f"amdil: {op} on {inst.type} is not supported")

    sel_add = sel_sub = sel_mul = sel_and = sel_or = sel_xor = sel_shl = sel_lshr = binary
    sel_ashr = sel_udiv = sel_urem = sel_sdiv = sel_srem = binary
    sel_fadd = sel_fsub = sel_fmul = sel_fdiv = sel_frem = binary

    def signed_division(self, op, out, a, b) -> None:
        em = self.em
        sa = em.new("ishr", a, [31] * len(a))
        sb = em.new("ishr", b, [31] * len(b))
        ua = em.new("ixor", em.new("iadd", a, sa), sa)        # |a|
        ub = em.new("ixor", em.new("iadd", b, sb), sb)        # |b|
        if op == "sdiv":
            q = em.new("udiv", ua, ub)
            s = em.new("ixor", sa, sb)
            em.op("ixor", out, em.new("iadd", q, s), s)        # (q + s) ^ s negates when s = -1
        else:
            r = em.new("umod", ua, ub)
            em.op("ixor", out, em.new("iadd", r, sa), sa)

    def double_binary(self, op, out, a, b) -> None:
        em = self.em
        for ea, eb, d in zip(self.elems(a), self.elems(b), _pairs(out), strict=True):
            if op == "fsub":
                nb = [eb[0], em.one("ixor", eb[1], SIGN)]
                em.op("dadd", d, ea, nb)
            elif op == "frem":     # a - b * trunc(a / b)
                q = em.temp_slots(2)
                em.op("ddiv", q, ea, eb)
                t = self.double_rounding("trunc", q)
                em.op("dmad", d, t, [eb[0], em.one("ixor", eb[1], SIGN)], ea)
            elif op in DOUBLE_BINARY:
                em.op(DOUBLE_BINARY[op], d, ea, eb)
            else:
                raise CompileError(f"amdil: {op} on double is not supported")

    def int64_binary(self, op, out, a, b) -> None:
        em = self.em
        for ea, eb, d in zip(self.elems(a), self.elems(b), _pairs(out), strict=True):
            if op in ("and", "or", "xor"):
                em.op(INT_BINARY[op], d, ea, eb)
            elif op == "add":
                self.add64(d, ea, eb)
            elif op == "sub":
                self.add64(d, ea, self.neg64(eb))
            elif op == "mul":
                lo = em.one("umul", ea[0], eb[0])
                hi = em.one("umul_high", ea[0], eb[0])
                hi = em.one("iadd", hi, em.one("imul", ea[0], eb[1]))
                hi = em.one("iadd", hi, em.one("imul", ea[1], eb[0]))
                em.mov(d, [lo, hi])
            elif op in ("shl", "lshr", "ashr"):
                self.shift64(op, d, ea, eb[0])
            elif op in ("udiv", "urem"):
                q, r = self.divide64(ea, eb)
                em.mov(d, q if op == "udiv" else r)
            elif op in ("sdiv", "srem"):
                sa = em.one("ishr", ea[1], 31)
                sb = em.one("ishr", eb[1], 31)
                q, r = self.divide64(self.abs64(ea, sa), self.abs64(eb, sb))
                if op == "sdiv":
                    em.mov(d, self.abs64(q, em.one("ixor", sa, sb)))   # negate when signs differ
                else:
                    em.mov(d, self.abs64(r, sa))                         # the dividend's sign
            else:
                raise CompileError(f"amdil: 64-bit {op} is not supported")

    def add64(self, d, ea, eb) -> None:
        em = self.em
        lo = em.one("iadd", ea[0], eb[0])
        carry = em.one("ult", lo, ea[0] if isinstance(ea[0], Slot) else em.one("mov", ea[0]))
        hi = em.one("iadd", ea[1], eb[1])
        hi = em.one("iadd", hi, em.one("inegate", carry))
        em.mov(d, [lo, hi])

    def abs64(self, e, sign) -> list[Slot]:
        """(e ^ sign) - sign: |e| for sign = e >> 63, or -e when sign is all ones."""
        em = self.em
        flipped = [em.one("ixor", e[0], sign), em.one("ixor", e[1], sign)]
        out = em.temp_slots(2)
        self.add64(out, flipped, [em.one("iand", sign, 1), 0])
        return out

    def divide64(self, n, dv) -> tuple[list[Slot], list[Slot]]:
        """Unsigned 64-bit quotient and remainder: restoring division, one bit per iteration
        of an IL loop (bit 63 down to 0)."""
        em = self.em
        q, r, i = em.temp_slots(2), em.temp_slots(2), em.temp_slots(1)
        em.mov(q, [0, 0])
        em.mov(r, [0, 0])
        em.mov(i, [63])
        em.emit("whileloop")
        carry = em.one("ushr", r[0], 31)
        em.op("ior", [r[1]], [em.one("ishl", r[1], 1)], [carry])
        bit_word = em.temp_slots(2)
        self.shift64("lshr", bit_word, n, i[0])
        em.op("ior", [r[0]], [em.one("ishl", r[0], 1)], [em.one("iand", bit_word[0], 1)])
        ge = self.icmp_elem("uge", r, dv, 64)
        diff = em.temp_slots(2)
        self.add64(diff, r, self.neg64(dv))
        em.op("cmov_logical", r, [ge, ge], diff, r)
        qbit = em.temp_slots(2)
        self.shift64("shl", qbit, [1, 0], i[0])
        em.op("ior", q, q, [em.one("iand", qbit[0], ge), em.one("iand", qbit[1], ge)])
        em.op("iadd", i, i, [0xFFFFFFFF])
        em.emit(f"break_logicalnz {_x(em.one('ilt', i[0], 0))}")
        em.emit("endloop")
        return q, r

    def neg64(self, e) -> list[Operand]:
        em = self.em
        nl = em.one("inot", e[0])
        nh = em.one("inot", e[1])
        out = em.temp_slots(2)
        self.add64(out, [nl, nh], [1, 0])
        return out

    def shift64(self, op, d, e, amount) -> None:
        em = self.em
        n = em.one("iand", amount, 63)
        big = em.one("uge", n, 32)
        m = em.one("iand", n, 31)
        inv = em.one("iadd", 31, em.one("inegate", m))           # 31 - m
        lo, hi = e
        if op == "shl":
            spill = em.one("ushr", em.one("ushr", lo, 1), inv)    # lo >> (32 - m), 0 when m = 0
            small_hi = em.one("ior", em.one("ishl", hi, m), spill)
            small_lo = em.one("ishl", lo, m)
            em.mov(d, [em.one("cmov_logical", big, 0, small_lo),
                       em.one("cmov_logical", big, small_lo, small_hi)])
            return
        right = "ishr" if op == "ashr" else "ushr"
        spill = em.one("ishl", em.one("ishl", hi, 1), inv)
        small_lo = em.one("ior", em.one("ushr", lo, m), spill)
        small_hi = em.one(right, hi, m)
        fill = em.one("ishr", hi, 31) if op == "ashr" else 0
        em.mov(d, [em.one("cmov_logical", big, small_hi, small_lo),
                   em.one("cmov_logical", big, fill, small_hi)])

    # -- comparisons and selects -------------------------------------------------------------
    def icmp_elem(self, pred, a: list[Operand], b: list[Operand], bits: int) -> Slot:
        em = self.em
        op, swap, signed = ICMP[pred]
        if bits == 64:
            if pred in ("eq", "ne"):
                lo = em.one("ieq", *_reg_first(em, a[0], b[0]))
                hi = em.one("ieq", *_reg_first(em, a[1], b[1]))
                both = em.one("iand", lo, hi)
                return both if pred == "eq" else em.one("inot", both)
            x, y = (b, a) if swap else (a, b)
            strict = pred in ("ult", "ugt", "slt", "sgt")
            hi_lt = em.one("ilt" if signed else "ult", *_reg_first(em, x[1], y[1]))
            hi_eq = em.one("ieq", *_reg_first(em, x[1], y[1]))
            lo_cmp = em.one("ult" if strict else "uge", *_reg_first(em, x[0], y[0]))
            if strict:     # x < y
                return em.one("ior", hi_lt, em.one("iand", hi_eq, lo_cmp))
            # x >= y: not (x.hi < y.hi) and (x.hi > y.hi or lo >=)
            hi_gt = em.one("ilt" if signed else "ult", *_reg_first(em, y[1], x[1]))
            return em.one("ior", hi_gt, em.one("iand", hi_eq, lo_cmp))
        x, y = (b[0], a[0]) if swap else (a[0], b[0])
        return em.one(op, *_reg_first(em, x, y))

    def sel_icmp(self, inst) -> None:
        pred = inst.predicate
        signed = ICMP[pred][2]
        a, b = inst.operands
        bits = int_bits(a.type)
        if bits == 1:
            bits = 32
        ea = [self.normalized_elem(e, bits, signed) for e in self.elems(a)]
        eb = [self.normalized_elem(e, bits, signed) for e in self.elems(b)]
        out = self.result(inst)
        for i, (x, y) in enumerate(zip(ea, eb, strict=True)):
            self.em.mov([out[i]], [self.icmp_elem(pred, x, y, bits)])

    def normalized_elem(self, e, bits, signed):
        if bits >= 32:
            return e
        return [self.extend(e[0], bits, signed)]

    def sel_fcmp(self, inst) -> None:
        pred = inst.predicate
        a, b = inst.operands
        out = self.result(inst)
        double = a.type.scalar == T.float64
        for i, (x, y) in enumerate(zip(self.elems(a), self.elems(b), strict=True)):
            self.em.mov([out[i]], [self.fcmp_elem(pred, x, y, double)])

    def fcmp_elem(self, pred, x, y, double) -> Operand:
        em = self.em
        if pred == "true":
            return ALL
        if pred == "false":
            return 0

        def cmp(op, p, q):
            if double:
                return em.wide("d" + op, em.temp_slots(1)[0], p, q)
            return em.one(op, *_reg_first(em, p[0], q[0]))
        if pred in FCMP:
            op, swap = FCMP[pred]
            return cmp(op, y, x) if swap else cmp(op, x, y)
        if pred in ("ord", "uno"):
            o = em.one("iand", cmp("eq", x, x), cmp("eq", y, y))
            return o if pred == "ord" else em.one("inot", o)
        if pred in ("one", "ueq"):
            o = em.one("iand", cmp("ne", x, y),
                       em.one("iand", cmp("eq", x, x), cmp("eq", y, y)))
            return o if pred == "one" else em.one("inot", o)
        if pred in FCMP_NEGATED:
            return em.one("inot", self.fcmp_elem(FCMP_NEGATED[pred], x, y, double))
        raise CompileError(f"amdil: fcmp {pred} is not supported")

    def sel_select(self, inst) -> None:
        c, a, b = inst.operands
        out = self.result(inst)
        conds = self.val(c)
        per = element_slots(inst.type)
        ea, eb = self.val(a), self.val(b)
        for i in range(len(out)):
            cond = conds[i // per] if len(conds) > 1 else conds[0]
            if isinstance(cond, int):
                self.em.mov([out[i]], [ea[i] if cond else eb[i]])
                continue
            self.em.op("cmov_logical", [out[i]], [cond], [ea[i]], [eb[i]])

def _reg_first(em: Emitter, a: Operand, b: Operand) -> tuple[Operand, Operand]:
    """IL wants a register or literal in each source; both constant is fine (literals)."""
    return a, b


def _x(s: Slot) -> str:
    return f"{s.file}{s.num}.{'xyzw'[s.comp]}"


def _pairs(slots: list[Slot]) -> list[list[Slot]]:
    return [slots[i:i + 2] for i in range(0, len(slots), 2)]
