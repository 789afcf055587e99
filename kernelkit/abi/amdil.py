"""AMD IL runtime ABI (spec 000): argument slots in cb1 from a KernelSignature or from a
program's metadata, cb1 bytes for a dispatch, and ``kernelkit layout -t amdil:<device>``.

cb0 (reserved locations, offset formulas) lives in ``kernelkit.abi.amdil_cb0``; slot rules and
UAV ids in ``kernelkit.abi.amdil_slots``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from kernelkit.abi.amdil_cb0 import (
    CB0_SLOTS,
    CB0_TABLE,
    hardware_local_end,
    hardware_local_offsets,
)
from kernelkit.abi.amdil_slots import (
    DEFAULT_LDS_ID,
    ELEMENT_TYPES,
    IMAGE_SLOTS,
    SLOT,
    SPEC_ARGUMENT_START,
    ArgSlot,
    UavAssignment,
    aggregate_slots,
    assign_uavs,
    value_slots,
)
from kernelkit.abi.opencl_types import NUMPY_DTYPES, SCALAR_SIZES
from kernelkit.errors import KernelkitError, LaunchError
from kernelkit.formats.amdil import records as r

# spec 000 "Image Kernel Arguments": dimension names for OpenCL image types
IMAGE_DIMENSIONS = {"1d": "1D", "1d_array": "1DA", "1d_buffer": "1DB", "2d": "2D",
                    "2d_array": "2DA", "3d": "3D"}


@dataclass
class AmdilLayout:
    kernel: str
    device: str
    family: str
    args: list[ArgSlot]
    uavs: UavAssignment | None
    static_local: int = 0

    @property
    def cb1_slots(self) -> int:
        return max((a.offset // SLOT + a.slots for a in self.args), default=0)

    def metadata_records(self) -> list[r.Record]:
        return [a.record for a in self.args]


def _pointer_align(size: int | None) -> int:
    if not size:
        return 1
    align = 1
    while align < size:
        align <<= 1
    return align


def _element_type(element: str, version_major: int) -> tuple[str, int]:
    old, new, bits = ELEMENT_TYPES.get(element, ("struct", "struct", 32))
    return (new if version_major >= 3 else old), bits


def allocate(signature, device: str, *, version_major: int = 1) -> AmdilLayout:
    """Lay out a KernelSignature's arguments in cb1 for an AMD IL device."""
    from kernelkit.targets.amdil.info import FAMILY_7XX, resolve_device

    dev = resolve_device(device)
    hw = dev.family != FAMILY_7XX        # Evergreen and later use hardware local/private memory
    writes = [a for a in signature.args if a.kind == "image" and a.access_qualifier == "write_only"]
    uavs = assign_uavs(dev.family, len(writes))
    global_uav = uavs.raw_uav if uavs.raw_uav is not None else uavs.arena_uav
    slots: list[ArgSlot] = []
    offset = ro = wo = 0
    for a in signature.args:
        tname = a.type_name.replace("*", "").strip()
        if (a.pointee or "").startswith("struct _"):
            # clang names the opaque struct, not the typedef; AMD's compiler also goes by the
            # struct's name (_counter32_t, _counter64_t, _sema_t)
            tname = {"struct _counter32_t": "counter32_t", "struct _counter64_t": "counter64_t",
                     "struct _sema_t": "sema_t"}.get(a.pointee, tname)
        common = {"index": a.index, "name": a.name, "offset": offset}
        if tname in ("counter32_t", "counter64_t"):
            bits = 32 if tname == "counter32_t" else 64
            nth = sum(1 for s in slots if s.kind == "counter")
            slot = ArgSlot(kind="counter", slots=1, record=r.Counter(a.name, bits, nth, 1, offset),
                           **common)
        elif tname == "sema_t":
            # AMD's compiler numbers semaphores from 1 (counters from 0): id 0 is not a semaphore
            nth = 1 + sum(1 for s in slots if s.kind == "sema")
            slot = ArgSlot(kind="sema", slots=1, record=r.Sema(a.name, nth, 1, offset), **common)
        elif a.kind in ("scalar", "vector"):
            mtype, bits = _element_type(a.element or "int", version_major)
            slot = ArgSlot(kind="value", slots=value_slots(bits, a.vector_width, version_major < 3),
                           record=r.Value(a.name, mtype, a.vector_width, 1, offset),
                           element=a.element, element_bits=bits, width=a.vector_width, **common)
        elif a.kind in ("struct", "union"):
            slot = ArgSlot(kind="value", slots=aggregate_slots(a.size), size=a.size,
                           record=r.Value(a.name, a.kind, a.size, 1, offset), **common)
        elif a.kind == "pointer":
            space = a.address_space
            memory, buffer = {
                "global": ("uav", global_uav), "constant": ("c", global_uav),
                "local": ("hl", DEFAULT_LDS_ID) if hw else ("l", global_uav),
                "private": ("hp", 0) if hw else ("p", global_uav)}[space]
            mtype, _ = _element_type(a.element or "uchar", version_major)   # void* is u8/i8
            if a.element is None and a.pointee and a.pointee != "void":
                mtype = "struct"
            rec = r.Pointer(a.name, mtype, 1, 1, offset, memory, int(buffer or 0),
                            _pointer_align(a.pointee_size))
            if version_major >= 3:
                # AMD's compiler marks RO from its own read analysis; constant memory is RO
                rec.access = "RO" if space == "constant" else "RW"
                rec.volatile = "volatile" in a.type_qualifiers
                rec.restrict = "restrict" in a.type_qualifiers
            slot = ArgSlot(kind="pointer", slots=1, record=rec, address_space=space, **common)
        elif a.kind == "image":
            dim = IMAGE_DIMENSIONS.get(a.image_dim or "2d")
            if not hw:   # spec 000 "images": only valid on the Evergreen family or later
                raise KernelkitError(f"{a.name}: images are only valid on the Evergreen family "
                                     f"or later ({dev.name} is {dev.family})")
            if dim is None:
                raise KernelkitError(f"{a.name}: image type {a.image_dim} has no AMD IL form")
            if a.access_qualifier == "write_only":
                access, iid = "WO", uavs.write_image_uavs[wo]
                wo += 1
            elif a.access_qualifier == "read_write":
                access, iid = "RW", ro + wo
            else:
                access, iid = "RO", ro
                ro += 1
            slot = ArgSlot(kind="image", slots=IMAGE_SLOTS,
                           record=r.Image(a.name, dim, access, iid, 1, offset),
                           image_dim=a.image_dim, access=access, **common)
        elif a.kind == "sampler":
            mtype, _ = _element_type("uint", version_major)
            slot = ArgSlot(kind="sampler", slots=1, record=r.Value(a.name, mtype, 1, 1, offset),
                           element="uint", element_bits=32, **common)
        else:   # event, queue, pipe handles: one opaque 32-bit value
            slot = ArgSlot(kind="value", slots=1,
                           record=r.Value(a.name, "event" if a.kind == "event" else "opaque", 1, 1,
                                          offset), element="uint", element_bits=32, **common)
        slots.append(slot)
        offset += slot.slots * SLOT
    return AmdilLayout(signature.name, dev.name, dev.family, slots, uavs, signature.static_local_mem)


