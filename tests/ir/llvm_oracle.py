"""llvmlite (LLVM 22.1) as the oracle: parse + verify IR text, count what it contains."""

from __future__ import annotations

import llvmlite.binding as llvm


def verify(text: str) -> llvm.ModuleRef:
    """Parse and verify with LLVM; raises RuntimeError with LLVM's message on failure."""
    module = llvm.parse_assembly(text)
    module.verify()
    return module


def instruction_counts(text: str) -> dict[str, tuple[int, int]]:
    """function name -> (blocks, instructions), as LLVM sees the text."""
    module = verify(text)
    out = {}
    for f in module.functions:
        blocks = list(f.blocks)
        out[f.name] = (len(blocks), sum(len(list(b.instructions)) for b in blocks))
    return out


def global_names(text: str) -> list[str]:
    return sorted(g.name for g in verify(text).global_variables)


def canonical_text(text: str) -> str:
    """The module as LLVM itself prints it (parsed in a fresh context, so named struct types
    keep their names): equal for two texts exactly when LLVM sees the same module."""
    return str(llvm.parse_assembly(text, llvm.create_context()))
