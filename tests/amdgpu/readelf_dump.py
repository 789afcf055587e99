"""Parse llvm-readelf dumps (reference/amdgpu/dumps) into plain data: the oracle of the readers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SECTION_RE = re.compile(r"^\s*\[\s*(\d+)\]\s(\S*)\s+(\S+)\s+([0-9a-f]{8,16})\s([0-9a-f]{6})\s([0-9a-f]{6})"
                        r"\s([0-9a-f]{2})\s(.{3})\s*(\d+)\s+(\d+)\s+(\d+)$")
SYMBOL_RE = re.compile(r"^\s*(\d+):\s([0-9a-f]{8,16})\s+(\d+)\s(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s?(.*)$")
RELOC_RE = re.compile(r"^([0-9a-f]{8,16})\s+([0-9a-f]{16})\s(R_\S+)\s+([0-9a-f]{16})?\s*(.*)$")


@dataclass
class Dump:
    header: dict[str, str] = field(default_factory=dict)
    sections: list[tuple] = field(default_factory=list)
    symbols: dict[str, list[tuple]] = field(default_factory=dict)
    relocations: dict[str, list[tuple]] = field(default_factory=dict)
    notes: list[tuple[str, int, str]] = field(default_factory=list)  # owner, size, type text
    note_text: str = ""


def reference_file(dump: Path) -> Path:
    """clang14__saxpy.gfx803.v2.hsaco.readelf.txt -> reference/amdgpu/clang14/saxpy.gfx803.v2.hsaco"""
    rel = dump.name.removesuffix(".readelf.txt").split("__")
    return dump.parent.parent.joinpath(*rel)


def parse_dump(text: str) -> Dump:
    d = Dump()
    mode = "header"
    table = ""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("ELF Header:"):
            mode = "header"
            continue
        if line.startswith("Section Headers:"):
            mode = "sections"
            continue
        m = re.match(r"Symbol table '(\S+)'", line)
        if m:
            mode, table = "symbols", m.group(1)
            d.symbols[table] = []
            continue
        m = re.match(r"Relocation section '(\S+)'", line)
        if m:
            mode, table = "relocs", m.group(1)
            d.relocations[table] = []
            continue
        if line.startswith("Displaying notes"):
            mode = "notes"
            d.note_text = "\n".join(lines[i + 1:])
            continue
        if line.startswith("Program Headers:") or line.startswith("Key to Flags"):
            mode = "other"
            continue
        if mode == "header" and ":" in line:
            key, _, value = line.partition(":")
            d.header[key.strip()] = value.strip()
        elif mode == "sections":
            m = SECTION_RE.match(line)
            if m:
                d.sections.append((int(m.group(1)), m.group(2).strip(), m.group(3), int(m.group(4), 16),
                                   int(m.group(5), 16), int(m.group(6), 16), int(m.group(7), 16),
                                   m.group(8).strip(), int(m.group(9)), int(m.group(10)),
                                   int(m.group(11))))
        elif mode == "symbols":
            m = SYMBOL_RE.match(line)
            if m:
                d.symbols[table].append((int(m.group(1)), int(m.group(2), 16), int(m.group(3)),
                                         m.group(4), m.group(5), m.group(6), m.group(7), m.group(8)))
        elif mode == "relocs":
            m = RELOC_RE.match(line)
            if m:
                d.relocations[table].append((int(m.group(1), 16), int(m.group(2), 16), m.group(3),
                                             m.group(5)))
        elif mode == "notes":
            m = re.match(r"^  (\S+)\s+0x([0-9a-f]{8})\s+(\S+)", line)
            if m:
                d.notes.append((m.group(1), int(m.group(2), 16), m.group(3)))
    return d


def dump_pairs(reference: Path) -> list[tuple[Path, Path]]:
    """(dump, binary) for every readelf dump whose binary is present."""
    dumps = sorted((reference / "amdgpu" / "dumps").glob("*.readelf.txt"))
    return [(d, reference_file(d)) for d in dumps if reference_file(d).exists()]
