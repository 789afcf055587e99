"""LLVM IR types: integers, floating point, pointers with address spaces, vectors, arrays,
literal/named/packed structs, function types, target extension types and the special types."""

from __future__ import annotations

# LLVM LangRef "Floating-Point Types": keyword -> bit width.
FLOAT_KINDS: dict[str, int] = {
    "half": 16, "bfloat": 16, "float": 32, "double": 64,
    "fp128": 128, "x86_fp80": 80, "ppc_fp128": 128,
}


class Type:
    """Base of every IR type. Structural types compare by value; named structs by identity."""

    __slots__ = ()

    def is_int(self, bits: int | None = None) -> bool:
        return isinstance(self, IntType) and (bits is None or self.bits == bits)

    @property
    def is_void(self) -> bool:
        return isinstance(self, VoidType)

    @property
    def is_pointer(self) -> bool:
        return isinstance(self, PointerType)

    @property
    def is_float(self) -> bool:
        return isinstance(self, FloatType)

    @property
    def is_vector(self) -> bool:
        return isinstance(self, VectorType)

    @property
    def scalar(self) -> Type:
        """Element type of a vector, else the type itself."""
        return self.element if isinstance(self, VectorType) else self


class _Frozen(Type):
    """A structural type: immutable, equal when of the same class with equal fields, hashed by
    them (what ``@dataclass(frozen=True, slots=True)`` generated, written out: making a dataclass
    costs ~0.5 ms of every process's import of kernelkit.ir, 6 ms for these twelve)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return type(self), self._key()


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a structural type (they are immutable)."""


_set = object.__setattr__


class VoidType(_Frozen):
    __slots__ = ()

    def __str__(self) -> str:
        return "void"


class LabelType(_Frozen):
    __slots__ = ()

    def __str__(self) -> str:
        return "label"


class MetadataType(_Frozen):
    __slots__ = ()

    def __str__(self) -> str:
        return "metadata"


class TokenType(_Frozen):
    __slots__ = ()

    def __str__(self) -> str:
        return "token"


class IntType(_Frozen):
    __slots__ = ("bits",)
    __match_args__ = _fields = ("bits",)
    bits: int

    def __init__(self, bits: int) -> None:
        _set(self, "bits", bits)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not IntType:
            return NotImplemented
        return self.bits == other.bits  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.bits,))

    def __str__(self) -> str:
        return f"i{self.bits}"


class FloatType(_Frozen):
    __slots__ = ("kind",)
    __match_args__ = _fields = ("kind",)
    kind: str  # a key of FLOAT_KINDS

    def __init__(self, kind: str) -> None:
        _set(self, "kind", kind)

    @property
    def bits(self) -> int:
        return FLOAT_KINDS[self.kind]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not FloatType:
            return NotImplemented
        return (self.kind,) == (other.kind,)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.kind,))

    def __str__(self) -> str:
        return self.kind


class PointerType(_Frozen):
    __slots__ = ("addrspace",)
    __match_args__ = _fields = ("addrspace",)
    addrspace: int

    def __init__(self, addrspace: int = 0) -> None:
        _set(self, "addrspace", addrspace)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not PointerType:
            return NotImplemented
        return self.addrspace == other.addrspace  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.addrspace,))

    def __str__(self) -> str:
        return "ptr" if self.addrspace == 0 else f"ptr addrspace({self.addrspace})"


class VectorType(_Frozen):
    __slots__ = ("element", "count", "scalable")
    __match_args__ = _fields = ("element", "count", "scalable")
    element: Type
    count: int
    scalable: bool

    def __init__(self, element: Type, count: int, scalable: bool = False) -> None:
        _set(self, "element", element)
        _set(self, "count", count)
        _set(self, "scalable", scalable)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not VectorType:
            return NotImplemented
        return (self.element, self.count, self.scalable) == (other.element, other.count, other.scalable)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.element, self.count, self.scalable))

    def __str__(self) -> str:
        vs = "vscale x " if self.scalable else ""
        return f"<{vs}{self.count} x {self.element}>"


class ArrayType(_Frozen):
    __slots__ = ("element", "count")
    __match_args__ = _fields = ("element", "count")
    element: Type
    count: int

    def __init__(self, element: Type, count: int) -> None:
        _set(self, "element", element)
        _set(self, "count", count)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not ArrayType:
            return NotImplemented
        return (self.element, self.count) == (other.element, other.count)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.element, self.count))

    def __str__(self) -> str:
        return f"[{self.count} x {self.element}]"


