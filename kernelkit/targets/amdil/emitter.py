"""Writing AMD IL instructions for IR values: operand lists (one entry per 32-bit component:
a register ``Slot`` or a constant's bits), grouped into one vec4 instruction per destination
register, constants through the literal pool, sources scattered over several registers
gathered first."""

from __future__ import annotations

import struct

from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.ir.values import (
    ConstantAggregate,
    ConstantFP,
    ConstantInt,
    ConstantSimple,
    ConstantSplat,
)
from kernelkit.targets.amdil.regs import Literals, Registers, Slot, dst_text, slot_count, src_text

Operand = Slot | int


def constant_bits(c, ty: T.Type) -> list[int]:
    """The 32-bit components of a constant (i1 true is all ones, as IL comparisons give)."""
    if isinstance(ty, T.VectorType):
        if isinstance(c, ConstantAggregate):
            return [b for e in c.operands for b in constant_bits(e, ty.element)]
        if isinstance(c, ConstantSplat):
            return constant_bits(c.operands[0], ty.element) * ty.count
        if isinstance(c, ConstantSimple):
            return [0] * slot_count(ty)
        raise CompileError(f"amdil: vector constant {c} is not supported")
    if isinstance(c, ConstantSimple):     # zeroinitializer, undef, poison, null
        return [0] * slot_count(ty)
    if isinstance(c, ConstantInt):
        if isinstance(ty, T.IntType) and ty.bits == 1:
            return [0xFFFFFFFF if c.value & 1 else 0]
        v = c.value & ((1 << max(32, getattr(ty, "bits", 32))) - 1)
        if slot_count(ty) == 2:
            return [v & 0xFFFFFFFF, (v >> 32) & 0xFFFFFFFF]
        return [v & 0xFFFFFFFF]
    if isinstance(c, ConstantFP):
        if ty == T.float64:
            raw = struct.unpack("<II", struct.pack("<d", c.value))
            return [raw[0], raw[1]]
        return [struct.unpack("<I", struct.pack("<f", c.value))[0]]
    raise CompileError(f"amdil: constant {c} is not supported")


class Emitter:
    def __init__(self, literals: Literals, registers: Registers):
        self.lits = literals
        self.regs = registers
        self.lines: list[str] = []

    def emit(self, line: str) -> None:
        self.lines.append(line)

    def temp_slots(self, count: int) -> list[Slot]:
        regs = self.regs.fresh(max(1, (count + 3) // 4))
        return [Slot("r", regs[i // 4], i % 4) for i in range(count)]

    def const(self, value: int) -> Slot:
        return self.lits.splat(value)

    def op(self, name: str, dst: list[Slot], *srcs: list[Operand]) -> list[Slot]:
        """``name dst, srcs...`` component-wise, one instruction per destination register."""
        for s in srcs:
            if len(s) != len(dst):
                raise CompileError(f"amdil internal: {name} with {len(dst)} destination and "
                                   f"{len(s)} source components")
        groups: dict[int, list[int]] = {}
        for i, d in enumerate(dst):
            groups.setdefault(d.num, []).append(i)
        for reg, idxs in groups.items():
            comps = [dst[i].comp for i in idxs]
            texts = [self._source([s[i] for i in idxs], comps) for s in srcs]
            self.emit(f"{name} {dst_text(reg, comps)}" + "".join(f", {t}" for t in texts))
        return dst

    def _source(self, items: list[Operand], comps: list[int]) -> str:
        if all(isinstance(x, int) for x in items):
            vals = [0, 0, 0, 0]
            for x, c in zip(items, comps, strict=True):
                vals[c] = x
            num = self.lits.get(tuple(vals))
            return src_text([Slot("l", num, c) for c in comps], comps)
        slots = [self.const(x) if isinstance(x, int) else x for x in items]
        if len({(s.file, s.num) for s in slots}) > 1:
            tmp = self.regs.temp()
            for s, c in zip(slots, comps, strict=True):
                self.emit(f"mov {dst_text(tmp, [c])}, {src_text([s], [c])}")
            slots = [Slot("r", tmp, c) for c in comps]
        return src_text(slots, comps)

    def pair(self, items: list[Operand]) -> str:
        """A source giving a 64-bit value's (lo, hi) in components x and y."""
        text = self._source(list(items), [0, 1])
        return text

    def wide(self, name: str, dst: Slot, *pairs: list[Operand]) -> Slot:
        """``name dst.c, pair, pair...``: a 64-bit instruction with a 32-bit result."""
        srcs = "".join(f", {self.pair(p)}" for p in pairs)
        self.emit(f"{name} {dst_text(dst.num, [dst.comp])}{srcs}")
        return dst

    # shorthands returning fresh temporaries
    def new(self, name: str, *srcs: list[Operand], count: int | None = None) -> list[Slot]:
        n = count if count is not None else len(srcs[0])
        return self.op(name, self.temp_slots(n), *srcs)

    def one(self, name: str, *srcs: Operand) -> Slot:
        return self.new(name, *[[s] for s in srcs])[0]

    def mov(self, dst: list[Slot], src: list[Operand]) -> None:
        self.op("mov", dst, src)
