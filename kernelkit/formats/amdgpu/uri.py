"""Code object URIs (AMDGPUUsage "Code Object URI"):

    file://<percent-encoded path>[#|?]offset=<n>&size=<n>
    memory://<process id>#offset=<address>&size=<n>

Numbers may be decimal, ``0x`` hexadecimal or ``0`` octal; ``format`` writes decimal.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

from kernelkit.errors import FormatError


@dataclass(frozen=True)
class CodeObjectURI:
    scheme: str             # "file" | "memory"
    path: str = ""          # file path (decoded)
    pid: int | None = None
    offset: int = 0
    size: int = 0           # 0 with a file: to the end of the file

    def format(self) -> str:
        if self.scheme == "memory":
            return f"memory://{self.pid}#offset={self.offset}&size={self.size}"
        quoted = urllib.parse.quote(self.path, safe="/")
        if self.offset == 0 and self.size == 0:
            return f"file://{quoted}"
        return f"file://{quoted}#offset={self.offset}&size={self.size}"

    def read(self) -> bytes:
        """The code object a ``file://`` URI names."""
        if self.scheme != "file":
            raise FormatError("only file:// URIs can be read here", field="scheme")
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            return f.read(self.size) if self.size else f.read()


def _number(text: str, name: str) -> int:
    try:
        if text.lower().startswith("0x"):
            return int(text[2:], 16)
        if len(text) > 1 and text.startswith("0"):
            return int(text[1:], 8)
        return int(text, 10)
    except ValueError as exc:
        raise FormatError(f"{name}={text!r} is not a number", field=name) from exc


def parse_uri(text: str) -> CodeObjectURI:
    scheme, sep, rest = text.partition("://")
    if not sep or scheme not in ("file", "memory"):
        raise FormatError(f"{text!r}: code object URIs start with file:// or memory://", field="scheme")
    cut = min((i for i in (rest.find("#"), rest.find("?")) if i >= 0), default=-1)
    body, query = (rest[:cut], rest[cut + 1:]) if cut >= 0 else (rest, "")
    params: dict[str, int] = {}
    if query:
        for part in query.split("&"):
            key, eq, value = part.partition("=")
            if not eq or key not in ("offset", "size"):
                raise FormatError(f"{text!r}: bad range specifier {part!r} (offset=N&size=N)", field="range")
            if key in params:
                raise FormatError(f"{text!r}: {key} given twice", field=key)
            params[key] = _number(value, key)
        if set(params) != {"offset", "size"}:
            raise FormatError(f"{text!r}: the range specifier needs offset and size", field="range")
    if scheme == "memory":
        if not params:
            raise FormatError(f"{text!r}: memory URIs need #offset=...&size=...", field="range")
        return CodeObjectURI("memory", pid=_number(body, "process_id"), offset=params["offset"],
                             size=params["size"])
    if not body:
        raise FormatError(f"{text!r}: empty file path", field="path")
    return CodeObjectURI("file", path=urllib.parse.unquote(body), offset=params.get("offset", 0),
                         size=params.get("size", 0))
