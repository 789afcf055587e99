"""Typed records for the lines of an AMD IL ``;ARGSTART:``…``;ARGEND:`` metadata block.

Every record knows its line (``to_line()``, without the leading ``;`` stripped: the full line
``;kind:fields``); ``kernelkit.formats.amdil.codec.parse_metadata_line`` builds them from text.
Field meanings follow spec 000, "Compiler Metadata" and "Multi-Kernel Metadata".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.formats.amdil.datasegment import ELEMENT_SIZES

# spec 000 "Local/Private Memory": address spaces of ;memory:<space>:<size> (plus uavprivate and
# region/hwregion seen in 3:1:111 output and AMD's runtime parser)
MEMORY_SPACES = ("private", "hwprivate", "uavprivate", "local", "hwlocal", "region", "hwregion")
# spec 000 "Reserved Memory Write" / "Data Segment Memory" / 64-bit ABI flag of 3.x output
MEMORY_FLAGS = ("compilerwrite", "datareqd", "64bitABI")

# spec 000 "Pass by value arguments": data types of ;value: (u* types and half appear in 3.x output)
VALUE_TYPES = ("i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "half", "float",
               "double", "struct", "union", "event", "opaque", "sampler")
# byte size of one element of each ;value: type: the data types' sizes (datasegment.ELEMENT_SIZES),
# except that i1 is passed as a 32-bit integer (spec 000 "Scalar Arguments": booleans are 32-bit)
# and events, opaque handles and samplers are 32-bit values
VALUE_TYPE_SIZES = {t: ELEMENT_SIZES[t] for t in VALUE_TYPES if t in ELEMENT_SIZES} | {
    "i1": 4, "event": 4, "opaque": 4, "sampler": 4}

# spec 000 "Pass by pointer arguments", field 6: memory types
POINTER_MEMORY_TYPES = {
    "g": "global", "p": "emulated private", "l": "emulated local", "uav": "uav",
    "c": "emulated constant", "r": "emulated region (GDS)", "hl": "hardware local",
    "hp": "hardware private", "hc": "hardware constant", "hr": "hardware region (GDS)",
    "up": "uav private", "flat": "flat",
}
# the OpenCL address space each pointer memory type serves (types not listed are global)
POINTER_ADDRESS_SPACES = {"l": "local", "hl": "local", "c": "constant", "hc": "constant",
                          "p": "private", "hp": "private", "up": "private"}
# field counts of ;pointer: across metadata generations (after the "pointer" token):
# 1:4:53 has 8, later output adds RO|RW, then volatile:restrict.
POINTER_FIELD_COUNTS = (8, 9, 11)
POINTER_ACCESS = ("RO", "RW", "WO")

# spec 000 "Image Kernel Arguments": dimensions (1D/1DA/1DB/2DA appear in 3.x output) and access
IMAGE_DIMENSIONS = ("1D", "1DA", "1DB", "2D", "2DA", "3D")
IMAGE_ACCESS = ("RO", "WO", "RW")


@dataclass
class Version:
    major: int
    minor: int
    revision: int
    kind = "version"

    def to_line(self) -> str:
        return f";version:{self.major}:{self.minor}:{self.revision}"


@dataclass
class Device:
    name: str
    kind = "device"

    def to_line(self) -> str:
        return f";device:{self.name}"


@dataclass
class UniqueId:
    id: int
    kind = "uniqueid"

    def to_line(self) -> str:
        return f";uniqueid:{self.id}"


@dataclass
class Memory:
    """``;memory:<space>:<size>`` or a flag ``;memory:compilerwrite|datareqd|64bitABI``."""
    space: str
    size: int | None = None
    kind = "memory"

    @property
    def is_flag(self) -> bool:
        return self.size is None

    def to_line(self) -> str:
        return f";memory:{self.space}" if self.size is None else f";memory:{self.space}:{self.size}"


@dataclass
class GroupSize:
    """``;cws:X:Y:Z`` (also ``crs``/``wsh`` triples of later output)."""
    tag: str
    x: int
    y: int
    z: int

    @property
    def kind(self) -> str:
        return self.tag

    def to_line(self) -> str:
        return f";{self.tag}:{self.x}:{self.y}:{self.z}"


@dataclass
class Lws:
    size: int
    kind = "lws"

    def to_line(self) -> str:
        return f";lws:{self.size}"


@dataclass
class LimitGroupSize:
    kind = "limitgroupsize"

    def to_line(self) -> str:
        return ";limitgroupsize"


@dataclass
class Value:
    """``;value:Name:Type:NumEle:CB:Offset`` (structs/unions: NumEle is the byte size)."""
    name: str
    type: str
    count: int
    cb: int
    offset: int
    kind = "value"

    def to_line(self) -> str:
        return f";value:{self.name}:{self.type}:{self.count}:{self.cb}:{self.offset}"


@dataclass
class Pointer:
    """``;pointer:Name:Type:NumEle:CB:Offset:MemType:BufNum:Align[:RO|RW[:volatile:restrict]]``."""
    name: str
    type: str
    count: int
    cb: int
    offset: int
    memory: str
    buffer: int
    align: int
    access: str | None = None
    volatile: bool | None = None
    restrict: bool | None = None
    kind = "pointer"

    @property
    def field_count(self) -> int:
        if self.access is None:
            return 8
        return 9 if self.volatile is None else 11

    def to_line(self) -> str:
        text = (f";pointer:{self.name}:{self.type}:{self.count}:{self.cb}:{self.offset}:"
                f"{self.memory}:{self.buffer}:{self.align}")
        if self.access is not None:
            text += f":{self.access}"
            if self.volatile is not None:
                text += f":{int(self.volatile)}:{int(bool(self.restrict))}"
        return text


@dataclass
class Image:
    """``;image:Name:Dim:Access:Id:CB:Offset``."""
    name: str
    dimension: str
    access: str
    id: int
    cb: int
    offset: int
    kind = "image"

    def to_line(self) -> str:
        return (f";image:{self.name}:{self.dimension}:{self.access}:{self.id}:{self.cb}:"
                f"{self.offset}")


@dataclass
class Counter:
    """``;counter:Name:Bits:Id:CB:Offset``."""
    name: str
    bits: int
    id: int
    cb: int
    offset: int
    kind = "counter"

    def to_line(self) -> str:
        return f";counter:{self.name}:{self.bits}:{self.id}:{self.cb}:{self.offset}"


@dataclass
class Sema:
    """``;sema:Name:Id:CB:Offset``."""
    name: str
    id: int
    cb: int
    offset: int
    kind = "sema"

    def to_line(self) -> str:
        return f";sema:{self.name}:{self.id}:{self.cb}:{self.offset}"


@dataclass
class Sampler:
    """``;sampler:Name:Id:Location:Value`` (location 1 = defined in the kernel, 0 = argument)."""
    name: str
    id: int
    location: int
    value: int
    kind = "sampler"

    def to_line(self) -> str:
        return f";sampler:{self.name}:{self.id}:{self.location}:{self.value}"


@dataclass
class ConstArg:
    index: int
    name: str
    kind = "constarg"

    def to_line(self) -> str:
        return f";constarg:{self.index}:{self.name}"


@dataclass
class IdList:
    """``;function:N:id...`` or ``;intrinsic:N:id...``."""
    tag: str
    ids: list[int] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.tag

    def to_line(self) -> str:
        return f";{self.tag}:{len(self.ids)}" + "".join(f":{i}" for i in self.ids)


def escape_printf(text: str) -> str:
    """The compiler's escaping of a format string: CR and LF become ``\\r`` and ``\\n``."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def unescape_printf(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "nr":
            out.append("\n" if text[i + 1] == "n" else "\r")
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@dataclass
class PrintfFormat:
    """``;printf_fmt:ID:NumArgs:Size*:StrLen:Format;`` — ``text`` is the escaped form as written."""
    id: int
    arg_sizes: list[int]
    length: int
    text: str
    kind = "printf_fmt"

    @classmethod
    def from_format(cls, id: int, arg_sizes: list[int], fmt: str) -> PrintfFormat:
        return cls(id, list(arg_sizes), len(fmt), escape_printf(fmt))

    @property
    def format(self) -> str:
        return unescape_printf(self.text)

    def to_line(self) -> str:
        sizes = "".join(f":{s}" for s in self.arg_sizes)
        return f";printf_fmt:{self.id}:{len(self.arg_sizes)}{sizes}:{self.length}:{self.text};"


