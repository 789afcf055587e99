"""AMDHSA kernarg segment: explicit + hidden argument layout per code object version, the
``kernelkit layout -t gfx...`` ABI, and the kernarg bytes of a dispatch.

Explicit arguments follow clang's AMDGPU rules (pointers to global/constant memory 8 bytes;
local pointers 4-byte LDS offsets; images, samplers, queues and pipes 8-byte handles; values at
their alloc size and alignment). Hidden arguments start at the next multiple of 8:
V2-V4 seven 8-byte slots (global offsets X/Y/Z, printf or hostcall, default queue, completion
action, multigrid sync), V5+ the 256-byte block of ``tables.HIDDEN_ARGS_V5``.

``pack_kernargs(kernel_meta, values, dispatch)`` builds the bytes from the metadata of any code
object (ours or clang's): it only reads offsets, sizes and value kinds.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kernelkit.abi.signature import KernelArg, KernelSignature
from kernelkit.errors import KernelkitError, LaunchError
from kernelkit.formats.amdgpu.codeobject import CodeObject, arg_info
from kernelkit.formats.amdgpu.metadata import ArgMeta, KernelMeta
from kernelkit.formats.amdgpu.metadata_v2 import align_up, as_llvm14_wrote_it
from kernelkit.formats.amdgpu.tables import (
    CODE_OBJECT_VERSIONS,
    DEFAULT_CODE_OBJECT_VERSION,
    HIDDEN_ARGS_V5,
    HIDDEN_BLOCK_SIZE_V5,
    HIDDEN_SLOT_SIZE_V2_V4,
    HIDDEN_SLOTS_V2_V4,
)
from kernelkit.formats.amdgpu.target_id import TargetID, TargetIDError

_OTHER_PREFIXES = ("host", "amdil:", "amdcl2:", "visa:")
# value kind of a pointer-like OpenCL argument kind (KernelSignature.kind)
HANDLE_KINDS = {"image": "image", "sampler": "sampler", "queue": "queue", "pipe": "pipe"}
# hidden kinds filled from Dispatch attributes of the same name (pointers, handles)
_POINTER_HIDDEN = ("printf_buffer", "hostcall_buffer", "multigrid_sync_arg", "heap_v1", "default_queue",
                   "completion_action", "private_base", "shared_base", "queue_ptr")
# type_name element -> struct code for by-value scalars and vector elements
_ELEMENT_CODES = {"char": "b", "uchar": "B", "short": "h", "ushort": "H", "int": "i", "uint": "I",
                  "long": "q", "ulong": "Q", "float": "f", "double": "d", "half": "e", "bool": "?",
                  "size_t": "Q", "ptrdiff_t": "q", "intptr_t": "q", "uintptr_t": "Q"}


def handles(target: str) -> bool:
    """AMDGPU target IDs and triples; an invalid one that is clearly meant as one (``gfx...``,
    ``amdgcn-...``) is ours too, so that layout_for reports what is wrong with it."""
    if target.startswith(_OTHER_PREFIXES):
        return False
    try:
        return TargetID.parse(target).arch == "amdgcn"
    except TargetIDError:
        return target.startswith(("gfx", "amdgcn-"))


# ------------------------------------------------------------------ explicit arguments
def explicit_arg(arg: KernelArg) -> ArgMeta:
    """The V3+ metadata clang writes for one OpenCL kernel argument."""
    quals = set(arg.type_qualifiers)
    if arg.kind == "pointer" and arg.address_space == "local":
        return ArgMeta(size=4, align=4, value_kind="dynamic_shared_pointer", name=arg.name,
                       type_name=arg.type_name, address_space="local", pointee_align=arg.pointee_align or 1)
    if arg.kind == "pointer":
        meta = ArgMeta(size=8, align=8, value_kind="global_buffer", name=arg.name, type_name=arg.type_name,
                       address_space="constant" if arg.address_space == "constant" else
                       ("generic" if arg.address_space == "private" else arg.address_space))
        meta.is_const = True if "const" in quals else None
        meta.is_restrict = True if "restrict" in quals else None
        meta.is_volatile = True if "volatile" in quals else None
        if "const" in quals and "restrict" in quals:
            meta.actual_access = "read_only"
        return meta
    if arg.kind in HANDLE_KINDS:
        meta = ArgMeta(size=8, align=8, value_kind=HANDLE_KINDS[arg.kind], name=arg.name, type_name=arg.type_name)
        if arg.kind in ("image", "pipe") and arg.access_qualifier != "none":
            meta.access = arg.access_qualifier
        if arg.kind == "pipe":
            meta.is_pipe = True
        return meta
    return ArgMeta(size=arg.size, align=arg.align, value_kind="by_value", name=arg.name,
                   type_name=arg.type_name)


def hidden_args(version: int, start: int, *, processor_name: str = "", uses_printf: bool = True,
                all_hidden: bool = True, dynamic_lds: bool = False) -> list[ArgMeta]:
    """Hidden arguments from ``start`` (already 8-aligned). ``all_hidden``: none proven unused
    (LLVM at -O0); otherwise only the always-present ones (+ printf when used). V5+:
    ``hidden_dynamic_lds_size`` when the kernel takes ``__local`` pointers (``dynamic_lds``)."""
    out: list[ArgMeta] = []
    if version <= 4:
        for i, kinds in enumerate(HIDDEN_SLOTS_V2_V4):
            kind = kinds[0]
            if i == 3:
                kind = "hidden_printf_buffer" if uses_printf else ("hidden_hostcall_buffer" if all_hidden
                                                                  else "hidden_none")
            elif i > 3 and not all_hidden:
                kind = "hidden_none"
            out.append(ArgMeta(size=HIDDEN_SLOT_SIZE_V2_V4, align=8, value_kind=kind,
                               offset=start + i * HIDDEN_SLOT_SIZE_V2_V4))
        return out
    pre_gfx9 = processor_name.startswith(("gfx6", "gfx7", "gfx8"))
    always = [k for k in HIDDEN_ARGS_V5 if k.startswith(("hidden_block_count", "hidden_group_size",
                                                          "hidden_remainder", "hidden_global_offset"))]
    always.append("hidden_grid_dims")
    for kind, (off, size) in HIDDEN_ARGS_V5.items():
        keep = kind in always or (kind == "hidden_printf_buffer" and uses_printf) \
            or (kind in ("hidden_private_base", "hidden_shared_base") and pre_gfx9) \
            or (kind == "hidden_dynamic_lds_size" and dynamic_lds) \
            or (all_hidden and kind in ("hidden_hostcall_buffer", "hidden_multigrid_sync_arg", "hidden_heap_v1",
                                        "hidden_default_queue", "hidden_completion_action",
                                        "hidden_queue_ptr"))
        if keep:
            out.append(ArgMeta(size=size, align=min(size, 8), value_kind=kind, offset=start + off))
    return out


def hidden_area_size(version: int) -> int:
    return HIDDEN_BLOCK_SIZE_V5 if version >= 5 else len(HIDDEN_SLOTS_V2_V4) * HIDDEN_SLOT_SIZE_V2_V4


def uses_device_queue(ir_text: str) -> bool:
    """Whether a module (SPIR or amdgcn IR) enqueues work or asks for the default queue: its
    kernels' hidden default-queue and completion-action slots are then in use (V2/V3 metadata)."""
    return re.search(r"@(?:__enqueue_kernel_\w+|_Z17get_default_queuev|_Z14enqueue_marker\w*)\(", ir_text) is not None


