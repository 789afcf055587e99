"""AMD Catalyst OpenCL 2.0 ("CL2") ABI (spec 002): user data registers, the setup buffer, the
argument buffer (setup arguments then user arguments), image/sampler tables, scratch and FLAT
registers, and buffers for a dispatch; ``kernelkit layout -t amdcl2:<device>``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from kernelkit.abi.opencl_types import NUMPY_DTYPES, SCALAR_SIZES, parse_value_type
from kernelkit.errors import KernelkitError, LaunchError

FEATURES = ("usesetup", "useargs", "useenqueue", "usegeneric")

# spec 002 "Passing options": feature -> (user data registers, setup pointer regs, argument
# pointer regs); the most demanding enabled feature decides (later rows win).
USER_DATA_RULES: tuple[tuple[str | None, int, tuple[int, int] | None, tuple[int, int] | None], ...] = (
    (None, 4, None, None),
    ("useargs", 6, None, (4, 5)),
    ("usesetup", 8, (4, 5), (6, 7)),
    ("useenqueue", 10, (4, 5), (6, 7)),
    ("usegeneric", 12, (4, 5), (8, 9)),
)
# spec 002: "for VEGA (GFX9) architecture, then 10 user data registers will be used. 4-5 ...
# setup pointer. 6-7 ... argument's pointer": GFX9 kernels always enable FLAT_SCRATCH_INIT, two
# registers after the argument pointer, so GFX9 adds 2 to every feature set that lacks them
# (usesetup: 8 -> 10 as the spec says; CLRX's AmdCL2BinGen: 6/8/10/10/12)
GFX9_EXTRA_USER_DATA = 2
FLAT_SCRATCH_FEATURES = ("useenqueue", "usegeneric")   # already hold FLAT_SCRATCH_INIT

# LLVM AMDGPUUsage "Initial Kernel Execution State": user SGPRs in register order, as the
# amd_kernel_code_t code_properties enable bits add them (enable bit, registers)
HSA_USER_SGPR_ORDER: tuple[tuple[str, int], ...] = (
    ("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 4), ("ENABLE_SGPR_DISPATCH_PTR", 2),
    ("ENABLE_SGPR_QUEUE_PTR", 2), ("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 2),
    ("ENABLE_SGPR_DISPATCH_ID", 2), ("ENABLE_SGPR_FLAT_SCRATCH_INIT", 2),
    ("ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 1),
)

# spec 002 "Argument passing and kernel setup": setup buffer dwords
SETUP_BUFFER_DWORDS = (
    (0, "general setup; bits 16-31: dimensions"),
    (1, "bits 0-15: local size X, bits 16-31: local size Y"),
    (2, "bits 0-15: local size Z"),
    (3, "global size X"), (4, "global size Y"), (5, "global size Z"),
)
# spec 002: the six setup arguments that start every argument buffer
SETUP_ARGUMENTS = ("global_offset_0", "global_offset_1", "global_offset_2", "printf_buffer",
                   "vqueue_pointer", "aqlwrap_pointer")

# spec 002 "Image arguments": channel data type (dword 8, masked with 0xf)
CHANNEL_DATA_TYPES = ("CL_SNORM_INT8", "CL_SNORM_INT16", "CL_UNORM_INT8", "CL_UNORM_INT16",
                      "CL_UNORM_INT24", "CL_UNORM_SHORT_555", "CL_UNORM_SHORT_565",
                      "CL_UNORM_INT_101010", "CL_SIGNED_INT8", "CL_SIGNED_INT16", "CL_SIGNED_INT32",
                      "CL_UNSIGNED_INT8", "CL_UNSIGNED_INT16", "CL_UNSIGNED_INT32", "CL_HALF_FLOAT",
                      "CL_FLOAT")
CHANNEL_DATA_TYPE_MASK = 0xF
# spec 002: channel order (dword 9, masked with 0x1f)
CHANNEL_ORDERS = ("CL_A", "CL_R", "CL_Rx", "CL_RG", "CL_RGx", "CL_RA", "CL_RGB", "CL_RGBx", "CL_RGBA",
                  "CL_BGRA", "CL_ARGB", "CL_ABGR", "CL_sRGB", "CL_sRGBx", "CL_sRGBA", "CL_sBGRA",
                  "CL_INTENSITY", "CL_LUMINANCE", "CL_DEPTH", "CL_DEPTH_STENCIL")
CHANNEL_ORDER_MASK = 0x1F
IMAGE_RESOURCE_DWORDS = 8
IMAGE_DATA_TYPE_DWORD, IMAGE_ORDER_DWORD = 8, 9

# spec 002 "Scratch buffer access" / "Flat access": registers and buffer dwords
SCRATCH_DESCRIPTOR_SGPRS = (0, 1, 2, 3)
FLAT_BUFFER_SGPRS = (6, 7)
FLAT_LDS_BASE_HI_DWORD, FLAT_SCRATCH_BASE_HI_DWORD = 16, 17
FLAT_SCRATCH_OFFSET_SGPR, FLAT_SCRATCH_SIZE_SGPR = 10, 11

# kinds passed as a pointer-sized handle (spec 002: pointers, queues, images, samplers, structs)
POINTER_SIZED = ("pointer", "pipe", "queue", "image", "sampler", "struct", "event", "union")
# kinds passed as a 64-bit handle in 32-bit binaries too: AMD's 32-bit kernels load image
# arguments as 8-byte, 8-aligned values (reference/amdcl2/samplers4.32: s_load_dwordx2 at
# argument bytes 32 and 40 for inimg/outimg after a uint at 24), unlike spec 002's sentence
# (HSAIL's opaque image handles are 64-bit in both machine models)
HANDLE64 = ("image",)


@dataclass(frozen=True)
class UserData:
    count: int
    setup_pointer: tuple[int, int] | None
    argument_pointer: tuple[int, int] | None


def user_data(features, *, gfx9: bool = False) -> UserData:
    """User data registers for a set of features (spec 002 "Passing options")."""
    features = set(features)
    unknown = features - set(FEATURES)
    if unknown:
        raise KernelkitError(f"unknown CL2 feature(s) {sorted(unknown)} (known: {', '.join(FEATURES)})")
    chosen = USER_DATA_RULES[0]
    for rule in USER_DATA_RULES[1:]:
        if rule[0] in features:
            chosen = rule
    extra = GFX9_EXTRA_USER_DATA if gfx9 and chosen[0] not in FLAT_SCRATCH_FEATURES else 0
    return UserData(chosen[1] + extra, chosen[2], chosen[3])


def user_sgprs_of_code(properties: dict[str, int]) -> dict[str, tuple[int, int]]:
    """First register and count of each user SGPR block an amd_kernel_code_t enables."""
    out, at = {}, 0
    for bit, count in HSA_USER_SGPR_ORDER:
        if properties.get(bit):
            out[bit] = (at, count)
            at += count
    return out


def user_data_of_code(properties: dict[str, int]) -> UserData:
    """The user data a kernel's code_properties set up: count, setup (dispatch) pointer and
    argument (kernarg) pointer registers."""
    places = user_sgprs_of_code(properties)

    def pair(bit: str) -> tuple[int, int] | None:
        return (places[bit][0], places[bit][0] + 1) if bit in places else None
    return UserData(sum(c for _, c in places.values()), pair("ENABLE_SGPR_DISPATCH_PTR"),
                    pair("ENABLE_SGPR_KERNARG_SEGMENT_PTR"))


def features_of_code(properties: dict[str, int], *, gfx9: bool = False) -> list[str]:
    """spec 002 features of a kernel from its code_properties (as CLRX's disassembler reads
    them): dispatch pointer = usesetup, kernarg pointer = useargs, queue pointer (the FLAT
    buffer in s[6:7]) + FLAT_SCRATCH_INIT = usegeneric, else FLAT_SCRATCH_INIT = useenqueue
    (before GFX9, where every kernel has FLAT_SCRATCH_INIT)."""
    out = []
    if properties.get("ENABLE_SGPR_KERNARG_SEGMENT_PTR"):
        out.append("useargs")
    if properties.get("ENABLE_SGPR_DISPATCH_PTR"):
        out.append("usesetup")
    flat_scratch = properties.get("ENABLE_SGPR_FLAT_SCRATCH_INIT")
    if flat_scratch and properties.get("ENABLE_SGPR_QUEUE_PTR"):
        out.append("usegeneric")
    elif flat_scratch and not gfx9:
        out.append("useenqueue")
    return out


def setup_buffer(dims: int, local_size, global_size) -> bytes:
    """The 6 setup dwords (spec 002) for a dispatch."""
    if not 1 <= dims <= 3:
        raise LaunchError(f"dimensions must be 1..3, not {dims}")
    lx, ly, lz = (tuple(local_size) + (1, 1, 1))[:3]
    gx, gy, gz = (tuple(global_size) + (1, 1, 1))[:3]
    if max(lx, ly, lz) > 0xFFFF:
        raise LaunchError("local sizes are 16-bit fields")
    return struct.pack("<6I", dims << 16, lx | (ly << 16), lz, gx, gy, gz)


def channel_data_type(value: int) -> str:
    v = value & CHANNEL_DATA_TYPE_MASK
    return CHANNEL_DATA_TYPES[v]


def channel_order(value: int) -> str:
    v = value & CHANNEL_ORDER_MASK
    if v >= len(CHANNEL_ORDERS):
        raise KernelkitError(f"channel order {v} is not in spec 002's table")
    return CHANNEL_ORDERS[v]


def image_info(resource: bytes, data_type: str, order: str) -> bytes:
    """Image resource (8 dwords) followed by the channel data type and order dwords."""
    if len(resource) != IMAGE_RESOURCE_DWORDS * 4:
        raise KernelkitError("an image resource is 8 dwords")
    return resource + struct.pack("<2I", CHANNEL_DATA_TYPES.index(data_type), CHANNEL_ORDERS.index(order))


def flat_buffer(lds_base_hi: int, scratch_base_hi: int) -> bytes:
    """The buffer s[6:7] points to with generic addressing (dwords 16 and 17 used)."""
    data = bytearray(4 * (FLAT_SCRATCH_BASE_HI_DWORD + 1))
    struct.pack_into("<2I", data, 4 * FLAT_LDS_BASE_HI_DWORD, lds_base_hi, scratch_base_hi)
    return bytes(data)


# ------------------------------------------------------------------ argument buffer

@dataclass
class Cl2Arg:
    name: str
    kind: str                     # value | pointer | pipe | queue | image | sampler | struct
    type_name: str = ""
    element: str | None = None    # value arguments: scalar element
    width: int = 1
    address_space: str = "private"
    access: str = "none"
    offset: int = 0
    size: int = 0
    align: int = 1
    setup: bool = False

    def to_json(self) -> dict:
        return {"name": self.name, "type_name": self.type_name, "kind": self.kind,
                "address_space": self.address_space, "access": self.access, "size": self.size,
                "offset": self.offset}


def size_align(arg: Cl2Arg, bits: int) -> tuple[int, int]:
    """spec 002: pointer-sized handles; 3-component vectors take 4 elements; values aligned to
    their element type."""
    ps = 8 if arg.kind in HANDLE64 else bits // 8
    if arg.kind in POINTER_SIZED or arg.setup:     # setup arguments are size_t / pointers
        return ps, ps
    element = arg.element or "int"
    esize = SCALAR_SIZES.get(element)
    if esize is None:
        raise KernelkitError(f"argument {arg.name}: unknown element type {element!r}")
    width = 4 if arg.width == 3 else arg.width
    return esize * width, esize


def setup_args(bits: int) -> list[Cl2Arg]:
    out = []
    for name in SETUP_ARGUMENTS:
        kind = "pointer" if name == "printf_buffer" else "value"
        out.append(Cl2Arg(f"_.{name}", kind, "size_t", "ulong" if bits == 64 else "uint",
                          address_space="global" if kind == "pointer" else "private", setup=True))
    return out


def lay_out(args: list[Cl2Arg], bits: int, *, with_setup: bool = True) -> list[Cl2Arg]:
    """Assign offsets: the six setup arguments (unless ``args`` already has them) then the user
    arguments, each aligned as spec 002 says."""
    full = (setup_args(bits) if with_setup else []) + list(args)
    offset = 0
    for a in full:
        a.size, a.align = size_align(a, bits)
        offset = (offset + a.align - 1) // a.align * a.align
        a.offset = offset
        offset += a.size
    return full


def argument_buffer_size(args: list[Cl2Arg]) -> int:
    """Bytes used; amd_kernel_code_t.kernarg_segment_byte_size holds it rounded up to 16."""
    return max((a.offset + a.size for a in args), default=0)


def fill_argument_buffer(args: list[Cl2Arg], values: dict, bits: int) -> bytes:
    """Argument buffer bytes. Setup arguments default to 0; pointers, images, samplers, queues
    and structs take an int (the address the handle points to); values take numbers/arrays."""
    data = bytearray((argument_buffer_size(args) + 15) // 16 * 16)
    for a in args:
        key = a.name[2:] if a.setup else a.name
        if key not in values and not a.setup:
            raise LaunchError(f"argument {a.name} has no value")
        v = values.get(key, 0)
        if a.kind in POINTER_SIZED or a.setup:
            raw = int(v).to_bytes(a.size, "little", signed=int(v) < 0)
        else:
            arr = np.asarray(v).reshape(-1)
            if arr.size != a.width:
                raise LaunchError(f"argument {a.name}: {a.width} component(s) expected, got {arr.size}")
            raw = arr.astype(NUMPY_DTYPES[a.element or "int"]).tobytes()
        data[a.offset:a.offset + len(raw)] = raw
    return bytes(data)


def args_from_signature(signature) -> list[Cl2Arg]:
    """User arguments of a KernelSignature."""
    out = []
    for a in signature.args:
        kind = a.kind if a.kind not in ("scalar", "vector") else "value"
        if kind == "union":
            kind = "struct"
        out.append(Cl2Arg(a.name, kind, a.type_name, a.element, a.vector_width, a.address_space,
                          a.access_qualifier))
    return out


def args_from_metadata(metadata) -> list[Cl2Arg]:
    """All arguments (setup ones included, as the driver lists them) of a CL2 metadata blob."""
    from kernelkit.formats.amdcl2.metadata import ARG_TYPE_ELEMENTS
    out = []
    for a in metadata.args:
        kind = a.kind
        element, width = None, 1
        if kind == "value":
            parsed = parse_value_type(a.type_name)
            if parsed is not None:
                element, width = parsed
            else:   # typedef'd name: element from the argType code, width from vectorLength
                element = ARG_TYPE_ELEMENTS.get(a.get("arg_type"), "int")
                width = a.get("vector_length") or 1
                if element in ("char", "short", "int", "long") and a.type_name.startswith("u"):
                    element = "u" + element
        out.append(Cl2Arg(a.name, kind, a.type_name, element, width, a.address_space, a.access,
                          setup=a.name.startswith("_.")))
    return out


# ------------------------------------------------------------------ kernelkit layout

def handles(target: str) -> bool:
    return target == "amdcl2" or target.startswith("amdcl2:")


def layout_for(path: str, target: str, kernel: str, options: dict) -> dict:
    device = target.partition(":")[2] or "bonaire"
    with open(path, "rb") as f:
        data = f.read()
    from kernelkit.formats.amdcl2.binary import is_cl2, read_cl2
    if is_cl2(data):
        binary = read_cl2(data)
        k = binary.kernel(kernel)
        bits = binary.bits
        args = lay_out(args_from_metadata(k.metadata), bits, with_setup=False)
        source = "metadata"
    else:
        from kernelkit.abi.signature import signatures_from_source
        bits = 64
        sigs = signatures_from_source(path, options.get("build_options") or (), pointer_size=8)
        sig = next((s for s in sigs if s.name == kernel), None)
        if sig is None:
            raise KernelkitError(f"no kernel {kernel!r} in {path}")
        args = lay_out(args_from_signature(sig), bits)
        source = "signature"
    used = argument_buffer_size(args)
    return {"abi": "amdcl2", "target": target, "device": device, "kernel": kernel, "bits": bits,
            "source": source, "args": [a.to_json() for a in args],
            "argument_buffer_size": used, "kernarg_segment_byte_size": (used + 15) // 16 * 16,
            "setup_buffer": [{"dword": d, "meaning": m} for d, m in SETUP_BUFFER_DWORDS]}


def render_layout(layout: dict) -> str:
    out = [f"AMD CL2 ABI ({layout['bits']}-bit), {layout['device']}, kernel {layout['kernel']}: "
           f"{layout['argument_buffer_size']} bytes of arguments"]
    for a in layout["args"]:
        out.append(f"  +{a['offset']:4} {a['size']:3} B  {a['kind']:8} {a['name']:20} {a['type_name']}")
    return "\n".join(out) + "\n"
