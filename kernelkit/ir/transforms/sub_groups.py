"""Sub-group builtins in a packetised function (`transforms.packetise`): the W lanes of a packet are
one sub-group, so the spec 003 `__mux_sub_group_*` operations become operations across the lanes of
their vector operand and the sub-group queries answer for sub-groups of W work-items.

- reduce / any / all: a butterfly of log2(W) shuffles; the result is uniform (lane 0's).
- scan_inclusive / scan_exclusive: Hillis-Steele steps (shift by 1, 2, 4, .. with the operation's
  identity shifted in); exclusive scans shift the operand by one lane first.
- broadcast(v, lane): one element (the lane index must be uniform).
- shuffle(v, i), shuffle_xor(v, m), shuffle_up(prev, cur, d), shuffle_down(cur, next, d): one
  element per lane from the operand (or the concatenation of the two operands).
- get_sub_group_size / get_max_sub_group_size: W; get_num_sub_groups and get_sub_group_id: the
  scalar answers (work-items of the group, lane 0's linear id) divided by W;
  get_sub_group_local_id is a work-item id root (stride 1, see `ir.analysis.uniformity`).

Refused (the kernel then stays scalar, where sub-groups have one work-item): sub-group operations
under divergent control, on vector types, or a broadcast from a lane that differs between lanes.
"""

from __future__ import annotations

import re

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis.uniformity import builtin_base_name
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.transforms.divergent_regions import VectorisationFailure
from kernelkit.ir.values import (
    ConstantAggregate,
    ConstantFP,
    ConstantInt,
    ConstantSimple,
    ConstantSplat,
    Value,
)

_OP_RE = re.compile(
    r"sub_group_(reduce|scan_inclusive|scan_exclusive|any|all|broadcast|shuffle_up|shuffle_down|shuffle_xor|"
    r"shuffle)(?:_(logical_and|logical_or|logical_xor|fadd|fmul|fmin|fmax|add|mul|smin|umin|smax|umax|and|or|"
    r"xor))?_(i\d+|f16|f32|f64)$")
_OPERANDS = {"reduce": 1, "scan_inclusive": 1, "scan_exclusive": 1, "any": 1, "all": 1, "broadcast": 2,
             "shuffle": 2, "shuffle_xor": 2, "shuffle_up": 3, "shuffle_down": 3}
_BINARY = {"add": "add", "mul": "mul", "fadd": "fadd", "fmul": "fmul", "and": "and", "or": "or", "xor": "xor"}
_INTRINSIC = {"smin": "smin", "umin": "umin", "smax": "smax", "umax": "umax", "fmin": "minnum", "fmax": "maxnum"}


def packetise_sub_group_call(p, inst: I.CallInst, region, b: IRBuilder) -> bool:
    """Rewrite `inst` if it is a sub-group builtin (True), for packetiser `p` (see the docstring)."""
    fn = inst.called_function
    if fn is None:
        return False
    base = builtin_base_name(fn.name)
    if base in ("get_sub_group_size", "get_max_sub_group_size"):
        _replace_uniform(p, inst, ConstantInt(inst.type, p.w))
        return True
    if base in ("get_num_sub_groups", "get_enqueued_num_sub_groups", "get_sub_group_id"):
        uses = list(inst.uses)
        per_packet = IRBuilder().position_after(inst).udiv(inst, ConstantInt(inst.type, p.w))
        for u in uses:
            u.set(per_packet)
        return True
    m = _OP_RE.fullmatch(base)
    if m is None:
        return False
    if region is not None:
        raise VectorisationFailure("sub-group operation under divergent control")
    op, kind, _ = m.groups()
    args = inst.args[:_OPERANDS[op]]
    ty = inst.type
    if not isinstance(ty, T.IntType | T.FloatType):
        raise VectorisationFailure(f"sub-group {op} of type {ty}")
    lanes = _Lanes(p, ty, b)
    if op in ("reduce", "any", "all"):
        comb = kind if op == "reduce" else ("logical_or" if op == "any" else "logical_and")
        total = lanes.butterfly(p._vop(args[0], b), comb)
        _replace_uniform(p, inst, b.extract_element(total, ConstantInt(T.i32, 0)))
        return True
    if op == "broadcast":
        value, lane = args
        if lane in p.varying:
            raise VectorisationFailure("sub_group_broadcast from a lane that differs between lanes")
        result = value if value not in p.varying else b.extract_element(p._vop(value, b), lane)
        _replace_uniform(p, inst, result)
        return True
    if op.startswith("scan"):
        v = p._vop(args[0], b)
        if op == "scan_exclusive":
            v = lanes.shift(v, 1, lanes.identity(kind))
        result = lanes.scan(v, kind)
    elif op in ("shuffle", "shuffle_xor"):
        v, index = p._vop(args[0], b), p._vop(args[1], b)
        if op == "shuffle_xor":
            index = b.xor(lanes.lane_ids(index.type), index)
        result = lanes.gather(v, index)
    else:
        first, second, delta = (p._vop(a, b) for a in args)
        both = b.shuffle_vector(first, second, _mask(list(range(2 * p.w))))
        ids = lanes.lane_ids(delta.type)
        if op == "shuffle_up":   # lane i reads cur[i - d], or prev[W + i - d]
            index = b.sub(b.add(ids, ConstantSplat(delta.type, [ConstantInt(delta.type.element, p.w)])), delta)
        else:                    # lane i reads cur[i + d], or next[i + d - W]
            index = b.add(ids, delta)
        result = lanes.gather(both, index)
    p.vec[inst] = result
    p.replaced.append(inst)
    return True