class LiteralStructType(_Frozen):
    __slots__ = ("elements", "packed")
    __match_args__ = _fields = ("elements", "packed")
    elements: tuple[Type, ...]
    packed: bool

    def __init__(self, elements: tuple[Type, ...], packed: bool = False) -> None:
        _set(self, "elements", elements)
        _set(self, "packed", packed)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not LiteralStructType:
            return NotImplemented
        return (self.elements, self.packed) == (other.elements, other.packed)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.elements, self.packed))

    def __str__(self) -> str:
        return struct_body_text(self.elements, self.packed)


class NamedStructType(Type):
    """`%name = type { ... }` or `type opaque`; identity-compared, body may be set later."""

    __slots__ = ("name", "elements", "packed")
    __match_args__ = ("name", "elements", "packed")

    def __init__(self, name: str, elements: tuple[Type, ...] | None = None, packed: bool = False) -> None:
        self.name = name
        self.elements = elements  # None: opaque
        self.packed = packed

    def __repr__(self) -> str:
        return f"NamedStructType(name={self.name!r}, elements={self.elements!r}, packed={self.packed!r})"

    @property
    def is_opaque(self) -> bool:
        return self.elements is None

    def __str__(self) -> str:
        from kernelkit.ir.names import format_local_name

        return format_local_name(self.name)

    def body_text(self) -> str:
        return "opaque" if self.elements is None else struct_body_text(self.elements, self.packed)

    def __hash__(self) -> int:
        return id(self)


class FunctionType(_Frozen):
    __slots__ = ("return_type", "params", "vararg")
    __match_args__ = _fields = ("return_type", "params", "vararg")
    return_type: Type
    params: tuple[Type, ...]
    vararg: bool

    def __init__(self, return_type: Type, params: tuple[Type, ...] = (), vararg: bool = False) -> None:
        _set(self, "return_type", return_type)
        _set(self, "params", params)
        _set(self, "vararg", vararg)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not FunctionType:
            return NotImplemented
        return (self.return_type, self.params, self.vararg) == (other.return_type, other.params, other.vararg)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.return_type, self.params, self.vararg))

    def __str__(self) -> str:
        params = [str(p) for p in self.params]
        if self.vararg:
            params.append("...")
        return f"{self.return_type} ({', '.join(params)})"


class TargetExtType(_Frozen):
    """`target("name", types..., ints...)`."""

    __slots__ = ("name", "types", "ints")
    __match_args__ = _fields = ("name", "types", "ints")
    name: str
    types: tuple[Type, ...]
    ints: tuple[int, ...]

    def __init__(self, name: str, types: tuple[Type, ...] = (), ints: tuple[int, ...] = ()) -> None:
        _set(self, "name", name)
        _set(self, "types", types)
        _set(self, "ints", ints)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not TargetExtType:
            return NotImplemented
        return (self.name, self.types, self.ints) == (other.name, other.types, other.ints)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.name, self.types, self.ints))

    def __str__(self) -> str:
        from kernelkit.ir.names import quote_string

        parts = [f'"{quote_string(self.name)}"', *map(str, self.types), *map(str, self.ints)]
        return f"target({', '.join(parts)})"


def struct_body_text(elements: tuple[Type, ...], packed: bool) -> str:
    body = "{}" if not elements else "{ " + ", ".join(map(str, elements)) + " }"
    return f"<{body}>" if packed else body


StructType = LiteralStructType | NamedStructType

# Shared instances of the common types.
void = VoidType()
label = LabelType()
metadata = MetadataType()
token = TokenType()
i1 = IntType(1)
i8 = IntType(8)
i16 = IntType(16)
i32 = IntType(32)
i64 = IntType(64)
half = FloatType("half")
bfloat = FloatType("bfloat")
float32 = FloatType("float")
float64 = FloatType("double")
ptr = PointerType(0)


def pointer(addrspace: int = 0) -> PointerType:
    return PointerType(addrspace)


def is_struct(ty: Type) -> bool:
    return isinstance(ty, LiteralStructType | NamedStructType)


def aggregate_element(ty: Type, index: int) -> Type:
    """Type of member `index` of a struct, array or vector type."""
    if isinstance(ty, LiteralStructType | NamedStructType):
        assert ty.elements is not None
        return ty.elements[index]
    if isinstance(ty, ArrayType | VectorType):
        return ty.element
    raise TypeError(f"{ty} is not an aggregate")