def layout_from_metadata(block, device: str | None = None) -> AmdilLayout:
    """The cb1 layout a program's metadata block prescribes (the compiler's word is final)."""
    from kernelkit.targets.amdil.info import DEVICES_BY_NAME, resolve_device

    # a device named by the caller must exist; the block's own (e.g. GCN "pitcairn") may not
    dev = resolve_device(device) if device else DEVICES_BY_NAME.get(block.device or "")
    sampler_args = {s.name for s in block.of(r.Sampler) if s.location == 0}
    slots: list[ArgSlot] = []
    for i, rec in enumerate(block.arguments):
        common = {"index": i, "name": rec.name, "offset": rec.offset, "record": rec}
        if isinstance(rec, r.Value) and rec.type in ("struct", "union"):
            slot = ArgSlot(kind="value", slots=aggregate_slots(rec.count), size=rec.count, **common)
        elif isinstance(rec, r.Value):
            bits = r.VALUE_TYPE_SIZES.get(rec.type, 4) * 8
            kind = "sampler" if rec.name in sampler_args or rec.type == "sampler" else "value"
            slot = ArgSlot(kind=kind, slots=value_slots(bits, rec.count, (block.version or (3,))[0] < 3),
                           element=rec.type,
                           element_bits=bits, width=rec.count, **common)
        elif isinstance(rec, r.Pointer):
            space = r.POINTER_ADDRESS_SPACES.get(rec.memory, "global")
            slot = ArgSlot(kind="pointer", slots=1, address_space=space, **common)
        elif isinstance(rec, r.Image):
            slot = ArgSlot(kind="image", slots=IMAGE_SLOTS, access=rec.access,
                           image_dim=rec.dimension, **common)
        else:
            slot = ArgSlot(kind=rec.kind, slots=1, **common)
        slots.append(slot)
    # the kernel's own local memory (hardware or emulated): __local pointer arguments go after it
    hwlocal = sum(int(block.memory().get(s, 0)) for s in ("local", "hwlocal"))
    return AmdilLayout(block.source_name, dev.name if dev else (block.device or "?"),
                       dev.family if dev else "?", slots, None, hwlocal)


