"""Stride analysis: how a value changes from one lane (work-item along the packet's dimension) to
the next, for the packetiser (uniform → scalar; stride = element size → contiguous vector access;
another constant stride or none → gather/scatter).

`Stride.step` is the difference between lanes `k+1` and `k`: in units of the value for integers,
in bytes for pointers; 0 for uniform values; None when it is not a known constant (varying).
Like vecz, it assumes work-item id arithmetic does not wrap (the ids fit their types).
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.abi.opencl_types import ir_size_align
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis.uniformity import UniformityAnalysis
from kernelkit.ir.values import ConstantInt, Value


@dataclass(frozen=True)
class Stride:
    step: int | None

    @property
    def uniform(self) -> bool:
        return self.step == 0

    @property
    def linear(self) -> bool:
        return self.step is not None

    def contiguous(self, element_size: int) -> bool:
        """A pointer whose lanes address consecutive elements of `element_size` bytes."""
        return self.step == element_size


VARYING = Stride(None)
UNIFORM = Stride(0)


class StrideAnalysis:
    """Strides of the values of `uniformity.function` along the lanes of its packet (dimension 0)."""

    def __init__(self, uniformity: UniformityAnalysis, pointer_size: int = 8) -> None:
        self.uniformity = uniformity
        self.pointer_size = pointer_size
        self._memo: dict[Value, Stride] = {}
        if uniformity.roots.dimensions - {0}:
            raise ValueError("stride analysis follows dimension 0 only; the roots span "
                             f"{sorted(uniformity.roots.dimensions)}")

    def stride(self, value: Value) -> Stride:
        if not self.uniformity.is_divergent(value):
            return UNIFORM
        got = self._memo.get(value)
        if got is None:
            self._memo[value] = VARYING  # cycles through phis stay varying
            got = self._memo[value] = self._compute(value)
        return got

    def element_stride(self, pointer: Value, element: T.Type) -> int | None:
        """Stride of a pointer in elements of `element` (None when not a whole number of them)."""
        step = self.stride(pointer).step
        size = self.size_of(element)
        if step is None or size == 0 or step % size:
            return None
        return step // size

    def size_of(self, ty: T.Type) -> int:
        return ir_size_align(ty, self.pointer_size)[0]

    def _compute(self, v: Value) -> Stride:
        if isinstance(v, I.Instruction) and self.uniformity.roots.classify(v) is True:
            return Stride(self.uniformity.roots.stride(v))
        if isinstance(v, I.CallInst):
            return VARYING
        if isinstance(v, I.BinaryOp) and len(v.operands) == 2:
            a, b = (self.stride(x).step for x in v.operands)
            op = v.opcode
            if op == "add" or (op == "or" and "disjoint" in v.flags):
                return Stride(None if a is None or b is None else a + b)
            if op == "sub":
                return Stride(None if a is None or b is None else a - b)
            if op == "mul":
                c = _constant(v.operands[1]) if b == 0 else _constant(v.operands[0]) if a == 0 else None
                step = a if b == 0 else b
                return Stride(None if c is None or step is None else step * c)
            if op == "shl" and b == 0:
                c = _constant(v.operands[1])
                return Stride(None if c is None or a is None else a << c)
            if op in ("ashr", "lshr") and b == 0 and "exact" in v.flags:
                # (x << c) >>exact c: a sign- or zero-extension in a register (int ids in i64)
                c = _constant(v.operands[1])
                if c is not None and a is not None and a % (1 << c) == 0:
                    return Stride(a >> c)
            return VARYING
        if isinstance(v, I.CastInst) and v.opcode in ("zext", "sext", "trunc", "bitcast", "addrspacecast"):
            return self.stride(v.operands[0])
        if isinstance(v, I.GetElementPtrInst):
            return self._gep(v)
        return VARYING

    def _gep(self, g: I.GetElementPtrInst) -> Stride:
        total = self.stride(g.operands[0]).step
        if total is None:
            return VARYING
        ty: T.Type = g.source_type
        for i, index in enumerate(g.operands[1:]):
            step = self.stride(index).step
            if i == 0:
                unit = self.size_of(ty)
            elif isinstance(ty, T.LiteralStructType | T.NamedStructType):
                if step != 0:
                    return VARYING
                ty = T.aggregate_element(ty, _constant(index) or 0)
                continue
            elif isinstance(ty, T.ArrayType | T.VectorType):
                ty = ty.element
                unit = self.size_of(ty)
            else:
                return VARYING
            if step is None:
                return VARYING
            total += step * unit
        return Stride(total)


def _constant(v: Value) -> int | None:
    return v.value if isinstance(v, ConstantInt) else None
