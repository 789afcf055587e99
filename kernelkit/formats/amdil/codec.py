"""Parse one metadata line of an AMD IL ``;ARGSTART:`` block into a typed record (spec 000,
"Compiler Metadata"). Malformed lines raise ``FormatError`` with the line number and field."""

from __future__ import annotations

import re
from collections.abc import Callable

from kernelkit.errors import FormatError
from kernelkit.formats.amdil import records as r

_INT = re.compile(r"(0|-?[1-9][0-9]*)\Z")     # canonical decimal: the line rebuilds as written


class _Fields:
    """The ``:``-separated fields after ``;kind:``, read with line/field-aware errors."""

    def __init__(self, kind: str, parts: list[str], line: int | None):
        self.kind, self.parts, self.line = kind, parts, line

    def fail(self, message: str, name: str) -> FormatError:
        return FormatError(f";{self.kind}: {message}", line=self.line, field=f"{self.kind}.{name}")

    def expect_count(self, *counts: int) -> None:
        if len(self.parts) not in counts:
            want = " or ".join(str(c) for c in counts)
            raise self.fail(f"expected {want} fields, found {len(self.parts)}", "fields")

    def int(self, index: int, name: str) -> int:
        if index >= len(self.parts):
            raise self.fail("missing field", name)
        text = self.parts[index]
        if not _INT.match(text):
            raise self.fail(f"{text!r} is not a decimal integer", name)
        return int(text)

    def str(self, index: int, name: str, choices: tuple[str, ...] | dict | None = None) -> str:
        if index >= len(self.parts):
            raise self.fail("missing field", name)
        text = self.parts[index]
        if choices is not None and text not in choices:
            raise self.fail(f"{text!r} is not one of {', '.join(choices)}", name)
        if not text and choices is None and name == "name":
            raise self.fail("empty name", name)
        return text

    def flag(self, index: int, name: str) -> bool:
        value = self.int(index, name)
        if value not in (0, 1):
            raise self.fail(f"{value} is not 0 or 1", name)
        return bool(value)


# metadata major versions this codec reads (1:4:53 ... 3:1:111 in real output; spec 000
# "Metadata Version Number": a new major version breaks compatibility)
SUPPORTED_MAJOR_VERSIONS = (1, 2, 3)


def _version(f: _Fields) -> r.Version:
    f.expect_count(3)
    major = f.int(0, "major")
    if major not in SUPPORTED_MAJOR_VERSIONS:
        raise f.fail(f"major version {major} is not one of {SUPPORTED_MAJOR_VERSIONS}", "major")
    return r.Version(major, f.int(1, "minor"), f.int(2, "revision"))


def _memory(f: _Fields) -> r.Memory:
    space = f.str(0, "space", r.MEMORY_SPACES + r.MEMORY_FLAGS)
    if space in r.MEMORY_FLAGS:
        f.expect_count(1)
        return r.Memory(space)
    f.expect_count(2)
    return r.Memory(space, f.int(1, "size"))


def _triple(f: _Fields) -> r.GroupSize:
    f.expect_count(3)
    return r.GroupSize(f.kind, f.int(0, "x"), f.int(1, "y"), f.int(2, "z"))


def _value(f: _Fields) -> r.Value:
    f.expect_count(5)
    return r.Value(f.str(0, "name"), f.str(1, "type", r.VALUE_TYPES), f.int(2, "count"),
                   f.int(3, "cb"), f.int(4, "offset"))


def _pointer(f: _Fields) -> r.Pointer:
    f.expect_count(*r.POINTER_FIELD_COUNTS)
    p = r.Pointer(f.str(0, "name"), f.str(1, "type"), f.int(2, "count"), f.int(3, "cb"),
                  f.int(4, "offset"), f.str(5, "memory", r.POINTER_MEMORY_TYPES),
                  f.int(6, "buffer"), f.int(7, "align"))
    if len(f.parts) >= 9:
        p.access = f.str(8, "access", r.POINTER_ACCESS)
    if len(f.parts) == 11:
        p.volatile = f.flag(9, "volatile")
        p.restrict = f.flag(10, "restrict")
    return p


def _image(f: _Fields) -> r.Image:
    f.expect_count(6)
    return r.Image(f.str(0, "name"), f.str(1, "dimension", r.IMAGE_DIMENSIONS),
                   f.str(2, "access", r.IMAGE_ACCESS), f.int(3, "id"), f.int(4, "cb"),
                   f.int(5, "offset"))


