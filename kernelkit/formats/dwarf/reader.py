"""The debug information of an AMDGPU code object: units with their DIE trees (attributes decoded,
spec 001's DW_AT_LLVM_* attributes named, expressions decoded with AMDGPU registers), line tables,
call frame information, and per kernel: its line rows, functions and variables with locations.

Plain DWARF 4/5 (.debug_info, .debug_line, .debug_frame, .debug_loclists, .debug_str_offsets,
.debug_addr) is read by pyelftools; the AMDGPU extensions come from ``tables``.
"""

from __future__ import annotations

import struct
from io import BytesIO

from elftools.common.exceptions import DWARFError, ELFError
from elftools.construct.core import ConstructError
from elftools.dwarf.enums import ENUM_DW_AT
from elftools.dwarf.locationlists import BaseAddressEntry, LocationEntry, LocationExpr
from elftools.elf.elffile import ELFFile

from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu.tables import ADDRESS_SPACES as LLVM_ADDRESS_SPACES
from kernelkit.formats.dwarf.expr import ExpressionDecoder
from kernelkit.formats.dwarf.frames import read_frames
from kernelkit.formats.dwarf.line_header import check_line_program_header
from kernelkit.formats.dwarf.sections import location_list_tables, string_offsets
from kernelkit.formats.dwarf.tables import ADDRESS_SPACES as DWARF_ADDRESS_SPACES
from kernelkit.formats.dwarf.tables import (
    LLVM_ATTRIBUTES,
    LLVM_EXPRESSION_ATTRIBUTES,
    MEMORY_SPACES,
)

ENUM_DW_AT_NAMES = {code: name for name, code in ENUM_DW_AT.items()}
# pyelftools' own names of LLVM's attribute codes where they differ from LLVM's (0x3e02: DW_AT_LLVM_isysroot)
_RENAMED = {ENUM_DW_AT_NAMES[code]: name for code, name in LLVM_ATTRIBUTES.items()
            if ENUM_DW_AT_NAMES.get(code, name) != name}
DW_LNS_NEGATE_STMT = 6            # DWARF 5 6.2.5.2 standard opcode
_ADDRESS_CLASS_NAMES = {v: k for k, v in LLVM_ADDRESS_SPACES.items()}
_EXPRESSION_ATTRIBUTES = {"DW_AT_location", "DW_AT_frame_base", "DW_AT_data_member_location",
                          "DW_AT_use_location", "DW_AT_vtable_elem_location"} | LLVM_EXPRESSION_ATTRIBUTES
_LOCATION_LIST_FORMS = {"DW_FORM_sec_offset", "DW_FORM_loclistx", "DW_FORM_data4", "DW_FORM_data8"}
_REFERENCE_FORMS = {"DW_FORM_ref1", "DW_FORM_ref2", "DW_FORM_ref4", "DW_FORM_ref8", "DW_FORM_ref_udata",
                    "DW_FORM_ref_addr"}


def has_debug_info(data: bytes) -> bool:
    try:
        return ELFFile(BytesIO(data)).has_dwarf_info()
    except (ELFError, DWARFError, ValueError):
        return False


