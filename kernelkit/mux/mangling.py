"""OpenCL C builtin names as clang mangles them for SPIR (Itanium C++ ABI §5.1 with the SPIR 1.2
Appendix A extensions that spec 003 "Mangling" refers to): ``_Z13get_global_idj``,
``_Z6vload4mPU3AS1Kf``, vectors ``Dv4_f``, address spaces ``U3AS1``, substitutions ``S_``/``S0_``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.errors import FormatError
from kernelkit.mux.names import ADDRESS_SPACE_NAMES

# Itanium §5.1.5.2 builtin type codes, with the OpenCL C type each stands for.
BUILTIN_TYPE_CODES: dict[str, str] = {
    "v": "void", "b": "bool", "c": "char", "a": "schar", "h": "uchar", "s": "short", "t": "ushort",
    "i": "int", "j": "uint", "l": "long", "m": "ulong", "x": "longlong", "y": "ulonglong",
    "n": "int128", "o": "uint128", "f": "float", "d": "double", "e": "longdouble", "Dh": "half",
    "DF16_": "_Float16",
}
TYPE_CODE_OF: dict[str, str] = {v: k for k, v in BUILTIN_TYPE_CODES.items()}
# Itanium §5.1.5.1 CV-qualifiers, in mangling order.
QUALIFIER_CODES: tuple[tuple[str, str], ...] = (("r", "restrict"), ("V", "volatile"), ("K", "const"))

# How C++ demanglers spell the OpenCL scalar names that differ.
CXX_SCALAR_NAMES: dict[str, str] = {
    "uchar": "unsigned char", "ushort": "unsigned short", "uint": "unsigned int", "ulong": "unsigned long",
    "schar": "signed char", "longlong": "long long", "ulonglong": "unsigned long long",
    "int128": "__int128", "uint128": "unsigned __int128", "longdouble": "long double",
}
# OpenCL C 3.0 §6.3.1: the unsigned and the floating-point scalar types (min/max/add lowering).
UNSIGNED_TYPES = frozenset({"uchar", "ushort", "uint", "ulong", "bool"})
FLOAT_TYPES = frozenset({"half", "float", "double"})


@dataclass(frozen=True)
class OclType:
    """One parameter type of a mangled name.

    ``kind``: ``scalar`` (``name`` from BUILTIN_TYPE_CODES' values), ``vector`` (``element``,
    ``width``), ``pointer`` (``element`` is the pointee, ``address_space`` and ``qualifiers`` are
    the pointee's), ``named`` (``name`` such as ``ocl_event``, ``memory_scope``, ``ocl_image2d_ro``).
    """

    kind: str
    name: str = ""
    element: OclType | None = None
    width: int = 1
    address_space: int = 0
    qualifiers: frozenset[str] = frozenset()

    @staticmethod
    def scalar(name: str) -> OclType:
        if name not in TYPE_CODE_OF:
            raise ValueError(f"not a builtin type: {name!r}")
        return OclType("scalar", name)

    @staticmethod
    def vector(element: str | OclType, width: int) -> OclType:
        elem = OclType.scalar(element) if isinstance(element, str) else element
        return OclType("vector", element=elem, width=width)

    @staticmethod
    def pointer(pointee: str | OclType, address_space: int = 0, *qualifiers: str) -> OclType:
        elem = OclType.scalar(pointee) if isinstance(pointee, str) else pointee
        return OclType("pointer", element=elem, address_space=address_space, qualifiers=frozenset(qualifiers))

    @staticmethod
    def atomic(element: str | OclType) -> OclType:
        return OclType("atomic", element=OclType.scalar(element) if isinstance(element, str) else element)

    @staticmethod
    def named(name: str) -> OclType:
        return OclType("named", name)

    @property
    def scalar_name(self) -> str:
        """The scalar (element) type name of a scalar or vector."""
        if self.kind == "scalar":
            return self.name
        if self.kind == "vector" and self.element is not None:
            return self.element.name
        raise ValueError(f"{self} has no scalar element")

    def __str__(self) -> str:
        """OpenCL C spelling: ``float4``, ``__global const float*``."""
        if self.kind == "scalar" or self.kind == "named":
            return self.name
        if self.kind == "vector":
            return f"{self.element}{self.width}"
        if self.kind == "atomic":
            return f"atomic_{self.element}"
        quals = "".join(f"{q} " for _, q in QUALIFIER_CODES[::-1] if q in self.qualifiers)
        space = ADDRESS_SPACE_NAMES.get(self.address_space, f"AS{self.address_space}")
        space = f"__{space} " if self.address_space else ""
        return f"{space}{quals}{self.element}*"

    def itanium_text(self) -> str:
        """The type as llvm-cxxfilt prints it (``float vector[4] const AS1*``)."""
        if self.kind == "named":
            return self.name
        if self.kind == "scalar":
            return CXX_SCALAR_NAMES.get(self.name, self.name)
        assert self.element is not None
        if self.kind == "vector":
            return f"{self.element.itanium_text()} vector[{self.width}]"
        if self.kind == "atomic":
            return f"{self.element.itanium_text()} _Atomic"
        quals = "".join(f" {q}" for _, q in QUALIFIER_CODES[::-1] if q in self.qualifiers)
        space = f" AS{self.address_space}" if self.address_space else ""
        return f"{self.element.itanium_text()}{quals}{space}*"


def _seq_id(index: int) -> str:
    """Itanium <seq-id>: S_ for the first substitution, then S0_, S1_ ... in base 36."""
    if index == 0:
        return "S_"
    n, digits = index - 1, ""
    while True:
        n, r = divmod(n, 36)
        digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r] + digits
        if n == 0:
            return f"S{digits}_"


class _Mangler:
    def __init__(self) -> None:
        self.subs: list[tuple] = []

    def _sub(self, key: tuple) -> str | None:
        return _seq_id(self.subs.index(key)) if key in self.subs else None

    def type(self, t: OclType) -> str:
        if t.kind == "scalar":
            return TYPE_CODE_OF[t.name]
        key = ("type", t)
        found = self._sub(key)
        if found:
            return found
        if t.kind == "vector":
            assert t.element is not None
            text = f"Dv{t.width}_{self.type(t.element)}"
        elif t.kind == "named":
            text = f"{len(t.name)}{t.name}"
        elif t.kind == "atomic":
            assert t.element is not None
            text = "U7_Atomic" + self.type(t.element)
        elif t.kind == "pointer":
            assert t.element is not None
            text = "P" + self.qualified(t.element, t.address_space, t.qualifiers)
        else:
            raise ValueError(f"unknown type kind {t.kind!r}")
        self.subs.append(key)
        return text

    def qualified(self, t: OclType, address_space: int, qualifiers: frozenset[str]) -> str:
        if not address_space and not qualifiers:
            return self.type(t)
        key = ("qualified", t, address_space, qualifiers)
        found = self._sub(key)
        if found:
            return found
        text = (f"U{len(f'AS{address_space}')}AS{address_space}" if address_space else "")
        text += "".join(code for code, q in QUALIFIER_CODES if q in qualifiers) + self.type(t)
        self.subs.append(key)
        return text


def mangle(name: str, params: list[OclType] | tuple[OclType, ...]) -> str:
    """The SPIR mangled name of the overloadable function ``name(params)``."""
    m = _Mangler()
    body = "".join(m.type(p) for p in params) if params else "v"
    return f"_Z{len(name)}{name}{body}"


class _Demangler:
    def __init__(self, text: str):
        self.text, self.pos = text, 0
        self.subs: list[tuple] = []

    def fail(self, what: str) -> FormatError:
        return FormatError(f"cannot demangle {self.text!r}: {what}", offset=self.pos, field="mangled name")

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def number(self) -> int:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        if start == self.pos:
            raise self.fail("expected a length")
        return int(self.text[start:self.pos])

    def source_name(self) -> str:
        n = self.number()
        if self.pos + n > len(self.text):
            raise self.fail("name runs past the end")
        name = self.text[self.pos:self.pos + n]
        self.pos += n
        return name

    def substitution(self) -> OclType | tuple:
        end = self.text.find("_", self.pos)
        if end < 0:
            raise self.fail("unterminated substitution")
        digits = self.text[self.pos + 1:end]
        index = 0 if digits == "" else int(digits, 36) + 1 if digits.isalnum() and digits.isupper() or digits.isdigit() else -1
        if index < 0 or index >= len(self.subs):
            raise self.fail(f"substitution S{digits}_ refers to nothing")
        self.pos = end + 1
        return self.subs[index]

    def type(self) -> OclType:
        for code in ("DF16_", "Dh"):
            if self.text.startswith(code, self.pos):
                self.pos += len(code)
                return OclType.scalar(BUILTIN_TYPE_CODES[code])
        c = self.peek()
        if c == "S":
            entry = self.substitution()
            if not isinstance(entry, OclType):
                raise self.fail("substitution names a qualified type where a type was expected")
            return entry
        if c in BUILTIN_TYPE_CODES:
            self.pos += 1
            return OclType.scalar(BUILTIN_TYPE_CODES[c])
        if self.text.startswith("Dv", self.pos):
            self.pos += 2
            width = self.number()
            if self.peek() != "_":
                raise self.fail("expected '_' after vector width")
            self.pos += 1
            t = OclType.vector(self.type(), width)
        elif c == "P":
            self.pos += 1
            pointee, space, quals = self.qualified()
            t = OclType.pointer(pointee, space, *quals)
        elif self.text.startswith("U7_Atomic", self.pos):
            self.pos += 9
            t = OclType.atomic(self.type())
        elif c.isdigit():
            t = OclType.named(self.source_name())
        elif c == "":
            raise self.fail("unexpected end")
        else:
            raise self.fail(f"unsupported type code {c!r}")
        self.subs.append(t)
        return t

    def qualified(self) -> tuple[OclType, int, frozenset[str]]:
        if self.peek() == "S":
            save = self.pos
            entry = self.substitution()
            if isinstance(entry, tuple):
                return entry[1], entry[2], entry[3]
            self.pos = save
        space = 0
        if self.peek() == "U" and not self.text.startswith("U7_Atomic", self.pos):
            self.pos += 1
            vendor = self.source_name()
            if not vendor.startswith("AS") or not vendor[2:].isdigit():
                raise self.fail(f"unsupported vendor qualifier {vendor!r}")
            space = int(vendor[2:])
        quals = set()
        for code, qual in QUALIFIER_CODES:
            if self.peek() == code:
                self.pos += 1
                quals.add(qual)
        inner = self.type()
        if space or quals:
            self.subs.append(("qualified", inner, space, frozenset(quals)))
        return inner, space, frozenset(quals)


def demangle(mangled: str) -> tuple[str, list[OclType]]:
    """``(name, parameter types)`` of an Itanium-mangled OpenCL function name."""
    if not mangled.startswith("_Z"):
        raise FormatError(f"not a mangled name: {mangled!r}", offset=0, field="mangled name")
    d = _Demangler(mangled)
    d.pos = 2
    name = d.source_name()
    params: list[OclType] = []
    if d.peek() == "v" and d.pos + 1 == len(mangled):
        return name, params
    while d.pos < len(mangled):
        params.append(d.type())
    if not params:
        raise d.fail("no parameter types")
    return name, params


def try_demangle(mangled: str) -> tuple[str, list[OclType]] | None:
    try:
        return demangle(mangled)
    except (FormatError, ValueError):
        return None
