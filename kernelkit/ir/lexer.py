"""Tokenizer for LLVM IR text: one regular expression, tokens as parallel lists.

`findall` splits the whole text in one call into (whitespace-and-comments before, token) pairs;
a token's kind follows from its text (first character, and a trailing ``:`` for labels), so no
Python code runs per character and only a dictionary lookup (or a short function) per token.
Offsets are computed only when something asks for them (verbatim spans, error lines)."""

from __future__ import annotations

import re
from itertools import accumulate, chain

from kernelkit.errors import FormatError

_NAME = r'[-a-zA-Z$._][-a-zA-Z$._0-9]*'
# group 1: the skipped whitespace and `;` comments (atomic: never given back); group 2: one token.
# The alternatives are LLVM's token classes, most frequent first; where two can start with the same
# character they keep this order (`c"` before identifiers, `u0x`/`s0x` integers before identifiers,
# floats before integers, `$name` before `$:`): the first that matches wins. A token `x:`
# (identifier, integer or string) is a label. The empty token at the end (`\Z`) keeps `findall`
# from restarting inside trailing whitespace or a comment.
_TOKEN = re.compile(
    r"""((?>(?:[ \t\r\n]+|;[^\n]*)*))(
      [abd-rtv-zA-Z_][-a-zA-Z0-9_.$]*:?
    | [,=()<>{}\[\]*|]
    | %(?:""" + _NAME + r"""|\d+|"[^"]*")
    | [-+]?\d+\.\d*(?:[eE][-+]?\d+)?|[-+]?0x[KLMHR]?[0-9A-Fa-f]+
    | -?\d+:?
    | !(?:"[^"]*"|\d+|[-a-zA-Z$._\\][-a-zA-Z$._0-9\\]*)?
    | \#(?:\d+|dbg_[a-z_]+)
    | @(?:""" + _NAME + r"""|\d+|"[^"]*")
    | "[^"]*":?
    | c"[^"]*"
    | [us]0x[0-9A-Fa-f]+
    | [cus][-a-zA-Z0-9_.$]*:?
    | \$(?:""" + _NAME + r"""|"[^"]*")
    | [-$.][-a-zA-Z$._0-9]*:
    | \.\.\.|:
    | .
    | \Z
    )""",
    re.VERBOSE,
)
_FLOAT = re.compile(r"[-+]?(?:\d+\.|0x)")
_PUNCT = frozenset("=,*()[]{}<>|:")


def _word(v: str) -> str:
    """An identifier, a label `x:`, `c"..."`, or `u0x..`/`s0x..` (integers)."""
    if v[-1] == ":":
        return "label"
    if v[0] == "c" and v[1:2] == '"':
        return "cstr"
    if v[0] in "us" and v[1:3] == "0x" and len(v) > 3 and _is_hex(v[3:]):
        return "int"
    return "ident"


def _is_hex(s: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in s)


def _number(v: str) -> str:
    """An integer, a float (`1.5e3`, `0x...`) or a label (`12:`, `-foo:`)."""
    if v[-1] == ":":
        return "label"
    if _FLOAT.match(v):
        return "float"
    if v[0] in "-+" and not v[1:2].isdecimal():
        return "bad" if len(v) == 1 else "label"
    return "int"


def _bang(v: str) -> str:
    if len(v) == 1:
        return "excl"
    c = v[1]
    return "mdstr" if c == '"' else "mdnum" if c.isdecimal() else "mdname"


def _hash(v: str) -> str:
    if len(v) == 1:
        return "bad"
    return "attrgrp" if v[1].isdecimal() else "dbgrec"


def _sigil(kind: str):
    return lambda v: kind if len(v) > 1 else "bad"


def _dollar(v: str) -> str:
    if len(v) == 1:
        return "bad"
    return "label" if v[-1] == ":" else "comdat"  # `$:` is a label, `$name` a comdat


def _other(v: str) -> str:
    return _number(v) if v[0].isdecimal() else "bad"  # digits beyond ASCII (as `\\d` matches them)


def _dot(v: str) -> str:
    if v == "...":
        return "..."
    return "label" if len(v) > 1 else "bad"


def _quote(v: str) -> str:
    if len(v) == 1:
        return "bad"
    return "label" if v[-1] == ":" else "str"


# first character -> kind, or a function of the token text for characters that start several kinds
_FIRST: dict[str, object] = {c: c for c in _PUNCT}
_FIRST.update({c: _word for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"})
_FIRST.update({c: _number for c in "0123456789-+"})
_FIRST.update({"%": _sigil("local"), "@": _sigil("global"), "$": _dollar, "!": _bang, "#": _hash,
               ".": _dot, '"': _quote})


def _kind(v: str) -> str:
    k = _FIRST.get(v[0], _other)
    k = k if k.__class__ is str else k(v)  # type: ignore[operator]
    if len(_KINDS) < 1 << 16:
        _KINDS[v] = k
    return k


_KINDS: dict[str, str] = {}  # token text -> kind (IR text repeats its tokens: types, keywords, names)


class Tokens:
    """`kinds[i]`, `values[i]` for every token, then an ``eof`` token; `pairs[i]` is the
    whitespace before token i and the token."""

    __slots__ = ("text", "kinds", "values", "pairs", "_starts", "_ends")

    def __init__(self, text: str, kinds: list[str], values: list[str], pairs: list[tuple[str, str]]) -> None:
        self.text = text
        self.kinds = kinds
        self.values = values
        self.pairs = pairs
        self._starts: list[int] | None = None
        self._ends: list[int] | None = None

    def _offsets(self) -> None:
        ends = list(accumulate(map(len, chain.from_iterable(self.pairs))))
        n = len(self.text)
        self._starts = [*ends[0::2], n]
        self._ends = [*ends[1::2], n]

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._offsets()
        return self._starts  # type: ignore[return-value]

    @property
    def ends(self) -> list[int]:
        if self._ends is None:
            self._offsets()
        return self._ends  # type: ignore[return-value]

    def between(self, start: int, end: int) -> str:
        """Verbatim text of tokens [start, end) (the whitespace between them included)."""
        if end - start == 1:
            return self.values[start]
        pairs = self.pairs
        return self.values[start] + "".join([w + t for w, t in pairs[start + 1:end]])

    def line_of(self, index: int) -> int:
        pos = self.starts[index] if index < len(self.starts) else len(self.text)
        return self.text.count("\n", 0, pos) + 1


def tokenize(text: str) -> Tokens:
    pairs = _TOKEN.findall(text)
    while pairs and not pairs[-1][1]:
        pairs.pop()
    values = [t for _, t in pairs]
    known = _KINDS.get
    kinds = [known(v) or _kind(v) for v in values]
    if "bad" in kinds:
        i = kinds.index("bad")
        tokens = Tokens(text, kinds, values, pairs)
        pos = tokens.starts[i]
        raise FormatError(f"unexpected character {text[pos]!r} in LLVM IR", line=text.count("\n", 0, pos) + 1,
                          offset=pos, field="token")
    kinds.append("eof")
    values.append("")
    return Tokens(text, kinds, values, pairs)