class _UnitReader:
    def __init__(self, dwarf, cu, wave_size: int | None):
        self.dwarf, self.cu = dwarf, cu
        self.exprs = ExpressionDecoder(cu.structs, wave_size)
        self.locations = dwarf.location_lists()

    def die(self, die) -> dict:
        attrs = {}
        for key, attr in die.attributes.items():
            name = LLVM_ATTRIBUTES.get(key, key) if isinstance(key, int) else _RENAMED.get(key, key)
            attrs[name] = self.value(name, attr, die)
        out = {"offset": die.offset, "tag": die.tag, "attributes": attrs}
        children = [self.die(child) for child in die.iter_children()]
        if children:
            out["children"] = children
        return out

    def value(self, name: str, attr, die):
        form, value = attr.form, attr.value
        # an exprloc is an expression whatever the attribute (llvm-dwarfdump decodes every one)
        if form == "DW_FORM_exprloc" or (name in _EXPRESSION_ATTRIBUTES and form.startswith("DW_FORM_block")):
            return {"expression": [op.text() for op in self.exprs.decode(value)]}
        if name in _EXPRESSION_ATTRIBUTES and form in _LOCATION_LIST_FORMS:
            return {"location_list": self.location_list(attr, die)}
        if form in _REFERENCE_FORMS:
            return {"ref": value + (0 if form == "DW_FORM_ref_addr" else self.cu.cu_offset)}
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        if name == "DW_AT_address_class":
            return {"value": value, "address_space": _ADDRESS_CLASS_NAMES.get(value)}
        if name == "DW_AT_LLVM_address_space":
            return {"value": value, "dwarf_address_space": DWARF_ADDRESS_SPACES.get(value, (None,))[0]}
        if name == "DW_AT_LLVM_memory_space":
            return {"value": value, "memory_space": MEMORY_SPACES.get(value)}
        if name == "DW_AT_high_pc" and form != "DW_FORM_addr":
            return {"offset_from_low_pc": value}
        if isinstance(value, list):
            return value
        return value

    def location_list(self, attr, die) -> list[dict]:
        entries = self.locations.get_location_list_at_offset(attr.value, die) \
            if attr.form == "DW_FORM_loclistx" else self.locations.get_location_list_at_offset(attr.value)
        out = []
        base = self.cu.get_top_DIE().attributes.get("DW_AT_low_pc")
        base_pc = base.value if base is not None else 0
        for entry in entries:
            if isinstance(entry, BaseAddressEntry):
                base_pc = entry.base_address
            elif isinstance(entry, LocationEntry):
                low, high = entry.begin_offset, entry.end_offset
                if not entry.is_absolute:
                    low, high = low + base_pc, high + base_pc
                out.append({"low_pc": low, "high_pc": high,
                            "expression": [op.text() for op in self.exprs.decode(entry.loc_expr)]})
            elif isinstance(entry, LocationExpr):
                out.append({"expression": [op.text() for op in self.exprs.decode(entry.loc_expr)]})
        return out

    def lines(self) -> list[dict]:
        stmt_list = self.cu.get_top_DIE().attributes.get("DW_AT_stmt_list")
        section = self.dwarf.debug_line_sec
        if stmt_list is not None and section is not None and isinstance(stmt_list.value, int):
            section.stream.seek(0)
            check_line_program_header(section.stream.read(), stmt_list.value)
        program = self.dwarf.line_program_for_CU(self.cu)
        if program is None:
            return []
        files = [_file_path(program.header, f) for f in program.header.file_entry]
        first = 0 if program.header.version >= 5 else 1
        rows = []
        # pyelftools clears is_stmt on DW_LNE_end_sequence; DWARF 5 6.2.5.3 leaves it as it was
        # (llvm-dwarfdump too), so it is tracked here: DW_LNS_negate_stmt flips it, a sequence's end resets it.
        default = bool(program.header.default_is_stmt)
        is_stmt = default
        for entry in program.get_entries():
            if entry.command == DW_LNS_NEGATE_STMT and entry.is_extended is False:
                is_stmt = not is_stmt
            state = entry.state
            if state is None:
                continue
            index = state.file - first
            file = files[index] if 0 <= index < len(files) else None
            rows.append({"address": state.address, "line": state.line, "column": state.column, "file": file,
                         "is_stmt": is_stmt if state.end_sequence else bool(state.is_stmt),
                         "end_sequence": bool(state.end_sequence)})
            if state.end_sequence:
                is_stmt = default
        return rows


def _file_path(header, entry) -> str:
    """A line table file entry joined to its include directory (DWARF 5 numbers both from 0)."""
    name = entry.name.decode("utf-8", "replace")
    dirs = header.include_directory
    index = entry.dir_index if header.version >= 5 else entry.dir_index - 1
    if name.startswith("/") or not 0 <= index < len(dirs):
        return name
    return f"{dirs[index].decode('utf-8', 'replace').rstrip('/')}/{name}"