# --- filling cb1 -------------------------------------------------------------------------

@dataclass
class LocalArg:
    """A ``__local`` pointer argument: the bytes requested (clSetKernelArg(k, i, size, NULL))."""
    size: int


@dataclass
class ImageDesc:
    width: int
    height: int = 1
    depth: int = 1          # "for 2D image, this must be 1"
    data_type: int = 0
    channel_order: int = 0
    row_pitch: int = 0
    slice_pitch: int = 0
    offset: int = 0


def image_constants(image: ImageDesc, family: str) -> bytes:
    """spec 000 "Image Metadata": 32 bytes; 7XX and 8XX (Evergreen and later) layouts."""
    if family == "7XX":
        return struct.pack("<8I", image.width, image.height, image.depth, image.offset,
                           image.data_type, image.channel_order, image.row_pitch, image.slice_pitch)
    return struct.pack("<4I3fI", image.width, image.height, image.depth, image.data_type,
                       1.0 / image.width, 1.0 / image.height, 1.0 / image.depth,
                       image.channel_order)


# The device dtype of a metadata value element, by (numpy kind, bits): the OpenCL scalar table.
_DTYPES = {(dt.kind, dt.itemsize * 8): dt for name, dt in NUMPY_DTYPES.items() if name in SCALAR_SIZES}


def _value_bytes(slot: ArgSlot, value) -> bytes:
    """Pack a scalar/vector: components packed at their size; 8/16-bit vectors of more than 4
    components put every 4 components on a 128-bit boundary (spec 000)."""
    element = slot.element or "int"
    kind = "f" if element in ("float", "double", "half") else (
        "u" if element.startswith("u") else "i")
    bits = slot.element_bits
    arr = np.asarray(value).reshape(-1)
    if arr.size != slot.width:
        raise LaunchError(f"argument {slot.name}: {slot.width} component(s) expected, "
                          f"got {arr.size}")
    data = arr.astype(_DTYPES[(kind, bits)]).tobytes()
    if bits < 32 and slot.width > 4:
        step = 4 * bits // 8
        return b"".join(data[i:i + step].ljust(SLOT, b"\0") for i in range(0, len(data), step))
    return data


def fill_cb1(layout: AmdilLayout, values: dict) -> bytes:
    """cb1 bytes for a dispatch. ``values`` maps argument names to: numbers/arrays (values),
    int offsets (global/constant/private pointers), ``LocalArg`` (local pointers), ``ImageDesc``
    (images), ints (samplers: the sampler bitfield; counters/semaphores: their value) or
    bytes (structs/unions)."""
    data = bytearray(layout.cb1_slots * SLOT)
    locals_ = [a for a in layout.args if a.kind == "pointer" and a.address_space == "local"]
    local_sizes = []
    for a in locals_:
        v = values.get(a.name)
        if not isinstance(v, LocalArg):
            raise LaunchError(f"argument {a.name}: a __local pointer needs LocalArg(size)")
        local_sizes.append(v.size)
    local_offsets = dict(zip([a.name for a in locals_],
                             hardware_local_offsets(layout.static_local, local_sizes), strict=True))
    for a in layout.args:
        if a.name not in values:
            raise LaunchError(f"argument {a.name} has no value")
        v = values[a.name]
        if a.kind == "pointer":
            raw = struct.pack("<I", local_offsets[a.name] if a.name in local_offsets else int(v))
        elif a.kind == "image":
            if not isinstance(v, ImageDesc):
                raise LaunchError(f"argument {a.name}: an image needs an ImageDesc")
            raw = image_constants(v, layout.family)
        elif a.kind in ("sampler", "counter", "sema"):
            raw = struct.pack("<I", int(v) & 0xFFFFFFFF)
        elif a.size:
            raw = bytes(v)
            if len(raw) != a.size:
                raise LaunchError(f"argument {a.name}: {a.size} bytes expected, got {len(raw)}")
        else:
            raw = _value_bytes(a, v)
        if len(raw) > a.slots * SLOT and a.kind == "value":
            raw = raw[:a.slots * SLOT]   # what the compiler's slot count leaves room for
        data[a.offset:a.offset + len(raw)] = raw
    return bytes(data)


# --- kernelkit layout ---------------------------------------------------------------------

def handles(target: str) -> bool:
    return target == "amdil" or target.startswith("amdil:")


def _device_of(target: str) -> str:
    return target.partition(":")[2] or "juniper"


