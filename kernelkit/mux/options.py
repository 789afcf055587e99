"""Syntax of ``Info.compilation_options`` (spec 003 "Compilation Options Syntax")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernelkit.mux.result import MuxError, Result

# spec 003 "Compilation Options Syntax": the four rules, numbered as in the spec.
SYNTAX_RULES: dict[int, str] = {
    1: "argument name in the first tuple entry must start with a double hyphen and not contain whitespace characters",
    2: "the second element must be a '1' or a '0' denoting if a value needs to be provided for the option",
    3: "the final tuple entry is a help message; all help whitespace must only be ' ' characters",
    4: "if multiple options are reported then each tuple must be separated by a semi-colon",
}

# A tuple that starts again inside a help message: ",--name,1," or ",--name,0,".
_RUN_ON_TUPLE = re.compile(r",\s*--\S+,[01],")


@dataclass(frozen=True)
class CompilationOption:
    name: str
    takes_value: bool
    help: str


def _broken(rule: int, detail: str) -> MuxError:
    return MuxError(Result.INVALID_VALUE, f"compilation options break rule {rule} ({SYNTAX_RULES[rule]}): {detail}")


def _parse_tuple(text: str) -> CompilationOption:
    if not text:
        raise _broken(4, "empty tuple between semi-colons")
    fields = text.split(",", 2)
    name = fields[0]
    if not name.startswith("--") or len(name) == 2 or any(c.isspace() for c in name):
        raise _broken(1, f"name {name!r}")
    if len(fields) < 2 or fields[1] not in ("0", "1"):
        got = fields[1] if len(fields) > 1 else "nothing"
        raise _broken(2, f"option {name!r} has {got!r}")
    if len(fields) < 3 or not fields[2].strip():
        raise _broken(3, f"option {name!r} has no help message")
    help_text = fields[2]
    if _RUN_ON_TUPLE.search("," + help_text):
        raise _broken(4, f"option {name!r} runs into the next option without a ';'")
    bad = sorted({c for c in help_text if c.isspace() and c != " "})
    if bad:
        raise _broken(3, f"option {name!r} help contains {', '.join(repr(c) for c in bad)}")
    return CompilationOption(name, fields[1] == "1", help_text)


def parse_compilation_options(text: str) -> list[CompilationOption]:
    """The options a compilation_options string reports; raises ``MuxError(INVALID_VALUE)``."""
    if text == "":
        return []
    return [_parse_tuple(part) for part in text.split(";")]


def validate_compilation_options(text: str) -> None:
    parse_compilation_options(text)


def check_device_options(reported: str, given: list[str]) -> list[tuple[str, str | None]]:
    """Match command-line options against the ones a device reports: ``[(name, value-or-None)]``.

    ``given`` is a list of ``--name`` or ``--name=value`` / ``--name value`` items.
    """
    known = {opt.name: opt for opt in parse_compilation_options(reported)}
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(given):
        item = given[i]
        name, eq, value = item.partition("=")
        opt = known.get(name)
        if opt is None:
            raise MuxError(Result.INVALID_BUILD_OPTIONS, f"unknown device option {name!r}")
        if opt.takes_value and not eq:
            if i + 1 >= len(given):
                raise MuxError(Result.INVALID_BUILD_OPTIONS, f"device option {name!r} needs a value")
            i += 1
            value = given[i]
        elif not opt.takes_value and eq:
            raise MuxError(Result.INVALID_BUILD_OPTIONS, f"device option {name!r} takes no value")
        out.append((name, value if opt.takes_value else None))
        i += 1
    return out
