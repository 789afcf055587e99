"""Branches on superword conditions (BOSCC) around the masked memory accesses a packetised function
makes in its linearised divergent regions (`transforms.packetise`).

A masked load or store is slow on many CPUs (microcoded `vmaskmov` stores, no store forwarding) and
the packets of a work-group are often all-active or all-inactive in a region (`if (lid < s)` with s
a multiple of W). Each `llvm.masked.load`/`llvm.masked.store` with a mask known only at run time
gets three paths: all lanes active -> a plain vector load/store; no lane active -> nothing (a load
gives its pass-through value); otherwise the masked access. Gathers and scatters get the
no-lane-active skip. The region-level skip (no lane enters a region: its blocks are bypassed) is in
`packetise._linearise`.

`add_superword_branches(f)` edits `f` in place and returns the number of accesses it guarded.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import BasicBlock, Function
from kernelkit.ir.transforms.editing import split_block
from kernelkit.ir.values import Constant, ConstantInt, Value

_LOAD, _STORE = "llvm.masked.load.", "llvm.masked.store."
_GATHER, _SCATTER = "llvm.masked.gather.", "llvm.masked.scatter."


def lanes_bits(mask: Value, b: IRBuilder) -> Value:
    """The <N x i1> `mask` as an iN (lane l is bit l)."""
    return b.bitcast(mask, T.IntType(mask.type.count))  # type: ignore[attr-defined]


def any_lane(mask: Value, b: IRBuilder) -> Value:
    bits = lanes_bits(mask, b)
    return b.icmp("ne", bits, ConstantInt(bits.type, 0))


def _masked_accesses(f: Function) -> list[tuple[I.CallInst, str]]:
    out = []
    for inst in f.instructions():
        fn = inst.called_function if isinstance(inst, I.CallInst) else None
        if fn is None:
            continue
        for kind in (_LOAD, _STORE, _GATHER, _SCATTER):
            if fn.name.startswith(kind):
                mask = inst.args[1 if kind in (_LOAD, _GATHER) else 2]
                if not isinstance(mask, Constant):
                    out.append((inst, kind))
    return out


def add_superword_branches(f: Function) -> int:
    """Guard the masked accesses of `f` (see the module docstring)."""
    accesses = _masked_accesses(f)
    for call, kind in accesses:
        _guard(f, call, kind)
    return len(accesses)


def _guard(f: Function, call: I.CallInst, kind: str) -> None:
    head = call.parent
    assert head is not None
    slow = split_block(call)
    after = slow.instructions[slow.index_of(call) + 1]
    rest = split_block(after)
    head.terminator.erase()  # type: ignore[union-attr]
    b = IRBuilder().position_at_end(head)
    loads = kind in (_LOAD, _GATHER)
    mask = call.args[1 if loads else 2]
    bits = lanes_bits(mask, b)
    anyone = b.icmp("ne", bits, ConstantInt(bits.type, 0))
    fast: BasicBlock | None = None
    fast_value: Value | None = None
    if kind in (_LOAD, _STORE):
        allones = b.icmp("eq", bits, ConstantInt(bits.type, -1))
        check = f.add_block(BasicBlock(""), after=head)
        fast = f.add_block(BasicBlock(""), after=check)
        b.cbr(allones, fast, check)
        fb = IRBuilder().position_at_end(fast)
        align = _align(call.arg_attributes[0 if loads else 1]) or 1
        if loads:
            fast_value = fb.load(call.type, call.args[0], "", align)
        else:
            fb.store(call.args[0], call.args[1], align)
        fb.br(rest)
        b = IRBuilder().position_at_end(check)
        b.cbr(anyone, slow, rest)
        skip_from = check
    else:
        b.cbr(anyone, slow, rest)
        skip_from = head
    if loads and call.uses:
        phi = I.PhiInst(call.type, "phi", (), "")
        rest.instructions.insert(0, phi)
        phi.parent = rest
        call.replace_all_uses_with(phi)
        phi.add_incoming(call, slow)
        phi.add_incoming(call.args[2], skip_from)
        if fast is not None:
            assert fast_value is not None
            phi.add_incoming(fast_value, fast)


def _align(attrs: list) -> int | None:
    for a in attrs:
        if isinstance(a, str) and a.startswith("align "):
            return int(a.split()[1])
    return None


__all__ = ["add_superword_branches", "any_lane", "lanes_bits"]
