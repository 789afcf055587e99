"""Values, use lists and constants.

Every operand edge is recorded on the used value (`value.uses`), so passes can ask who uses a
value and replace it everywhere (`replace_all_uses_with`). Constants are not uniqued: each
occurrence in the text is its own object, which keeps use lists short.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from kernelkit.ir import types as T
from kernelkit.ir.names import quote_bytes

if TYPE_CHECKING:
    pass


class RefWriter(Protocol):
    """What a value needs from the printer to write a reference to another value."""

    def ref(self, value: Value) -> str: ...

    def typed(self, value: Value) -> str: ...


class Use:
    __slots__ = ("user", "index")

    def __init__(self, user: User, index: int) -> None:
        self.user = user
        self.index = index

    @property
    def value(self) -> Value:
        return self.user.operands[self.index]

    def set(self, value: Value) -> None:
        self.user.set_operand(self.index, value)

    def __repr__(self) -> str:
        return f"Use({type(self.user).__name__}, {self.index})"


class Value:
    __slots__ = ("type", "name", "uses")

    def __init__(self, type: T.Type, name: str = "") -> None:
        self.type = type
        self.name = name
        self.uses: list[Use] = []

    @property
    def users(self) -> list[User]:
        seen: dict[int, User] = {}
        for u in self.uses:
            seen.setdefault(id(u.user), u.user)
        return list(seen.values())

    def replace_all_uses_with(self, new: Value) -> None:
        """Every use of this value now uses `new` (the same Use records move, in order)."""
        if new is self:
            return
        uses, self.uses = self.uses, []
        moved = new.uses
        for use in uses:
            use.user.operands[use.index] = new
            moved.append(use)

    def _ref(self, w: RefWriter) -> str:
        raise NotImplementedError(type(self).__name__)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.type} {self.name!r}>"


class User(Value):
    __slots__ = ("operands",)

    def __init__(self, type: T.Type, operands: Iterable[Value] = (), name: str = "") -> None:
        self.type = type
        self.name = name
        self.uses: list[Use] = []
        self.operands: list[Value] = list(operands)
        for i, op in enumerate(self.operands):
            op.uses.append(Use(self, i))

    def append_operand(self, value: Value) -> None:
        self.operands.append(value)
        value.uses.append(Use(self, len(self.operands) - 1))

    def set_operand(self, index: int, value: Value) -> None:
        old = self.operands[index]
        if old is value:
            return
        _drop_use(old, self, index)
        self.operands[index] = value
        value.uses.append(Use(self, index))

    def set_operands(self, values: Iterable[Value]) -> None:
        """Replace the whole operand list (use lists kept exact)."""
        self.drop_operands()
        for v in values:
            self.append_operand(v)

    def drop_operands(self) -> None:
        for i, old in enumerate(self.operands):
            _drop_use(old, self, i)
        self.operands = []


def _drop_use(value: Value, user: User, index: int) -> None:
    uses = value.uses
    for k in range(len(uses) - 1, -1, -1):
        u = uses[k]
        if u.user is user and u.index == index:
            del uses[k]
            return


# ---------------------------------------------------------------- constants


class Constant(User):
    __slots__ = ()

    def _ref(self, w: RefWriter) -> str:
        raise NotImplementedError(type(self).__name__)


class ConstantInt(Constant):
    __slots__ = ("value",)

    def __init__(self, type: T.Type, value: int) -> None:
        super().__init__(type)
        self.value = value

    def _ref(self, w: RefWriter) -> str:
        ty = self.type
        if ty.__class__ is T.IntType and ty.bits == 1:  # type: ignore[attr-defined]
            return "true" if self.value & 1 else "false"
        return str(self.value)


def _float_text(ty: T.Type, value: float) -> str:
    """LLVM's spelling: %e form when exact in double and the type, else 0x<double bits>."""
    if math.isfinite(value):
        text = f"{value:e}"
        if float(text) == value:
            return text
    return "0x" + struct.pack(">d", value).hex().upper()


class ConstantFP(Constant):
    """A float constant. `value` is the number (rounded to the type); `raw` keeps a hex
    spelling with no double equivalent (x86_fp80/fp128/ppc_fp128 forms, NaN payloads) so it
    round-trips exactly; when set it is what gets printed."""

    __slots__ = ("value", "raw")

    def __init__(self, type: T.Type, value: float, raw: str | None = None) -> None:
        super().__init__(type)
        self.value = value if raw is not None else round_to_type(type, value)
        self.raw = raw

    def _ref(self, w: RefWriter) -> str:
        if self.raw is not None:
            return self.raw
        kind = self.type.kind if isinstance(self.type, T.FloatType) else "double"
        if kind == "half":
            return "0xH" + struct.pack(">e", self.value).hex().upper()
        if kind == "bfloat":
            return "0xR" + struct.pack(">f", self.value).hex().upper()[:4]
        return _float_text(self.type, self.value)


