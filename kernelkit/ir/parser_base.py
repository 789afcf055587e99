"""Parser core: token cursor, types, attributes, constants and metadata.
Module structure lives in `parser.py`, function bodies in `parse_instructions.py`."""

from __future__ import annotations

import re
import struct
from typing import NoReturn

from kernelkit.errors import FormatError
from kernelkit.ir import types as T
from kernelkit.ir.lexer import Tokens
from kernelkit.ir.metadata import MDNode, MDString, Metadata, MetadataAsValue, ValueAsMetadata
from kernelkit.ir.module import TYPE_ATTRIBUTES, AttributeGroup, GlobalValue, Module, TypeAttribute
from kernelkit.ir.names import unescape
from kernelkit.ir.opcodes import CAST_OPS, OPCODE_FLAGS, VALUE_KEYWORDS
from kernelkit.ir.values import (
    BlockAddress,
    ConstantAggregate,
    ConstantBytes,
    ConstantExpr,
    ConstantFP,
    ConstantInt,
    ConstantSimple,
    ConstantSplat,
    InlineAsm,
    Placeholder,
    Value,
)

_INT_TYPE = re.compile(r"i(\d+)\Z")
_SIMPLE_TYPES: dict[str, T.Type] = {
    "void": T.void, "label": T.label, "metadata": T.metadata, "token": T.token,
    **{k: T.FloatType(k) for k in T.FLOAT_KINDS},
}
# type keywords and `iN` seen so far -> their (immutable, shared) type objects
_WORD_TYPES: dict[str, T.Type] = {**_SIMPLE_TYPES, "ptr": T.ptr, "i1": T.i1, "i8": T.i8, "i16": T.i16,
                                  "i32": T.i32, "i64": T.i64}
_POINTERS: dict[int, T.PointerType] = {0: T.ptr}


def _pointer(addrspace: int) -> T.PointerType:
    t = _POINTERS.get(addrspace)
    if t is None:
        t = _POINTERS[addrspace] = T.PointerType(addrspace)
    return t


_SIMPLE_CONSTANTS = frozenset({"null", "undef", "poison", "zeroinitializer", "none"})


def is_type_start(kind: str, value: str) -> bool:
    if kind == "ident":
        return (value in _SIMPLE_TYPES or value in ("ptr", "target", "x86_amx")
                or _INT_TYPE.match(value) is not None)
    return kind in ("local", "<", "[", "{")


def decode_name(token: str) -> str:
    """`%"a b"` / `@x` / `!name` -> the bare name."""
    if token[1:2] == '"':
        return unescape(token[2:-1]).decode("utf-8", "surrogateescape")
    return token[1:]


def string_body(token: str) -> str:
    return unescape(token[1:-1]).decode("utf-8", "surrogateescape")


