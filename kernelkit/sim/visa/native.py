"""The executor's fast path: ALU instructions whose sources have the destination's size (and, for
floats, its type) computed in that numpy type, without kernelkit.sim.visa.alu's widening.

The results are bit-identical to alu's wide computation: integer add, mul, logic, moves and shifts
keep the low bits, which wide two's complement arithmetic followed by wrapping to the destination
gives too (sources of the other signedness are reinterpreted, sources of another size converted by
value, source modifiers applied in the narrow type wrap the same); float32 add, mul, div, sqrt and min/max computed in float32 are correctly rounded, which is
what computing them in float64 and rounding once gives (binary64 has 53 >= 2 x 24 + 2 bits); ``mad``
keeps alu's float64 product and sum. Everything else (saturation, mixed sizes, conversions, 64-bit
float with float32 sources, ...) goes through alu."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.sim.visa.alu import ABS, NEG, NEG_ABS, NOT, compare
from kernelkit.sim.visa.decode import Inst, Operand

FLOAT_MODS = frozenset({0, ABS, NEG, NEG_ABS})
INT_MODS = frozenset({0, ABS, NEG, NEG_ABS, NOT})
NATIVE_FLOATS = frozenset({"f", "df"})


def _mad_float(s: list[np.ndarray]) -> np.ndarray:
    wide = np.multiply(s[0], s[1], dtype=np.float64)
    wide += s[2]
    return wide


def _shift(kind: str) -> Callable:
    def run(s: list[np.ndarray], count_mask: int, out: np.ndarray | None = None) -> np.ndarray:
        value, count = s[0], s[1]
        if count.ndim == 2 and not any(count.strides):          # one count for every lane (a broadcast)
            count = count[:1, :1]
        amount = (count & count_mask).astype(value.dtype)
        if kind == "shl":
            return np.left_shift(value, amount, out=out)
        view = np.dtype(f"<{'i' if kind == 'asr' else 'u'}{value.dtype.itemsize}")
        if out is not None:
            np.right_shift(value.view(view), amount.view(view), out=out.view(view))
            return out
        return (value.view(view) >> amount.view(view)).view(value.dtype)
    run.shift = True
    return run


FLOAT_OPERATIONS: dict[str, Callable] = {
    "mov": lambda s: s[0],
    "add": lambda s: np.add(s[0], s[1]),
    "mul": lambda s: np.multiply(s[0], s[1]),
    "mad": _mad_float,
    "sqrt": lambda s: np.sqrt(s[0]),
}
INT_OPERATIONS: dict[str, Callable] = {
    "mov": lambda s: s[0],
    "add": lambda s: np.add(s[0], s[1]),
    "mul": lambda s: np.multiply(s[0], s[1]),
    "and": lambda s: np.bitwise_and(s[0], s[1]),
    "or": lambda s: np.bitwise_or(s[0], s[1]),
    "xor": lambda s: np.bitwise_xor(s[0], s[1]),
    "not": lambda s: np.invert(s[0]),
    "shl": _shift("shl"), "shr": _shift("shr"), "asr": _shift("asr"),
}


UFUNCS: dict[str, np.ufunc] = {"add": np.add, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
                               "xor": np.bitwise_xor, "not": np.invert, "sqrt": np.sqrt}


class NativePlan:
    """How one instruction runs natively: ``sources(read)`` -> arrays in the common type with their
    modifiers applied; ``run(sources)`` -> the result (destination type, or float64 for ``mad``)."""

    def __init__(self, inst: Inst, common: np.dtype, operation: Callable | None):
        self.inst = inst
        self.common = common
        self.operation = operation

    def sources(self, read: Callable[[Operand], np.ndarray]) -> list[np.ndarray]:
        out = []
        for op in self.inst.srcs:
            value = read(op)
            if value.dtype.itemsize != self.common.itemsize:
                # another size: converted by value (sign or zero extension, or wrapping) first, then
                # modified in the common type, which wraps as alu's 64-bit computation does
                if value.ndim == 2 and not any(value.strides):        # one value broadcast: convert it once
                    value = np.broadcast_to(value[:1, :1].astype(self.common), value.shape)
                else:
                    value = value.astype(self.common)
            if op.mod in (ABS, NEG_ABS):           # same size: modifiers apply in the source's own type
                value = np.abs(value)
            if op.mod in (NEG, NEG_ABS):
                value = np.negative(value)
            elif op.mod == NOT:
                value = np.invert(value)
            out.append(value if value.dtype == self.common else value.view(self.common))
        return out

    def run(self, sources: list[np.ndarray], out: np.ndarray | None = None) -> np.ndarray:
        """The result; computed straight into ``out`` (a view of the destination, of the common
        type) when the operation is one numpy ufunc, else returned for the caller to store."""
        ufunc = UFUNCS.get(self.inst.name)
        if out is not None and ufunc is not None and self.operation is not _mad_float and out.dtype == self.common:
            return ufunc(*sources, out=out)
        if out is not None and self.inst.name == "mov" and out.dtype == self.common:
            np.copyto(out, sources[0])
            return out
        if getattr(self.operation, "shift", False):
            # alu's count mask: 6 bits when a source is 64-bit, else 5 (whatever the destination)
            wide = any(op.dtype.itemsize == 8 for op in self.inst.srcs)
            return self.operation(sources, 63 if wide else 31, out if out is not None and out.dtype == self.common
                                  else None)
        return self.operation(sources)

    def compare(self, sources: list[np.ndarray]) -> np.ndarray:
        return compare(self.inst.fields["spec"], sources[0], sources[1])


def _source_ok(op: Operand, size: int) -> bool:
    if op.kind == "imm":
        return not isinstance(op.value, np.ndarray) and op.dtype.itemsize == size
    return op.kind == "reg" and op.dtype.itemsize == size


def _int_source_ok(op: Operand, size: int, position: int, name: str) -> bool:
    """An integer source of another size is exact when it is converted first: for the wrapping
    operations (not for the shifted value of shr/asr, whose high bits matter), without abs (abs of
    an extended value differs from abs in the destination type)."""
    if op.kind not in ("reg", "imm") or op.dtype.kind not in "iu" or op.mod not in INT_MODS:
        return False
    if op.kind == "imm" and isinstance(op.value, np.ndarray):
        return False
    if op.dtype.itemsize == size:
        return True
    return op.mod not in (ABS, NEG_ABS) and not (name in ("shr", "asr") and position == 0)


def native_plan(inst: Inst) -> NativePlan | None:
    """The instruction's fast path, or None when only alu's wide computation is exact."""
    name, dst, srcs = inst.name, inst.dst, inst.srcs
    if dst is None or not srcs or any(s.kind not in ("reg", "imm") for s in srcs):
        return None
    if name == "cmp":
        first = srcs[0]
        if len(srcs) != 2 or first.dtype != srcs[1].dtype or not _source_ok(srcs[1], first.dtype.itemsize):
            return None
        mods = FLOAT_MODS if first.vtype in NATIVE_FLOATS else frozenset({0})
        if first.vtype not in NATIVE_FLOATS and first.dtype.kind not in "iu":
            return None
        if any(s.mod not in mods for s in srcs) or dst.kind not in ("pred", "reg", "null"):
            return None
        return NativePlan(inst, first.dtype, None)
    if dst.kind != "reg" or inst.sat:
        return None
    if dst.vtype in NATIVE_FLOATS:
        operation = FLOAT_OPERATIONS.get(name)
        if operation is None or any(s.dtype != dst.dtype or s.mod not in FLOAT_MODS for s in srcs):
            return None
        if name == "mad" and len(srcs) != 3:
            return None
        return NativePlan(inst, dst.dtype, operation)
    if dst.dtype.kind not in "iu" or dst.vtype == "bool":
        return None
    operation = INT_OPERATIONS.get(name)
    size = dst.dtype.itemsize
    if operation is None or not all(_int_source_ok(s, size, k, name) for k, s in enumerate(srcs)):
        return None
    return NativePlan(inst, dst.dtype, operation)
