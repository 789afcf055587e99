"""Identifier and string quoting as LLVM's assembly writer does it."""

from __future__ import annotations

import re

_PLAIN_NAME = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*\Z")
_PRINTABLE = frozenset(range(0x20, 0x7F)) - {ord('"'), ord("\\")}


def quote_bytes(data: bytes) -> str:
    """Body of a `"..."` literal: printable ASCII kept, everything else as \\XX."""
    return "".join(chr(b) if b in _PRINTABLE else f"\\{b:02X}" for b in data)


def quote_string(text: str) -> str:
    return quote_bytes(text.encode("utf-8", "surrogateescape"))


def unescape(body: str) -> bytes:
    """Bytes of the body of a `"..."` literal (\\XX hex escapes and \\\\)."""
    if "\\" not in body:
        return body.encode("utf-8")
    out = bytearray()
    raw = body.encode("utf-8")
    i = 0
    while i < len(raw):
        b = raw[i]
        if b == 0x5C and i + 1 < len(raw) and raw[i + 1] == 0x5C:
            out.append(0x5C)
            i += 2
        elif b == 0x5C and _is_hex(raw[i + 1:i + 3]):
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(b)
            i += 1
    return bytes(out)


def _is_hex(pair: bytes) -> bool:
    return len(pair) == 2 and all(c in b"0123456789abcdefABCDEF" for c in pair)


def format_name(sigil: str, name: str) -> str:
    if name.isdigit() or _PLAIN_NAME.match(name):
        return sigil + name
    return f'{sigil}"{quote_string(name)}"'


def format_local_name(name: str) -> str:
    return format_name("%", name)


def format_global_name(name: str) -> str:
    return format_name("@", name)
