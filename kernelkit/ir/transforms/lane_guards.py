"""Per-lane copies under a mask (`transforms.packetise`): an atomic or a call with side effects in
a linearised divergent region runs once per lane, in lane order, and only for the lanes the
region's mask holds. The packetiser emits the copies in a straight line, each with the i1 of its
lane's mask bit; once the function's control flow is final, `guard_lane_copies` puts each copy in
a block of its own that runs when the bit is set (its result is poison otherwise, which no active
lane reads).
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Function
from kernelkit.ir.transforms.editing import split_block
from kernelkit.ir.values import ConstantSimple, Value


def guard_lane_copies(f: Function, copies: list[tuple[I.Instruction, Value]]) -> None:
    """Run each `(copy, bit)` only when `bit` is true (see the module docstring)."""
    for copy, bit in copies:
        head = copy.parent
        assert head is not None
        run = split_block(copy)
        rest = split_block(run.instructions[run.index_of(copy) + 1])
        head.terminator.erase()  # type: ignore[union-attr]
        IRBuilder().position_at_end(head).cbr(bit, run, rest)
        if copy.uses:
            phi = I.PhiInst(copy.type, "phi", (), "")
            rest.instructions.insert(0, phi)
            phi.parent = rest
            copy.replace_all_uses_with(phi)
            phi.add_incoming(copy, run)
            phi.add_incoming(ConstantSimple(copy.type, "poison"), head)


__all__ = ["guard_lane_copies"]
