"""AMD IL argument slots in cb1 (spec 000, "Dynamic Locations" and the sections after it) and
UAV assignment (spec 000, "Assumptions and setup").

Every argument takes whole 16-byte slots, 16-byte aligned, in cb1 **from byte 0** as real programs
do (reference/amdil: ``;value:srcOrigin:i32:4:1:64`` after two images). The spec's sentence
"All kernel arguments are 128bit, or 16byte aligned, and start at byte 96" does not match real
output; ``SPEC_ARGUMENT_START`` keeps its number for reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.errors import KernelkitError
from kernelkit.formats.amdil import records as r

SLOT = 16
SPEC_ARGUMENT_START = 96        # spec 000 "Dynamic Locations" wording (not what real output does)
ARGUMENT_CB = 1                 # spec 000: cb1 holds the kernel-specific ABI information
IMAGE_SLOTS = 2                 # spec 000 "Image Metadata": two sequential slots, 32 bytes

# spec 000 "Assumptions and setup": UAV ids
RAW_UAV = 1                     # raw UAV on 7XX and Evergreen
ARENA_UAV_SPEC = 0              # "uav id 0 is used for the arena uav" (spec wording)
ARENA_UAV_OBSERVED = 8          # real juniper output declares dcl_arena_uav_id(8)
MAX_WRITE_IMAGES = 8
DEFAULT_LDS_ID = 1              # hardware local pointers name LDS buffer 1 (;pointer:...:hl:1:...)

# OpenCL element names -> AMD IL metadata data types (signed spelling used by 1.x/2.x metadata,
# unsigned spelling added by 3.x output: ;value:v0:u8:1:1:0 for a uchar)
ELEMENT_TYPES: dict[str, tuple[str, str, int]] = {
    # element: (1.x type, 3.x type, bits)
    "char": ("i8", "i8", 8), "uchar": ("i8", "u8", 8),
    "short": ("i16", "i16", 16), "ushort": ("i16", "u16", 16),
    "int": ("i32", "i32", 32), "uint": ("i32", "u32", 32),
    "long": ("i64", "i64", 64), "ulong": ("i64", "u64", 64),
    "half": ("half", "half", 16), "float": ("float", "float", 32), "double": ("double", "double", 64),
    "bool": ("i1", "i1", 32), "size_t": ("i32", "u32", 32),
}


def value_slots(element_bits: int, width: int, whole: bool = False) -> int:
    """Slots of a scalar or vector (spec 000 "Scalar Arguments" … "8, 16bit Vector Arguments").

    8/16-bit vectors: up to 4 components in one slot, every 4 components on a 128-bit boundary
    (width // 4). 32/64-bit: one slot per 128 bits, computed as AMD's compiler does (total bits
    >> 7), so a 3-component 64-bit vector takes one slot — the Catalyst binaries in
    reference/amdil/catalyst-clo place ``ulong3 v38`` at 992 and the next argument at 1008, and
    such an argument's third component does not reach the kernel. ``whole`` rounds up instead
    (what kernelkit's own 1.x-metadata programs use: spec 000 "one vector location for each
    128bits they require", so a ``long3`` gets two slots and arrives whole).
    """
    if element_bits < 32:
        return max(1, width >> 2)
    if whole:
        return max(1, (element_bits * width + 127) >> 7)
    return max(1, (element_bits * width) >> 7)


def aggregate_slots(size: int) -> int:
    """spec 000 "Aggregate Arguments": (sizeof + 15) & ~15 bytes, 16-byte aligned."""
    return max(1, ((size + 15) & ~15) // SLOT)


@dataclass
class UavAssignment:
    family: str
    raw_uav: int | None
    arena_uav: int | None
    arena_uav_spec: int | None
    write_image_uavs: list[int] = field(default_factory=list)


def assign_uavs(family: str, write_images: int) -> UavAssignment:
    """spec 000: raw UAV 1 on 7XX and Evergreen; Evergreen (and later) adds the arena UAV;
    write-only images use UAV 2-8 when up to 7 exist and 1-8 when 8 exist (then no raw UAV)."""
    if write_images > MAX_WRITE_IMAGES:
        raise KernelkitError(f"{write_images} write-only images: at most {MAX_WRITE_IMAGES}")
    if family == "7XX":
        if write_images:
            raise KernelkitError("images are only valid on the Evergreen family or later")
        return UavAssignment(family, RAW_UAV, None, None)
    first = 1 if write_images == MAX_WRITE_IMAGES else 2
    raw = None if write_images == MAX_WRITE_IMAGES else RAW_UAV
    return UavAssignment(family, raw, ARENA_UAV_OBSERVED, ARENA_UAV_SPEC,
                         [first + k for k in range(write_images)])


@dataclass
class ArgSlot:
    """One argument's place in cb1 and what the runtime writes there."""
    index: int
    name: str
    kind: str                 # value | pointer | image | sampler | counter | sema
    offset: int
    slots: int
    record: r.Record          # the metadata line describing it
    element: str | None = None
    element_bits: int = 0
    width: int = 1
    size: int = 0             # bytes of the value (structs/unions), 0 otherwise
    address_space: str | None = None
    image_dim: str | None = None
    access: str | None = None

    @property
    def cb(self) -> int:
        return ARGUMENT_CB

    def to_json(self) -> dict:
        d = {"index": self.index, "name": self.name, "kind": self.kind, "cb": self.cb,
             "offset": self.offset, "slots": self.slots, "bytes": self.slots * SLOT,
             "metadata": self.record.to_line()}
        for key in ("element", "address_space", "image_dim", "access"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        if self.element is not None:
            d["width"] = self.width
        if self.size:
            d["size"] = self.size
        return d
