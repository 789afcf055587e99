"""Build CL2 kernel metadata blobs (``formats.amdcl2.metadata``) from a description of the
kernel's arguments, for each driver layout, the way AMD's drivers write them (field values as
CLRX's generator AmdCL2BinGen documents them, checked against reference/amdcl2).

Argument entries: ``argType`` is the element type code (char 6, short 7, int 8, long 9, float 11,
double 12, struct 15, sampler 0, image: its access 1/2/3, pointer and pipe 7, queue 18); from
Crimson 16 (driver 200406) on, signed scalar char/short/int/long take the code minus 4.
``vectorLength`` is the vector width (3 -> 4 from driver 191205), a struct's size, or an image's
or sampler's resource id (read and written images counted apart). ``argOffset`` advances by the
argument's size (elements of at least 4 bytes; images 32, samplers, pointers, pipes and queues
16) rounded to 16. Pointers: ``ptrType`` the pointee code, ``ptrAlignment`` the pointee size
rounded up to a power of two, ``ptrSpace`` local 3 / global 4 / constant 5; pipes ``ptrType`` 15,
alignment 256; ``isPointerOrPipe`` the usage (1 read or unused, 2 written, 3 both; pipes 3 when
used, else 1; before driver 191205 always 3).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats.amdcl2.metadata import (
    ARCH_WORD_DRIVER,
    ARG_STRUCTS,
    GENERIC_WORD,
    HEADER_END_FORMATS,
    HEADER_SIZES,
    HEADER_STRUCTS,
    ArgEntry,
    KernelMetadata,
    layout_of_driver,
)
from kernelkit.formats.amdcl2.printf import encode_printf

FIRST_NAME = "__OpenCL_dummy_kernel"
# element type -> (argType code, element size)
ELEMENT_CODES: dict[str, tuple[int, int]] = {
    "void": (6, 1), "char": (6, 1), "uchar": (6, 1), "bool": (6, 1), "short": (7, 2), "ushort": (7, 2),
    "half": (7, 2), "int": (8, 4), "uint": (8, 4), "long": (9, 8), "ulong": (9, 8), "float": (11, 4),
    "double": (12, 8),
}
SIGNED_SCALAR_SHIFT = ("char", "short", "int", "long")   # argType - 4 from Crimson 16 on
STRUCT_CODE, POINTER_CODE, PIPE_PTR_TYPE, QUEUE_CODE, EVENT_PTR_TYPE = 15, 7, 15, 18, 18
POINTER_SPACE_CODES = {"local": 3, "global": 4, "constant": 5}
KIND_CODES = {"sampler": 1, "image": 2, "pointer": 5, "pipe": 5, "event": 5, "queue": 7}
IMAGE_ACCESS_CODES = {"read_only": 1, "write_only": 2, "read_write": 3, "none": 3}
# bytes an argument takes in argOffset's virtual layout (before rounding to 16)
HANDLE_SIZES = {"image": 32, "sampler": 16, "pointer": 16, "pipe": 16, "queue": 16, "event": 16}
ARCH_WORDS = {6: "GFX6", 7: "GFX7", 8: "GFX8", 9: "GFX9"}
# header words every driver writes (CLRX: unknown1 = 3, 1, 0x68; unknown2 = 8, 1, 1, 2)
HEADER_CONSTANT_1 = struct.pack("<3I", 3, 1, 0x68)
HEADER_CONSTANT_2 = struct.pack("<4I", 8, 1, 1, 2)
OPTION_REQD_SIZE, OPTION_64BIT, OPTION_OLD_RESOURCES = 0x04, 0x20, 0x100
TAIL_WORD_NEW = 6                         # the u32 after the kernel index from driver 191205 on


@dataclass
class MetadataArg:
    """One argument as the metadata describes it."""
    name: str
    type_name: str
    kind: str                  # value | struct | pointer | pipe | image | sampler | queue | event
    element: str | None = None  # values: element; pointers: pointee element (None: struct/void)
    width: int = 1             # values: vector width; pointers: pointee vector width
    struct_size: int = 0       # struct values; pointers to structs: pointee size
    address_space: str = "global"
    access: str = "none"       # images
    is_const: bool = False
    is_restrict: bool = False
    is_volatile: bool = False
    usage: int = 0             # pointers and pipes: bit 0 read, bit 1 written
    resource_id: int = 0       # images and samplers


@dataclass
class MetadataKernel:
    args: list[MetadataArg]
    kernel_id: int = 1024                 # the driver numbers kernels from 1024
    kernel_index: int = 0
    reqd_work_group_size: tuple[int, int, int] = (0, 0, 0)
    work_group_size_hint: tuple[int, int, int] = (0, 0, 0)
    vec_type_hint: str = ""
    enqueues: bool = False                # uses device-side enqueue
    uses_pipes: bool = False
    uses_locals: bool = False
    scratch_size: int = 0
    local_size: int = 0                   # static local memory bytes (old layout: RT_MEM_SIZES[1])
    printf: list = field(default_factory=list)   # printf.PrintfFormat records of the kernel


def setup_metadata_args(bits: int) -> list[MetadataArg]:
    """The six setup arguments as the driver lists them first (all typed ``size_t``; the 32-bit
    drivers of reference/amdcl2 mark the three global offsets const, the 64-bit ones do not)."""
    size_t = "long" if bits == 64 else "int"
    out = [MetadataArg(f"_.{n}", "size_t", "value", size_t, is_const=bits == 32) for n in
           ("global_offset_0", "global_offset_1", "global_offset_2")]
    out.append(MetadataArg("_.printf_buffer", "size_t", "pointer", "char", usage=1))
    out += [MetadataArg(f"_.{n}", "size_t", "value", size_t) for n in ("vqueue_pointer", "aqlwrap_pointer")]
    return out


def _pointee_alignment(arg: MetadataArg, new: bool) -> int:
    if arg.element is None:
        size = arg.struct_size or 1
    else:
        width = 4 if new and arg.width == 3 else arg.width
        size = ELEMENT_CODES[arg.element][1] * width
    align = 1 << (size.bit_length() - 1)
    return align if align == size else align << 1


def _element(arg: MetadataArg) -> tuple[int, int]:
    if arg.element not in ELEMENT_CODES:
        raise FormatError(f"argument {arg.name}: no CL2 type code for element {arg.element!r}",
                          field="metadata.arg.argType")
    return ELEMENT_CODES[arg.element]


def encode_arg(arg: MetadataArg, offset: int, bits: int, driver_version: int) -> tuple[dict, int]:
    """Entry fields of one argument and the virtual offset of the next."""
    new, crimson16 = driver_version >= 191205, driver_version >= 200406
    kind = arg.kind
    f = dict.fromkeys(("unknown1", "unknown2", "vector_length", "unknown3", "arg_offset", "arg_type",
                       "ptr_alignment", "ptr_type", "ptr_space", "is_pointer_or_pipe", "is_volatile",
                       "is_restrict", "is_pipe", "unknown4", "kind_of_type", "is_const"), 0)
    f["size"] = ARG_STRUCTS[bits].size
    f["name_size"], f["type_name_size"] = len(arg.name.encode()), len(arg.type_name.encode())
    f["unknown3"] = int(kind != "sampler")
    f["arg_offset"] = offset
    f["kind_of_type"] = KIND_CODES.get(kind, 4)
    if kind in ("value", "struct"):
        if kind == "struct":
            code, size, f["vector_length"] = STRUCT_CODE, arg.struct_size, arg.struct_size
        else:
            code, esize = _element(arg)
            width = 4 if new and arg.width == 3 else arg.width
            f["vector_length"] = width
            size = max(4, esize) * width
            if crimson16 and arg.width == 1 and arg.element in SIGNED_SCALAR_SHIFT:
                code -= 4
        f["arg_type"] = code
    else:
        size = HANDLE_SIZES.get(kind, 16)
        if kind in ("image", "sampler"):
            f["vector_length"] = arg.resource_id
            f["arg_type"] = IMAGE_ACCESS_CODES.get(arg.access, 3) if kind == "image" else 0
            f["ptr_alignment"] = 1 if kind == "image" else 0
        elif kind == "queue":
            f["vector_length"], f["arg_type"], f["ptr_alignment"] = 1, QUEUE_CODE, 4 if new else 2
        else:
            f["vector_length"], f["arg_type"] = 1, POINTER_CODE
            f["ptr_space"] = POINTER_SPACE_CODES.get(arg.address_space, 4) if kind == "pointer" else 4
            if kind == "pipe":
                f["ptr_alignment"], f["ptr_type"], f["is_pipe"] = 256, PIPE_PTR_TYPE, 1
                f["is_pointer_or_pipe"] = 3 if arg.usage else 1
            else:
                if kind == "event":
                    f["ptr_alignment"], f["ptr_type"] = 4, EVENT_PTR_TYPE
                else:
                    f["ptr_alignment"] = _pointee_alignment(arg, new)
                    f["ptr_type"] = STRUCT_CODE if arg.element is None and arg.struct_size else \
                        ELEMENT_CODES.get(arg.element or "void", (6, 1))[0]
                f["is_pointer_or_pipe"] = (arg.usage or 1) if new else 3
            f["is_restrict"], f["is_volatile"] = int(arg.is_restrict), int(arg.is_volatile)
    f["is_const"] = int(arg.is_const)
    return f, offset + (size + 15) // 16 * 16


def _old_mem_sizes(local_size: int, wide: bool) -> bytes:
    """RT_MEM_SIZES[0..2] of AMD's metadata 0.8 (CLRX's unknown4): the drivers before 191205
    write the kernel's static local memory in [1]; later ones leave them zero."""
    return struct.pack("<3Q" if wide else "<3I", 0, local_size, 0)


