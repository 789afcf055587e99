"""Parse ``.visaasm`` text (IGC's dumps and what ``text_print`` writes) into the object model.

Errors are FormatError naming the line. The string pool of a parsed routine is laid out as the
finalizer lays it out (kernel name, predefined variable and surface names, S31, then names in the
order the text introduces them), so the binary written from text matches the finalizer's.
"""

from __future__ import annotations

import re

from kernelkit.errors import FormatError
from kernelkit.formats.visa.instructions import Instruction
from kernelkit.formats.visa.model import (
    Attribute,
    Input,
    Label,
    Routine,
    SymbolVar,
    Variable,
    VisaObject,
    element_size,
)
from kernelkit.formats.visa.opcodes import OPCODE_BY_NAME
from kernelkit.formats.visa.operands import (
    ADDRESS,
    GENERAL,
    IMMEDIATE,
    INDIRECT,
    PREDICATE,
    STATE,
    Predicate,
    RawOperand,
    VectorOperand,
)
from kernelkit.formats.visa.tables import (
    ALIGN_BY_NAME,
    ATTRIBUTE_KINDS,
    BINDLESS_SAMPLER,
    EMASKS,
    EXEC_CODES,
    GRF_BYTES,
    IMPLICIT_DIRECTIVES,
    MODIFIER_BY_TEXT,
    NUM_PREDEFINED_SURFACES,
    PRED_CONTROLS,
    PREDEFINED_SURFACES,
    PREDEFINED_VARIABLES,
    REGION_CODES,
    TARGET_NAMES,
    TYPE_BY_NAME,
)

_EXEC_RE = re.compile(r"\(\s*(?:(\w+)\s*,\s*)?(\d+)\s*\)")
_PRED_CONTROL_CODES = {text: code for code, text in PRED_CONTROLS.items()}
_PRED_RE = re.compile(r"\(\s*(!?)([%\w]+)(\.any|\.all)?\s*\)\s*")


def _int(text: str) -> int:
    return int(text, 0)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        body = text[1:-1]
        return re.sub(r"\\x([0-9a-fA-F]{2})|\\(.)",
                      lambda m: chr(int(m.group(1), 16)) if m.group(1) else
                      {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(2), m.group(2)), body)
    return text


# spec 004 function_info linkage of a function defined in the file
GLOBAL_LINKAGE = 2


