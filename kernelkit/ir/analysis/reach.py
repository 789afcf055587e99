"""Reach analysis: which bytes of its buffer arguments a kernel touches, as polynomials in the
work-item ids and the launch's sizes and scalar arguments — so a launch can prove, before running,
that every work-item stays inside the buffers it was given (or say which is too small, by how much).

An access counts when it runs for every work-item — its block post-dominates the kernel's entry —
and its byte offset from a pointer argument (through ``getelementptr`` and casts) is a polynomial
in these launch-time symbols (``Symbol`` names):

    gid<d> lid<d> grp<d>     global id, local id, group id along dimension d (bounded by the launch)
    gsz<d> lsz<d> ngrp<d> goff<d>   global size, local size, number of groups, global offset
    arg<i> / uarg<i>         the integer scalar argument i (signed / zero-extended)

Guarded accesses (``if (i < n) a[i] = ...``) and offsets that depend on loaded data or loop
variables are left out: the launch cannot prove anything about them (checked mode can). Like the
stride analysis, id arithmetic is assumed not to wrap.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.abi.opencl_types import ir_size_align
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.analysis.cfg import CFG
from kernelkit.ir.analysis.dominators import PostDominatorTree
from kernelkit.ir.module import Argument, Function
from kernelkit.ir.values import ConstantInt, Value

# the mux builtins a symbol stands for (mux/builtins names, one dimension argument)
ID_BUILTINS = {
    "__mux_get_global_id": "gid", "__mux_get_local_id": "lid", "__mux_get_group_id": "grp",
    "__mux_get_global_size": "gsz", "__mux_get_local_size": "lsz", "__mux_get_num_groups": "ngrp",
    "__mux_get_global_offset": "goff", "__mux_get_enqueued_local_size": "lsz",
}

Monomial = tuple[str, ...]            # sorted symbol names (a product)
Polynomial = dict[Monomial, int]      # monomial -> coefficient


@dataclass(frozen=True)
class Reach:
    """One access: ``arg`` is read or written at byte offsets ``offset`` .. ``offset + size - 1``."""

    arg: int
    offset: tuple[tuple[int, Monomial], ...]   # (coefficient, monomial) terms
    size: int
    store: bool

    def to_json(self) -> dict:
        return {"arg": self.arg, "offset": [[c, list(m)] for c, m in self.offset], "size": self.size,
                "store": self.store}

    @staticmethod
    def from_json(d: dict) -> Reach:
        return Reach(int(d["arg"]), tuple((int(c), tuple(str(s) for s in m)) for c, m in d["offset"]),
                     int(d["size"]), bool(d["store"]))


def _add(a: Polynomial, b: Polynomial, scale: int = 1) -> Polynomial:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + scale * c
        if out[m] == 0:
            del out[m]
    return out


def _mul(a: Polynomial, b: Polynomial) -> Polynomial:
    out: Polynomial = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb))
            out[m] = out.get(m, 0) + ca * cb
            if out[m] == 0:
                del out[m]
    return out


def _const(v: int) -> Polynomial:
    return {(): v} if v else {}


class _Analysis:
    def __init__(self, f: Function, pointer_size: int):
        self.f = f
        self.pointer_size = pointer_size
        self.params = {id(a): i for i, a in enumerate(f.args)}
        self.memo: dict[int, Polynomial | None] = {}

    def integer(self, v: Value, signed: bool = True) -> Polynomial | None:
        key = id(v) * 2 + signed
        if key not in self.memo:
            self.memo[key] = None     # cycles (phis) are not polynomials
            self.memo[key] = self._integer(v, signed)
        return self.memo[key]

    def _integer(self, v: Value, signed: bool) -> Polynomial | None:
        if isinstance(v, ConstantInt):
            bits = v.type.bits if isinstance(v.type, T.IntType) else 64
            value = v.value & ((1 << bits) - 1)
            if signed and bits > 1 and value >> (bits - 1):
                value -= 1 << bits
            return _const(value)
        if isinstance(v, Argument) and id(v) in self.params and isinstance(v.type, T.IntType):
            return {((("arg" if signed else "uarg") + str(self.params[id(v)])),): 1}
        if isinstance(v, I.CallInst):
            fn = v.called_function
            kind = ID_BUILTINS.get(fn.name if fn is not None else "")
            args = v.args
            if kind and len(args) == 1 and isinstance(args[0], ConstantInt) and 0 <= args[0].value < 3:
                return {(f"{kind}{args[0].value}",): 1}
            return None
        if isinstance(v, I.CastInst):
            if v.opcode == "sext":
                return self.integer(v.operands[0], True)
            if v.opcode == "zext":
                return self.integer(v.operands[0], False)
            if v.opcode == "trunc":
                return self.integer(v.operands[0], signed)
            return None
        if isinstance(v, I.BinaryOp) and len(v.operands) == 2:
            a, b = v.operands
            if v.opcode == "add":
                pa, pb = self.integer(a, signed), self.integer(b, signed)
                return None if pa is None or pb is None else _add(pa, pb)
            if v.opcode == "sub":
                pa, pb = self.integer(a, signed), self.integer(b, signed)
                return None if pa is None or pb is None else _add(pa, pb, -1)
            if v.opcode == "mul":
                pa, pb = self.integer(a, signed), self.integer(b, signed)
                return None if pa is None or pb is None else _mul(pa, pb)
            if v.opcode == "shl" and isinstance(b, ConstantInt) and 0 <= b.value < 63:
                pa = self.integer(a, signed)
                return None if pa is None else _mul(pa, _const(1 << b.value))
            if (v.opcode in ("ashr", "lshr") and isinstance(b, ConstantInt) and isinstance(a, I.BinaryOp)
                    and a.opcode == "shl" and isinstance(a.operands[1], ConstantInt)
                    and a.operands[1].value == b.value):
                return self.integer(a.operands[0], signed)   # sign/zero extension of the low bits
            if v.opcode == "xor" and isinstance(b, ConstantInt) and b.value == -1:   # ~x = -x - 1
                pa = self.integer(a, signed)
                return None if pa is None else _add(_mul(pa, _const(-1)), _const(-1))
            if v.opcode == "or" and "disjoint" in v.flags:
                pa, pb = self.integer(a, signed), self.integer(b, signed)
                return None if pa is None or pb is None else _add(pa, pb)
        return None

    def pointer(self, v: Value) -> tuple[int, Polynomial] | None:
        """(argument index, byte offset) of a pointer derived from a pointer argument."""
        if isinstance(v, Argument) and id(v) in self.params:
            return self.params[id(v)], {}
        if isinstance(v, I.CastInst) and v.opcode in ("bitcast", "addrspacecast"):
            return self.pointer(v.operands[0])
        if isinstance(v, I.GetElementPtrInst):
            base = self.pointer(v.operands[0])
            if base is None:
                return None
            arg, offset = base
            ty = v.source_type
            for n, index in enumerate(v.operands[1:]):
                if n == 0:
                    step = ir_size_align(ty, self.pointer_size)[0]
                elif isinstance(ty, T.ArrayType | T.VectorType):
                    ty = ty.element
                    step = ir_size_align(ty, self.pointer_size)[0]
                elif isinstance(ty, T.LiteralStructType | T.NamedStructType) and isinstance(index, ConstantInt):
                    offset = _add(offset, _const(_field_offset(ty, index.value, self.pointer_size)))
                    ty = ty.elements[index.value]
                    continue
                else:
                    return None
                p = self.integer(index, True)
                if p is None:
                    return None
                offset = _add(offset, _mul(p, _const(step)))
            return arg, offset
        return None


def _field_offset(ty, index: int, pointer_size: int) -> int:
    offset = 0
    for i, member in enumerate(ty.elements):
        size, align = ir_size_align(member, pointer_size)
        align = 1 if ty.packed else align
        offset = (offset + align - 1) // align * align
        if i == index:
            return offset
        offset += size
    raise IndexError(index)


def _multilinear(p: Polynomial) -> bool:
    return all(len(set(m)) == len(m) for m in p)


def kernel_reach(f: Function, pointer_size: int = 8) -> list[Reach]:
    """The accesses of kernel ``f`` through its pointer arguments that every work-item makes."""
    if f.is_declaration:
        return []
    cfg = CFG(f)
    pdt = PostDominatorTree(cfg)
    analysis = _Analysis(f, pointer_size)
    out: list[Reach] = []
    seen = set()
    for block in f.blocks:
        if not pdt.reaches_exit(block) or not pdt.post_dominates(block, f.entry):
            continue
        for inst in block.instructions:
            if isinstance(inst, I.LoadInst):
                ptr, ty, store = inst.pointer, inst.type, False
            elif isinstance(inst, I.StoreInst):
                ptr, ty, store = inst.pointer, inst.value.type, True
            elif isinstance(inst, I.AtomicRMWInst):
                ptr, ty, store = inst.operands[0], inst.operands[1].type, True
            else:
                continue
            found = analysis.pointer(ptr)
            if found is None or not isinstance(f.args[found[0]].type, T.PointerType):
                continue
            arg, offset = found
            if not _multilinear(offset):
                continue
            try:
                size = ir_size_align(ty, pointer_size)[0]
            except ValueError:
                continue
            reach = Reach(arg, tuple(sorted((c, m) for m, c in offset.items())), size, store)
            if reach not in seen:
                seen.add(reach)
                out.append(reach)
    return out
