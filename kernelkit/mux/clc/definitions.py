"""The function definitions of a library's IR text, found by kernelkit.ir, for taking subsets.

``DefinitionIndex.of(text)`` parses the text with kernelkit.ir once and keeps, per function
definition, its name, its character range in the text and the definitions its body refers to
(operands of its instructions, through constant expressions), plus the definitions the module's
globals refer to. A subset keeps what is reachable and drops the other definitions' ranges.

The ranges are byte ranges of the library text, validated by the model: they are where the
parser found each definition (from ``define`` to its closing ``}``), widened to the
``; Function Attrs`` comment line LLVM writes above a definition and the blank line after it.
Nothing is parsed or printed per subset. Parsing the 13 MB SPIR library takes ~7 s, so the index
of a large text is cached on disk beside the library builds (the ``clc`` namespace, keyed by the
text's digest) and in the process."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import msgpack

FORMAT = 1            # bump when the index's contents change
_DISK_MIN_SIZE = 1 << 20  # texts at least this large keep their index on disk
_ATTRS_COMMENT = "; Function Attrs"


@dataclass(frozen=True)
class DefinitionIndex:
    names: tuple[str, ...]                 # definitions in text order
    spans: tuple[tuple[int, int], ...]     # [start, end) of each in the text
    refers: tuple[tuple[int, ...], ...]    # the definitions each body refers to (indexes into names)
    global_refers: tuple[int, ...]         # the definitions global initialisers refer to

    @classmethod
    def of(cls, text: str) -> DefinitionIndex:
        """The index of ``text`` (from the process memo, the disk cache, or a parse)."""
        known = _MEMO.get(id(text))
        if known is not None and known[0] is text:
            return known[1]
        index = _cached(text) if len(text) >= _DISK_MIN_SIZE else build_index(text)
        if len(_MEMO) >= 4:
            _MEMO.clear()
        _MEMO[id(text)] = (text, index)
        return index

    def reachable(self, roots: Sequence[str]) -> set[int]:
        """Indexes of the definitions reachable from the named roots and from the globals."""
        position = {name: i for i, name in enumerate(self.names)}
        todo = [*self.global_refers, *(position[r] for r in roots if r in position)]
        keep: set[int] = set()
        while todo:
            i = todo.pop()
            if i not in keep:
                keep.add(i)
                todo.extend(j for j in self.refers[i] if j not in keep)
        return keep

    def subset(self, text: str, roots: Sequence[str]) -> str:
        """``text`` without the definitions not reachable from ``roots``."""
        keep = self.reachable(roots)
        pieces, pos = [], 0
        for i, (start, end) in enumerate(self.spans):
            if i not in keep:
                pieces.append(text[pos:start])
                pos = end
        pieces.append(text[pos:])
        return "".join(pieces)


_MEMO: dict[int, tuple[str, DefinitionIndex]] = {}


def build_index(text: str) -> DefinitionIndex:
    """Parse ``text`` with kernelkit.ir and index its function definitions."""
    from kernelkit.ir.parser import parse_with_spans

    module, found = parse_with_spans(text)
    position = {id(f): i for i, (f, _, _) in enumerate(found)}
    spans = tuple(_widened(text, start, end) for _, start, end in found)
    refers = tuple(tuple(sorted(_referred(f.instructions(), position))) for f, _, _ in found)
    global_refers = tuple(sorted(_referred(module.globals, position)))
    return DefinitionIndex(tuple(f.name for f, _, _ in found), spans, refers, global_refers)


def _widened(text: str, start: int, end: int) -> tuple[int, int]:
    """A definition's range with LLVM's comment line above it and the newline and blank line after it."""
    if text.startswith("\n", end):
        end += 1
    if text.startswith("\n", end):
        end += 1
    line = text.rfind("\n", 0, start - 1) + 1
    if text.startswith(_ATTRS_COMMENT, line):
        start = line
    return start, end


def _referred(users, position: dict[int, int]) -> set[int]:
    """Indexes of the definitions the users' operands name, directly or inside constants."""
    from kernelkit.ir.analysis.references import referenced_globals

    operands = (op for user in users for op in user.operands)
    return {i for g in referenced_globals(operands) if (i := position.get(id(g))) is not None}


def _cached(text: str) -> DefinitionIndex:
    from kernelkit.cache import Cache

    store = Cache("clc", library=True)
    key = "definitions-" + hashlib.sha256(f"{FORMAT}\0{text}".encode()).hexdigest()[:24]
    payload = store.get(key)
    if payload is not None:
        try:
            names, spans, refers, global_refers = msgpack.unpackb(payload)
            return DefinitionIndex(tuple(names), tuple(map(tuple, spans)), tuple(map(tuple, refers)),
                                   tuple(global_refers))
        except (ValueError, TypeError, msgpack.UnpackException):
            pass
    index = build_index(text)
    store.put(key, msgpack.packb([index.names, index.spans, index.refers, index.global_refers]))
    return index
