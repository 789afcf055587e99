"""AMD IL instruction selection for casts (integer widths, int <-> float, fp64 <-> fp32,
bitcasts between element sizes), vector element operations and aggregates: the ``CastOps``
part of ``KernelSelector``."""

from __future__ import annotations

from functools import partialmethod

from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.targets.amdil.emitter import Operand
from kernelkit.targets.amdil.regs import element_slots, slot_count
from kernelkit.targets.amdil.wideconv import i64_to_f32

SIGN = 0x80000000
ALL = 0xFFFFFFFF


def int_bits(ty: T.Type) -> int:
    s = ty.scalar
    if isinstance(s, T.IntType):
        return s.bits
    return 32


class CastOps:
    # -- casts ---------------------------------------------------------------------------------
    def sel_trunc(self, inst) -> None:
        out = self.result(inst)
        src_per = element_slots(inst.operands[0].type)
        ops = self.val(inst.operands[0])
        lows = [ops[i] for i in range(0, len(ops), src_per)]
        if int_bits(inst.type) == 1:
            bit = self.em.new("iand", lows, [1] * len(lows))
            self.em.op("inegate", out, bit)
        else:
            self.em.mov(out, lows)

    def extend_cast(self, inst, signed: bool) -> None:
        src = inst.operands[0]
        sbits = int_bits(src.type)
        out = self.result(inst)
        per = element_slots(inst.type)
        for i, e in enumerate(self.elems(src)):
            o = e[0]
            if sbits == 1:
                low = o if signed else (self.em.one("iand", o, 1) if not isinstance(o, int)
                                        else o & 1)
            else:
                low = self.extend(o, sbits, signed)
            self.put_int32(out, i, per, low, signed)

    sel_zext = partialmethod(extend_cast, signed=False)
    sel_sext = partialmethod(extend_cast, signed=True)

    def put_int32(self, out, i: int, per: int, value: Operand, signed: bool) -> None:
        """Element ``i`` of ``out`` = a 32-bit integer; with ``per`` == 2 slots per element it is
        widened to the (lo, hi) pair of a 64-bit integer (sign- or zero-extended)."""
        if per == 1:
            self.em.mov([out[i]], [value])
            return
        if not signed:
            high: Operand = 0
        elif isinstance(value, int):
            high = ALL if value & SIGN else 0
        else:
            high = self.em.one("ishr", value, 31)
        self.em.mov(out[2 * i:2 * i + 2], [value, high])

    def float_to_int(self, inst, signed) -> None:
        src = inst.operands[0]
        out = self.result(inst)
        per = element_slots(inst.type)
        double = src.type.scalar == T.float64
        for i, e in enumerate(self.elems(src)):
            if double and per == 2:     # hi = floor(x / 2^32), lo = x - hi * 2^32
                scaled = self.em.temp_slots(2)
                self.em.op("dmul", scaled, e, [0, 0x3DF00000])
                hi_d = self.dfloor(scaled)
                lo_d = self.em.temp_slots(2)
                self.em.op("dmad", lo_d, hi_d, [0, 0xC1F00000], e)
                hi = self.em.wide("d2i" if signed else "d2u", self.em.temp_slots(1)[0], hi_d)
                lo = self.em.wide("d2u", self.em.temp_slots(1)[0], lo_d)
                self.em.mov(out[2 * i:2 * i + 2], [lo, hi])
                continue
            if double:
                v = self.em.wide("d2i" if signed else "d2u", self.em.temp_slots(1)[0], e)
            else:
                v = self.em.one("ftoi" if signed else "ftou", e[0])
            self.put_int32(out, i, per, v, signed)

    sel_fptosi = partialmethod(float_to_int, signed=True)
    sel_fptoui = partialmethod(float_to_int, signed=False)

    def int_to_float(self, inst, signed) -> None:
        src = inst.operands[0]
        bits = int_bits(src.type)
        out = self.result(inst)
        double = inst.type.scalar == T.float64
        em = self.em
        for i, e in enumerate(self.elems(src)):
            if bits == 64:
                if double:   # hi * 2^32 + lo, each exact in a double
                    hi, lo = em.temp_slots(2), em.temp_slots(2)
                    em.op("i2d" if signed else "u2d", hi, [e[1], e[1]])
                    em.op("u2d", lo, [e[0], e[0]])
                    em.op("dmad", out[2 * i:2 * i + 2], hi, [0, 0x41F00000], lo)
                    continue
                em.mov([out[i]], [i64_to_f32(self, e[0], e[1], signed)])
                continue
            v = e[0] if bits == 32 else self.extend(e[0], bits, signed)
            if bits == 1:
                v = em.one("iand", v, 1) if not isinstance(v, int) else v & 1
                if signed:
                    v = em.one("inegate", v)
            if double:
                em.op("i2d" if signed else "u2d", out[2 * i:2 * i + 2], [v, v])
            else:
                em.op("itof" if signed else "utof", [out[i]], [v])

    sel_sitofp = partialmethod(int_to_float, signed=True)
    sel_uitofp = partialmethod(int_to_float, signed=False)

    def sel_fpext(self, inst) -> None:
        out = self.result(inst)
        for i, e in enumerate(self.elems(inst.operands[0])):
            self.em.op("f2d", out[2 * i:2 * i + 2], [e[0], e[0]])

    def sel_fptrunc(self, inst) -> None:
        out = self.result(inst)
        for i, e in enumerate(self.elems(inst.operands[0])):
            self.em.wide("d2f", out[i], e)

    def sel_bitcast(self, inst) -> None:
        src = inst.operands[0]
        if slot_count(src.type) == slot_count(inst.type) and \
                int_bits(src.type) >= 32 and int_bits(inst.type) >= 32:
            self.values[id(inst)] = self.val(src)
            return
        words = self.pack_words(src)
        self.em.mov(self.result(inst), self.unpack_words(words, inst.type))

    def sel_ptrtoint(self, inst) -> None:
        out = self.result(inst)
        p = self.val(inst.operands[0])
        self.em.mov(out, p + [0] * (len(out) - len(p)) if len(out) > len(p) else p[:len(out)])

    def sel_inttoptr(self, inst) -> None:
        self.em.mov(self.result(inst), self.val(inst.operands[0])[:1])

    def sel_addrspacecast(self, inst) -> None:
        self.values[id(inst)] = self.val(inst.operands[0])

    # -- vectors ----------------------------------------------------------------------------------
    def sel_extractelement(self, inst) -> None:
        vec, idx = inst.operands
        elems = self.elems(vec)
        out = self.result(inst)
        iv = self.val(idx)[0]
        if isinstance(iv, int):
            self.em.mov(out, elems[iv % len(elems)])
            return
        self.em.mov(out, elems[0])
        for k in range(1, len(elems)):
            hit = self.em.one("ieq", iv, k)
            for j, o in enumerate(out):
                self.em.op("cmov_logical", [o], [hit], [elems[k][j]], [o])

    def sel_insertelement(self, inst) -> None:
        vec, elt, idx = inst.operands
        out = self.result(inst)
        self.em.mov(out, self.val(vec))
        per = element_slots(inst.type)
        ev = self.val(elt)
        iv = self.val(idx)[0]
        if isinstance(iv, int):
            self.em.mov(out[iv * per:(iv + 1) * per], ev)
            return
        for k in range(inst.type.count):
            hit = self.em.one("ieq", iv, k)
            for j in range(per):
                self.em.op("cmov_logical", [out[k * per + j]], [hit], [ev[j]], [out[k * per + j]])

    def sel_shufflevector(self, inst) -> None:
        a, b, mask = inst.operands
        elems = self.elems(a) + self.elems(b)
        per = element_slots(inst.type)
        out = self.result(inst)
        picks = _mask_values(mask)
        for k, m in enumerate(picks):
            src = elems[m] if m >= 0 else [0] * per
            self.em.mov(out[k * per:(k + 1) * per], src)

    def sel_extractvalue(self, inst) -> None:
        agg = inst.operands[0]
        ops = self.val(agg)
        offset = _aggregate_slot_offset(agg.type, inst.indices)
        n = slot_count(inst.type)
        self.values[id(inst)] = ops[offset:offset + n]

    # -- bit packing (bitcasts between element sizes) -----------------------------------------
    def pack_words(self, v) -> list[Operand]:
        """The little-endian 32-bit words of a value's memory image."""
        bits = int_bits(v.type)
        if bits >= 32:
            return self.val(v)
        em = self.em
        elems = [e[0] for e in self.elems(v)]
        per_word = 32 // bits
        words = []
        for w in range(0, len(elems), per_word):
            acc: Operand = 0
            for k, e in enumerate(elems[w:w + per_word]):
                part = em.one("iand", e, (1 << bits) - 1) if not isinstance(e, int) else \
                    e & ((1 << bits) - 1)
                if k:
                    part = em.one("ishl", part, bits * k) if not isinstance(part, int) else \
                        part << (bits * k)
                acc = part if acc == 0 else em.one("ior", acc, part)
            words.append(acc)
        return words

    def unpack_words(self, words: list[Operand], ty: T.Type) -> list[Operand]:
        bits = int_bits(ty)
        if bits >= 32:
            return words[:slot_count(ty)]
        em = self.em
        count = ty.count if isinstance(ty, T.VectorType) else 1
        out = []
        for i in range(count):
            w = words[i * bits // 32]
            shift = (i * bits) % 32
            out.append(em.one("ushr", w, shift) if shift else w)
        return out


def _mask_values(mask) -> list[int]:
    from kernelkit.ir.values import ConstantAggregate, ConstantInt, ConstantSimple, ConstantSplat
    count = mask.type.count
    if isinstance(mask, ConstantAggregate):
        return [e.value if isinstance(e, ConstantInt) else -1 for e in mask.operands]
    if isinstance(mask, ConstantSplat):
        e = mask.operands[0]
        return [e.value if isinstance(e, ConstantInt) else -1] * count
    if isinstance(mask, ConstantSimple):
        return [0 if mask.keyword == "zeroinitializer" else -1] * count
    raise CompileError(f"amdil: shufflevector mask {mask} is not supported")


def _aggregate_slot_offset(ty: T.Type, indices: list[int]) -> int:
    offset = 0
    for i in indices:
        if isinstance(ty, T.LiteralStructType | T.NamedStructType):
            offset += sum(slot_count(e) for e in ty.elements[:i])
            ty = ty.elements[i]
        elif isinstance(ty, T.ArrayType):
            offset += i * slot_count(ty.element)
            ty = ty.element
        else:
            raise CompileError(f"amdil: extractvalue from {ty}")
    return offset
