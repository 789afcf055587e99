"""Calls in AMD IL kernel bodies: spec 003 work-item builtins from the registers and cb0 rows
the wrapper sets up (r1021 global id, r1022 local id, r1023 group id; cb0[0] global size,
cb0[1] local size, cb0[2] group counts, cb0[6] global offset — spec 000 "Runtime ABI"),
barriers as IL fences, and LLVM intrinsics. Also the body's prologue: kernel arguments from
the registers the wrapper filled from cb1, ``byval`` structs copied into private memory."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.targets.amdil.emitter import Operand
from kernelkit.targets.amdil.regs import (
    FIRST_VALUE_REGISTER,
    GLOBAL_ID,
    GROUP_ID,
    LOCAL_ID,
    Slot,
    slot_count,
)

# work-item builtin -> (register, or cb0 row), value for dimensions >= 3
WORK_ITEM = {
    "__mux_get_global_id": (("r", GLOBAL_ID), 0),
    "__mux_get_local_id": (("r", LOCAL_ID), 0),
    "__mux_get_group_id": (("r", GROUP_ID), 0),
    "__mux_get_global_size": (("cb0", 0), 1),
    "__mux_get_local_size": (("cb0", 1), 1),
    "__mux_get_enqueued_local_size": (("cb0", 1), 1),
    "__mux_get_num_groups": (("cb0", 2), 1),
    "__mux_get_global_offset": (("cb0", 6), 0),
}
IGNORED = ("llvm.lifetime.", "llvm.assume", "llvm.dbg.", "llvm.experimental.noalias",
           "llvm.invariant.", "llvm.sideeffect", "llvm.var.annotation")
FLOAT_UNARY = {"llvm.sqrt.f32": "sqrt_vec", "llvm.floor.f32": "flr", "llvm.ceil.f32": "round_plusinf",
               "llvm.trunc.f32": "round_z", "llvm.rint.f32": "round_nearest",
               "llvm.roundeven.f32": "round_nearest", "llvm.nearbyint.f32": "round_nearest",
               "llvm.exp2.f32": "exp_vec", "llvm.log2.f32": "log_vec", "llvm.sin.f32": "sin_vec",
               "llvm.cos.f32": "cos_vec"}
FLOAT_BINARY = {"llvm.minnum.f32": "min", "llvm.maxnum.f32": "max", "llvm.minimum.f32": "min",
                "llvm.maximum.f32": "max"}
INT_BINARY = {"llvm.smin": "imin", "llvm.smax": "imax", "llvm.umin": "umin", "llvm.umax": "umax"}
LOG2E, LN2 = 0x3FB8AA3B, 0x3F317218
DOUBLE_ROUNDING = {"llvm.floor.f32": "floor", "llvm.ceil.f32": "ceil", "llvm.trunc.f32": "trunc",
                   "llvm.rint.f32": "rint", "llvm.roundeven.f32": "rint",
                   "llvm.nearbyint.f32": "rint"}


def _base(name: str) -> str:
    """``llvm.sqrt.v4f32`` -> ``llvm.sqrt.f32`` (the scalar form names the operation)."""
    parts = name.split(".")
    last = parts[-1]
    if last.startswith("v") and last[1:].split("f")[0].isdigit() and "f" in last:
        parts[-1] = "f" + last.split("f", 1)[1]
    return ".".join(parts)


class CallOps:
    # -- prologue -----------------------------------------------------------------------------
    def prologue(self) -> None:
        em = self.em
        for arg, info in zip(self.fn.args, self.layout["args"], strict=True):
            reg, kind = info["register"], info["kind"]
            if kind == "byval":
                offset, size = info["private"], info["size"]
                words = (size + 3) // 4
                for k in range(words):
                    em.emit(f"mov x1[{offset // 4 + k}].x___, r{reg + k // 4}.{'xyzw'[k % 4] * 4}")
                self.values[id(arg)] = [offset]
                continue
            ty = arg.type
            n = slot_count(ty)
            bits = ty.scalar.bits if isinstance(ty.scalar, T.IntType) else 32
            if isinstance(ty, T.VectorType) and bits < 32:
                per_word, per_slot = 32 // bits, 4
                slots = em.temp_slots(ty.count)
                for i, s in enumerate(slots):
                    r = reg + i // per_slot
                    word = (i % per_slot) // per_word
                    shift = (i % per_word) * bits
                    em.op("ushr", [s], [Slot("r", r, word)], [shift])
                self.values[id(arg)] = slots
                continue
            self.values[id(arg)] = [Slot("r", reg + i // 4, i % 4) for i in range(n)]
        if self.layout.get("functions") and any(
                i.opcode == "call" and getattr(i.called_function, "name", None)
                in self.layout["functions"] for b in self.fn.blocks for i in b.instructions):
            # calls pass their arguments in r1, r2, ...: the kernel's own move out of the way
            for arg in self.fn.args:
                vals = self.values[id(arg)]
                if all(isinstance(v, Slot) and v.num < FIRST_VALUE_REGISTER for v in vals):
                    self.values[id(arg)] = em.new("mov", vals)

    def il_call(self, inst, fid: int) -> None:
        """``call N``: arguments into the calling convention's registers, results out of them."""
        from kernelkit.targets.amdil.functions import assign

        em = self.em
        fn = inst.called_function
        for regs, value in zip(assign([a.type for a in inst.args]), inst.args, strict=True):
            em.mov(regs, self.val(value))
        em.emit(f"call {fid} ; {fn.name}")
        self.calls.append(fid)
        if not isinstance(fn.return_type, T.VoidType):
            (regs,) = assign([fn.return_type])
            em.mov(self.result(inst), regs)

    # -- calls ----------------------------------------------------------------------------------
    def sel_call(self, inst) -> None:
        fn = inst.called_function
        if fn is None:
            raise CompileError("amdil: indirect calls are not supported")
        name = fn.name
        if name.startswith(IGNORED):
            return
        if self.image_call(inst, name) or self.counter_call(inst, name) or \
                self.half_call(inst, name):
            return
        if name in self.layout.get("functions", {}):
            self.il_call(inst, self.layout["functions"][name])
            return
        if name in WORK_ITEM:
            self.work_item(inst, name)
        elif name in ("__mux_get_work_dim",):
            self.em.emit(f"mov r{self.result(inst)[0].num}.x___, cb0[0].wwww")
        elif name == "__mux_get_local_linear_id":
            self.linear(inst, ("r", LOCAL_ID))
        elif name == "__mux_get_global_linear_id":
            self.linear(inst, ("r", GLOBAL_ID))
        elif name in ("__mux_work_group_barrier", "__mux_sub_group_barrier"):
            self.barriers += 1
            self.em.emit("fence_threads_memory_lds")
        elif name == "__mux_mem_barrier":
            self.em.emit("fence_memory_lds")
        elif name.startswith("llvm."):
            self.intrinsic(inst, name)
        elif name == "printf":
            self.printf(inst)
        elif name.startswith("__mux_"):
            raise CompileError(f"amdil: {name} (work-group collectives, sub-groups, DMA) needs "
                               f"OpenCL C 2.0 or a feature AMD IL devices do not have")
        else:
            raise CompileError(f"amdil: call to {name}: not an OpenCL builtin kernelkit defines "
                               f"for AMD IL")

    def _row(self, where, comp: int) -> Slot | str:
        file, num = where
        if file == "r":
            return Slot("r", num, comp)
        return f"cb0[{num}].{'xyzw'[comp] * 4}"

    def work_item(self, inst, name) -> None:
        where, default = WORK_ITEM[name]
        out = self.result(inst)[0]
        dim = self.val(inst.args[0])[0]
        em = self.em
        if isinstance(dim, int):
            if dim > 2:
                em.mov([out], [default])
                return
            src = self._row(where, dim)
            em.emit(f"mov r{out.num}.{'xyzw'[out.comp]}, "
                    f"{src if isinstance(src, str) else f'r{src.num}.' + 'xyzw'[src.comp] * 4}")
            return
        em.mov([out], [default])
        for d in range(3):
            src = self._row(where, d)
            if isinstance(src, str):
                t = em.temp_slots(1)[0]
                em.emit(f"mov r{t.num}.x___, {src}")
                src = t
            hit = em.one("ieq", dim, d)
            em.op("cmov_logical", [out], [hit], [src], [out])

    def linear(self, inst, where) -> None:
        em = self.em
        out = self.result(inst)[0]
        ids = [Slot("r", where[1], d) for d in range(3)]
        if where[1] == GLOBAL_ID:     # (id - offset) flattened over the global size
            ids = [em.new("iadd", [ids[d]], [em.one("inegate", self._cb(6, d))])[0]
                   for d in range(3)]
            row = 0
        else:
            row = 1
        sx, sy = self._cb(row, 0), self._cb(row, 1)
        t = em.one("imul", ids[2], sy)
        t = em.one("iadd", t, ids[1])
        t = em.one("imul", t, sx)
        em.op("iadd", [out], [t], [ids[0]])

    def _cb(self, row: int, comp: int) -> Slot:
        t = self.em.temp_slots(1)[0]
        self.em.emit(f"mov r{t.num}.x___, cb0[{row}].{'xyzw'[comp] * 4}")
        return t

    # -- LLVM intrinsics --------------------------------------------------------------------------
    def intrinsic(self, inst, name) -> None:
        em = self.em
        base = _base(name)
        args = inst.args
        if base.startswith(("llvm.memcpy", "llvm.memmove", "llvm.memset")):
            self.memory_intrinsic(inst, base)
            return
        out = self.result(inst) if not isinstance(inst.type, T.VoidType) else []
        if base.startswith("llvm.frexp.f64"):
            self.double_frexp(self.val(args[0]), out)
            return
        if base.startswith("llvm.is.fpclass.f64"):
            self.fpclass(inst, out, double=True)
            return
        if base.startswith("llvm.vector.reduce.f"):
            self.vector_reduce(inst, base, out)
            return
        if base.startswith(("llvm.uadd.sat.i32", "llvm.usub.sat.i32")):
            a, b = self.val(args[0]), self.val(args[1])
            for i, o in enumerate(out):
                if "uadd" in base:
                    r = em.one("iadd", a[i], b[i])
                    em.op("cmov_logical", [o], [em.one("ult", r, a[i])], [0xFFFFFFFF], [r])
                else:
                    r = em.one("iadd", a[i], em.one("inegate", b[i]))
                    em.op("cmov_logical", [o], [em.one("ult", a[i], b[i])], [0], [r])
            return
        sc = inst.type.scalar
        if sc == T.float64 and not base.startswith("llvm.fabs"):
            self.double_intrinsic(inst, base, out)
            return
        if base in ("llvm.fmuladd.f32", "llvm.fma.f32"):
            em.op("mad", out, *[self.val(a) for a in args])
        elif base == "llvm.fabs.f32" or base == "llvm.fabs.f64":
            if sc == T.float64:
                for i in range(0, len(out), 2):
                    v = self.val(args[0])
                    em.mov([out[i]], [v[i]])
                    em.op("iand", [out[i + 1]], [v[i + 1]], [0x7FFFFFFF])
            else:
                em.op("iand", out, self.val(args[0]), [0x7FFFFFFF] * len(out))
        elif base.startswith("llvm.ldexp.f32"):
            n = self.val(args[1])
            x = self.val(args[0])
            for i, o in enumerate(out):
                em.mov([o], self.scale_by_power_of_two([x[i]], n[i], double=False))
        elif base in FLOAT_UNARY:
            em.op(FLOAT_UNARY[base], out, self.val(args[0]))
        elif base == "llvm.exp.f32":
            em.op("exp_vec", out, em.new("mul", self.val(args[0]), [LOG2E] * len(out)))
        elif base == "llvm.log.f32":
            em.op("mul", out, em.new("log_vec", self.val(args[0])), [LN2] * len(out))
        elif base in FLOAT_BINARY:
            em.op(FLOAT_BINARY[base], out, self.val(args[0]), self.val(args[1]))
        elif base == "llvm.copysign.f32":
            mag = em.new("iand", self.val(args[0]), [0x7FFFFFFF] * len(out))
            sign = em.new("iand", self.val(args[1]), [0x80000000] * len(out))
            em.op("ior", out, mag, sign)
        elif base == "llvm.round.f32":
            x = self.val(args[0])
            half = em.new("ior", em.new("iand", x, [0x80000000] * len(out)), [0x3F000000] * len(out))
            em.op("round_z", out, em.new("add", x, half))
        elif any(base.startswith(k + ".") for k in INT_BINARY):
            op = INT_BINARY[base.rsplit(".", 1)[0]]
            bits = sc.bits
            signed = op.startswith("i")
            a = self.normalized(args[0], signed)
            b = self.normalized(args[1], signed)
            if bits == 64:
                raise CompileError(f"amdil: {name} on 64-bit integers is not supported")
            em.op(op, out, a, b)
        elif base.startswith("llvm.abs."):
            if sc.bits == 64:
                raise CompileError("amdil: 64-bit abs is not supported")
            a = self.normalized(args[0], True)
            em.op("imax", out, a, em.new("inegate", a))
        elif base.startswith("llvm.ctpop."):
            if sc.bits == 64:
                raise CompileError("amdil: 64-bit popcount is not supported")
            em.op("icbits", out, self.normalized(args[0], False))
        elif base.startswith(("llvm.ctlz.", "llvm.cttz.")):
            if sc.bits != 32:
                raise CompileError(f"amdil: {name} is only supported on 32-bit integers")
            for i, o in enumerate(out):
                x = self.val(args[0])[i]
                if base.startswith("llvm.cttz"):     # the lowest set bit, counted from the top
                    low = em.one("iand", x, em.one("inegate", x))
                    clz = self.count_leading_zeros(low)
                    em.op("cmov_logical", [o], [em.one("ieq", x, 0)], [32],
                          [em.one("iadd", 31, em.one("inegate", clz))])
                else:
                    em.mov([o], [self.count_leading_zeros(x)])
        elif base.startswith(("llvm.fshl.", "llvm.fshr.")):
            self.funnel_shift(inst, base, out)
        elif base.startswith("llvm.is.fpclass"):
            self.fpclass(inst, out)
        else:
            raise CompileError(f"amdil: intrinsic {name} is not supported")

    def count_leading_zeros(self, x) -> Slot:
        """Binary search: 16, 8, 4, 2, 1 leading bits at a time; 32 for zero."""
        em = self.em
        n: object = 0
        for k in (16, 8, 4, 2, 1):
            mask = ((1 << k) - 1) << (32 - k)
            zero = em.one("ieq", em.one("iand", x, mask), 0)
            n = em.one("iadd", n, em.one("iand", zero, k))
            x = em.one("cmov_logical", zero, em.one("ishl", x, k), x)
        last = em.one("ieq", x, 0)
        return em.one("iadd", n, em.one("iand", last, 1))

    def funnel_shift(self, inst, base, out) -> None:
        em = self.em
        bits = inst.type.scalar.bits
        if bits != 32:
            raise CompileError(f"amdil: {base} on i{bits} is not supported")
        a, b, n = (self.val(x) for x in inst.args)
        for i, o in enumerate(out):
            s = em.one("iand", n[i], 31)
            inv = em.one("iadd", 31, em.one("inegate", s))
            if base.startswith("llvm.fshl"):    # (a << s) | (b >> (32 - s))
                hi = em.one("ishl", a[i], s)
                lo = em.one("ushr", em.one("ushr", b[i], 1), inv)
            else:                                # (b >> s) | (a << (32 - s))
                lo = em.one("ushr", b[i], s)
                hi = em.one("ishl", em.one("ishl", a[i], 1), inv)
            em.op("ior", [o], [hi], [lo])

    def fpclass(self, inst, out, double: bool = False) -> None:
        """llvm.is.fpclass: the OR of the requested classes (bits 0-9: snan, qnan, -inf,
        -normal, -subnormal, -0, +0, +subnormal, +normal, +inf)."""
        em = self.em
        x = self.val(inst.args[0])
        test = self.val(inst.args[1])[0]
        if not isinstance(test, int) or test & ~0x3FF:
            raise CompileError("amdil: llvm.is.fpclass with this test is not supported")
        per = 2 if double else 1
        exp_mask = 0x7FF00000 if double else 0x7F800000
        for i, o in enumerate(out):
            hi = x[per * i + per - 1]
            mag = em.one("iand", hi, 0x7FFFFFFF)
            neg = em.one("ilt", hi, 0)
            pos = em.one("inot", neg)
            exp = em.one("iand", hi, exp_mask)
            frac_zero = em.one("ieq", em.one("iand", mag, ~exp_mask & 0x7FFFFFFF), 0)
            if double:
                frac_zero = em.one("iand", frac_zero, em.one("ieq", x[per * i], 0))
            exp_max = em.one("ieq", exp, exp_mask)
            exp_zero = em.one("ieq", exp, 0)
            nan = em.one("iand", exp_max, em.one("inot", frac_zero))
            inf = em.one("iand", exp_max, frac_zero)
            zero = em.one("iand", exp_zero, frac_zero)
            sub = em.one("iand", exp_zero, em.one("inot", frac_zero))
            normal = em.one("inot", em.one("ior", exp_max, exp_zero))
            classes = [(0x3, nan), (0x4, em.one("iand", inf, neg)), (0x8, em.one("iand", normal, neg)),
                       (0x10, em.one("iand", sub, neg)), (0x20, em.one("iand", zero, neg)),
                       (0x40, em.one("iand", zero, pos)), (0x80, em.one("iand", sub, pos)),
                       (0x100, em.one("iand", normal, pos)), (0x200, em.one("iand", inf, pos))]
            acc: object = 0
            for bits, value in classes:
                if test & bits:
                    acc = value if acc == 0 else em.one("ior", acc, value)
            em.mov([o], [acc])

    def double_intrinsic(self, inst, base, out) -> None:
        em = self.em
        args = [self.val(a) for a in inst.args]
        name = base.replace(".f64", ".f32")
        for i in range(0, len(out), 2):
            el = [a[i:i + 2] for a in args]
            if name in ("llvm.fmuladd.f32", "llvm.fma.f32"):
                em.op("dmad", out[i:i + 2], *el)
            elif name == "llvm.sqrt.f32":
                em.op("dsqrt", out[i:i + 2], el[0])
            elif name in ("llvm.minnum.f32", "llvm.maxnum.f32", "llvm.minimum.f32",
                          "llvm.maximum.f32"):
                em.op("dmin" if "min" in name else "dmax", out[i:i + 2], *el)
            elif name == "llvm.copysign.f32":
                em.mov(out[i:i + 1], el[0][:1])
                mag = em.one("iand", el[0][1], 0x7FFFFFFF)
                em.op("ior", out[i + 1:i + 2], [mag], [em.one("iand", el[1][1], 0x80000000)])
            elif name.startswith("llvm.ldexp"):
                n = args[1][i // 2]
                em.mov(out[i:i + 2], self.scale_by_power_of_two(el[0], n, double=True))
            elif name in DOUBLE_ROUNDING:
                em.mov(out[i:i + 2], self.double_rounding(DOUBLE_ROUNDING[name], el[0]))
            else:
                raise CompileError(f"amdil: intrinsic {base} on double is not supported")

    def scale_by_power_of_two(self, x, n, double: bool) -> list[Operand]:
        """ldexp: x * 2^n as three factors 2^k with k in the normal exponent range."""
        em = self.em
        lo_exp, hi_exp, bias, shift = (-1022, 1023, 1023, 20) if double else (-126, 127, 127, 23)
        value: list[Operand] = list(x)
        rest: Operand = n
        for _ in range(3):
            k = em.one("imin", em.one("imax", rest, lo_exp & 0xFFFFFFFF), hi_exp)
            rest = em.one("iadd", rest, em.one("inegate", k))
            bits = em.one("ishl", em.one("iadd", k, bias), shift)
            scaled = em.temp_slots(len(value))
            if double:
                em.op("dmul", scaled, value, [0, bits])
            else:
                em.op("mul", scaled, value, [bits])
            value = scaled
        return value

    # doubles: floor(x) = x - dfrac(x); the other roundings from it
    def dfloor(self, x) -> list[Slot]:
        em = self.em
        frac = em.temp_slots(2)
        em.op("dfrac", frac, x)
        out = em.temp_slots(2)
        em.op("dadd", out, x, self.dneg(frac))
        return out

    def dneg(self, x) -> list[Operand]:
        return [x[0], self.em.one("ixor", x[1], 0x80000000)]

    def double_frexp(self, x, out) -> None:
        """{mantissa in [0.5, 1), exponent}: subnormals scaled by 2^54 first; zero, inf and NaN
        come back unchanged with exponent 0."""
        em = self.em
        for i in range(0, len(out) - 1, 3):
            e = x[2 * (i // 3):2 * (i // 3) + 2]
            scaled = em.temp_slots(2)
            em.op("dmul", scaled, e, [0, 0x43500000])                 # x * 2^54
            sub = em.one("ieq", em.one("iand", e[1], 0x7FF00000), 0)
            y = [em.one("cmov_logical", sub, scaled[k], e[k]) for k in range(2)]
            adj = em.one("iand", sub, 54)
            ey = em.one("iand", em.one("ushr", y[1], 20), 0x7FF)
            exp = em.one("iadd", ey, em.one("inegate", em.one("iadd", adj, 1022)))
            m_hi = em.one("ior", em.one("iand", y[1], 0x800FFFFF), 0x3FE00000)
            special = em.one("ior", em.one("ieq", ey, 0), em.one("ieq", ey, 0x7FF))
            em.op("cmov_logical", out[i:i + 2], [special, special], e, [y[0], m_hi])
            em.op("cmov_logical", [out[i + 2]], [special], [0], [exp])

    def vector_reduce(self, inst, base, out) -> None:
        em = self.em
        v = inst.args[0]
        op = base.split(".")[3]     # fmax, fmin, fadd, fmul
        double = v.type.scalar == T.float64
        elems = self.elems(v)
        names = {"fmax": ("max", "dmax"), "fmin": ("min", "dmin"), "fadd": ("add", "dadd"),
                 "fmul": ("mul", "dmul")}
        if op not in names:
            raise CompileError(f"amdil: {base} is not supported")
        name = names[op][1 if double else 0]
        acc = elems[0]
        for e in elems[1:]:
            acc = em.new(name, acc, e)
        em.mov(out, acc)

    def double_rounding(self, kind: str, x) -> list[Slot]:
        em = self.em
        if kind == "floor":
            return self.dfloor(x)
        ceil = self.dneg(self.dfloor(self.dneg(x)))
        if kind == "ceil":
            return ceil
        if kind == "trunc":
            neg = em.wide("dlt", em.temp_slots(1)[0], x, [0, 0])
            floor = self.dfloor(x)
            return [em.one("cmov_logical", neg, ceil[k], floor[k]) for k in range(2)]
        half = [0, 0x3FE00000]                        # 0.5
        shifted = em.temp_slots(2)
        em.op("dadd", shifted, x, half)
        r = self.dfloor(shifted)                       # round half up
        diff = em.temp_slots(2)
        em.op("dadd", diff, r, self.dneg(x))
        tie = em.wide("deq", em.temp_slots(1)[0], diff, half)
        halved = em.temp_slots(2)
        em.op("dmul", halved, r, half)
        frac = em.temp_slots(2)
        em.op("dfrac", frac, halved)
        odd = em.wide("dne", em.temp_slots(1)[0], frac, [0, 0])
        down = em.temp_slots(2)
        em.op("dadd", down, r, [0, 0xBFF00000])       # r - 1.0
        fix = em.one("iand", tie, odd)                  # ties to even
        return [em.one("cmov_logical", fix, down[k], r[k]) for k in range(2)]

    def memory_intrinsic(self, inst, base) -> None:
        em = self.em
        dst = inst.args[0]
        length = self.val(inst.args[2])[0]
        if not isinstance(length, int):
            raise CompileError(f"amdil: {base} with a length not known at compile time")
        dkind, daddr = self.address(dst)
        if base.startswith("llvm.memset"):
            byte = self.val(inst.args[1])[0]
            if not isinstance(byte, int):
                raise CompileError("amdil: memset with a variable byte is not supported")
            b = byte & 0xFF
            word = b | b << 8 | b << 16 | b << 24
            words, rest = divmod(length, 4)
            if words and not _aligned(inst, 0, 4):
                words, rest = 0, length
            for k in range(words):
                self.store_dwords(dkind, self.offset(daddr, 4 * k), [word])
            for k in range(rest):
                self.store_small(dkind, self.offset(daddr, 4 * words + k), 8, b)
            return
        skind, saddr = self.address(inst.args[1])
        words, rest = divmod(length, 4)
        if words and not (_aligned(inst, 0, 4) and _aligned(inst, 1, 4)):
            words, rest = 0, length
        for k in range(words):
            t = em.temp_slots(1)
            self.load_dwords(skind, self.offset(saddr, 4 * k), t)
            self.store_dwords(dkind, self.offset(daddr, 4 * k), t)
        for k in range(rest):
            t = em.temp_slots(1)[0]
            self.load_small(skind, self.offset(saddr, 4 * words + k), 8, t)
            self.store_small(dkind, self.offset(daddr, 4 * words + k), 8, t)


def _aligned(call, index: int, align: int) -> bool:
    """Does the call's ``align N`` attribute on argument ``index`` promise ``align`` bytes?"""
    for attr in call.arg_attributes[index]:
        if isinstance(attr, str) and attr.startswith("align "):
            return int(attr.split()[1]) >= align
    return False
