"""Calls in the vISA code generator: work-item functions, barriers and fences, OpenCL builtins that
are one or two vISA instructions, atomics, LLVM intrinsics (the other builtins come inlined from
kernelkit.mux.clc, see irpipeline)."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.targets.visa.subgroups import is_sub_group_builtin
from kernelkit.targets.visa.vtypes import (
    GLOBAL_SPACES,
    LOCAL_SPACE,
    PRIVATE_SPACE,
    R0_GROUP_DWORD,
    SIZES,
    UNSIGNED,
    vtype_of,
)


class CallCodegen:
    """Mixin of KernelCodegen: the ``call`` instruction."""

    # ---- calls
    def _call(self, inst) -> None:
        fn = inst.called_function
        name = fn.name if fn is not None else ""
        args = inst.args
        if name.startswith("llvm.lifetime") or name.startswith("llvm.experimental.noalias"):
            return
        if name.startswith("llvm.memset."):
            self._memset(inst, args)
            return
        if name == "printf":
            self._printf(inst)
            return
        if name.startswith("llvm.") and self._intrinsic(inst, name, args):
            return
        if self._builtin(inst, name, args) or self._atomic(inst, name, args):
            return
        parsed = _demangle(name)
        if parsed is not None and (self._collective(inst, parsed[0], parsed[1], args)
                                   or self._sub_group(inst, parsed[0], parsed[1], args)):
            return
        dim = args[0].value if args and isinstance(args[0], ir.ConstantInt) else None
        if name in WORK_ITEM and dim is None:
            raise CompileError(f"vISA code generation: {name} with a non-constant dimension is not supported")
        if name == "_Z13get_global_idj":
            tmp = self._new("d", self.simd)
            grp = self._new("d", 1)
            self.emit(f"mul (M1_NM, 1) {grp}(0,0)<1> {self.r0}(0,{R0_GROUP_DWORD[dim]})<0;1,0> "
                      f"{self.implicit('enqueued_local_size')}(0,{dim})<0;1,0>")
            self.emit(f"add (M1, {self.simd}) {tmp}(0,0)<1> {self.local_ids[dim]}(0,0)<1;1,0> {grp}(0,0)<0;1,0>")
            self.emit(f"add (M1, {self.simd}) {tmp}(0,0)<1> {tmp}(0,0)<1;1,0> "
                      f"{self.implicit('payload_header')}(0,{dim})<0;1,0>")
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {tmp}(0,0)<1;1,0>")
        elif name == "_Z12get_local_idj":
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self.local_ids[dim]}(0,0)<1;1,0>")
        elif name == "_Z12get_group_idj":
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self.r0}(0,{R0_GROUP_DWORD[dim]})<0;1,0>")
        elif name in SIZE_INPUTS:
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self.implicit(SIZE_INPUTS[name])}(0,{dim})<0;1,0>")
        elif name == "_Z12get_work_dimv":
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self.implicit('work_dim')}(0,0)<0;1,0>")
        elif name == "_Z7barrierj" or name.startswith("_Z18work_group_barrier"):
            self.emit("fence_local.E")
            self.emit("barrier")
        elif name in FENCES:
            self.emit("fence_global.E")
        else:
            raise CompileError(f"vISA code generation: calls to {name or inst} are not supported")

    def _intrinsic(self, inst, name: str, args) -> bool:
        """LLVM intrinsics (one element of a vector at a time): ``llvm.<base>[.sat].<types>``."""
        base, suffix = name.split(".")[1:3]
        if base == "is" and suffix == "fpclass":
            self._fpclass(inst, *args)
            return True
        if base == "frexp" and suffix == "f64":
            self._frexp_double(inst, args[0])
            return True
        exe = self.exe(inst)
        vt = vtype_of(inst.type)
        if base in ("fmuladd", "fma"):
            self.emit(f"mad {exe} {self.dst(inst)} {self.src(args[0])} {self.src(args[1])} {self.src(args[2])}")
        elif base in MIN_MAX:
            op, unsigned = MIN_MAX[base]
            vt = UNSIGNED[vt] if unsigned else vt
            self.emit(f"{op} {exe} {self.dst(inst, vt)} {self.src(args[0], vt)} {self.src(args[1], vt)}")
        elif base == "fabs":
            self.emit(f"mov {exe} {self.dst(inst)} {self.modified('abs', args[0])}")
        elif base in ROUNDING and vt == "f":              # (GenX_IR: rnd* are float-only)
            self.emit(f"{ROUNDING[base]} {exe} {self.dst(inst)} {self.src(args[0])}")
        elif base == "sqrt" and vt in ("f", "df"):             # df: the IEEE macro
            self.emit(f"{'sqrt' if vt == 'f' else 'sqrtm'} {exe} {self.dst(inst)} {self.src(args[0])}")
        elif base in ("ctpop", "ctlz") and vt == "d":
            self.emit(f"{'cbit' if base == 'ctpop' else 'lzd'} {exe} {self.dst(inst, 'ud')} {self.src(args[0], 'ud')}")
        elif base in ("fshl", "fshr") and vt in ("d", "q"):
            self._funnel_shift(inst, base == "fshl", *args)
        elif base in ("uadd", "usub") and suffix == "sat":
            self._saturating(inst, base == "uadd", *args)
        elif base == "copysign" and vt in ("f", "df"):
            raw, bits = ("ud", 32) if vt == "f" else ("uq", 64)
            mag, sign = self._tmp(inst, raw), self._tmp(inst, raw)
            self.emit(f"and {exe} {mag[0]} {self.src(args[0], raw)} 0x{(1 << bits - 1) - 1:x}:{raw}")
            self.emit(f"and {exe} {sign[0]} {self.src(args[1], raw)} 0x{1 << bits - 1:x}:{raw}")
            self.emit(f"or {exe} {self.dst(inst, raw)} {mag[1]} {sign[1]}")
        elif base == "round" and vt == "f":
            self._round_half_away(inst, args[0])
        elif base == "ldexp" and vt == "df":
            self._ldexp_double(inst, *args)
        elif (base in ROUNDING or base == "round") and vt == "df":
            self._round_double(inst, base if base in ("floor", "ceil", "trunc", "round") else "rint", args[0])
        else:
            return False
        return True

    def _funnel_shift(self, inst, left: bool, a, b, amount) -> None:
        """fshl: (a << s) | (b >> (bits - s)); fshr: (a << (bits - s)) | (b >> s), s = amount mod bits
        (the shift by bits - s as two shifts, so that s = 0 shifts the other word out entirely)."""
        exe, vt = self.exe(inst), UNSIGNED[vtype_of(inst.type)]
        bits = 8 * SIZES[vt]
        s, rest, high, low = (self._tmp(inst, vt) for _ in range(4))
        self.emit(f"and {exe} {s[0]} {self.src(amount, vt)} 0x{bits - 1:x}:{vt}")
        self.emit(f"add {exe} {rest[0]} (-){s[1]} 0x{bits - 1:x}:{vt}")
        if left:
            self.emit(f"shl {exe} {high[0]} {self.src(a, vt)} {s[1]}")
            self.emit(f"shr {exe} {low[0]} {self.src(b, vt)} 0x1:{vt}")
            self.emit(f"shr {exe} {low[0]} {low[1]} {rest[1]}")
        else:
            self.emit(f"shl {exe} {high[0]} {self.src(a, vt)} 0x1:{vt}")
            self.emit(f"shl {exe} {high[0]} {high[1]} {rest[1]}")
            self.emit(f"shr {exe} {low[0]} {self.src(b, vt)} {s[1]}")
        self.emit(f"or {exe} {self.dst(inst, vt)} {high[1]} {low[1]}")

    def _saturating(self, inst, add: bool, a, b) -> None:
        """Unsigned saturating add/sub without overflow: min(a, ~b) + b, max(a, b) - b."""
        exe, vt = self.exe(inst), UNSIGNED[vtype_of(inst.type)]
        t = self._tmp(inst, vt)
        constant = isinstance(b, ir.ConstantInt)
        mask = (1 << 8 * SIZES[vt]) - 1
        if add:
            if constant:
                inv = f"0x{~b.value & mask:x}:{vt}"
            else:
                tmp = self._tmp(inst, vt)
                self.emit(f"not {exe} {tmp[0]} {self.src(b, vt)}")
                inv = tmp[1]
            self.emit(f"min {exe} {t[0]} {self.src(a, vt)} {inv}")
            self.emit(f"add {exe} {self.dst(inst, vt)} {t[1]} {self.src(b, vt)}")
        else:
            self.emit(f"max {exe} {t[0]} {self.src(a, vt)} {self.src(b, vt)}")
            neg = f"0x{-b.value & mask:x}:{vt}" if constant else f"(-){self.src(b, vt)}"
            self.emit(f"add {exe} {self.dst(inst, vt)} {t[1]} {neg}")

    def _round_half_away(self, inst, x) -> None:
        """round(): trunc(x), plus copysign(1, x) when |x - trunc(x)| >= 0.5."""
        exe = self.exe(inst)
        t, d, one = self._tmp(inst, "f"), self._tmp(inst, "f"), self._tmp(inst, "ud")
        pred = self._pred()
        self.emit(f"rndz {exe} {t[0]} {self.src(x)}")
        self.emit(f"add {exe} {d[0]} {self.src(x)} (-){t[1]}")
        self.emit(f"and {exe} {one[0]} {self.src(x, 'ud')} 0x80000000:ud")
        self.emit(f"or {exe} {one[0]} {one[1]} 0x3f800000:ud")
        width = 1 if self.uniform(inst) else self.simd
        self.emit(f"cmp.ge (M1_NM, {width}) {pred} (abs){d[1]} 0x3f000000:f")
        name, region = one[1].split("(0,0)")
        self.emit(f"({pred}) add {exe} {t[0]} {t[1]} {self._alias(name, 'f')}(0,0){region}")
        self.emit(f"mov {exe} {self.dst(inst)} {t[1]}")

    def _builtin(self, inst, name: str, args) -> bool:
        """OpenCL integer/float builtins that are one or two vISA instructions."""
        parsed = _demangle(name)
        if parsed is None:
            return False
        base, code = parsed
        if base not in SIMPLE_BUILTINS and base not in NATIVE_MATH:
            return False
        vt = vtype_of(inst.type)
        unsigned = code in "jmth"
        if unsigned and base in ("min", "max", "clamp"):
            vt = UNSIGNED[vt]
        exe, dst = self.exe(inst), self.dst(inst, vt)
        srcs = [self.src(a, vt) if not isinstance(a.type, T.IntType) or a.type != T.i1 else self.src(a)
                for a in args]
        if base in ("min", "max", "fmin", "fmax") and len(args) == 2:
            self.emit(f"{base.lstrip('f')} {exe} {dst} {srcs[0]} {srcs[1]}")
        elif base == "clamp" and len(args) == 3:
            self.emit(f"max {exe} {dst} {srcs[0]} {srcs[1]}")
            self.emit(f"min {exe} {dst} {self.src(inst, vt)} {srcs[2]}")
        elif base in ("abs", "fabs") and len(args) == 1:
            self.emit(f"mov {exe} {self.dst(inst)} {self.modified('abs', args[0])}")
        elif base in ("mad", "fma") and len(args) == 3:
            self.emit(f"mad {exe} {dst} {srcs[0]} {srcs[1]} {srcs[2]}")
        elif base == "select" and len(args) == 3:
            pred = self._pred()
            ct = vtype_of(args[2].type)
            test = "lt" if isinstance(args[2].type, T.VectorType) else "ne"
            self.emit(f"cmp.{test} (M1_NM, {self.simd}) {pred} {self.src(args[2], ct)} 0x0:{ct}")
            self.emit(f"({pred}) sel {exe} {dst} {srcs[1]} {srcs[0]}")
        elif base in NATIVE_MATH and len(args) == 1:
            self.emit(f"{NATIVE_MATH[base]} {exe} {dst} {srcs[0]}")
        else:
            return False
        return True

    def _atomic(self, inst, name: str, args) -> bool:
        """OpenCL 1.x atomic_* / atom_* builtins: svm_atomic on __global (8 lanes a message),
        dword_atomic on %slm for __local; the old value is the result."""
        parsed = _demangle(name)
        if parsed is None:
            return False
        base, _code = parsed
        op = ATOMIC_BUILTINS.get(base.replace("atom_", "atomic_"))
        if op is None:
            return False
        ptr, *values = args
        values = values[:2] if op == "cmpxchg" else values[:0] if op in ("inc", "dec") else values[:1]
        if op in ("min", "max") and name.endswith(("i", "l")):   # int/long (not uint/ulong) operands
            op = {"min": "minsint", "max": "maxsint"}[op]
        if op == "cmpxchg":                      # vISA: new = (old == src1) ? src0 : old
            values = [values[1], values[0]]
        if inst.type == T.float32 and op in FLOAT_ATOMICS:        # atomic_fetch_<op> on atomic_float
            if not self.lsc:
                raise CompileError(f"vISA code generation: {base} on float needs LSC float atomics (DG2 at "
                                   f"SIMD16/32); {self.platform} at SIMD{self.simd} has none")
            if ptr.type.addrspace == LOCAL_SPACE:     # IGC: a compare-exchange loop, no .slm float atomic
                raise CompileError(f"vISA code generation: {base} on __local float is not supported (LSC float "
                                   f"atomics are .ugm only here)")
            op = FLOAT_ATOMICS[op]
        wide = inst.type == T.i64
        result = self._atomic_message(op, ptr, values, wide)
        if inst.type != T.void and inst.users:
            vt = _atomic_vtype(op, wide)
            self.emit(f"mov {self.exe(inst)} {self.dst(inst, vt)} {result}(0,0)<1;1,0>")
        return True

    def _atomic_message(self, op: str, ptr, values, wide: bool = False) -> str:
        """The SIMD-wide old values of atomic ``op`` on ``ptr`` with ``values`` (src0, src1): svm_atomic
        on __global/__constant/generic/private (8 lanes a message; ``wide``: 64-bit values, the
        ``.64`` form, as IGC emits for cl_khr_int64_*_atomics), dword_atomic on %slm for __local."""
        vt = _atomic_vtype(op, wide)
        size = 8 if wide else 4
        sources = []
        for value in values:
            var = self._new(vt, self.simd)
            self.emit(f"mov (M1, {self.simd}) {var}(0,0)<1> {self.src(value, vt)}")
            sources.append(f"{var}.")
        while len(sources) < 2:
            sources.append("%null.")
        result = self._new(vt, self.simd)
        space = ptr.type.addrspace
        if self.lsc and (space in GLOBAL_SPACES or space == PRIVATE_SPACE or space == LOCAL_SPACE and not wide):
            self._lsc_atomic(op, space, ptr, sources, result, wide)
        elif space in GLOBAL_SPACES or space == PRIVATE_SPACE:
            addr = self._wide(ptr, "uq")
            width = ".64" if wide else ""
            for lane in range(0, self.simd, 8):
                raw = [f"{s}{lane * size}" if s != "%null." else "%null.0" for s in sources]
                self.emit(f"svm_atomic.{op}{width} (M{lane // 4 + 1}, {min(8, self.simd)}) {addr}.{lane * 8} "
                          f"{result}.{lane * size} {raw[0]} {raw[1]}")
        elif wide:
            raise CompileError("vISA code generation: 64-bit atomics on __local memory are not supported")
        elif space == LOCAL_SPACE:
            offsets = self._wide(ptr, "ud")
            for lane, n, m in self._halves():
                raw = [f"{s}{lane * 4}" if s != "%null." else "%null.0" for s in sources]
                self.emit(f"dword_atomic.{op} ({m}, {n}) %slm {offsets}.{lane * 4} {raw[0]} {raw[1]} "
                          f"{result}.{lane * 4}")
        else:
            raise CompileError(f"vISA code generation: atomics on address space {space} are not supported")
        return result

    def _lsc_atomic(self, op: str, space: int, ptr, sources: list[str], result: str, wide: bool) -> None:
        """``lsc_atomic_<op>`` in SIMD16 pieces, as IGC 1.0.12504 emits SIMD-wide atomics for DG2
        (ocloc -device dg2-g10, tests/reference/visa/dg2-g10_atomics): .ugm with flat a64 addresses
        for __global/private (d32, or d64 for ``wide`` values), .slm with a32 offsets for __local;
        Src1Data/Src2Data the operands, for icas the compared value first, then the new one."""
        local = space == LOCAL_SPACE
        self._lsc_atomic_at(op, local, self._wide(ptr, "ud" if local else "uq"), sources, result, wide)

    def _lsc_atomic_at(self, op: str, local: bool, addr: str, sources: list[str], result: str, wide: bool) -> None:
        """``lsc_atomic_<op>`` at the SIMD-wide addresses ``addr`` (SLM offsets when ``local``)."""
        vt, size = ("uq", "d64") if wide else ("ud", "d32")
        srcs = [src.removesuffix(".") for src in sources]
        if op == "cmpxchg":                     # svm/dword order: new value, compared value
            srcs = [srcs[1], srcs[0]]
        for lane, n, m in self._halves():
            where = f"flat[{self._piece(addr, 'ud' if local else 'uq', lane, n)}]:{'a32' if local else 'a64'}"
            data = [self._piece(src, vt, lane, n) if src != "%null" else "%null" for src in srcs]
            self.emit(f"lsc_atomic_{LSC_ATOMICS[op]}.{'slm' if local else 'ugm'} ({m}, {n}) "
                      f"{self._piece(result, vt, lane, n)}:{size} {where} {data[0]} {data[1]}")

    def _atomic_instruction(self, inst) -> None:
        """``atomicrmw`` and ``cmpxchg`` on 32-bit values; a cmpxchg's {old, success} pair is kept for
        its ``extractvalue`` users."""
        ty = inst.type if inst.opcode == "atomicrmw" else inst.operands[1].type
        if ty not in (T.i32, T.i64, T.float32) or (ty == T.float32 and inst.opcode == "cmpxchg"):
            raise CompileError(f"vISA code generation: {inst.opcode} on {ty} is not supported")
        wide = ty == T.i64
        if inst.opcode == "cmpxchg":
            ptr, expected, new = inst.operands[:3]
            old = self._atomic_message("cmpxchg", ptr, [new, expected], wide)
            success = self._new("w", self.simd)
            raw = "uq" if wide else "ud"
            self.emit(f"cmp.eq (M1, {self.simd}) {success}(0,0)<1> {old}(0,0)<1;1,0> {self.src(expected, raw)}")
            self.pairs[id(inst)] = (f"{old}(0,0)<1;1,0>", f"{success}(0,0)<1;1,0>")
            return
        op = ATOMIC_RMW.get(inst.operation)
        if op is None or ty == T.float32:
            raise CompileError(f"vISA code generation: atomicrmw {inst.operation} on {ty} is not supported")
        ptr, value = inst.operands[:2]
        result = self._atomic_message(op, ptr, [] if op in ("inc", "dec") else [value], wide)
        self.emit(f"mov {self.exe(inst)} {self.dst(inst, _atomic_vtype(op, wide))} {result}(0,0)<1;1,0>")

    def _extract_value(self, inst) -> None:
        pair = self.pairs.get(id(inst.operands[0]))
        if pair is None or len(inst.indices) != 1:
            raise CompileError(f"vISA code generation: {inst} is not supported")
        vt = "w" if inst.type == T.i1 else "ud" if inst.type == T.i32 else "uq" if inst.type == T.i64 \
            else vtype_of(inst.type)
        self.emit(f"mov {self.exe(inst)} {self.dst(inst, vt)} {pair[inst.indices[0]]}")


def _atomic_vtype(op: str, wide: bool) -> str:
    """vISA type of an atomic's operands (IGC documentation/visa SVM_ATOMIC: imin/imax D/Q, else UD/UQ)."""
    return ("q" if wide else "d") if op in ("minsint", "maxsint") else ("uq" if wide else "ud")