def build_kernel_metadata(kernel: MetadataKernel, *, bits: int, driver_version: int,
                          gfx_level: int = 7) -> KernelMetadata:
    """The metadata blob of one kernel (setup arguments included in ``kernel.args``)."""
    if bits not in (32, 64):
        raise FormatError(f"CL2 binaries are 32- or 64-bit, not {bits}", field="bits")
    layout = layout_of_driver(driver_version)
    new = driver_version >= 191205
    wide = bits == 64
    second = ARCH_WORDS.get(gfx_level, GENERIC_WORD) if driver_version >= ARCH_WORD_DRIVER else GENERIC_WORD
    options = (OPTION_REQD_SIZE if kernel.reqd_work_group_size[0] else 0) | (OPTION_64BIT if wide else 0)
    if not new and (kernel.enqueues or kernel.uses_locals or kernel.uses_pipes or kernel.scratch_size):
        options |= OPTION_OLD_RESOURCES
    header: dict[str, object] = {
        "size": HEADER_SIZES[bits][layout], "metadata_size": 0, "unknown1": HEADER_CONSTANT_1,
        "options": options, "kernel_id": kernel.kernel_id, "unknownx": 0, "unknowny": 0,
        "unknown2": HEADER_CONSTANT_2, "reqd_work_group_size": tuple(kernel.reqd_work_group_size),
        "unknown3": bytes(16 if wide else 12), "first_name_length": len(FIRST_NAME),
        "second_name_length": len(second), "unknown4": _old_mem_sizes(kernel.local_size if not new else 0, wide),
        "pipes_usage": 0 if new else (kernel.scratch_size or (int(kernel.uses_pipes) << 4)),
        "unknown5": bytes(16 if wide else 8),
        "args_num": len(kernel.args) | (0 if wide else len(kernel.printf) << 32),
    }
    tail = bytearray(struct.pack("<Q", len(kernel.printf)) + bytes(32) if wide else bytes(16))
    tail += struct.pack("<2I", int(kernel.enqueues), kernel.kernel_index)
    if new:
        tail += struct.pack("<I", TAIL_WORD_NEW)
        if layout == "crimson16" and wide:
            tail += bytes(4)
        tail += struct.pack("<I", 0 if kernel.uses_pipes or kernel.enqueues else 0xFFFFFFFF)
    if layout == "crimson16":
        end = HEADER_END_FORMATS[bits]
        tail += bytes(HEADER_SIZES[bits][layout] - end.size - HEADER_STRUCTS[bits].size - len(tail))
        tail += end.pack(*kernel.work_group_size_hint, len(kernel.vec_type_hint.encode()), 0)
    entries, offset = [], 0
    for a in kernel.args:
        fields, offset = encode_arg(a, offset, bits, driver_version)
        entries.append(ArgEntry(a.name, a.type_name, fields))
    md = KernelMetadata(bits, header, bytes(tail), FIRST_NAME, second,
                        kernel.vec_type_hint if layout == "crimson16" else None, entries,
                        bytes(ARG_STRUCTS[bits].size), encode_printf(kernel.printf, bits))
    if len(md.header_tail) + HEADER_STRUCTS[bits].size != md.header["size"]:
        raise FormatError("header layout mismatch", field="metadata.size")
    md.header["metadata_size"] = len(md.to_bytes())
    return md