class ParserBase:
    def __init__(self, tokens: Tokens, module: Module) -> None:
        self.tk = tokens
        self.kinds = tokens.kinds
        self.vals = tokens.values
        self.pos = 0
        self.module = module
        self.md_nodes: dict[int, MDNode] = {}
        self.attr_groups: dict[int, AttributeGroup] = {}
        self.global_forward: dict[str, Placeholder] = {}
        self.global_table: dict[str, GlobalValue] = {}
        self.forward_pos: dict[str, int] = {}  # name -> token index of its first forward use
        self.pending_blockaddress: list[tuple[Value, Placeholder, int]] = []
        self.stmt_start = 0  # token index where the current top-level entity/instruction began

    # ---------------------------------------------------------------- cursor
    def error(self, message: str, field: str = "syntax") -> NoReturn:
        raise FormatError(f"LLVM IR: {message} (at {self.vals[self.pos]!r})",
                          line=self.tk.line_of(self.pos), field=field)

    def kind(self, ahead: int = 0) -> str:
        return self.kinds[self.pos + ahead] if self.pos + ahead < len(self.kinds) else "eof"

    def val(self, ahead: int = 0) -> str:
        return self.vals[self.pos + ahead] if self.pos + ahead < len(self.vals) else ""

    def next(self) -> str:
        pos = self.pos
        if self.kinds[pos] == "eof":
            self.error("unexpected end of input")
        self.pos = pos + 1
        return self.vals[pos]

    def expect(self, kind: str, what: str | None = None) -> str:
        pos = self.pos
        if self.kinds[pos] != kind:
            self.error(f"expected {what or kind}")
        self.pos = pos + 1
        return self.vals[pos]

    def expect_word(self, word: str) -> None:
        if self.kinds[self.pos] != "ident" or self.vals[self.pos] != word:
            self.error(f"expected '{word}'")
        self.pos += 1

    def accept(self, kind: str) -> bool:
        pos = self.pos
        if self.kinds[pos] == kind:
            self.pos = pos + 1
            return True
        return False

    def accept_word(self, word: str) -> bool:
        if self.kinds[self.pos] == "ident" and self.vals[self.pos] == word:
            self.pos += 1
            return True
        return False

    def at_word(self, *words: str) -> bool:
        return self.kinds[self.pos] == "ident" and self.vals[self.pos] in words

    def int_value(self) -> int:
        tok = self.expect("int", "integer")
        if tok[0] in "us":
            # LLLexer: the hex digits' value truncated to its active bits, then read as signed (s0x)
            value = int(tok[3:], 16)
            if tok[0] == "s" and value:
                value -= 1 << value.bit_length()
            return value
        return int(tok)

    def source_between(self, start: int, end: int) -> str:
        """Verbatim text of tokens [start, end)."""
        return self.tk.between(start, end)

    def balanced_end(self, start: int) -> int:
        """Index after the `)`/`]`/`}` matching the opener at `start`."""
        depth = 0
        i = start
        kinds = self.kinds
        while True:
            k = kinds[i]
            if k in ("(", "[", "{"):
                depth += 1
            elif k in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    return i + 1
            elif k == "eof":
                self.pos = start
                self.error("unbalanced brackets")
            i += 1

    # ---------------------------------------------------------------- types
    def parse_type(self) -> T.Type:
        pos = self.pos
        kind = self.kinds[pos]
        v = self.vals[pos]
        if kind == "ident":
            self.pos = pos + 1
            simple = _WORD_TYPES.get(v)
            if simple is not None:
                if simple is T.ptr and self.vals[pos + 1] == "addrspace" and self.kinds[pos + 1] == "ident":
                    return _pointer(self.parse_addrspace())
                return simple
            m = _INT_TYPE.match(v)
            if m:
                t = T.IntType(int(m.group(1)))
                if len(_WORD_TYPES) < 4096:
                    _WORD_TYPES[v] = t
                return t
            if v == "target":
                return self.parse_target_type()
            self.pos = pos
            self.error("expected a type", "type")
        if kind == "local":
            self.pos += 1
            name = decode_name(v)
            st = self.module.struct_types.get(name)
            if st is None:
                st = self.module.add_struct(name)
            return st
        if kind == "<":
            self.pos += 1
            if self.kinds[self.pos] == "{":
                st = self.parse_struct_body(packed=True)
                self.expect(">")
                return st
            scalable = False
            if self.accept_word("vscale"):
                self.expect_word("x")
                scalable = True
            count = self.int_value()
            self.expect_word("x")
            elem = self.parse_type()
            self.expect(">")
            return T.VectorType(elem, count, scalable)
        if kind == "[":
            self.pos += 1
            count = self.int_value()
            self.expect_word("x")
            elem = self.parse_type()
            self.expect("]")
            return T.ArrayType(elem, count)
        if kind == "{":
            return self.parse_struct_body(packed=False)
        self.error("expected a type", "type")

    def parse_struct_body(self, packed: bool) -> T.LiteralStructType:
        self.expect("{")
        elems: list[T.Type] = []
        if not self.accept("}"):
            while True:
                elems.append(self.parse_type())
                if self.accept("}"):
                    break
                self.expect(",")
        return T.LiteralStructType(tuple(elems), packed)

    def parse_target_type(self) -> T.TargetExtType:
        self.expect("(")
        name = string_body(self.expect("str", "target type name"))
        types: list[T.Type] = []
        ints: list[int] = []
        while self.accept(","):
            if self.kind() == "int":
                ints.append(self.int_value())
            else:
                types.append(self.parse_type())
        self.expect(")")
        return T.TargetExtType(name, tuple(types), tuple(ints))

    def parse_addrspace(self) -> int:
        self.expect_word("addrspace")
        self.expect("(")
        if self.kind() == "str":  # addrspace("A"/"G"/"P") names from the datalayout
            self.next()
            n = 0
        else:
            n = self.int_value()
        self.expect(")")
        return n

    # ---------------------------------------------------------------- attributes
    def parse_attribute(self) -> str | AttributeGroup:
        kind = self.kinds[self.pos]
        start = self.pos
        if kind == "attrgrp":
            self.pos += 1
            num = int(self.vals[start][1:])
            group = self.attr_groups.get(num)
            if group is None:
                group = self.attr_groups[num] = AttributeGroup()
            return group
        if kind == "str":
            self.pos += 1
            if self.kinds[self.pos] == "=":
                self.pos += 2
            return self.source_between(start, self.pos)
        word = self.vals[start]
        self.pos += 1
        k = self.kinds[self.pos]
        if k == "(" and word in TYPE_ATTRIBUTES:
            self.pos += 1
            ty = self.parse_type()
            self.expect(")")
            return TypeAttribute(word, ty, self.source_between(start, self.pos))
        if k == "(":
            self.pos = self.balanced_end(self.pos)
        elif k == "=":
            self.pos += 2
        elif k == "int" and word in ("align", "alignstack", "dereferenceable"):
            self.pos += 1
        return self.source_between(start, self.pos)

    def at_attribute(self, groups: bool) -> bool:
        kind = self.kinds[self.pos]
        if kind == "ident":
            v = self.vals[self.pos]
            return not is_type_start(kind, v) and v not in VALUE_KEYWORDS
        return kind == "str" or (groups and kind == "attrgrp")

    def parse_param_attributes(self) -> list[str]:
        out: list[str] = []
        while self.at_attribute(False):
            out.append(self.parse_attribute())  # type: ignore[arg-type]
        return out

    def parse_parameter_list(self) -> tuple[list[tuple[T.Type, list[str], str]], bool]:
        """``(ty attrs [%name], ..., [...])``: (type, attributes, name or "") per parameter and
        whether the list ends in ``...`` (function headers and function types)."""
        self.expect("(")
        params: list[tuple[T.Type, list[str], str]] = []
        if self.accept(")"):
            return params, False
        while True:
            if self.accept("..."):
                self.expect(")")
                return params, True
            ty = self.parse_type()
            attrs = self.parse_param_attributes()
            name = decode_name(self.next()) if self.kinds[self.pos] == "local" else ""
            params.append((ty, attrs, name))
            if self.accept(")"):
                return params, False
            self.expect(",")

    # ---------------------------------------------------------------- values
    def lookup_local(self, name: str, ty: T.Type) -> Value:
        self.error("local value outside a function")

    def lookup_block(self, name: str) -> Value:
        self.error("block reference outside a function")

    def lookup_global(self, name: str) -> Value:
        g = self.global_table.get(name)
        if g is not None:
            return g
        ph = self.global_forward.get(name)
        if ph is None:
            ph = self.global_forward[name] = Placeholder(T.ptr, name)
            self.forward_pos[name] = self.pos - 1
        return ph

    def parse_typed_value(self) -> Value:
        ty = self.parse_type()
        return self.parse_value(ty)

    def parse_value(self, ty: T.Type) -> Value:
        kind = self.kinds[self.pos]
        v = self.vals[self.pos]
        if kind == "local":
            self.pos += 1
            return self.lookup_local(decode_name(v), ty)
        if kind == "global":
            self.pos += 1
            return self.lookup_global(decode_name(v))
        if kind == "int":
            value = self.int_value()
            if isinstance(ty, T.FloatType):
                return ConstantFP(ty, float(value))
            return ConstantInt(ty, value)
        if kind == "float":
            self.pos += 1
            return self.make_float(ty, v)
        if kind == "ident":
            if v in _SIMPLE_CONSTANTS:
                self.pos += 1
                return ConstantSimple(ty, v)
            if v == "true" or v == "false":
                self.pos += 1
                return ConstantInt(ty, 1 if v == "true" else 0)
            return self.parse_keyword_constant(ty, v)
        if kind == "cstr":
            self.pos += 1
            return ConstantBytes(ty, unescape(v[2:-1]))
        if kind in ("[", "{", "<"):
            return self.parse_aggregate(ty)
        if kind in ("mdnum", "mdstr", "mdname", "excl") and isinstance(ty, T.MetadataType):
            return MetadataAsValue(self.parse_metadata())
        if isinstance(ty, T.MetadataType) and is_type_start(kind, v):
            return MetadataAsValue(ValueAsMetadata(self.parse_typed_value()))
        self.error("expected a value", "value")

    def make_float(self, ty: T.Type, text: str) -> ConstantFP:
        body = text.lstrip("+-")
        if body.startswith("0x"):
            digits = body[2:]
            raw = text
            if digits[0] in "KLMHR":
                kind, digits = digits[0], digits[1:]
                value = _decode_small_float(kind, digits)
            else:
                value = struct.unpack(">d", bytes.fromhex(digits.rjust(16, "0")))[0]
            if text.startswith("-"):
                value = -value
            if value == value and digits and body[2:3] not in ("K", "L", "M"):
                raw = None  # exactly representable: the value itself prints the same hex
            return ConstantFP(ty, value, raw)
        return ConstantFP(ty, float(text))

    def parse_aggregate(self, ty: T.Type) -> Value:
        kind = self.kinds[self.pos]
        packed = False
        if kind == "<" and self.kinds[self.pos + 1] == "{":
            self.pos += 1
            kind = "{"
            packed = True
        close = {"[": "]", "{": "}", "<": ">"}[kind]
        self.pos += 1
        elems: list[Value] = []
        if not self.accept(close):
            while True:
                elems.append(self.parse_typed_value())
                if self.accept(close):
                    break
                self.expect(",")
        if packed:
            self.expect(">")
        return ConstantAggregate(ty, elems)

    def parse_keyword_constant(self, ty: T.Type, word: str) -> Value:
        self.pos += 1
        if word == "splat":
            self.expect("(")
            elem = self.parse_typed_value()
            self.expect(")")
            return ConstantSplat(ty, (elem,))
        if word == "asm":
            flags = []
            while self.at_word("sideeffect", "alignstack", "inteldialect", "unwind"):
                flags.append(self.next())
            text = string_body(self.expect("str"))
            self.expect(",")
            constraints = string_body(self.expect("str"))
            return InlineAsm(ty, text, constraints, flags)
        if word == "blockaddress":
            self.expect("(")
            fn = self.parse_value(T.ptr)
            self.expect(",")
            block_name = decode_name(self.expect("local"))
            self.expect(")")
            ph = Placeholder(T.label, block_name)
            self.pending_blockaddress.append((fn, ph, self.pos))
            return BlockAddress(ty, (fn, ph))
        if word in ("dso_local_equivalent", "no_cfi"):
            return ConstantExpr(ty, word, (self.parse_value(ty),))
        flags: list[str] = []
        allowed = OPCODE_FLAGS.get(word, frozenset())
        while self.kinds[self.pos] == "ident" and self.vals[self.pos] in allowed:
            flags.append(self.next())
        if word == "getelementptr":
            while self.at_word("inrange"):
                start = self.pos
                self.pos = self.balanced_end(self.pos + 1)
                flags.append(self.source_between(start, self.pos))
            self.expect("(")
            source = self.parse_type()
            ops: list[Value] = []
            while self.accept(","):
                ops.append(self.parse_typed_value())
            self.expect(")")
            return ConstantExpr(ty, word, ops, flags, source)
        if word in CAST_OPS:
            self.expect("(")
            op = self.parse_typed_value()
            self.expect_word("to")
            dest = self.parse_type()
            self.expect(")")
            return ConstantExpr(dest, word, (op,), flags)
        if word in VALUE_KEYWORDS:
            self.expect("(")
            ops = [self.parse_typed_value()]
            while self.accept(","):
                ops.append(self.parse_typed_value())
            self.expect(")")
            return ConstantExpr(ty, word, ops, flags)
        self.pos -= 1
        self.error("expected a value", "value")

    # ---------------------------------------------------------------- metadata
    def md_node(self, num: int) -> MDNode:
        node = self.md_nodes.get(num)
        if node is None:
            node = self.md_nodes[num] = MDNode()
        return node

    def parse_metadata(self) -> Metadata:
        kind = self.kinds[self.pos]
        v = self.vals[self.pos]
        if kind == "mdnum":
            self.pos += 1
            return self.md_node(int(v[1:]))
        if kind == "mdstr":
            self.pos += 1
            return MDString(string_body(v[1:]))
        if kind == "excl":
            self.pos += 1
            return self.parse_md_tuple(MDNode())
        if kind == "mdname":
            self.pos += 1
            return self.parse_specialized(MDNode(), v[1:])
        if is_type_start(kind, v):
            return ValueAsMetadata(self.parse_typed_value())
        self.error("expected metadata", "metadata")

    def parse_md_tuple(self, node: MDNode) -> MDNode:
        self.expect("{")
        ops: list[Metadata | None] = []
        if not self.accept("}"):
            while True:
                if self.accept_word("null"):
                    ops.append(None)
                else:
                    ops.append(self.parse_metadata())
                if self.accept("}"):
                    break
                self.expect(",")
        node.operands = ops
        node.kind = None
        return node

    def parse_specialized(self, node: MDNode, kind: str) -> MDNode:
        node.kind = kind
        node.operands = []
        node.fields = []
        self.expect("(")
        if self.accept(")"):
            return node
        while True:
            key = ""
            if self.kinds[self.pos] == "label":
                key = self.next()[:-1]
            k = self.kinds[self.pos]
            if k in ("mdnum", "mdstr", "mdname", "excl") or (kind == "DIArgList" and not key):
                value: Metadata | str | None = self.parse_metadata()
            else:
                start = self.pos
                while self.kinds[self.pos] not in (",", ")", "eof"):
                    if self.kinds[self.pos] == "(":
                        self.pos = self.balanced_end(self.pos)
                    else:
                        self.pos += 1
                value = self.source_between(start, self.pos)
            node.fields.append((key, value))
            if self.accept(")"):
                return node
            self.expect(",")

    def parse_attachment(self) -> tuple[str, MDNode]:
        name = self.expect("mdname", "metadata attachment")[1:]
        md = self.parse_metadata()
        if not isinstance(md, MDNode):
            self.error("metadata attachment must be a node", "metadata")
        return name, md


def _decode_small_float(kind: str, digits: str) -> float:
    raw = bytes.fromhex(digits)
    if kind == "H":
        return struct.unpack(">e", raw[-2:])[0]
    if kind == "R":
        return struct.unpack(">f", raw[-2:] + b"\0\0")[0]
    return float("nan")  # x86_fp80 / fp128 / ppc_fp128: value kept only as raw text
