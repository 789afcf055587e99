"""Tokenizer for LLVM IR text: one regular expression, tokens as parallel lists."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernelkit.errors import FormatError

_NAME = r'[-a-zA-Z$._][-a-zA-Z$._0-9]*'
_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+|;[^\n]*)
  | (?P<local>%(?:""" + _NAME + r"""|\d+|"[^"]*"))
  | (?P<global>@(?:""" + _NAME + r"""|\d+|"[^"]*"))
  | (?P<mdstr>!"[^"]*")
  | (?P<mdnum>!\d+)
  | (?P<mdname>![-a-zA-Z$._\\][-a-zA-Z$._0-9\\]*)
  | (?P<excl>!)
  | (?P<attrgrp>\#\d+)
  | (?P<dbgrec>\#dbg_[a-z_]+)
  | (?P<comdat>\$(?:""" + _NAME + r"""|"[^"]*"))
  | (?P<cstr>c"[^"]*")
  | (?P<str>"[^"]*")
  | (?P<float>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?|[-+]?0x[KLMHR]?[0-9A-Fa-f]+)
  | (?P<hexint>[us]0x[0-9A-Fa-f]+)
  | (?P<int>-?\d+)
  | (?P<ident>[a-zA-Z_][-a-zA-Z0-9_.$]*)
  | (?P<dotlabel>[-$.][-a-zA-Z$._0-9]*:)
  | (?P<punct>\.\.\.|[=,*()\[\]{}<>|:])
  | (?P<bad>.)
    """,
    re.VERBOSE,
)


@dataclass(slots=True)
class Tokens:
    text: str
    kinds: list[str]
    values: list[str]
    starts: list[int]
    ends: list[int]

    def line_of(self, index: int) -> int:
        pos = self.starts[index] if index < len(self.starts) else len(self.text)
        return self.text.count("\n", 0, pos) + 1


def tokenize(text: str) -> Tokens:
    kinds: list[str] = []
    values: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    n = len(text)
    pos = 0
    match = _TOKEN.match
    while pos < n:
        m = match(text, pos)
        kind = m.lastgroup  # type: ignore[union-attr]
        end = m.end()  # type: ignore[union-attr]
        if kind == "ws":
            pos = end
            continue
        if kind == "ident" or kind == "int" or kind == "str":
            if end < n and text[end] == ":":  # `name:` is a label (blocks, DI fields)
                kind = "label"
                end += 1
        elif kind == "punct":
            kind = text[pos:end]
        elif kind == "hexint":
            kind = "int"
        elif kind == "dotlabel":
            kind = "label"
        elif kind == "bad":
            line = text.count("\n", 0, pos) + 1
            raise FormatError(f"unexpected character {text[pos]!r} in LLVM IR", line=line,
                              offset=pos, field="token")
        kinds.append(kind)  # type: ignore[arg-type]
        values.append(text[pos:end])
        starts.append(pos)
        ends.append(end)
        pos = end
    n = len(text)
    kinds.append("eof")
    values.append("")
    starts.append(n)
    ends.append(n)
    return Tokens(text, kinds, values, starts, ends)