def _counter(f: _Fields) -> r.Counter:
    f.expect_count(5)
    bits = f.int(1, "bits")
    if bits not in (32, 64):
        raise f.fail(f"counter size {bits} is not 32 or 64", "bits")
    return r.Counter(f.str(0, "name"), bits, f.int(2, "id"), f.int(3, "cb"), f.int(4, "offset"))


def _sema(f: _Fields) -> r.Sema:
    f.expect_count(4)
    return r.Sema(f.str(0, "name"), f.int(1, "id"), f.int(2, "cb"), f.int(3, "offset"))


def _sampler(f: _Fields) -> r.Sampler:
    f.expect_count(4)
    location = f.int(2, "location")
    if location not in (0, 1):
        raise f.fail(f"location {location} is not 0 or 1", "location")
    return r.Sampler(f.str(0, "name"), f.int(1, "id"), location, f.int(3, "value"))


def _constarg(f: _Fields) -> r.ConstArg:
    f.expect_count(2)
    return r.ConstArg(f.int(0, "index"), f.str(1, "name"))


def _id_list(f: _Fields) -> r.IdList:
    count = f.int(0, "count")
    f.expect_count(count + 1)
    return r.IdList(f.kind, [f.int(i + 1, f"id{i}") for i in range(count)])


def _single(f: _Fields) -> r.ResourceId:
    f.expect_count(1)
    return r.ResourceId(f.kind, f.int(0, "value"))


def _printf(text: str, line: int | None) -> r.PrintfFormat:
    """``ID:NumArgs:Size*:StrLen:Format;`` — the format text may itself contain ``:``."""
    parts = text.split(":")
    f = _Fields("printf_fmt", parts, line)
    pid = f.int(0, "id")
    nargs = f.int(1, "numArgs")
    sizes = [f.int(2 + i, f"argSize{i}") for i in range(nargs)]
    length = f.int(2 + nargs, "strLen")
    rest = ":".join(parts[3 + nargs:])
    if len(parts) < 4 + nargs or not rest.endswith(";"):
        raise f.fail("format string must end with ';'", "fmtStr")
    rec = r.PrintfFormat(pid, sizes, length, rest[:-1])
    if len(rec.format) != length:
        raise f.fail(f"strLen {length} but the format has {len(rec.format)} characters", "strLen")
    return rec


_PARSERS: dict[str, Callable[[_Fields], r.Record]] = {
    "version": _version,
    "device": lambda f: r.Device(":".join(f.parts)),
    "uniqueid": lambda f: (f.expect_count(1), r.UniqueId(f.int(0, "id")))[1],
    "memory": _memory,
    "cws": _triple, "crs": _triple, "wsh": _triple,
    "lws": lambda f: (f.expect_count(1), r.Lws(f.int(0, "size")))[1],
    "value": _value,
    "pointer": _pointer,
    "image": _image,
    "counter": _counter,
    "sema": _sema,
    "sampler": _sampler,
    "constarg": _constarg,
    "function": _id_list,
    "intrinsic": _id_list,
    "uavid": _single, "printfid": _single, "cbid": _single, "privateid": _single,
    "enqueue_kernel": _single, "kernel_index": _single,
    "reflection": lambda f: r.Reflection(f.int(0, "index"), ":".join(f.parts[1:])),
    "error": lambda f: r.Message("error", ":".join(f.parts)),
    "warning": lambda f: r.Message("warning", ":".join(f.parts)),
    "vth": lambda f: r.VecTypeHint(":".join(f.parts)),
}

METADATA_KINDS = tuple(_PARSERS) + ("limitgroupsize", "printf_fmt")


def parse_metadata_line(text: str, line: int | None = None) -> r.Record:
    """Parse one line (``;kind:...``) of a metadata block."""
    if not text.startswith(";"):
        raise FormatError(f"metadata line {text[:40]!r} does not start with ';'", line=line,
                          field="kind")
    body = text[1:]
    if body == "limitgroupsize":
        return r.LimitGroupSize()
    kind, sep, rest = body.partition(":")
    if kind == "printf_fmt":
        return _printf(rest, line)
    parser = _PARSERS.get(kind)
    if parser is None or not sep:
        raise FormatError(f"unknown metadata line {text[:60]!r}", line=line, field="kind")
    return parser(_Fields(kind, rest.split(":"), line))
