"""AMD IL program model: instructions kept as text lines, ``func N``…``endfunc`` functions,
``;ARGSTART``…``;ARGEND`` metadata blocks (typed records), ``;#DATASTART``…``;#DATAEND`` data
segments and ``;DEBUGSTART``…``;DEBUGEND`` debug sections (spec 000). ``parse_program(text)``
builds it; ``Program.to_text()`` reproduces the input byte for byte."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.codec import parse_metadata_line
from kernelkit.formats.amdil.datasegment import (
    DataSegment,
    parse_data_end,
    parse_data_entry,
    parse_data_start,
)

# spec 000 "Multiple Kernel Compilation": the pseudo-instruction the runtime replaces
MULTI_KERNEL_TOKEN = ";" + "$" * 10
_FUNC = re.compile(r"func\s+(\d+)\b(?:\s*;\s*(.*))?")
_KERNEL_NAME = re.compile(r"__OpenCL_(.+)_kernel\Z")


def source_kernel_name(block_name: str) -> str:
    """``__OpenCL_foo_kernel`` -> ``foo`` (the OpenCL C name); other names are returned as is."""
    m = _KERNEL_NAME.match(block_name)
    return m.group(1) if m else block_name


@dataclass
class DebugSection:
    """``;DEBUGSTART`` … ``;DEBUGEND`` (both lines included in ``lines``)."""
    lines: list[str]


@dataclass
class MetadataBlock:
    name: str
    records: list[r.Record] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f";ARGSTART:{self.name}"] + [rec.to_line() for rec in self.records] + \
            [f";ARGEND:{self.name}"]

    def of(self, *types: type) -> list:
        return [rec for rec in self.records if isinstance(rec, types)]

    def first(self, kind: str):
        return next((rec for rec in self.records if rec.kind == kind), None)

    @property
    def source_name(self) -> str:
        return source_kernel_name(self.name)

    @property
    def uniqueid(self) -> int | None:
        rec = self.first("uniqueid")
        return rec.id if rec else None

    @property
    def version(self) -> tuple[int, int, int] | None:
        rec = self.first("version")
        return (rec.major, rec.minor, rec.revision) if rec else None

    @property
    def device(self) -> str | None:
        rec = self.first("device")
        return rec.name if rec else None

    @property
    def is_kernel(self) -> bool:
        """Kernel wrappers carry ``;version`` and ``;device``; plain functions do not."""
        return self.first("version") is not None

    @property
    def arguments(self) -> list:
        return self.of(*r.ARGUMENT_RECORDS)

    def id_list(self, tag: str) -> list[int]:
        return [i for rec in self.records if rec.kind == tag for i in rec.ids]

    @property
    def functions(self) -> list[int]:
        return self.id_list("function")

    @property
    def intrinsics(self) -> list[int]:
        return self.id_list("intrinsic")

    def memory(self) -> dict[str, int | bool]:
        """Summed sizes per memory space plus the flags present (spec: sizes add up)."""
        out: dict[str, int | bool] = {}
        for rec in self.of(r.Memory):
            if rec.size is None:
                out[rec.space] = True
            else:
                out[rec.space] = int(out.get(rec.space, 0)) + rec.size
        return out


@dataclass
class Function:
    """``func ID ; comment`` … ``endfunc``; ``body`` holds the lines between (text or debug)."""
    id: int
    header: str
    body: list[str | DebugSection]
    footer: str

    @property
    def name(self) -> str:
        m = _FUNC.match(self.header)
        return (m.group(2) or "").strip() if m else ""

    def lines(self, with_debug: bool = True) -> list[str]:
        out = [self.header]
        for item in self.body:
            if isinstance(item, DebugSection):
                if with_debug:
                    out += item.lines
            else:
                out.append(item)
        out.append(self.footer)
        return out


Item = str | Function | MetadataBlock | DebugSection | DataSegment


def item_lines(item: Item, with_debug: bool = True) -> list[str]:
    if isinstance(item, str):
        return [item]
    if isinstance(item, Function):
        return item.lines(with_debug)
    if isinstance(item, DebugSection):
        return item.lines if with_debug else []
    return item.lines()


@dataclass
class Program:
    items: list[Item]
    final_newline: bool = True
    newline: str = "\n"

    def to_text(self) -> str:
        lines = [line for item in self.items for line in item_lines(item)]
        text = self.newline.join(lines)
        return text + self.newline if self.final_newline else text

    @property
    def functions(self) -> list[Function]:
        return [i for i in self.items if isinstance(i, Function)]

    @property
    def metadata(self) -> list[MetadataBlock]:
        return [i for i in self.items if isinstance(i, MetadataBlock)]

    @property
    def kernels(self) -> list[MetadataBlock]:
        return [b for b in self.metadata if b.is_kernel]

    @property
    def data_segments(self) -> list[DataSegment]:
        return [i for i in self.items if isinstance(i, DataSegment)]

    @property
    def debug_sections(self) -> list[DebugSection]:
        out = [i for i in self.items if isinstance(i, DebugSection)]
        for f in self.functions:
            out += [b for b in f.body if isinstance(b, DebugSection)]
        return out

    def function(self, fid: int) -> Function | None:
        return next((f for f in self.functions if f.id == fid), None)

    def metadata_for(self, fid: int) -> MetadataBlock | None:
        return next((b for b in self.metadata if b.uniqueid == fid), None)

    def metadata_index(self) -> dict[int, MetadataBlock]:
        """Every block by uniqueid (the first of each, as ``metadata_for`` finds it): one pass, for
        callers that look many ids up."""
        index: dict[int, MetadataBlock] = {}
        for b in self.metadata:
            if b.uniqueid is not None:
                index.setdefault(b.uniqueid, b)
        return index

    def find_kernel(self, name: str) -> MetadataBlock:
        """A kernel by its OpenCL C name or its wrapper name (``__OpenCL_<name>_kernel``)."""
        for block in self.kernels:
            if name in (block.name, block.source_name):
                return block
        known = ", ".join(b.source_name for b in self.kernels) or "none"
        raise FormatError(f"no kernel {name!r} in this program (kernels: {known})",
                          field="ARGSTART")


def _lines(text: str) -> tuple[list[str], bool, str]:
    newline = "\r\n" if "\r\n" in text and text.count("\r\n") == text.count("\n") else "\n"
    lines = text.split(newline)
    final = lines[-1] == ""
    if final:
        lines.pop()
    return lines, final, newline


def _collect_until(lines: list[str], start: int, is_end, what: str, field_name: str) -> int:
    for j in range(start + 1, len(lines)):
        if is_end(lines[j]):
            return j
    raise FormatError(f"{what} opened on line {start + 1} is never closed", line=start + 1,
                      field=field_name)


def parse_metadata_block(lines: list[str], start: int) -> tuple[MetadataBlock, int]:
    """Parse the block whose ``;ARGSTART:`` is ``lines[start]``; returns it and the index of its
    ``;ARGEND:`` line."""
    name = lines[start][len(";ARGSTART:"):]
    end = _collect_until(lines, start, lambda s: s.startswith(";ARGEND:") or
                         s.startswith(";ARGSTART:"), f"metadata block {name!r}", "ARGEND")
    if lines[end] != f";ARGEND:{name}":
        raise FormatError(f"metadata block {name!r} ends with {lines[end]!r}", line=end + 1,
                          field="ARGEND")
    block = MetadataBlock(name, [parse_metadata_line(lines[k], k + 1) for k in range(start + 1, end)])
    return block, end


def _parse_data_segment(lines: list[str], start: int) -> tuple[DataSegment, int]:
    cb, size = parse_data_start(lines[start], start + 1)
    end = _collect_until(lines, start, lambda s: s.startswith(";#DATAEND"), "data segment",
                         "DATAEND")
    entries = [parse_data_entry(lines[k], k + 1) for k in range(start + 1, end)]
    return DataSegment(size, entries, cb, parse_data_end(lines[end], end + 1)), end


def _parse_debug(lines: list[str], start: int) -> tuple[DebugSection, int]:
    end = _collect_until(lines, start, lambda s: s.startswith(";DEBUGEND"), "debug section",
                         "DEBUGEND")
    return DebugSection(lines[start:end + 1]), end


def _parse_function(lines: list[str], start: int) -> tuple[Function, int]:
    m = _FUNC.match(lines[start])
    assert m
    body: list[str | DebugSection] = []
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if line.startswith("endfunc"):
            return Function(int(m.group(1)), lines[start], body, line), i
        if line.startswith(";DEBUGSTART"):
            section, i = _parse_debug(lines, i)
            body.append(section)
        elif _FUNC.match(line):
            break
        else:
            body.append(line)
        i += 1
    raise FormatError(f"function {m.group(1)} opened on line {start + 1} has no endfunc",
                      line=start + 1, field="endfunc")


def iter_items(lines: list[str]) -> Iterator[Item]:
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(";ARGSTART:"):
            item, i = parse_metadata_block(lines, i)
        elif line.startswith(";#DATASTART"):
            item, i = _parse_data_segment(lines, i)
        elif line.startswith(";DEBUGSTART"):
            item, i = _parse_debug(lines, i)
        elif _FUNC.match(line):
            item, i = _parse_function(lines, i)
        elif line.startswith(";ARGEND:"):
            raise FormatError(f"{line!r} without ;ARGSTART", line=i + 1, field="ARGSTART")
        else:
            item = line
        yield item
        i += 1


def parse_program(text: str) -> Program:
    """Parse AMD IL text (a whole program, or any text holding metadata blocks)."""
    lines, final, newline = _lines(text)
    return Program(list(iter_items(lines)), final, newline)
