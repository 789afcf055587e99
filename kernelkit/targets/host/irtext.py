"""Line-level access to LLVM IR text for the host target's late passes.

The host passes run after the mux pipeline on the printed module and before LLVM (llvmlite)
takes over; they need only a few precise edits (a parameter list, a call's argument list, a
block split), which this module provides over clang/llvmlite-printed IR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DEFINE_RE = re.compile(r'^define\b[^@]*@("(?:[^"\\]|\\.)+"|[-\w$.]+)\(')
_DECLARE_RE = re.compile(r'^declare\b[^@]*@("(?:[^"\\]|\\.)+"|[-\w$.]+)\(')


@dataclass
class Function:
    """One ``define``: its header line, body lines (without the closing brace)."""

    name: str
    header: str
    body: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join([self.header, *self.body, "}"])


@dataclass
class ModuleText:
    """A module as: lines before/between functions (kept in order) and function definitions."""

    items: list[str | Function]

    @property
    def functions(self) -> list[Function]:
        return [i for i in self.items if isinstance(i, Function)]

    def function(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None

    def declared(self) -> dict[str, str]:
        """name -> declare line."""
        out = {}
        for i in self.items:
            if isinstance(i, str):
                m = _DECLARE_RE.match(i)
                if m:
                    out[m.group(1)] = i
        return out

    def text(self) -> str:
        return "\n".join(i.text() if isinstance(i, Function) else i for i in self.items) + "\n"


def split_module(text: str) -> ModuleText:
    items: list[str | Function] = []
    current: Function | None = None
    for line in text.splitlines():
        if current is not None:
            if line == "}":
                items.append(current)
                current = None
            else:
                current.body.append(line)
            continue
        m = _DEFINE_RE.match(line)
        if m and line.rstrip().endswith("{"):
            current = Function(m.group(1), line)
        else:
            items.append(line)
    if current is not None:
        raise ValueError(f"unterminated function @{current.name}")
    return ModuleText(items)


def matching_paren(text: str, open_index: int) -> int:
    """Index of the ``)`` closing the ``(`` at ``open_index`` (skips strings)."""
    depth = 0
    i = open_index
    in_str = False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced parentheses in: {text}")


def split_top_level(args: str) -> list[str]:
    """Split a comma-separated IR list at top level."""
    out, depth, start, in_str = [], 0, 0, False
    for i, c in enumerate(args):
        if in_str:
            in_str = c != '"'
            continue
        if c == '"':
            in_str = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(args[start:i].strip())
            start = i + 1
    tail = args[start:].strip()
    if tail:
        out.append(tail)
    return out


def header_params(header: str) -> tuple[int, int]:
    """(start, end) indices of the parameter list inside a define/declare line (exclusive)."""
    m = _DEFINE_RE.match(header) or _DECLARE_RE.match(header)
    if not m:
        raise ValueError(f"not a function header: {header}")
    open_i = m.end() - 1
    return open_i + 1, matching_paren(header, open_i)


def append_call_args(line: str, callees: set[str], extra: str) -> str:
    """Append ``extra`` to the argument list of every call in ``line`` to one of ``callees``."""
    out = line
    pos = 0
    while True:
        m = re.compile(r"@([-\w$.]+)\(").search(out, pos)
        if not m:
            return out
        close = matching_paren(out, m.end() - 1)
        if m.group(1) in callees:
            inner = out[m.end():close].strip()
            sep = ", " if inner else ""
            out = out[:close] + sep + extra + out[close:]
            pos = close + len(sep) + len(extra)
        else:
            pos = m.end()


LABEL_RE = re.compile(r'^("(?:[^"\\]|\\.)+"|[-\w$.]+):')


def block_label(line: str) -> str | None:
    m = LABEL_RE.match(line)
    return m.group(1) if m else None


def next_metadata_id(mod: ModuleText) -> int:
    """One past the highest numbered metadata node of a split module."""
    best = -1
    for item in mod.items:
        if isinstance(item, str):
            m = re.match(r"^!(\d+) = ", item)
            if m:
                best = max(best, int(m.group(1)))
    return best + 1