def kernel_layout(sig: KernelSignature, version: int, *, processor_name: str = "", uses_printf: bool = False,
                  all_hidden: bool = True, uses_device_queue: bool = False) -> KernelMeta:
    """Kernarg layout of a kernel as metadata (explicit + hidden args, kernarg size/align); V2/V3
    with the argument conventions of LLVM 14, which wrote them."""
    args = []
    offset = 0
    align = 1
    for a in sig.args:
        meta = explicit_arg(a)
        offset = align_up(offset, meta.align)
        meta.offset = offset
        offset += meta.size
        align = max(align, meta.align)
        args.append(meta)
    start = align_up(offset, 8)
    dynamic_lds = any(a.value_kind == "dynamic_shared_pointer" for a in args)
    args += hidden_args(version, start, processor_name=processor_name, uses_printf=uses_printf,
                        all_hidden=all_hidden, dynamic_lds=dynamic_lds)
    size = start + hidden_area_size(version)
    align = max(align, 8)
    meta = KernelMeta(name=sig.name, symbol=sig.name + (".kd" if version >= 3 else "@kd"),
                      kernarg_segment_size=size, group_segment_fixed_size=sig.static_local_mem or 0,
                      private_segment_fixed_size=0, kernarg_segment_align=align,
                      wavefront_size=64, sgpr_count=0, vgpr_count=0, max_flat_workgroup_size=256,
                      args=args, language="OpenCL C")
    if version <= 3:
        as_llvm14_wrote_it([meta], uses_device_queue)
    return meta


