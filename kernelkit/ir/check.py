"""Structural self-check of a Module for pass authors: use lists match operands, parent
links are consistent, every block ends in exactly one terminator, phis lead their blocks.
(Type rules and dominance are LLVM's verifier's job: print and verify with llvmlite.)"""

from __future__ import annotations

from kernelkit.ir.instructions import Instruction
from kernelkit.ir.module import Module
from kernelkit.ir.values import User, Value


def _check_user(user: User, where: str, problems: list[str]) -> None:
    for i, op in enumerate(user.operands):
        if not any(u.user is user and u.index == i for u in op.uses):
            problems.append(f"{where}: operand {i} has no matching entry in its use list")


def _check_uses(value: Value, where: str, problems: list[str]) -> None:
    for use in value.uses:
        ops = use.user.operands
        if use.index >= len(ops) or ops[use.index] is not value:
            problems.append(f"{where}: stale use (user {type(use.user).__name__}, index {use.index})")


def check_module(module: Module) -> list[str]:
    """Problems found (empty when the module is consistent)."""
    problems: list[str] = []
    for g in [*module.globals, *module.aliases, *module.functions]:
        _check_user(g, f"@{g.name}", problems)
        _check_uses(g, f"@{g.name}", problems)
    for f in module.functions:
        for a in f.args:
            if a.parent is not f:
                problems.append(f"@{f.name}: argument {a.index} has a wrong parent")
            _check_uses(a, f"@{f.name} arg {a.index}", problems)
        for bi, block in enumerate(f.blocks):
            where = f"@{f.name} block {bi} ({block.name or 'unnamed'})"
            if block.parent is not f:
                problems.append(f"{where}: wrong parent function")
            insts: list[Instruction] = block.instructions
            if not insts or not insts[-1].is_terminator:
                problems.append(f"{where}: does not end in a terminator")
            seen_non_phi = False
            for k, inst in enumerate(insts):
                iw = f"{where} instruction {k} ({inst.opcode})"
                if inst.parent is not block:
                    problems.append(f"{iw}: wrong parent block")
                if inst.is_terminator and k != len(insts) - 1:
                    problems.append(f"{iw}: terminator in the middle of the block")
                if inst.opcode == "phi":
                    if seen_non_phi:
                        problems.append(f"{iw}: phi after a non-phi instruction")
                else:
                    seen_non_phi = True
                _check_user(inst, iw, problems)
                _check_uses(inst, iw, problems)
    return problems
