"""Integer arithmetic the finalizer lacks, in the vISA code generator: 64-bit multiply, division by
powers of two with shifts, and division/remainder by a variable as restoring long division (GenX_IR
has no 64-bit division and, on DG2, no integer division at all)."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.errors import CompileError
from kernelkit.targets.visa.vtypes import SIZES, UNSIGNED, vtype_of


class ArithmeticCodegen:
    """Mixin of KernelCodegen."""

    def _divide_by_power_of_two(self, inst, a, b) -> bool:
        """x / 2^k and x % 2^k with shifts and masks (signed: rounding toward zero)."""
        if not isinstance(b, ir.ConstantInt) or b.value <= 0 or b.value & (b.value - 1):
            return False
        op, vt, k = inst.opcode, vtype_of(inst.type), b.value.bit_length() - 1
        exe = self.exe(inst)
        bits = SIZES[vt] * 8
        if op == "udiv":
            self.emit(f"shr {exe} {self.dst(inst, UNSIGNED[vt])} {self.src(a, UNSIGNED[vt])} 0x{k:x}:d")
        elif op == "urem":
            self.emit(f"and {exe} {self.dst(inst, UNSIGNED[vt])} {self.src(a, UNSIGNED[vt])} "
                      f"0x{b.value - 1:x}:{UNSIGNED[vt]}")
        else:
            n = 1 if self.uniform(inst) else self.simd
            region = "<0;1,0>" if n == 1 else "<1;1,0>"
            bias = self._new(vt, n)
            self.emit(f"asr {exe} {bias}(0,0)<1> {self.src(a)} 0x{bits - 1:x}:d")
            self.emit(f"shr {exe} {self._alias(bias, UNSIGNED[vt])}(0,0)<1> "
                      f"{self._alias(bias, UNSIGNED[vt])}(0,0){region} 0x{bits - k:x}:d")
            self.emit(f"add {exe} {bias}(0,0)<1> {bias}(0,0){region} {self.src(a)}")
            if op == "sdiv":
                self.emit(f"asr {exe} {self.dst(inst)} {bias}(0,0){region} 0x{k:x}:d")
            else:
                mask = ((1 << bits) - 1) ^ (b.value - 1)
                self.emit(f"and {exe} {bias}(0,0)<1> {bias}(0,0){region} 0x{mask:x}:{vt}")
                self.emit(f"add {exe} {self.dst(inst)} {self.src(a)} (-){bias}(0,0){region}")
        return True

    def _mul64(self, inst, a, b) -> None:
        """64-bit multiply (the finalizer has none): lo*lo (32 x 32 -> 64) + (lo*hi + hi*lo) << 32."""
        exe = self.exe(inst)
        n = 1 if self.uniform(inst) else self.simd
        halves = []
        for v in (a, b):
            if isinstance(v, ir.Constant):
                raw = v.value & ((1 << 64) - 1)
                halves.append((f"0x{raw & 0xFFFFFFFF:x}:ud", f"0x{raw >> 32:x}:ud"))
                continue
            name = self._alias(self.var(v), "ud")
            step = "<0;1,0>" if self.uniform(v) else "<2;1,0>"
            halves.append((f"{name}(0,0){step}", f"{name}(0,1){step}"))
        (alo, ahi), (blo, bhi) = halves
        low = self._new("uq", n)
        cross = self._new("ud", n)
        other = self._new("ud", n)
        self.emit(f"mul {exe} {low}(0,0)<1> {alo} {blo}")
        self.emit(f"mul {exe} {cross}(0,0)<1> {alo} {bhi}")
        self.emit(f"mul {exe} {other}(0,0)<1> {ahi} {blo}")
        region = "<0;1,0>" if n == 1 else "<1;1,0>"
        self.emit(f"add {exe} {cross}(0,0)<1> {cross}(0,0){region} {other}(0,0){region}")
        high = self._alias(low, "ud")
        self.emit(f"add {exe} {high}(0,1)<2> {high}(0,1){region.replace('1;1', '2;1')} {cross}(0,0){region}")
        self.emit(f"mov {exe} {self.dst(inst, 'uq')} {low}(0,0){region}")

    def _long_division(self, inst, a, b) -> None:
        """udiv/sdiv/urem/srem by a variable: one restoring step per bit (shift the next dividend bit
        into the remainder; where the remainder reaches the divisor, subtract it and set the quotient
        bit); signed operands are divided by magnitude, the quotient negated where the signs differ,
        the remainder where the dividend is negative (C's truncating division)."""
        op, vt = inst.opcode, vtype_of(inst.type)
        ut, bits, exe = UNSIGNED[vt], 8 * SIZES[vt], self.exe(inst)
        signed = op in ("sdiv", "srem")
        width = 1 if self.uniform(inst) else self.simd
        n, d, q, r, t = (self._tmp(inst, ut) for _ in range(5))
        for dst, value in ((n, a), (d, b)):
            if isinstance(value, ir.ConstantInt):
                raw = value.value & ((1 << bits) - 1)
                if signed and raw >> (bits - 1):
                    raw = (1 << bits) - raw                # the magnitude of a negative constant
                self.emit(f"mov {exe} {dst[0]} 0x{raw & ((1 << bits) - 1):x}:{ut}")
            else:
                self.emit(f"mov {exe} {dst[0]} {'(abs)' if signed else ''}{self.src(value, vt)}")
        self.emit(f"mov {exe} {q[0]} 0x0:{ut}")
        self.emit(f"mov {exe} {r[0]} 0x0:{ut}")
        pred = self._pred()
        for _ in range(bits):
            self.emit(f"shr {exe} {t[0]} {n[1]} 0x{bits - 1:x}:{ut}")
            self.emit(f"shl {exe} {n[0]} {n[1]} 0x1:{ut}")
            self.emit(f"shl {exe} {r[0]} {r[1]} 0x1:{ut}")
            self.emit(f"or {exe} {r[0]} {r[1]} {t[1]}")
            self.emit(f"shl {exe} {q[0]} {q[1]} 0x1:{ut}")
            self.emit(f"cmp.ge (M1_NM, {width}) {pred} {r[1]} {d[1]}")
            self.emit(f"({pred}) add {exe} {r[0]} {r[1]} (-){d[1]}")
            self.emit(f"({pred}) or {exe} {q[0]} {q[1]} 0x1:{ut}")
        result = q if op in ("udiv", "sdiv") else r
        if not signed:
            self.emit(f"mov {exe} {self.dst(inst, ut)} {result[1]}")
            return
        sign = self._tmp(inst, vt)
        if op == "sdiv":                                    # negative iff the signs differ
            self.emit(f"xor {exe} {sign[0]} {self.src(a, vt)} {self.src(b, vt)}")
        else:
            self.emit(f"mov {exe} {sign[0]} {self.src(a, vt)}")
        self.emit(f"cmp.lt (M1_NM, {width}) {pred} {sign[1]} 0x0:{vt}")
        self.emit(f"mov {exe} {self.dst(inst, vt)} {self._as(result[1], vt)}")
        self.emit(f"({pred}) mov {exe} {self.dst(inst, vt)} (-){self._as(result[1], vt)}")

    def _as(self, operand: str, vtype: str) -> str:
        """A source operand ``name(r,c)<region>`` read as ``vtype`` (an alias of its variable)."""
        name, rest = operand.split("(", 1)
        return f"{self._alias(name, vtype)}({rest}"

    def _fpclass(self, inst, x, mask) -> None:
        """llvm.is.fpclass: ``x``'s class in the test ``mask`` (LLVM LangRef: bit 0 signaling NaN, 1
        quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -zero, 6 +zero, 7 +subnormal, 8 +normal,
        9 +inf), from the bits: a = |x| as an unsigned integer compared with the class bounds (a
        range lo <= a < hi as a - lo < hi - lo), the sign from the signed view."""
        vt = vtype_of(x.type)
        if not isinstance(mask, ir.ConstantInt) or vt not in FP_CLASS_BITS:
            raise CompileError(f"vISA code generation: llvm.is.fpclass on {x.type} with test {mask} is not supported")
        raw, signed, inf, quiet, smallest = FP_CLASS_BITS[vt]
        exe, test, modulus = self.exe(inst), mask.value, 1 << 8 * SIZES[raw]
        a = self._tmp(inst, raw)
        self.emit(f"and {exe} {a[0]} {self.src(x, raw)} 0x{modulus // 2 - 1:x}:{raw}")
        terms: list[str] = []

        def term(op: str, bound: int, low: int = 0, sign: str = "") -> None:
            value = a[1]
            if low:
                shifted = self._tmp(inst, raw)
                self.emit(f"add {exe} {shifted[0]} {a[1]} 0x{-low % modulus:x}:{raw}")
                value = shifted[1]
            hit = self._tmp(inst, "w")
            self.emit(f"cmp.{op} {exe} {hit[0]} {value} 0x{bound - low:x}:{raw}")
            if sign:
                side = self._tmp(inst, "w")
                self.emit(f"cmp.{sign} {exe} {side[0]} {self.src(x, signed)} 0x0:{signed}")
                self.emit(f"and {exe} {hit[0]} {hit[1]} {side[1]}")
            terms.append(hit[1])

        nan = test & 3
        if nan:                                   # signaling: inf < a < inf|quiet; quiet: a >= inf|quiet
            term("lt", (inf | quiet) if nan == 1 else modulus // 2, inf + 1 if nan != 2 else inf | quiet)
        # (class, bound, low) of inf, normal, subnormal, zero: low <= a < bound; bits of -/+
        for op, bound, low, negative, positive in (("eq", inf, 0, 2, 9), ("lt", inf, smallest, 3, 8),
                                                  ("lt", smallest, 1, 4, 7), ("eq", 0, 0, 5, 6)):
            neg, pos = test >> negative & 1, test >> positive & 1
            if neg or pos:
                term(op, bound + low if op == "eq" and low else bound, low, "" if neg and pos else ("lt" if neg else "ge"))
        if not terms:
            self.emit(f"mov {exe} {self.dst(inst)} 0x0:w")
            return
        result = terms[0]
        for other in terms[1:]:
            self.emit(f"or {exe} {self.dst(inst)} {result} {other}")
            result = self.src(inst)
        if len(terms) == 1:
            self.emit(f"mov {exe} {self.dst(inst)} {result}")


# vISA type -> (raw unsigned, signed, bits of +inf, quiet-NaN bit, smallest normal) for llvm.is.fpclass
FP_CLASS_BITS = {"f": ("ud", "d", 0x7F800000, 0x00400000, 0x00800000),
                 "df": ("uq", "q", 0x7FF0000000000000, 0x0008000000000000, 0x0010000000000000)}