def layout_for(path: str, target: str, kernel: str, options: dict) -> dict:
    """From OpenCL C source (via KernelSignature) or from an AMD IL program/binary's metadata."""
    with open(path, "rb") as f:
        data = f.read()
    device = _device_of(target)
    if b";ARGSTART:" in data:
        from kernelkit.formats.amdil.catalyst import find_metadata_blocks
        from kernelkit.formats.amdil.program import source_kernel_name
        blocks = [e.block for e in find_metadata_blocks(data) if e.block.is_kernel]
        block = next((b for b in blocks if kernel in (b.name, source_kernel_name(b.name))), None)
        if block is None:
            raise KernelkitError(f"no kernel {kernel!r} in {path}")
        lay = layout_from_metadata(block, device)
        source = "metadata"
    else:
        from kernelkit.abi.signature import signatures_from_source
        sigs = signatures_from_source(path, options.get("build_options") or (), pointer_size=4)
        sig = next((s for s in sigs if s.name == kernel), None)
        if sig is None:
            raise KernelkitError(f"no kernel {kernel!r} in {path}")
        # the metadata generation to lay out for: 1 (kernelkit's programs, 1:4:53 like the
        # reference juniper dumps) or 3 (AMD's 3:1:111 Catalyst compiler)
        lay = allocate(sig, device, version_major=int(options.get("metadata_version") or 1))
        source = "signature"
    return layout_json(lay, target, source)


def layout_json(lay: AmdilLayout, target: str, source: str) -> dict:
    uav = None
    if lay.uavs is not None:
        uav = {"raw": lay.uavs.raw_uav, "arena": lay.uavs.arena_uav,
               "arena_spec": lay.uavs.arena_uav_spec, "write_images": lay.uavs.write_image_uavs}
    return {
        "abi": "amdil", "target": target, "device": lay.device, "family": lay.family,
        "kernel": lay.kernel, "source": source,
        "cb0": {"slots": CB0_SLOTS,
                "reserved": [{"offset": o, "location": loc, "ndrange": nd, "task": t}
                             for o, loc, nd, t in CB0_TABLE]},
        "cb1": {"slots": lay.cb1_slots, "args": [a.to_json() for a in lay.args]},
        "uav": uav,
        "static_local": lay.static_local,
        "notes": [f"arguments start at cb1 byte 0 as in real programs; the spec's text says byte "
                  f"{SPEC_ARGUMENT_START}"],
    }


def render_layout(layout: dict) -> str:
    out = [f"AMD IL ABI, {layout['device']} ({layout['family']}), kernel {layout['kernel']}: "
           f"cb0[{layout['cb0']['slots']}] reserved, cb1[{layout['cb1']['slots']}] arguments"]
    for a in layout["cb1"]["args"]:
        out.append(f"  cb1[{a['offset'] // SLOT:3}] +{a['offset']:5}  {a['bytes']:4} B  "
                   f"{a['kind']:8} {a['name']:16} {a['metadata']}")
    if layout["uav"]:
        u = layout["uav"]
        out.append(f"  UAVs: raw {u['raw']}, arena {u['arena']} (spec: {u['arena_spec']}), "
                   f"write images {u['write_images']}")
    out += [f"  note: {n}" for n in layout["notes"]]
    return "\n".join(out) + "\n"


def dispatch_buffers(block, dispatch, values: dict, *, task: bool = False,
                     device: str | None = None) -> tuple[bytes, bytes]:
    """cb0 and cb1 for launching the kernel a metadata block — or a KernelInfo, one kernel of
    ``kernelkit inspect --json`` — describes: private memory per thread and local memory per
    group come from its ``;memory:`` lines (plus the ``__local`` pointer arguments' sizes), the
    rest from ``dispatch`` (a ``Dispatch``)."""
    from dataclasses import replace as _replace

    from kernelkit.abi.amdil_cb0 import fill_cb0

    if isinstance(block, dict):
        from kernelkit.formats.amdil.inspect import block_from_kernel_info
        block = block_from_kernel_info(block)

    memory = block.memory()
    private = sum(int(memory.get(s, 0)) for s in ("private", "hwprivate", "uavprivate"))
    lay = layout_from_metadata(block, device)
    # local memory per group: the kernel's own, then each __local argument at its (dword-aligned)
    # offset, as fill_cb1 places them
    sizes = [values[a.name].size for a in lay.args if a.kind == "pointer"
             and a.address_space == "local" and isinstance(values.get(a.name), LocalArg)]
    local = hardware_local_end(lay.static_local, sizes)
    d = _replace(dispatch, private_per_thread=dispatch.private_per_thread or private,
                 local_per_group=dispatch.local_per_group or local)
    return fill_cb0(d, task=task), fill_cb1(lay, values)