def _replace_uniform(p, inst: I.Instruction, value: Value) -> None:
    inst.replace_all_uses_with(value)
    p.replaced.append(inst)


def _mask(values: list[int]) -> ConstantAggregate:
    return ConstantAggregate(T.VectorType(T.i32, len(values)), [ConstantInt(T.i32, v) for v in values])


class _Lanes:
    """Cross-lane operations on <W x ty> values."""

    def __init__(self, p, ty: T.Type, b: IRBuilder) -> None:
        self.w = p.w
        self.ty = ty
        self.vty = T.VectorType(ty, p.w)
        self.p = p
        self.b = b

    def lane_ids(self, vty: T.Type) -> Value:
        ety = vty.element  # type: ignore[attr-defined]
        return ConstantAggregate(vty, [ConstantInt(ety, i) for i in range(self.w)])

    def identity(self, kind: str) -> Value:
        ty = self.ty
        if isinstance(ty, T.FloatType):
            inf = float("inf")
            value = {"fadd": 0.0, "fmul": 1.0, "fmin": inf, "fmax": -inf}[kind]
            return ConstantSplat(self.vty, [ConstantFP(ty, value)])
        bits = ty.bits  # type: ignore[attr-defined]
        value = {"add": 0, "or": 0, "xor": 0, "umax": 0, "logical_or": 0, "logical_xor": 0, "mul": 1,
                 "logical_and": 1, "and": -1, "umin": -1, "smin": (1 << (bits - 1)) - 1,
                 "smax": -(1 << (bits - 1))}[kind]
        return ConstantSplat(self.vty, [ConstantInt(ty, value)])

    def combine(self, kind: str, x: Value, y: Value) -> Value:
        b = self.b
        if kind in _BINARY:
            return b.binop(_BINARY[kind], x, y)
        if kind in _INTRINSIC:
            from kernelkit.ir.transforms.packetise import type_suffix

            name = f"llvm.{_INTRINSIC[kind]}.{type_suffix(self.vty)}"
            return self.p._intrinsic(name, self.vty, [x, y], [[], []], b)
        if kind.startswith("logical_"):
            if isinstance(self.ty, T.FloatType):
                raise VectorisationFailure(f"sub-group {kind} of {self.ty}")
            zero = ConstantSimple(self.vty, "zeroinitializer")
            bx, by = b.icmp("ne", x, zero), b.icmp("ne", y, zero)
            r = b.binop(kind[len("logical_"):], bx, by)
            return r if self.ty == T.i1 else b.zext(r, self.vty)
        raise VectorisationFailure(f"sub-group operation {kind!r}")

    def butterfly(self, v: Value, kind: str) -> Value:
        """Every lane holds the combination of all lanes."""
        d = 1
        while d < self.w:
            swapped = self.b.shuffle_vector(v, ConstantSimple(self.vty, "poison"),
                                            _mask([i ^ d for i in range(self.w)]))
            v = self.combine(kind, v, swapped)
            d *= 2
        return v

    def shift(self, v: Value, d: int, fill: Value) -> Value:
        """Lane i gets lane i - d (the fill's lanes below d)."""
        return self.b.shuffle_vector(v, fill, _mask([i - d if i >= d else self.w + i for i in range(self.w)]))

    def scan(self, v: Value, kind: str) -> Value:
        identity = self.identity(kind)
        d = 1
        while d < self.w:
            v = self.combine(kind, v, self.shift(v, d, identity))
            d *= 2
        return v

    def gather(self, v: Value, index: Value) -> Value:
        """Lane i gets element index[i] of vector v."""
        b = self.b
        out: Value = ConstantSimple(self.vty, "poison")
        for i in range(self.w):
            j = b.extract_element(index, ConstantInt(T.i32, i))
            out = b.insert_element(out, b.extract_element(v, j), ConstantInt(T.i32, i))
        return out


__all__ = ["packetise_sub_group_call"]