def round_to_type(ty: T.Type, value: float) -> float:
    """`value` rounded to the precision of float/half/bfloat (double and wider: unchanged)."""
    kind = ty.kind if isinstance(ty, T.FloatType) else "double"
    try:
        if kind == "float":
            return struct.unpack("<f", struct.pack("<f", value))[0]
        if kind == "half":
            return struct.unpack("<e", struct.pack("<e", value))[0]
        if kind == "bfloat":
            bits = struct.unpack("<I", struct.pack("<f", value))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
            return struct.unpack("<f", struct.pack("<I", bits))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


class ConstantSimple(Constant):
    """null, none, undef, poison, zeroinitializer — the keyword is the whole value."""

    __slots__ = ("keyword",)

    def __init__(self, type: T.Type, keyword: str) -> None:
        super().__init__(type)
        self.keyword = keyword

    def _ref(self, w: RefWriter) -> str:
        return self.keyword


def null(ty: T.Type) -> ConstantSimple:
    return ConstantSimple(ty, "null")


def undef(ty: T.Type) -> ConstantSimple:
    return ConstantSimple(ty, "undef")


def poison(ty: T.Type) -> ConstantSimple:
    return ConstantSimple(ty, "poison")


def zeroinitializer(ty: T.Type) -> ConstantSimple:
    return ConstantSimple(ty, "zeroinitializer")


class ConstantAggregate(Constant):
    """Struct `{ ... }`, packed struct `<{ ... }>`, array `[ ... ]` or vector `< ... >`."""

    __slots__ = ()

    def _ref(self, w: RefWriter) -> str:
        ty = self.type
        body = ", ".join(w.typed(op) for op in self.operands)
        if isinstance(ty, T.ArrayType):
            return f"[{body}]"
        if isinstance(ty, T.VectorType):
            return f"<{body}>"
        packed = getattr(ty, "packed", False)
        inner = "{ " + body + " }" if body else "{}"
        return f"<{inner}>" if packed else inner


class ConstantBytes(Constant):
    """`c"..."` — an array of i8."""

    __slots__ = ("data",)

    def __init__(self, type: T.Type, data: bytes) -> None:
        super().__init__(type)
        self.data = data

    def _ref(self, w: RefWriter) -> str:
        return f'c"{quote_bytes(self.data)}"'


class ConstantSplat(Constant):
    """`splat (T v)` — a vector whose lanes all equal operand 0."""

    __slots__ = ()

    def _ref(self, w: RefWriter) -> str:
        return f"splat ({w.typed(self.operands[0])})"


class ConstantExpr(Constant):
    """A constant expression: `opcode` plus `flags` (e.g. inbounds, nuw), `source_type` for
    getelementptr, `predicate` for compares, and operands. Casts keep the result type."""

    __slots__ = ("opcode", "flags", "source_type")

    def __init__(self, type: T.Type, opcode: str, operands: Iterable[Value],
                 flags: Iterable[str] = (), source_type: T.Type | None = None) -> None:
        super().__init__(type, operands)
        self.opcode = opcode
        self.flags = list(flags)
        self.source_type = source_type

    def _ref(self, w: RefWriter) -> str:
        from kernelkit.ir.opcodes import CAST_OPS

        head = " ".join([self.opcode, *self.flags])
        ops = self.operands
        if self.opcode in ("dso_local_equivalent", "no_cfi"):
            return f"{self.opcode} {w.ref(ops[0])}"
        if self.opcode in CAST_OPS:
            return f"{head} ({w.typed(ops[0])} to {self.type})"
        if self.opcode == "getelementptr":
            parts = [str(self.source_type), *(w.typed(o) for o in ops)]
            return f"{head} ({', '.join(parts)})"
        return f"{head} ({', '.join(w.typed(o) for o in ops)})"


class BlockAddress(Constant):
    __slots__ = ()

    def _ref(self, w: RefWriter) -> str:
        fn, block = self.operands
        block_ref = getattr(w, "block_ref", w.ref)
        return f"blockaddress({w.ref(fn)}, {block_ref(block)})"


class InlineAsm(Value):
    __slots__ = ("text", "constraints", "flags")

    def __init__(self, type: T.Type, text: str, constraints: str, flags: Iterable[str] = ()) -> None:
        super().__init__(type)
        self.text = text
        self.constraints = constraints
        self.flags = list(flags)

    def _ref(self, w: RefWriter) -> str:
        from kernelkit.ir.names import quote_string

        flags = "".join(f"{f} " for f in self.flags)
        return f'asm {flags}"{quote_string(self.text)}", "{quote_string(self.constraints)}"'


class Placeholder(Value):
    """A forward reference the parser resolves (RAUW) when the definition arrives."""

    __slots__ = ()

    def _ref(self, w: RefWriter) -> str:
        return f"%<unresolved {self.name}>"


def const_int(ty: T.Type, value: int) -> ConstantInt:
    return ConstantInt(ty, value)


def const_float(ty: T.Type, value: float) -> ConstantFP:
    return ConstantFP(ty, value)


def walk_constant_operands(value: Value) -> Iterator[Value]:
    """Depth-first over a constant's operand tree (the value itself included)."""
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, Constant):
            stack.extend(v.operands)
