"""clang's diagnostics: parsed from its text output into (file, line, column, severity, message)."""

from __future__ import annotations

import re

Diagnostic = tuple[str, int, int, str, str]

_LOCATED = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note|remark): "
    r"(?P<msg>.*)$")
_FLAG = re.compile(r" \[-W[^\]]*\]$")
_UNLOCATED = re.compile(r"^(?:(?:clang|zig)(?:-\d+)?: )?(?P<sev>fatal error|error|warning): (?P<msg>.*)$")


def clean_log(log: str) -> str:
    """clang's output with the driver's name shown as clang (zig's binary calls itself zig)."""
    return re.sub(r"^zig: ", "clang: ", log, flags=re.MULTILINE)


def parse_diagnostics(log: str) -> list[Diagnostic]:
    """Every diagnostic line of ``log``; those without a location get file "" and line 0.
    A trailing warning-flag tag (`` [-Wunused]``) is left out of the message."""
    out: list[Diagnostic] = []
    for line in log.splitlines():
        m = _LOCATED.match(line)
        if m:
            out.append((m["file"], int(m["line"]), int(m["col"]), m["sev"], _FLAG.sub("", m["msg"])))
            continue
        m = _UNLOCATED.match(line)
        if m:
            out.append(("", 0, 0, m["sev"], _FLAG.sub("", m["msg"])))
    return out


def first_error(diagnostics: list[Diagnostic]) -> str | None:
    """``file:line:col: error: message`` of the first error, if any."""
    for file, line, col, sev, msg in diagnostics:
        if sev in ("error", "fatal error"):
            return f"{file}:{line}:{col}: {sev}: {msg}" if file else f"{sev}: {msg}"
    return None