def read_debug_info(data: bytes, wave_size: int | None = None) -> dict:
    """Every unit's DIE tree and line rows, and the call frame information, as JSON-ready data."""
    try:
        elf = ELFFile(BytesIO(data))
        if not elf.has_dwarf_info():
            raise FormatError("no DWARF debug information (.debug_info); build with -g", field=".debug_info")
        dwarf = elf.get_dwarf_info(relocate_dwarf_sections=False)
        units, loclists = [], []
        for cu in dwarf.iter_CUs():
            reader = _UnitReader(dwarf, cu, wave_size)
            top = cu.get_top_DIE()
            unit = {"offset": cu.cu_offset, "version": cu.header.version,
                    "address_size": cu.header.address_size, "die": reader.die(top), "lines": reader.lines()}
            base = top.attributes.get("DW_AT_str_offsets_base")
            if base is not None and isinstance(base.value, int):
                unit["str_offsets"] = string_offsets(dwarf, base.value)
            units.append(unit)
            if not loclists and dwarf.debug_loclists_sec is not None:
                loclists = location_list_tables(dwarf, reader.exprs)
        return {"units": units, "frames": read_frames(dwarf, wave_size), "loclists": loclists,
                "wave_size": wave_size}
    except FormatError:
        raise
    except (ELFError, DWARFError, KeyError, IndexError, ValueError, AttributeError, TypeError,
            AssertionError, ArithmeticError, NotImplementedError, ConstructError, struct.error,
            RecursionError) as exc:
        # pyelftools checks its input with assert and lets construct/struct errors through
        raise FormatError(f"unreadable DWARF: {type(exc).__name__}: {exc}", field=".debug_info") from None


def _walk(die: dict):
    yield die
    for child in die.get("children", []):
        yield from _walk(child)


def functions(debug: dict, entries: dict[str, int]) -> list[dict]:
    """Every subprogram with code: its pc range, frame base, parameters and variables with their
    locations, the line rows inside its range, and the kernel it is the entry of (``entries``:
    kernel name -> entry address, from the symbol table)."""
    kernel_at = {address: name for name, address in entries.items()}
    by_offset = {die["offset"]: die for unit in debug["units"] for die in _walk(unit["die"])}

    def attribute(die: dict, name: str):
        """An attribute of the DIE or of its abstract origin (inlined and out-of-line instances)."""
        while die is not None:
            if name in die["attributes"]:
                return die["attributes"][name]
            origin = die["attributes"].get("DW_AT_abstract_origin") or die["attributes"].get("DW_AT_specification")
            die = by_offset.get(origin["ref"]) if isinstance(origin, dict) else None
        return None

    out = []
    for unit in debug["units"]:
        for die in _walk(unit["die"]):
            attrs = die["attributes"]
            if die["tag"] != "DW_TAG_subprogram" or "DW_AT_low_pc" not in attrs:
                continue
            low = attrs["DW_AT_low_pc"]
            high = attrs.get("DW_AT_high_pc")
            if isinstance(high, dict):
                if not isinstance(low, int) or not isinstance(high.get("offset_from_low_pc"), int):
                    raise FormatError(f"DW_AT_low_pc {low!r} / DW_AT_high_pc {high!r} are not addresses",
                                      field="DW_AT_high_pc")
                high = low + high["offset_from_low_pc"]
            if not isinstance(low, int) or not isinstance(high, int | None):
                raise FormatError(f"subprogram at 0x{die['offset']:x}: DW_AT_low_pc {low!r} / DW_AT_high_pc "
                                  f"{high!r} are not addresses", offset=die["offset"], field="DW_AT_high_pc")
            variables = [{"tag": c["tag"].removeprefix("DW_TAG_"), "name": attribute(c, "DW_AT_name"),
                          "line": attribute(c, "DW_AT_decl_line"), "location": c["attributes"].get("DW_AT_location")}
                         for c in _walk(die) if c["tag"] in ("DW_TAG_formal_parameter", "DW_TAG_variable")]
            out.append({"name": attribute(die, "DW_AT_name"), "linkage_name": attribute(die, "DW_AT_linkage_name"),
                        "kernel": kernel_at.get(low), "low_pc": low, "high_pc": high,
                        "frame_base": attrs.get("DW_AT_frame_base"), "variables": variables,
                        "lines": [row for row in unit["lines"] if low <= row["address"] < (high or low + 1)]})
    return out
