"""``-g`` for AMD IL: the ``;DEBUGSTART`` … ``;DEBUGEND`` sections laid out as in the driver's
debug programs (reference/amdil/hlc-juniper ``*.unlinked.il``), which carry DWARF 2 written as
assembler text inside IL comments:

- before the first kernel: the section list, ``.text``/``.data`` and the kernel's symbol with its
  ``;.func_begin<i>:`` and first ``;.tmp<n>:`` label;
- between kernels: ``;.func_end<i>:`` of the previous one, the next one's symbol and labels;
- at the end: ``;.func_end``, the text/data/section end labels, then ``.debug_info`` (a compile
  unit, one subprogram per kernel with its formal parameters, their types: ``debugtypes.py``), ``.debug_abbrev``, ``.debug_line`` (one row per
  ``;.tmp<n>:`` label the bodies carry where the source line changes), ``.debug_pubnames``,
  ``.debug_pubtypes`` and the empty sections.

Bodies mark each instruction with ``; file:line:column`` and each change of source line with a
``;.tmp<n>:`` label (``KernelSelector.source_position``). The runtime's link step strips the
sections. Line-program constants are the driver's (line base -10, line range 245, opcode base
10, DWARF version 2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from elftools.dwarf.enums import ENUM_DW_AT, ENUM_DW_FORM, ENUM_DW_TAG

from kernelkit.targets.amdil.debugtypes import (
    POINTER_SIZE,
    BaseType,
    DebugType,
    Parameter,
    PointerType,
    Typedef,
    type_closure,
)

PRODUCER = "kernelkit"
DW_LANG_C89 = 1                     # what the driver's compile units say
LINE_BASE, LINE_RANGE, OPCODE_BASE = -10, 245, 10
STANDARD_OPCODE_ARGS = (("DW_LNS_copy", 0), ("DW_LNS_advance_pc", 1), ("DW_LNS_advance_line", 1),
                        ("DW_LNS_set_file", 1), ("DW_LNS_set_column", 1), ("DW_LNS_negate_stmt", 0),
                        ("DW_LNS_set_basic_block", 0), ("DW_LNS_const_add_pc", 0),
                        ("DW_LNS_fixed_advance_pc", 1))
SECTIONS = (".debug_info", ".debug_abbrev", ".debug_aranges", ".debug_macinfo", ".debug_line",
            ".debug_loc", ".debug_pubnames", ".debug_pubtypes", ".debug_str", ".debug_ranges")
# the labels the driver puts at the start of some sections
SECTION_LABELS = {".debug_info": "section_info", ".debug_abbrev": "section_abbrev",
                  ".debug_str": "section_str", ".debug_ranges": "debug_range"}
COMMENT_COLUMN = 40


def asm(directive: str, value: object = None, comment: str | None = None) -> str:
    """One directive as the driver's printer writes it: comments from column 40 (tabs as 8)."""
    text = directive if value is None else f"{directive}\t{value}"
    if comment is None:
        return text
    width = len(text.expandtabs(8))
    return text + " " * max(1, COMMENT_COLUMN - width) + "; " + comment


def _label(name: str) -> str:
    return f";.{name}:"


@dataclass
class Kernel:
    symbol: str
    line: int
    begin: int          # index of its func_begin label
    params: list[Parameter] = field(default_factory=list)