# vISA SVM/DWORD atomic operation -> LSC atomic (IGC documentation/visa LSC_UNTYPED.md; xchg is
# lsc_atomic_store, which returns the old value, as IGC emits atomic_xchg on DG2)
LSC_ATOMICS = {"add": "iadd", "sub": "isub", "inc": "iinc", "dec": "idec", "xchg": "store", "cmpxchg": "icas",
               "min": "umin", "max": "umax", "minsint": "smin", "maxsint": "smax", "and": "and", "or": "or",
               "xor": "xor", "fadd": "fadd", "fsub": "fsub", "fmin": "fmin", "fmax": "fmax"}
# atomic_fetch_<op> on atomic_float (OpenCL C 3.0 __opencl_c_ext_fp32_*_atomic_*): the LSC float atomics
# (IGC 1.0.12504 on DG2: lsc_atomic_fadd.ugm; tests/reference/visa/dg2-g10_atomics/fadd)
FLOAT_ATOMICS = {"add": "fadd", "sub": "fsub", "min": "fmin", "minsint": "fmin", "max": "fmax", "maxsint": "fmax"}
ATOMIC_RMW = {"add": "add", "sub": "sub", "xchg": "xchg", "and": "and", "or": "or", "xor": "xor", "max": "maxsint",
              "min": "minsint", "umax": "max", "umin": "min"}