class RoutineBuilder:
    def __init__(self, name: str, is_kernel: bool, line: int):
        self.line = line
        self.r = Routine(name, is_kernel)
        self.r.strings = [name] + [n for n, _t, _c in PREDEFINED_VARIABLES] + list(PREDEFINED_SURFACES) + ["S31"]
        self.pool = {s: i for i, s in enumerate(self.r.strings)}
        self.names: dict[str, tuple[str, int]] = {n: ("G", i) for i, (n, _t, _c) in enumerate(PREDEFINED_VARIABLES)}
        self.names.update({n: ("T", i) for i, n in enumerate(PREDEFINED_SURFACES)})
        self.names["S31"] = ("S", BINDLESS_SAMPLER)
        self.labels: dict[str, int] = {}
        self.r.instructions = []

    # ---- helpers
    def err(self, message: str) -> FormatError:
        return FormatError(message, line=self.line)

    def string(self, text: str) -> int:
        if text not in self.pool:
            self.pool[text] = len(self.r.strings)
            self.r.strings.append(text)
        return self.pool[text]

    def lookup(self, name: str, kinds: str) -> tuple[str, int]:
        entry = self.names.get(name)
        if entry is None or entry[0] not in kinds:
            raise self.err(f"{name!r} is not a declared {'/'.join(kinds)} variable")
        return entry

    def label(self, name: str, kind: int) -> int:
        if name not in self.labels:
            self.string(name)
            self.labels[name] = len(self.r.labels)
            self.r.labels.append(Label(name, kind))
        return self.labels[name]

    def attribute(self, name: str, value: str | None, *, kernel: bool) -> Attribute:
        self.string(name)
        kind = ATTRIBUTE_KINDS.get(name, "str" if value and value.startswith('"') else "int")
        if value is None:
            return Attribute(name, b"")
        if kind == "str" or (name == "Target"):
            text = _unquote(value)
            if name == "Target":
                codes = {v: k for k, v in TARGET_NAMES.items()}
                if text not in codes:
                    raise self.err(f"Target must be one of {sorted(codes)}, not {text!r}")
                return Attribute(name, bytes([codes[text]]))
            return Attribute(name, text.encode("latin-1"))
        number = _int(value)
        if not -(1 << 31) <= number < (1 << 32):
            raise self.err(f"attribute {name}={value} does not fit the 4 bytes of an integer attribute")
        return Attribute(name, (number & 0xFFFFFFFF).to_bytes(4, "little"))

    def attrs(self, text: str | None) -> list[Attribute]:
        if not text:
            return []
        out = []
        for item in filter(None, (s.strip() for s in text.split(","))):
            name, _, value = item.partition("=")
            out.append(self.attribute(name.strip(), value.strip() or None, kernel=False))
        return out

    # ---- declarations
    def decl(self, text: str) -> None:
        m = re.match(r"\.decl\s+([%\w.]+)\s+v_type\s*=\s*([GAPST])\s+(.*)$", text)
        if not m:
            raise self.err(f"malformed .decl: {text}")
        name, vtype, rest = m.groups()
        attrs_m = re.search(r"attrs\s*=\s*\{([^}]*)\}", rest)
        fields = dict(re.findall(r"(\w+)\s*=\s*(<[^>]*>|\"[^\"]*\"|[^\s,]+)", rest[:attrs_m.start()] if attrs_m else rest))
        if name in self.names:
            raise self.err(f"{name} declared twice")
        num = _int(fields.get("num_elts", "1"))
        self.string(name)                      # the finalizer pools the name before the attribute names
        attrs = self.attrs(attrs_m.group(1) if attrs_m else None)
        if vtype == "G":
            ty = TYPE_BY_NAME.get(fields.get("type", ""))
            if ty is None:
                raise self.err(f"{name}: unknown type {fields.get('type')!r}")
            align = ALIGN_BY_NAME.get(fields.get("align", "byte"))
            if align is None:
                raise self.err(f"{name}: unknown alignment {fields.get('align')!r}")
            alias, alias_off = 0, 0
            if "alias" in fields:
                am = re.match(r"<\s*([%\w.]+)\s*,\s*(\d+)\s*>", fields["alias"])
                if not am:
                    raise self.err(f"{name}: malformed alias {fields['alias']}")
                alias, alias_off = self.lookup(am.group(1), "G")[1], int(am.group(2))
            from kernelkit.formats.visa.tables import NUM_PREDEFINED_VARIABLES
            self.names[name] = ("G", NUM_PREDEFINED_VARIABLES + len(self.r.variables))
            self.r.variables.append(Variable(name, ty, align, num, alias, alias_off, 0, attrs))
        elif vtype == "A":
            self.names[name] = ("A", len(self.r.addresses))
            self.r.addresses.append(SymbolVar(name, num, attrs))
        elif vtype == "P":
            self.names[name] = ("P", len(self.r.predicates) + 1)
            self.r.predicates.append(SymbolVar(name, num, attrs))
        elif vtype == "S":
            self.names[name] = ("S", len(self.r.samplers))
            self.r.samplers.append(SymbolVar(name, num, attrs))
        else:
            self.names[name] = ("T", NUM_PREDEFINED_SURFACES + len(self.r.surfaces))
            self.r.surfaces.append(SymbolVar(name, num, attrs))

    def input(self, directive: str, text: str) -> None:
        m = re.match(r"\S+\s+([%\w.]+)\s+(?:offset\s*=\s*(\S+)\s+)?size\s*=\s*(\S+)", text)
        if not m:
            raise self.err(f"malformed {directive}: {text}")
        kind, index = self.lookup(m.group(1), "GST")
        provenance = 0
        if directive != ".input":
            names = {v: k for k, v in IMPLICIT_DIRECTIVES.items()}
            if directive in names:
                provenance = names[directive]
            elif directive.startswith(".implicit_UNDEFINED_"):
                provenance = int(directive.rsplit("_", 1)[1])
            else:
                raise self.err(f"unknown input directive {directive}")
        self.r.inputs.append(Input("GST".index(kind), provenance, index, _int(m.group(2) or "0"),
                                   _int(m.group(3))))

    # ---- operands
    def region(self, text: str | None, dst: bool) -> int:
        if not text:
            return 0
        nums = [int(x) for x in re.findall(r"\d+", text)]
        try:
            codes = [REGION_CODES[n] for n in nums]
        except KeyError:
            raise self.err(f"bad region {text}") from None
        if ";" in text:
            return codes[0] | (codes[1] << 4) | (codes[2] << 8)
        if len(codes) == 2:
            return (codes[0] << 4) | (codes[1] << 8)
        return codes[0] << 8

    def imm(self, text: str) -> VectorOperand | None:
        m = re.fullmatch(r"(-?(?:0x[0-9a-fA-F]+|\d+))(?::(\w+))?", text)
        if not m:
            return None
        ty = TYPE_BY_NAME.get(m.group(2) or "ud")
        if ty is None:
            raise self.err(f"unknown immediate type in {text}")
        value = _int(m.group(1))
        bits = 64 if ty in (6, 11, 13) else 32
        return VectorOperand(IMMEDIATE, type=ty, value=value & ((1 << bits) - 1))

    def vec(self, text: str, dst: bool = False) -> VectorOperand:
        imm = self.imm(text)
        if imm is not None:
            return imm
        if text.startswith("&"):
            return self.address_of(text)
        mod = 0
        for mtext, code in MODIFIER_BY_TEXT.items():
            if text.startswith(mtext):
                mod, text = code, text[len(mtext):]
                break
        m = re.fullmatch(r"r\[([%\w]+)\((\d+)\)(?:,(-?\d+))?\](<[^>]*>)?:(\w+)", text)
        if m:
            index = self.lookup(m.group(1), "A")[1]
            return VectorOperand(INDIRECT, index, mod, offset=int(m.group(2)), imm_offset=int(m.group(3) or 0),
                                 type=TYPE_BY_NAME[m.group(5)], region=self.region(m.group(4), dst))
        m = re.fullmatch(r"([%\w.]+)(?:\((\d+)(?:,(\d+))?\))?(<[^>]*>)?", text)
        if not m:
            raise self.err(f"cannot parse operand {text!r}")
        name, a, b, region = m.groups()
        kind, index = self.lookup(name, "GAPST")
        if kind == "G":
            return VectorOperand(GENERAL, index, mod, int(a or 0), int(b or 0), region=self.region(region, dst))
        if kind == "A":
            width = int(region.strip("<>")) if region else 1
            return VectorOperand(ADDRESS, index, mod, offset=int(a or 0), width=EXEC_CODES[width])
        if kind == "P":
            return VectorOperand(PREDICATE, index, mod)
        return VectorOperand(STATE, index, mod, offset=int(a or 0), state_class=0 if kind == "T" else 1)

    def address_of(self, text: str) -> VectorOperand:
        """``&V[byte offset]`` (addr_add's first source): a general operand whose row/column give
        the byte offset (GRF rows of 32 bytes, columns of the variable's element size)."""
        m = re.fullmatch(r"&([%\w.]+)(?:\[(\d+)\])?", text)
        if not m:
            raise self.err(f"cannot parse address-of operand {text!r}")
        kind, index = self.lookup(m.group(1), "GT")
        offset = int(m.group(2) or 0)
        if kind == "T":
            return VectorOperand(STATE, index, offset=offset // 4, state_class=0)
        size = element_size(self.r, index)
        return VectorOperand(GENERAL, index, 0, offset // GRF_BYTES, (offset % GRF_BYTES) // size, region=0x121)

    def raw(self, text: str) -> RawOperand:
        m = re.fullmatch(r"([%\w]+)(?:\.(\d+))?", text)
        if not m:
            raise self.err(f"cannot parse raw operand {text!r}")
        return RawOperand(self.lookup(m.group(1), "G")[1], int(m.group(2) or 0))

    def surface(self, text: str) -> int:
        return self.lookup(text, "T")[1]

    # ---- instructions
    def exec(self, text: str) -> tuple[int, str]:
        m = _EXEC_RE.match(text)
        if not m:
            raise self.err(f"expected an execution size at {text!r}")
        mask = m.group(1) or "M1"
        if mask not in EMASKS or int(m.group(2)) not in EXEC_CODES:
            raise self.err(f"bad execution size/mask ({mask}, {m.group(2)})")
        return EXEC_CODES[int(m.group(2))] | (EMASKS.index(mask) << 4), text[m.end():].strip()

    def emit(self, opcode: int, sub: int | None = None, **fields) -> None:
        self.r.instructions.append(Instruction(opcode, fields, sub))

    def instruction(self, text: str) -> None:
        pred = None
        m = _PRED_RE.match(text)
        if m and self.names.get(m.group(2), ("",))[0] == "P":
            pred = Predicate(self.names[m.group(2)][1], _PRED_CONTROL_CODES[m.group(3) or ""],
                             m.group(1) == "!")
            text = text[m.end():]
        mnemonic, _, rest = text.partition(" ")
        rest = rest.strip()
        from kernelkit.formats.visa.text_instructions import parse_instruction
        parse_instruction(self, mnemonic, rest, pred)


def _strip_comment(line: str) -> str:
    """The line without its ``//`` comment (a ``//`` inside a string literal is kept)."""
    if "//" not in line:
        return line
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i]
    return line


def parse_visaasm(text: str) -> VisaObject:
    obj = VisaObject()
    builder: RoutineBuilder | None = None
    pending_function: str | None = None
    for number, raw_line in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw_line).strip()
        if not line:
            continue
        if builder is not None:
            builder.line = number
        if line.startswith(".version"):
            parts = line.split()
            if len(parts) != 2 or not re.fullmatch(r"\d+\.\d+", parts[1]):
                raise FormatError(f"malformed .version: {line}", line=number)
            obj.major, obj.minor = (int(x) for x in parts[1].split("."))
            continue
        if line.startswith((".kernel ", ".global_function ")):
            directive, _, name = line.partition(" ")
            builder = RoutineBuilder(_unquote(name.strip()), directive == ".kernel", number)
            if not builder.r.is_kernel:
                builder.r.linkage = GLOBAL_LINKAGE     # a .global_function is defined here
            (obj.kernels if builder.r.is_kernel else obj.functions).append(builder.r)
            continue
        if builder is None:
            raise FormatError(f"{line.split()[0]} before .kernel", line=number)
        try:
            if line.startswith(".funcdecl"):
                continue                      # informational only (the finalizer ignores it too)
            if line.startswith(".decl"):
                builder.decl(line)
            elif line.startswith((".input", ".implicit_")):
                builder.input(line.split()[0], line)
            elif line.startswith(".kernel_attr"):
                m = re.match(r"\.kernel_attr\s+(\w+)\s*(?:=\s*(.*))?$", line)
                if not m:
                    raise builder.err(f"malformed .kernel_attr: {line}")
                value = (m.group(2) or "").strip() or None
                builder.r.attributes.append(builder.attribute(m.group(1), value, kernel=True))
            elif line.startswith(".function"):
                name = _unquote(line.split(None, 1)[1].strip())
                pending_function = name
                builder.emit(OPCODE_BY_NAME["func"], label=builder.label(name, 1))
            elif re.fullmatch(r"[\w$.]+:", line):
                name = line[:-1]
                if name == pending_function or (name in builder.labels and
                                                builder.r.labels[builder.labels[name]].kind == 1 and
                                                _defined_function(builder, name)):
                    pending_function = None
                    continue
                builder.emit(OPCODE_BY_NAME["label"], label=builder.label(name, 0))
            else:
                builder.instruction(line)
        except (KeyError, IndexError, ValueError) as exc:
            if isinstance(exc, FormatError):
                raise
            raise FormatError(f"cannot parse {line!r} ({exc})", line=number) from None
    if not obj.kernels and not obj.functions:
        raise FormatError("no .kernel or .global_function in the text", line=1)
    return obj


def _defined_function(builder: RoutineBuilder, name: str) -> bool:
    index = builder.labels[name]
    func = OPCODE_BY_NAME["func"]
    return any(i.opcode == func and i.fields.get("label") == index for i in builder.r.instructions)