CODE_ELEMENTS = {6: "char", 7: "short", 8: "int", 9: "long", 11: "float", 12: "double"}


def describe_arg(entry: ArgEntry, driver_version: int) -> MetadataArg:
    """The description ``encode_arg`` writes ``entry`` from (element signedness from the type
    name when it names a scalar or vector type)."""
    from kernelkit.abi.opencl_types import parse_value_type

    get = entry.get
    kind = entry.kind
    code = get("arg_type")
    a = MetadataArg(entry.name, entry.type_name, kind, is_const=bool(get("is_const")))
    if kind == "value" and get("kind_of_type") == 4 and code not in CODE_ELEMENTS and 2 <= code <= 5:
        a.element = CODE_ELEMENTS[code + 4]          # Crimson 16's signed scalar codes
    elif kind == "value":
        parsed = parse_value_type(entry.type_name)
        a.element = parsed[0] if parsed is not None and ELEMENT_CODES.get(parsed[0], (0,))[0] == code \
            else CODE_ELEMENTS.get(code, "int")
        if a.element in SIGNED_SCALAR_SHIFT and driver_version >= 200406 and get("vector_length") == 1:
            a.element = "u" + a.element              # unshifted code: not a signed scalar
        a.width = parsed[1] if parsed is not None else get("vector_length")
    elif kind == "struct":
        a.struct_size = get("vector_length")
    elif kind in ("image", "sampler"):
        a.resource_id = get("vector_length")
        a.access = entry.access
    elif kind in ("pointer", "pipe"):
        a.address_space = entry.address_space
        a.usage = get("is_pointer_or_pipe") if kind == "pointer" else (1 if get("is_pointer_or_pipe") == 3 else 0)
        a.is_const, a.is_restrict, a.is_volatile = (bool(get("is_const")), bool(get("is_restrict")),
                                                    bool(get("is_volatile")))
        if kind == "pointer":
            ptype, align = get("ptr_type"), get("ptr_alignment")
            if ptype == STRUCT_CODE:
                a.element, a.struct_size = None, align
            else:
                a.element = CODE_ELEMENTS.get(ptype, "char")
                a.width = max(1, align // ELEMENT_CODES[a.element][1])
                pointee = parse_value_type(entry.type_name.rstrip("*").strip())
                if pointee is not None and ELEMENT_CODES.get(pointee[0], (0,))[0] == ptype:
                    a.element = pointee[0]
    return a