# ------------------------------------------------------------------ `kernelkit layout`
def _binary_metadata(data: bytes, target: str) -> tuple[CodeObject, str]:
    from kernelkit.formats.amdgpu.bundle import BUNDLE_MAGIC, CCOB_MAGIC, OffloadBundle
    if data.startswith((BUNDLE_MAGIC, CCOB_MAGIC)):
        if not target:
            raise KernelkitError("a bundle holds several code objects: name the target")
        tid = TargetID.parse(target)
        bundle = OffloadBundle.parse(data)
        for e in bundle.entries:
            if e.entry_id.target_id and e.entry_id.target().processor == tid.processor:
                return CodeObject.parse(e.data), e.id
        raise KernelkitError(f"no bundle entry for {target} (entries: {', '.join(e.id for e in bundle.entries)})")
    return CodeObject.parse(data), "code object"


def layout_for(path: str, target: str, kernel: str, options: dict) -> dict:
    tid = TargetID.parse(target)
    with open(path, "rb") as f:
        head = f.read(32)
    if head.startswith((b"\x7fELF", b"__CLANG_OFFLOAD_BUNDLE__", b"CCOB")):
        from kernelkit.formats.limits import read_input

        co, source = _binary_metadata(read_input(path), target)
        meta = co.metadata.kernel(kernel)
        version = co.version
    else:
        from kernelkit import ir
        from kernelkit.abi.signature import signatures_from_ir
        from kernelkit.frontend import compile_opencl_file
        compiled = compile_opencl_file(path, options.get("build_options") or ())
        sigs = {s.name: s for s in signatures_from_ir(ir.parse(compiled.ir_text))}
        if kernel not in sigs:
            raise KernelkitError(f"no kernel {kernel!r} in {path} (kernels: {', '.join(sigs)})")
        version = options.get("code_object_version") or DEFAULT_CODE_OBJECT_VERSION
        if version not in CODE_OBJECT_VERSIONS:
            raise KernelkitError(f"code object version {version}: must be one of "
                                 f"{', '.join(map(str, CODE_OBJECT_VERSIONS))}")
        uses_printf = "@printf(" in compiled.ir_text
        meta = kernel_layout(sigs[kernel], version, processor_name=tid.processor.name, uses_printf=uses_printf,
                             uses_device_queue=uses_device_queue(compiled.ir_text))
        source = os.path.basename(path)
    return {"abi": "amdhsa", "target": tid.full(), "code_object_version": version, "source": source,
            "kernel": meta.name, "kernarg_segment_size": meta.kernarg_segment_size,
            "kernarg_segment_align": meta.kernarg_segment_align,
            "args": [arg_info(a) for a in meta.args or []]}


def render_layout(layout: dict) -> str:
    lines = [f"kernel {layout['kernel']}  target {layout['target']}  code object V{layout['code_object_version']}"
             f"  ({layout['source']})",
             f"kernarg segment: {layout['kernarg_segment_size']} bytes, align {layout['kernarg_segment_align']}",
             "  offset size  value_kind                  type          name"]
    for a in layout["args"]:
        extra = " ".join(f"{k}={a[k]}" for k in ("address_space", "access", "actual_access", "pointee_align",
                                                 "is_const", "is_restrict", "is_volatile") if k in a
                         and a[k] is not None)
        lines.append(f"  {a['offset']:6} {a['size']:4}  {a['value_kind']:<27} {a.get('type_name') or '':<13} "
                     f"{a.get('name') or ''} {extra}".rstrip())
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ dispatch bytes
@dataclass
class LocalBuffer:
    """A ``__local`` pointer argument: ``size`` bytes of dynamically allocated LDS."""
    size: int


@dataclass
class Dispatch:
    global_size: Sequence[int]
    local_size: Sequence[int]
    global_offset: Sequence[int] = (0, 0, 0)
    printf_buffer: int = 0
    hostcall_buffer: int = 0
    multigrid_sync_arg: int = 0
    heap_v1: int = 0
    default_queue: int = 0
    completion_action: int = 0
    private_base: int = 0
    shared_base: int = 0
    queue_ptr: int = 0

    def dims(self) -> tuple[list[int], list[int], list[int], int]:
        g = list(self.global_size)
        n = len(g)
        if not 1 <= n <= 3 or len(self.local_size) != n:
            raise LaunchError(f"global size {tuple(g)} and local size {tuple(self.local_size)} must both have "
                              "1 to 3 dimensions")
        if any(x <= 0 for x in g) or any(x <= 0 for x in self.local_size):
            raise LaunchError("NDRange sizes must be positive")
        pad = [1] * (3 - n)
        off = list(self.global_offset) + [0] * (3 - len(self.global_offset))
        return g + pad, list(self.local_size) + pad, off[:3], n