@dataclass
class ResourceId:
    """``;uavid:N``, ``;printfid:N``, ``;cbid:N``, ``;privateid:N``, ``;enqueue_kernel:N``,
    ``;kernel_index:N``."""
    tag: str
    value: int

    @property
    def kind(self) -> str:
        return self.tag

    def to_line(self) -> str:
        return f";{self.tag}:{self.value}"


@dataclass
class Reflection:
    index: int
    type_name: str
    kind = "reflection"

    def to_line(self) -> str:
        return f";reflection:{self.index}:{self.type_name}"


@dataclass
class Message:
    """``;error:msg`` / ``;warning:msg``."""
    tag: str
    message: str

    @property
    def kind(self) -> str:
        return self.tag

    def to_line(self) -> str:
        return f";{self.tag}:{self.message}"


@dataclass
class VecTypeHint:
    type_name: str
    kind = "vth"

    def to_line(self) -> str:
        return f";vth:{self.type_name}"


Record = (Version | Device | UniqueId | Memory | GroupSize | Lws | LimitGroupSize | Value | Pointer
          | Image | Counter | Sema | Sampler | ConstArg | IdList | PrintfFormat | ResourceId
          | Reflection | Message | VecTypeHint)

# argument records (those that occupy constant-buffer space), in the order kinds are named
ARGUMENT_RECORDS = (Value, Pointer, Image, Counter, Sema)
