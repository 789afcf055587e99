"""Integer arithmetic the finalizer lacks, in the vISA code generator: 64-bit multiply, division by
powers of two with shifts, and division/remainder by a variable as restoring long division (GenX_IR
has no 64-bit division and, on DG2, no integer division at all)."""

from __future__ import annotations

from kernelkit import ir
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
