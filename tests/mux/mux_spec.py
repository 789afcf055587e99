"""Reads facts straight from spec 003's text (the oracle of the mux tests)."""

from __future__ import annotations

import re
from functools import cache

import conftest


@cache
def spec_text() -> str:
    return conftest.spec_text("003")


def section(start: str, end: str) -> str:
    text = spec_text()
    i = text.index(start)
    return text[i:text.index(end, i + len(start))]


def result_codes() -> set[str]:
    return set(re.findall(r"compiler::Result::([A-Z_]+)", spec_text()))


def options_example() -> str:
    """The compilation_options string of the spec's example (C string literals concatenated)."""
    block = section("info_ptr->compilation_options =", "Enumerating")
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block.split(";\n")[0] + ";"))


def builtin_list() -> dict[str, tuple[str, int]]:
    """name -> (return type, parameter count) of every builtin the "Builtins" list declares."""
    block = section("The ComputeMux specification defines the following builtin functions", "Group operation builtins")
    out = {}
    for m in re.finditer(r"(?:•|and)\s+(?P<ret>\S+)\s+(?P<name>__mux_\w+)\((?P<params>.*?)\)(?=\s+(?:-|and)\s)", block):
        params = m.group("params").strip()
        count = 0 if params in ("", "void") else max(len(params.split(",")), params.count("%"))
        out.setdefault(m.group("name"), (m.group("ret"), count))
    return out


def enum_values(enum_name: str) -> dict[str, int]:
    block = section(f"enum {enum_name}", "};")
    return {name: int(value, 0) for name, value in re.findall(r"(\w+)\s*=\s*(0x[0-9A-Fa-f]+|\d+)", block)}


def group_examples() -> list[str]:
    """Every ``@__mux_{sub,work,vec}_group_*`` example signature of "Group operation builtins"."""
    block = section("Group operation builtins", "Memory and Control Barriers")
    return re.findall(r"^\S.*@__mux_\w+\(.*\)$", block, flags=re.M)