MIN_MAX = {"smax": ("max", False), "smin": ("min", False), "umax": ("max", True), "umin": ("min", True),
           "maxnum": ("max", False), "minnum": ("min", False)}
ROUNDING = {"floor": "rndd", "ceil": "rndu", "rint": "rnde", "roundeven": "rnde", "nearbyint": "rnde",
            "trunc": "rndz"}
# native_* / half_* builtins: vISA's (reduced precision) math instructions
NATIVE_MATH = {"native_sqrt": "sqrt", "native_rsqrt": "rsqrt", "native_recip": "inv", "native_exp2": "exp",
               "native_log2": "log", "native_sin": "sin", "native_cos": "cos", "half_sqrt": "sqrt",
               "half_rsqrt": "rsqrt", "half_recip": "inv", "half_exp2": "exp", "half_log2": "log",
               "half_sin": "sin", "half_cos": "cos"}


# OpenCL 1.x atomic builtins -> vISA atomic operation (IGC documentation/visa DWORD_ATOMIC table)
ATOMIC_BUILTINS = {"atomic_add": "add", "atomic_sub": "sub", "atomic_inc": "inc", "atomic_dec": "dec",
                   "atomic_xchg": "xchg", "atomic_cmpxchg": "cmpxchg", "atomic_min": "min", "atomic_max": "max",
                   "atomic_and": "and", "atomic_or": "or", "atomic_xor": "xor"}