def _by_value_bytes(meta: ArgMeta, value) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
    elif isinstance(value, (np.ndarray, np.generic)):
        raw = np.ascontiguousarray(value).tobytes()
    else:
        tname = (meta.type_name or "").strip()
        base = tname.rstrip("0123456789")
        width = int(tname[len(base):] or 1)
        code = _ELEMENT_CODES.get(base)
        if code is None:
            raise LaunchError(f"argument {meta.name or meta.offset}: pass {tname or 'this value'} as bytes or numpy")
        items = list(value) if isinstance(value, (list, tuple)) else [value]
        if len(items) != width:
            raise LaunchError(f"argument {meta.name or meta.offset}: {tname} needs {width} value(s), got {len(items)}")
        try:
            raw = struct.pack("<" + code * width, *items)
        except struct.error as exc:
            raise LaunchError(f"argument {meta.name or meta.offset} ({tname}): {exc}") from exc
    if len(raw) > meta.size:
        raise LaunchError(f"argument {meta.name or meta.offset}: {len(raw)} bytes do not fit its {meta.size}")
    return raw + b"\0" * (meta.size - len(raw))


def pack_kernargs(kernel: KernelMeta, values: Sequence, dispatch: Dispatch) -> bytes:
    """The kernarg segment of one dispatch (explicit values in order, hidden ones from ``dispatch``)."""
    explicit = [a for a in kernel.args or [] if not a.is_hidden]
    if len(values) != len(explicit):
        raise LaunchError(f"kernel {kernel.name} takes {len(explicit)} arguments, {len(values)} given")
    buf = bytearray(kernel.kernarg_segment_size)
    lds = align_up(kernel.group_segment_fixed_size, 4)
    dynamic_lds = 0
    for meta, value in zip(explicit, values, strict=True):
        if meta.value_kind == "dynamic_shared_pointer":
            size = value.size if isinstance(value, LocalBuffer) else int(value)
            lds = align_up(lds, meta.pointee_align or 4)
            raw = struct.pack("<I", lds)
            lds += size
            dynamic_lds += size
        elif meta.value_kind == "by_value":
            raw = _by_value_bytes(meta, value)
        else:  # global_buffer, image, sampler, queue, pipe: an address or handle
            if not isinstance(value, (int, np.integer)):
                raise LaunchError(f"argument {meta.name or meta.offset} ({meta.value_kind}) needs an address")
            raw = struct.pack("<Q" if meta.size == 8 else "<I", int(value))
        buf[meta.offset:meta.offset + len(raw)] = raw
    grid, group, offset, work_dim = dispatch.dims()
    hidden_values = {
        # full work-groups; a partial last one is announced by a non-zero remainder
        **{f"hidden_block_count_{c}": grid[i] // group[i] for i, c in enumerate("xyz")},
        **{f"hidden_group_size_{c}": group[i] for i, c in enumerate("xyz")},
        **{f"hidden_remainder_{c}": grid[i] % group[i] for i, c in enumerate("xyz")},
        **{f"hidden_global_offset_{c}": offset[i] for i, c in enumerate("xyz")},
        "hidden_grid_dims": work_dim, "hidden_dynamic_lds_size": dynamic_lds, "hidden_none": 0,
        **{f"hidden_{name}": getattr(dispatch, name) for name in _POINTER_HIDDEN},
    }
    for meta in kernel.args or []:
        if not meta.is_hidden:
            continue
        value = hidden_values.get(meta.value_kind, 0)
        buf[meta.offset:meta.offset + meta.size] = int(value).to_bytes(meta.size, "little")
    return bytes(buf)


def kernarg_segment(binary: bytes, kernel: str, values: Sequence, dispatch: Dispatch,
                    target: str | None = None) -> bytes:
    """``pack_kernargs`` for a kernel of any code object (or of the bundle entry for ``target``)."""
    co, _ = _binary_metadata(binary, target or "")
    return pack_kernargs(co.metadata.kernel(kernel), values, dispatch)
