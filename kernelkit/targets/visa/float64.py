"""Double-precision operations GenX_IR lacks, in the vISA code generator (SKL, the platform with
fp64): rounding to integral values, ldexp and frexp.

GenX_IR's rnd* take float only ("rnde only supports single float type"), so llvm.floor/ceil/trunc/
rint/round on f64 are lowered to double add/compare (which SKL's finalizer accepts) and 64-bit logic.

IGC (1.0.12504, ``ocloc compile -device skl``, its ``_codegen.ll``) clears the fraction bits with
masks built from the exponent on the two 32-bit halves. Here rint(|x|) = (|x| + 2^52) - 2^52,
which is exact in the default round-to-nearest-even mode for |x| < 2^52 (larger doubles, infinities
and NaN are returned as they are); one comparison corrects the direction for trunc/round/floor/ceil
and x's sign is copied onto the result (each of the five is zero or has x's sign)."""

from __future__ import annotations

TWO_52 = "0x4330000000000000:df"
MINUS_TWO_52 = "0xc330000000000000:df"
ONE = "0x3ff0000000000000:df"
MINUS_ONE = "0xbff0000000000000:df"
HALF = "0x3fe0000000000000:df"


class DoubleCodegen:
    """Mixin of KernelCodegen."""

    def _round_double(self, inst, base: str, x) -> None:
        exe = self.exe(inst)
        width = 1 if self.uniform(inst) else self.simd
        ax, t, r = self._tmp(inst, "df"), self._tmp(inst, "df"), self._tmp(inst, "df")
        small = self._pred()
        self.emit(f"mov {exe} {ax[0]} {self.modified('abs', x)}")
        self.emit(f"add {exe} {t[0]} {ax[1]} {TWO_52}")
        self.emit(f"add {exe} {t[0]} {t[1]} {MINUS_TWO_52}")
        if base in ("trunc", "round"):              # rint(|x|) > |x|: one less
            self._adjust(t, "gt", ax[1], MINUS_ONE, width, exe)
        if base == "round":                          # |x| - trunc(|x|) >= 1/2: one more
            d = self._tmp(inst, "df")
            self.emit(f"add {exe} {d[0]} {ax[1]} (-){t[1]}")
            self._adjust(t, "ge", HALF, ONE, width, exe, tested=d[1])
        self._copy_sign(inst, r, t[1], x)
        if base in ("floor", "ceil"):
            self._adjust(r, "gt" if base == "floor" else "lt", self.src(x), MINUS_ONE if base == "floor" else ONE,
                         width, exe)
            self._copy_sign(inst, r, r[1], x)
        self.emit(f"cmp.lt (M1_NM, {width}) {small} {ax[1]} {TWO_52}")
        self.emit(f"mov {exe} {self.dst(inst)} {self.src(x)}")
        self.emit(f"({small}) mov {exe} {self.dst(inst)} {r[1]}")

    def _adjust(self, value, test: str, other: str, step: str, width: int, exe: str, tested: str | None = None) -> None:
        """value += step where ``tested`` (default: value) compares ``test`` against ``other``."""
        pred = self._pred()
        self.emit(f"cmp.{test} (M1_NM, {width}) {pred} {tested or value[1]} {other}")
        self.emit(f"({pred}) add {exe} {value[0]} {value[1]} {step}")

    def _copy_sign(self, inst, out, magnitude: str, x) -> None:
        """out = |magnitude| with the sign of x (64-bit logic on the bits)."""
        exe = self.exe(inst)
        bits, sign = self._tmp(inst, "uq"), self._tmp(inst, "uq")
        name, region = magnitude.split("(0,0)")
        self.emit(f"and {exe} {bits[0]} {self._alias(name, 'uq')}(0,0){region} 0x7fffffffffffffff:uq")
        self.emit(f"and {exe} {sign[0]} {self.src(x, 'uq')} 0x8000000000000000:uq")
        out_name, out_region = out[0].split("(0,0)")
        self.emit(f"or {exe} {self._alias(out_name, 'uq')}(0,0){out_region} {bits[1]} {sign[1]}")

    def _ldexp_double(self, inst, x, k) -> None:
        """x * 2^k: k clamped to [-2200, 2200] (beyond, the result is 0 or inf anyway) and split in
        four parts q, q, q, k - 3q (q = k >> 2), each within a double's normal exponent range, so
        every factor 2^part is exact: ((part + 1023) << 52) as a double."""
        exe = self.exe(inst)
        kc, q, rest, acc = self._tmp(inst, "d"), self._tmp(inst, "d"), self._tmp(inst, "d"), self._tmp(inst, "df")
        self.emit(f"max {exe} {kc[0]} {self.src(k, 'd')} 0xfffff768:d")
        self.emit(f"min {exe} {kc[0]} {kc[1]} 0x898:d")
        self.emit(f"asr {exe} {q[0]} {kc[1]} 0x2:d")
        self.emit(f"mad {exe} {rest[0]} {q[1]} 0xfffffffd:d {kc[1]}")
        self.emit(f"mov {exe} {acc[0]} {self.src(x)}")
        for part in (q, q, q, rest):
            scale = self._tmp(inst, "q")
            self.emit(f"add {exe} {scale[0]} {part[1]} 0x3ff:q")
            self.emit(f"shl {exe} {scale[0]} {scale[1]} 0x34:q")
            name, region = scale[1].split("(0,0)")
            self.emit(f"mul {exe} {acc[0]} {acc[1]} {self._alias(name, 'df')}(0,0){region}")
        self.emit(f"mov {exe} {self.dst(inst)} {acc[1]}")

    def _frexp_double(self, inst, x) -> None:
        """llvm.frexp.f64: (m, e) with x = m 2^e, |m| in [1/2, 1); subnormals scaled by 2^64 first;
        zeros, infinities and NaN give (x, 0). Kept for the ``extractvalue`` users (as cmpxchg pairs)."""
        exe = self.exe(inst)
        width = 1 if self.uniform(inst) else self.simd
        y, mant = self._tmp(inst, "df"), self._tmp(inst, "df")
        bits, field, e = self._tmp(inst, "uq"), self._tmp(inst, "d"), self._tmp(inst, "d")
        tiny, special = self._pred(), self._pred()
        self.emit(f"mov {exe} {y[0]} {self.src(x)}")
        self.emit(f"mov {exe} {e[0]} 0x0:d")
        self.emit(f"cmp.lt (M1_NM, {width}) {tiny} {self.modified('abs', x)} 0x10000000000000:df")
        self.emit(f"({tiny}) mul {exe} {y[0]} {y[1]} 0x43f0000000000000:df")
        self.emit(f"({tiny}) mov {exe} {e[0]} 0xffffffc0:d")
        name, region = y[1].split("(0,0)")
        self.emit(f"shr {exe} {bits[0]} {self._alias(name, 'uq')}(0,0){region} 0x34:uq")
        self.emit(f"and {exe} {field[0]} {bits[1]} 0x7ff:uq")
        self.emit(f"add {exe} {e[0]} {e[1]} {field[1]}")
        self.emit(f"add {exe} {e[0]} {e[1]} 0xfffffc02:d")
        self.emit(f"and {exe} {bits[0]} {self._alias(name, 'uq')}(0,0){region} 0x800fffffffffffff:uq")
        mname, mregion = mant[0].split("(0,0)")
        self.emit(f"or {exe} {self._alias(mname, 'uq')}(0,0){mregion} {bits[1]} 0x3fe0000000000000:uq")
        # zero (its field is 0 after scaling too), infinity and NaN (field 0x7ff): x itself, exponent 0
        self.emit(f"cmp.eq (M1_NM, {width}) {special} {field[1]} 0x7ff:d")
        self.emit(f"({special}) mov {exe} {mant[0]} {self.src(x)}")
        self.emit(f"({special}) mov {exe} {e[0]} 0x0:d")
        self.emit(f"cmp.eq (M1_NM, {width}) {special} {self.src(x)} 0x0:df")
        self.emit(f"({special}) mov {exe} {mant[0]} {self.src(x)}")
        self.emit(f"({special}) mov {exe} {e[0]} 0x0:d")
        self.pairs[id(inst)] = (mant[1], e[1])
