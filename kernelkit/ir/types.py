"""LLVM IR types: integers, floating point, pointers with address spaces, vectors, arrays,
literal/named/packed structs, function types, target extension types and the special types."""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass(frozen=True, slots=True)
class VoidType(Type):
    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True, slots=True)
class LabelType(Type):
    def __str__(self) -> str:
        return "label"


@dataclass(frozen=True, slots=True)
class MetadataType(Type):
    def __str__(self) -> str:
        return "metadata"


@dataclass(frozen=True, slots=True)
class TokenType(Type):
    def __str__(self) -> str:
        return "token"


@dataclass(frozen=True, slots=True)
class IntType(Type):
    bits: int

    def __str__(self) -> str:
        return f"i{self.bits}"


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    kind: str  # a key of FLOAT_KINDS

    @property
    def bits(self) -> int:
        return FLOAT_KINDS[self.kind]

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class PointerType(Type):
    addrspace: int = 0

    def __str__(self) -> str:
        return "ptr" if self.addrspace == 0 else f"ptr addrspace({self.addrspace})"


@dataclass(frozen=True, slots=True)
class VectorType(Type):
    element: Type
    count: int
    scalable: bool = False

    def __str__(self) -> str:
        vs = "vscale x " if self.scalable else ""
        return f"<{vs}{self.count} x {self.element}>"


@dataclass(frozen=True, slots=True)
class ArrayType(Type):
    element: Type
    count: int

    def __str__(self) -> str:
        return f"[{self.count} x {self.element}]"


@dataclass(frozen=True, slots=True)
class LiteralStructType(Type):
    elements: tuple[Type, ...]
    packed: bool = False

    def __str__(self) -> str:
        return struct_body_text(self.elements, self.packed)


@dataclass(eq=False, slots=True)
class NamedStructType(Type):
    """`%name = type { ... }` or `type opaque`; identity-compared, body may be set later."""

    name: str
    elements: tuple[Type, ...] | None = None  # None: opaque
    packed: bool = False

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


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    return_type: Type
    params: tuple[Type, ...] = field(default_factory=tuple)
    vararg: bool = False

    def __str__(self) -> str:
        params = [str(p) for p in self.params]
        if self.vararg:
            params.append("...")
        return f"{self.return_type} ({', '.join(params)})"


@dataclass(frozen=True, slots=True)
class TargetExtType(Type):
    """`target("name", types..., ints...)`."""

    name: str
    types: tuple[Type, ...] = ()
    ints: tuple[int, ...] = ()

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