# OpenCL 2.0 atomic_fetch_<op>[_explicit] (memory order and scope: every vISA atomic is sequentially
# consistent on its location, which is at least as strong)
ATOMIC_BUILTINS.update({f"atomic_fetch_{k}{suffix}": v for k, v in (("add", "add"), ("sub", "sub"), ("or", "or"),
                        ("xor", "xor"), ("and", "and"), ("min", "min"), ("max", "max"))
                        for suffix in ("", "_explicit")})
FENCES = frozenset({"_Z22atomic_work_item_fencej12memory_order12memory_scope", "_Z9mem_fencej",
                    "_Z14read_mem_fencej", "_Z15write_mem_fencej"})
SIMPLE_BUILTINS = frozenset({"min", "max", "fmin", "fmax", "clamp", "abs", "fabs", "mad", "fma", "select"})


def _demangle(name: str) -> tuple[str, str] | None:
    """(base name, type code of the first argument's element) of an Itanium-mangled builtin."""
    if not name.startswith("_Z"):
        return None
    i = 2
    while i < len(name) and name[i].isdigit():
        i += 1
    if i == 2:
        return None
    length = int(name[2:i])
    base, rest = name[i:i + length], name[i + length:]
    if rest.startswith("Dv"):
        rest = rest[rest.index("_") + 1:]
    return base, rest[:1]


WORK_ITEM = frozenset({"_Z13get_global_idj", "_Z12get_local_idj", "_Z12get_group_idj", "_Z14get_local_sizej",
                       "_Z15get_global_sizej", "_Z14get_num_groupsj", "_Z23get_enqueued_local_sizej"})
SIZE_INPUTS = {"_Z14get_local_sizej": "local_size", "_Z15get_global_sizej": "global_size",
               "_Z14get_num_groupsj": "num_groups", "_Z23get_enqueued_local_sizej": "enqueued_local_size"}


def handles_call(name: str) -> bool:
    """Whether the code generator emits calls to ``name`` itself (the others come from the builtin
    library, kernelkit.mux.clc, inlined)."""
    if name in WORK_ITEM or name in SIZE_INPUTS or name == "printf" or name in FENCES or name == "_Z12get_work_dimv" \
            or name == "_Z7barrierj" or name.startswith("_Z18work_group_barrier"):
        return True
    parsed = _demangle(name)
    if parsed is None:
        return False
    base = parsed[0]
    return base in SIMPLE_BUILTINS or is_sub_group_builtin(base) or base in NATIVE_MATH or base.replace("atom_", "atomic_") in ATOMIC_BUILTINS