@dataclass
class DebugProgram:
    """Debug state of one program: labels are numbered across all its kernels."""
    file: str
    directory: str
    kernels: list[Kernel] = field(default_factory=list)
    rows: list[tuple[int, int]] = field(default_factory=list)    # (tmp label, source line)
    next_tmp: int = 0

    def tmp(self, line: int) -> str:
        n = self.next_tmp
        self.next_tmp += 1
        self.rows.append((n, line))
        return f";.tmp{n}:"

    def kernel_start(self, symbol: str, line: int, params: list[Parameter] = ()) -> list[str]:
        """The section in front of a kernel's wrapper."""
        index = len(self.kernels)
        self.kernels.append(Kernel(symbol, line, index, list(params)))
        out = [";DEBUGSTART"]
        if index == 0:
            for name in SECTIONS:
                out.append(f"\t.section\t{name}")
                if name in SECTION_LABELS:
                    out.append(_label(SECTION_LABELS[name]))
            out += ["\t.text", _label("text_begin"), "\t.data", "\t.text"]
        else:
            out += [_label(f"func_end{index - 1}"), ""]
        out += [f".global@{symbol}", asm(_label(f"func_begin{index}"), None, f"@{symbol}"),
                self.tmp(line), ";DEBUGEND"]
        return out

    def closing(self) -> list[str]:
        out = [";DEBUGSTART", _label(f"func_end{len(self.kernels) - 1}"), "",
               _label("text_end"), "\t.data", _label("data_end"), "\t.text",
               _label("section_end1")]
        info, offsets = self._info()
        out += ["\t.section\t.debug_info", _label("info_begin1")] + info + [_label("info_end1")]
        out += ["\t.section\t.debug_abbrev", _label("abbrev_begin")] + self._abbrev() + \
            [_label("abbrev_end")]
        out += ["\t.section\t.debug_line"] + self._lines()
        out += ["\t.section\t.debug_pubnames",
                asm(".long", ";.pubnames_end1-;.pubnames_begin1", "Length of Public Names Info"),
                _label("pubnames_begin1")] + self._unit_header()
        for k, off in zip(self.kernels, offsets, strict=True):
            out += [asm(".long", off, "DIE offset"),
                    asm(".asciz", f' "{k.symbol}"', "External Name")]
        out += [asm(".long", 0, "End Mark"), _label("pubnames_end1")]
        out += ["\t.section\t.debug_pubtypes",
                asm(".long", ";.pubtypes_end1-;.pubtypes_begin1", "Length of Public Types Info"),
                _label("pubtypes_begin1")] + self._unit_header() + \
            [asm(".long", 0, "End Mark"), _label("pubtypes_end1")]
        out += [f"\t.section\t{s}" for s in (".debug_loc", ".debug_aranges", ".debug_ranges",
                                              ".debug_macinfo")]
        return out + [";DEBUGEND", ""]

    # -- .debug_info / .debug_abbrev -----------------------------------------------------------
    def _line_form(self) -> str:
        lines = [k.line for k in self.kernels] + [p.line for k in self.kernels for p in k.params]
        return "DW_FORM_data1" if max(lines, default=0) < 256 else "DW_FORM_data2"

    def _abbreviations(self) -> list[tuple[str, bool, list[tuple[str, str]]]]:
        return [
            ("DW_TAG_compile_unit", True, [
                ("DW_AT_producer", "DW_FORM_string"), ("DW_AT_language", "DW_FORM_data1"),
                ("DW_AT_name", "DW_FORM_string"), ("DW_AT_entry_pc", "DW_FORM_addr"),
                ("DW_AT_stmt_list", "DW_FORM_data4"), ("DW_AT_comp_dir", "DW_FORM_string")]),
            ("DW_TAG_subprogram", True, [
                ("DW_AT_name", "DW_FORM_string"), ("DW_AT_MIPS_linkage_name", "DW_FORM_string"),
                ("DW_AT_decl_file", "DW_FORM_data1"), ("DW_AT_decl_line", self._line_form()),
                ("DW_AT_prototyped", "DW_FORM_flag"), ("DW_AT_external", "DW_FORM_flag"),
                ("DW_AT_low_pc", "DW_FORM_addr"), ("DW_AT_high_pc", "DW_FORM_addr"),
                ("DW_AT_frame_base", "DW_FORM_block1")]),
            ("DW_TAG_formal_parameter", False, [
                ("DW_AT_name", "DW_FORM_string"), ("DW_AT_decl_file", "DW_FORM_data1"),
                ("DW_AT_decl_line", self._line_form()), ("DW_AT_type", "DW_FORM_ref4"),
                ("DW_AT_location", "DW_FORM_block1")]),
            ("DW_TAG_base_type", False, [
                ("DW_AT_encoding", "DW_FORM_data1"), ("DW_AT_name", "DW_FORM_string"),
                ("DW_AT_byte_size", "DW_FORM_data1")]),
            ("DW_TAG_pointer_type", False, [
                ("DW_AT_byte_size", "DW_FORM_data1"), ("DW_AT_type", "DW_FORM_ref4")]),
            ("DW_TAG_pointer_type", False, [("DW_AT_byte_size", "DW_FORM_data1")]),
            ("DW_TAG_typedef", False, [
                ("DW_AT_type", "DW_FORM_ref4"), ("DW_AT_name", "DW_FORM_string"),
                ("DW_AT_decl_file", "DW_FORM_data1"), ("DW_AT_decl_line", "DW_FORM_data1")]),
            ("DW_TAG_typedef", False, [
                ("DW_AT_name", "DW_FORM_string"), ("DW_AT_decl_file", "DW_FORM_data1"),
                ("DW_AT_decl_line", "DW_FORM_data1")]),
        ]

    def _abbrev(self) -> list[str]:
        out = []
        for code, (tag, children, attrs) in enumerate(self._abbreviations(), 1):
            out += [asm(".byte", code, "Abbreviation Code"),
                    asm(".byte", ENUM_DW_TAG[tag], tag),
                    asm(".byte", 1 if children else 0,
                        "CHILDREN_yes" if children else "CHILDREN_no")]
            for attr, form in attrs:
                at = ENUM_DW_AT[attr]
                out += _uleb_lines(at, attr) + [asm(".byte", ENUM_DW_FORM[form],
                                                    form.replace("DW_", ""))]
            out += [asm(".byte", 0, "EOM(1)"), asm(".byte", 0, "EOM(2)")]
        return out + [asm(".byte", 0, "EOM(3)")]

    def _info(self) -> tuple[list[str], list[int]]:
        body: list[tuple[str, object, str | None, int]] = []   # directive, value, comment, size

        def string(text: str, comment: str) -> None:
            body.append((".ascii", f' "{text}"', comment, len(text.encode())))
            body.append((".byte", 0, None, 1))

        offset = 11                                     # the unit header
        body.append((".byte", 1, f"Abbrev [1] 0x{offset:x} DW_TAG_compile_unit", 1))
        string(PRODUCER, "DW_AT_producer")
        body.append((".byte", DW_LANG_C89, "DW_AT_language", 1))
        string(self.file, "DW_AT_name")
        body.append((".long", 0, "DW_AT_entry_pc", 4))
        body.append((".long", 0, "DW_AT_stmt_list", 4))
        string(self.directory, "DW_AT_comp_dir")
        line_size = 1 if self._line_form() == "DW_FORM_data1" else 2
        offsets = []
        refs: list[tuple[int, DebugType]] = []     # DW_AT_type entries, filled once types are placed
        for k in self.kernels:
            offsets.append(offset + sum(b[3] for b in body))
            body.append((".byte", 2, f"Abbrev [2] 0x{offsets[-1]:x} DW_TAG_subprogram", 1))
            string(k.symbol, "DW_AT_name")
            string(k.symbol, "DW_AT_MIPS_linkage_name")
            body.append((".byte", 1, "DW_AT_decl_file", 1))
            body.append((".byte" if line_size == 1 else ".short", k.line, "DW_AT_decl_line",
                         line_size))
            body.append((".byte", 1, "DW_AT_prototyped", 1))
            body.append((".byte", 1, "DW_AT_external", 1))
            body.append((".long", f";.func_begin{k.begin}", "DW_AT_low_pc", 4))
            body.append((".long", f";.func_end{k.begin}", "DW_AT_high_pc", 4))
            body.append((".byte", 1, "DW_AT_frame_base", 1))
            body.append((".byte", 80, None, 1))           # DW_OP_reg0
            for p in k.params:
                here = offset + sum(b[3] for b in body)
                body.append((".byte", 3, f"Abbrev [3] 0x{here:x} DW_TAG_formal_parameter", 1))
                string(p.name, "DW_AT_name")
                body.append((".byte", 1, "DW_AT_decl_file", 1))
                body.append((".byte" if line_size == 1 else ".short", p.line, "DW_AT_decl_line",
                             line_size))
                refs.append((len(body), p.type))
                body.append((".long", None, "DW_AT_type", 4))
                location = _register_location(p.register)
                body.append((".byte", len(location), "DW_AT_location", 1))
                body += [(".byte", b, None, 1) for b in location]
            body.append((".byte", 0, "End Of Children Mark", 1))
        where: dict[DebugType, int] = {}
        for t in type_closure([p for k in self.kernels for p in k.params]):
            where[t] = here = offset + sum(b[3] for b in body)
            if isinstance(t, BaseType):
                body.append((".byte", 4, f"Abbrev [4] 0x{here:x} DW_TAG_base_type", 1))
                body.append((".byte", t.encoding, "DW_AT_encoding", 1))
                string(t.name, "DW_AT_name")
                body.append((".byte", t.size, "DW_AT_byte_size", 1))
            elif isinstance(t, PointerType):
                code = 5 if t.type is not None else 6
                body.append((".byte", code, f"Abbrev [{code}] 0x{here:x} DW_TAG_pointer_type", 1))
                body.append((".byte", POINTER_SIZE, "DW_AT_byte_size", 1))
                if t.type is not None:
                    body.append((".long", where[t.type], "DW_AT_type", 4))
            elif isinstance(t, Typedef):
                code = 7 if t.type is not None else 8
                body.append((".byte", code, f"Abbrev [{code}] 0x{here:x} DW_TAG_typedef", 1))
                if t.type is not None:
                    body.append((".long", where[t.type], "DW_AT_type", 4))
                string(t.name, "DW_AT_name")
                body.append((".byte", 1, "DW_AT_decl_file", 1))
                body.append((".byte", 0, "DW_AT_decl_line", 1))
        for at, t in refs:
            body[at] = (".long", where[t], "DW_AT_type", 4)
        body.append((".byte", 0, "End Of Children Mark", 1))
        body.append((".byte", 0, "4 extra padding bytes for GDB", 1))
        body += [(".byte", 0, None, 1)] * 3
        length = 7 + sum(b[3] for b in body)
        out = [asm(".long", length, "Length of Compilation Unit Info"),
               asm(".short", 2, "DWARF version number"),
               asm(".offset;.abbrev_begin", None, "Offset Into Abbrev. Section"),
               asm(".byte", 4, "Address Size (in bytes)")]
        out += [asm(d, v, c) for d, v, c, _ in body]
        return out, offsets

    @staticmethod
    def _unit_header() -> list[str]:
        return [asm(".short", 2, "DWARF Version"),
                asm(".offset;.info_begin1", None, "Offset of Compilation Unit Info"),
                asm(".long", ";.info_end1-;.info_begin1", "Compilation Unit Length")]

    # -- .debug_line ---------------------------------------------------------------------------
    def _lines(self) -> list[str]:
        out = [asm(".long", ";.line_end-;.line_begin", "Length of Source Line Info"),
               _label("line_begin"), asm(".short", 2, "DWARF version number"),
               asm(".long", ";.line_prolog_end-;.line_prolog_begin", "Prolog Length"),
               _label("line_prolog_begin"),
               asm(".byte", 1, "Minimum Instruction Length"),
               asm(".byte", 1, "Default is_stmt_start flag"),
               asm(".byte", LINE_BASE & 0xFF, "Line Base Value (Special Opcodes)"),
               asm(".byte", LINE_RANGE, "Line Range Value (Special Opcodes)"),
               asm(".byte", OPCODE_BASE, "Special Opcode Base")]
        out += [asm(".byte", n, f"{name} arg count") for name, n in STANDARD_OPCODE_ARGS]
        out += [asm(".asciz", f' "{self.directory}"', "Directory"),
                asm(".byte", 0, "End of directories"),
                asm(".asciz", f' "{self.file}"', "Source"),
                asm(".byte", 1, "Directory #"), asm(".byte", 0, "Mod date"),
                asm(".byte", 0, "File size"), asm(".byte", 0, "End of files"),
                _label("line_prolog_end")]
        previous = 1
        path = f"{self.directory}/{self.file}"
        for n, line in self.rows:
            out += [asm(".byte", 0, f"{path}:{line}"), " " * COMMENT_COLUMN + "; Extended Op",
                    asm(".byte", 5, "Op size"), asm(".byte", 2, "DW_LNE_set_address"),
                    asm(".long", f";.tmp{n}", "Location label")]
            delta = line - previous
            if LINE_BASE <= delta < LINE_BASE + LINE_RANGE:
                out.append(asm(".byte", delta - LINE_BASE + OPCODE_BASE, "Line Delta"))
            else:
                out.append(asm(".byte", 3, "DW_LNS_advance_line"))
                out += [asm(".byte", b) for b in _sleb128(delta)]
                out.append(asm(".byte", 1, "DW_LNS_copy"))
            previous = line
        out += [asm(".byte", 0, "Extended Op"), asm(".byte", 5, "Op size"),
                asm(".byte", 2, "DW_LNE_set_address"),
                asm(".long", ";.section_end1", "Section end label"),
                asm(".byte", 0, "DW_LNE_end_sequence"), asm(".byte", 1), asm(".byte", 1),
                _label("line_end")]
        return out


def _register_location(register: int) -> list[int]:
    """DW_OP_reg<n> (0x50 + n) for n < 32, else DW_OP_regx (0x90) n."""
    return [0x50 + register] if register < 32 else [0x90, *_uleb128(register)]


def _uleb_lines(value: int, comment: str) -> list[str]:
    data = _uleb128(value)
    return [asm(".byte", data[0], comment)] + [asm(".byte", b) for b in data[1:]]


def _uleb128(value: int) -> list[int]:
    out = []
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return out


def _sleb128(value: int) -> list[int]:
    out = []
    while True:
        byte = value & 0x7F
        value >>= 7
        if (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40):
            out.append(byte)
            return out
        out.append(byte | 0x80)
