"""Source positions for ``-g`` vISA: vISA's own debug instructions, ``FILE "name"`` (the source file
of what follows) and ``LOC line`` (its line), from each instruction's ``!dbg`` DILocation (the
outermost call site when inlined). GenX_IR accepts them and, with ``-generateDebugInfo``, writes its
``.dbg`` map (vISA instruction -> Gen offset, variable -> register); it has no line table of its own
(IGC builds DWARF from LLVM's metadata on top of that map)."""

from __future__ import annotations

from kernelkit.ir.metadata import MDNode


def _text(value) -> str:
    return value.strip('"') if isinstance(value, str) else ""


def _file_of(scope) -> str:
    seen = 0
    while isinstance(scope, MDNode) and seen < 64:
        if scope.kind == "DIFile":
            return _text(scope.field("filename"))
        names = [k for k, _v in scope.fields]
        scope = scope.field("file") if "file" in names else scope.field("scope") if "scope" in names else None
        seen += 1
    return ""


def source_position(inst) -> tuple[str, int] | None:
    """(file name, line) of ``inst``'s debug location: the innermost one in the kernel's own file
    (inlined OpenCL functions keep their lines, inlined builtin-library code takes its call site's);
    None without one (or at line 0)."""
    chain = []
    loc = (getattr(inst, "metadata", None) or {}).get("dbg")
    while isinstance(loc, MDNode) and loc.kind == "DILocation" and len(chain) < 64:
        chain.append(loc)
        names = [k for k, _v in loc.fields]
        loc = loc.field("inlinedAt") if "inlinedAt" in names else None
    if not chain:
        return None
    own = _file_of(chain[-1].field("scope"))
    for loc in chain:
        line = int(loc.field("line") or 0)
        if line and _file_of(loc.field("scope")) == own:
            return own, line
    return None
