"""KernelSignature: one description of a kernel's interface, as the OpenCL C source declares it.

``signatures_from_ir(module)`` reads it from the frontend's SPIR IR (kernel_arg_* metadata,
kernel attributes, parameter types); ``signatures_from_source`` compiles first. Every ABI
layout (HSA kernarg, AMD IL cb1, CL2, vISA payload, host) starts from a KernelSignature.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from kernelkit.abi.opencl_types import (
    IMAGE_DIMS,
    OPAQUE_KINDS,
    ir_size_align,
    normalize_type_name,
    parse_value_type,
    value_size,
    value_type_name,
)
from kernelkit.errors import FormatError

# kernel_arg_addr_space values (SPIR address spaces) -> KernelArg.address_space.
SPIR_ADDRESS_SPACES: dict[int, str] = {0: "private", 1: "global", 2: "constant", 3: "local"}
# Canonical order of KernelArg.type_qualifiers (kernel_arg_type_qual words).
TYPE_QUALIFIERS: tuple[str, ...] = ("const", "restrict", "volatile", "pipe")
ACCESS_QUALIFIERS: tuple[str, ...] = ("none", "read_only", "write_only", "read_write")
ARG_KINDS: tuple[str, ...] = ("scalar", "vector", "struct", "union", "pointer", "image", "sampler",
                              "queue", "event", "pipe")


@dataclass
class KernelArg:
    """One kernel argument.

    ``size``/``align`` are those of the value the kernel receives (a pointer for pointers and
    for image/sampler/queue/event/pipe handles; the aggregate itself for structs and unions).
    ``element``/``vector_width`` describe the value for scalars and vectors and the pointee for
    pointers to scalars/vectors (and a pipe's packet type); ``pointee`` is the pointee's type
    name for pointers.
    """

    index: int
    name: str
    type_name: str                    # kernel_arg_type, e.g. "float4*", "struct P", "image2d_t"
    base_type: str                    # kernel_arg_base_type with vectors spelled "float4"
    address_space: str                # "global" | "constant" | "local" | "private"
    access_qualifier: str = "none"    # "none" | "read_only" | "write_only" | "read_write"
    type_qualifiers: tuple[str, ...] = ()
    size: int = 0
    align: int = 0
    kind: str = "scalar"
    element: str | None = None
    vector_width: int = 1
    pointee: str | None = None
    pointee_size: int | None = None
    pointee_align: int | None = None
    image_dim: str | None = None      # "1d", "2d", "3d", "1d_buffer", "2d_array", "2d_depth", ...

    @property
    def is_pointer(self) -> bool:
        return self.kind == "pointer"

    @property
    def is_local_pointer(self) -> bool:
        return self.kind == "pointer" and self.address_space == "local"

    def to_json(self) -> dict:
        d = asdict(self)
        d["type_qualifiers"] = list(self.type_qualifiers)
        return d


@dataclass
class KernelSignature:
    """A kernel: its arguments in order and its attributes."""

    name: str
    args: list[KernelArg] = field(default_factory=list)
    reqd_work_group_size: tuple[int, int, int] | None = None
    work_group_size_hint: tuple[int, int, int] | None = None
    vec_type_hint: str | None = None          # e.g. "float4"
    intel_reqd_sub_group_size: int | None = None
    static_local_mem: int = 0                  # bytes of __local variables declared in the kernel
    pointer_size: int = 8

    def arg(self, name: str) -> KernelArg:
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(name)

    def to_json(self) -> dict:
        """The document ``kernelkit signature --json`` prints for this kernel."""
        return {
            "name": self.name,
            "args": [a.to_json() for a in self.args],
            "reqd_work_group_size": list(self.reqd_work_group_size) if self.reqd_work_group_size else None,
            "work_group_size_hint": list(self.work_group_size_hint) if self.work_group_size_hint else None,
            "vec_type_hint": self.vec_type_hint,
            "intel_reqd_sub_group_size": self.intel_reqd_sub_group_size,
            "static_local_mem": self.static_local_mem,
            "pointer_size": self.pointer_size,
        }

    @classmethod
    def from_json(cls, doc: dict) -> KernelSignature:
        """The inverse of ``to_json`` (e.g. a signature stored in a binary). Raises FormatError
        naming the field that is missing or has the wrong type."""
        return _signature_from_json(doc)


def _json_field(doc: dict, key: str, kinds, where: str, default=...):
    """``doc[key]`` checked against ``kinds`` (a bool is not an int); ``default`` when absent."""
    if not isinstance(doc, dict):
        raise FormatError(f"{where}: not an object", field=key)
    if key not in doc and default is not ...:
        return default
    value = doc.get(key)
    allowed = kinds if isinstance(kinds, tuple) else (kinds,)
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        raise FormatError(f"{where}: field {key!r} missing or of the wrong type", field=key)
    return value


def _triple(doc: dict, key: str, where: str) -> tuple[int, int, int] | None:
    value = _json_field(doc, key, (list, tuple, type(None)), where, None)
    if value is None:
        return None
    if len(value) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise FormatError(f"{where}: {key} needs three integers", field=key)
    return (value[0], value[1], value[2])


def _arg_from_json(doc: dict, index: int, kernel: str) -> KernelArg:
    where = f"kernel {kernel} argument {index}"
    opt_int = (int, type(None))
    opt_str = (str, type(None))
    quals = _json_field(doc, "type_qualifiers", (list, tuple), where, ())
    if not all(q in TYPE_QUALIFIERS for q in quals):
        raise FormatError(f"{where}: type qualifiers {quals!r}", field="type_qualifiers")
    arg = KernelArg(
        index=_json_field(doc, "index", int, where, index), name=_json_field(doc, "name", str, where),
        type_name=_json_field(doc, "type_name", str, where), base_type=_json_field(doc, "base_type", str, where),
        address_space=_json_field(doc, "address_space", str, where),
        access_qualifier=_json_field(doc, "access_qualifier", str, where, "none"),
        type_qualifiers=tuple(quals), size=_json_field(doc, "size", int, where),
        align=_json_field(doc, "align", int, where), kind=_json_field(doc, "kind", str, where, "scalar"),
        element=_json_field(doc, "element", opt_str, where, None),
        vector_width=_json_field(doc, "vector_width", int, where, 1),
        pointee=_json_field(doc, "pointee", opt_str, where, None),
        pointee_size=_json_field(doc, "pointee_size", opt_int, where, None),
        pointee_align=_json_field(doc, "pointee_align", opt_int, where, None),
        image_dim=_json_field(doc, "image_dim", opt_str, where, None))
    checks = (("address_space", tuple(SPIR_ADDRESS_SPACES.values())), ("access_qualifier", ACCESS_QUALIFIERS),
              ("kind", ARG_KINDS))
    for key, allowed in checks:
        if getattr(arg, key) not in allowed:
            raise FormatError(f"{where}: {key} {getattr(arg, key)!r}", field=key)
    return arg


def _signature_from_json(doc: dict) -> KernelSignature:
    name = _json_field(doc, "name", str, "kernel signature")
    where = f"kernel {name}"
    args = _json_field(doc, "args", (list, tuple), where)
    return KernelSignature(
        name=name, args=[_arg_from_json(a, i, name) for i, a in enumerate(args)],
        reqd_work_group_size=_triple(doc, "reqd_work_group_size", where),
        work_group_size_hint=_triple(doc, "work_group_size_hint", where),
        vec_type_hint=_json_field(doc, "vec_type_hint", (str, type(None)), where, None),
        intel_reqd_sub_group_size=_json_field(doc, "intel_reqd_sub_group_size", (int, type(None)), where, None),
        static_local_mem=_json_field(doc, "static_local_mem", int, where, 0),
        pointer_size=_json_field(doc, "pointer_size", int, where, 8))


def signatures_from_ir(module) -> list[KernelSignature]:
    """The signature of every kernel (spir_kernel function) in an ``ir.Module``, in module order
    (kernels clang generates for enqueue_kernel blocks are not source kernels and are left out).

    Raises FormatError when a kernel lacks the kernel_arg_* metadata (compile with
    ``-cl-kernel-arg-info``, as the frontend always does) or the metadata contradicts the IR.
    """
    pointer_size = _pointer_size(module)
    return [_kernel_signature(module, f, pointer_size) for f in module.kernels()
            if f.calling_conv == "spir_kernel" and not _is_block_kernel(f)]


def _is_block_kernel(function) -> bool:
    """A kernel clang made for a block passed to enqueue_kernel (``__<k>_block_invoke_kernel``,
    ``__<k>_block_invoke_2_kernel``, ...): not declared in the source, so it has no kernel_arg_*
    metadata and no source signature."""
    return (_BLOCK_KERNEL.search(function.name) is not None
            and "kernel_arg_addr_space" not in function.metadata)


_BLOCK_KERNEL = re.compile(r"_block_invoke(_\d+)?_kernel$")


def _pointer_size(module) -> int:
    """Pointer size of the module: from the triple (spir = 32-bit) or the datalayout's ``p:``."""
    triple = module.triple or ""
    if triple.startswith(("spir-", "spirv32")):
        return 4
    for spec in (module.data_layout or "").split("-"):
        if spec.startswith("p:") or spec.startswith("p0:"):
            bits = spec.split(":")[1]
            if not bits.isdigit() or int(bits) not in (32, 64):
                raise FormatError(f"datalayout pointer spec {spec!r}", field="datalayout")
            return int(bits) // 8
    return 8


def _md_strings(function, key: str, count: int) -> list[str]:
    from kernelkit.ir.metadata import md_string_values

    node = function.metadata.get(key)
    if node is None:
        raise FormatError(f"kernel {function.name} has no !{key} metadata (compile with -cl-kernel-arg-info)",
                          field=key)
    values = md_string_values(node)
    if len(values) != count or any(v is None for v in values):
        raise FormatError(f"kernel {function.name}: !{key} has {len(values)} strings for {count} arguments",
                          field=key)
    return [v for v in values if v is not None]


def _md_ints(function, key: str) -> list[int] | None:
    from kernelkit.ir.metadata import md_int_values

    node = function.metadata.get(key)
    if node is None:
        return None
    values = md_int_values(node)
    if any(v is None for v in values):
        raise FormatError(f"kernel {function.name}: !{key} is not a list of integers", field=key)
    return [v for v in values if v is not None]


def _kernel_signature(module, function, pointer_size: int) -> KernelSignature:
    n = len(function.args)
    addr = _md_ints(function, "kernel_arg_addr_space")
    if addr is None or len(addr) != n:
        raise FormatError(f"kernel {function.name} has no usable !kernel_arg_addr_space metadata",
                          field="kernel_arg_addr_space")
    md = {key: _md_strings(function, f"kernel_arg_{key}", n)
          for key in ("access_qual", "type", "base_type", "type_qual", "name")}
    try:
        args = [_kernel_arg(module, function, i, addr[i], {k: v[i] for k, v in md.items()}, pointer_size)
                for i in range(n)]
    except FormatError:
        raise
    except ValueError as exc:  # a type without a size (opaque struct), a malformed align attribute
        raise FormatError(f"kernel {function.name}: {exc}", field="kernel_arg_type") from None
    sig = KernelSignature(function.name, args, pointer_size=pointer_size)
    for key in ("reqd_work_group_size", "work_group_size_hint"):
        values = _md_ints(function, key)
        if values is not None:
            if len(values) != 3:
                raise FormatError(f"kernel {function.name}: !{key} needs 3 values", field=key)
            setattr(sig, key, (values[0], values[1], values[2]))
    sub_group = _md_ints(function, "intel_reqd_sub_group_size")
    if sub_group:
        sig.intel_reqd_sub_group_size = sub_group[0]
    sig.vec_type_hint = _vec_type_hint(function)
    sig.static_local_mem = static_local_memory(function, pointer_size)
    return sig


def _vec_type_hint(function) -> str | None:
    """``!vec_type_hint !{<4 x float> poison, i32 signed}`` -> "float4"."""
    from kernelkit.ir import types as T
    from kernelkit.ir.metadata import ValueAsMetadata, md_int_values

    node = function.metadata.get("vec_type_hint")
    if node is None:
        return None
    first = node.operands[0] if node.operands else None
    signed = md_int_values(node)[1:2]
    if not isinstance(first, ValueAsMetadata):
        raise FormatError(f"kernel {function.name}: !vec_type_hint has no type", field="vec_type_hint")
    ty = first.value.type
    width = ty.count if isinstance(ty, T.VectorType) else 1
    element_ty = ty.element if isinstance(ty, T.VectorType) else ty
    if isinstance(element_ty, T.FloatType):
        element = element_ty.kind
    elif isinstance(element_ty, T.IntType) and element_ty.bits in _INT_NAMES:
        element = _INT_NAMES[element_ty.bits]
        if signed and signed[0] == 0:
            element = "u" + element
    else:
        raise FormatError(f"kernel {function.name}: !vec_type_hint type {ty} is not an OpenCL type",
                          field="vec_type_hint")
    return value_type_name(element, width)


# LLVM integer width -> signed OpenCL C scalar name (for !vec_type_hint).
_INT_NAMES: dict[int, str] = {8: "char", 16: "short", 32: "int", 64: "long"}


def static_local_memory(kernel, pointer_size: int) -> int:
    """Bytes of the __local variables (addrspace(3) globals) the kernel and its callees use,
    each once, at its alignment."""
    from kernelkit.ir.module import Function, GlobalVariable
    from kernelkit.ir.values import walk_constant_operands

    seen: set[int] = set()
    found: dict[int, GlobalVariable] = {}
    stack = [kernel]
    while stack:
        function = stack.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        for inst in function.instructions():
            for op in inst.operands:
                for v in walk_constant_operands(op):
                    if isinstance(v, GlobalVariable) and v.addrspace == 3 and not v.is_declaration:
                        found[id(v)] = v
                    elif isinstance(v, Function) and not v.is_declaration:
                        stack.append(v)
    total = 0
    for var in found.values():
        size, align = ir_size_align(var.value_type, pointer_size)
        align = max(align, var.align or 1)
        total = (total + align - 1) // align * align + size
    return total


def _kernel_arg(module, function, index: int, addr_space: int, md: dict[str, str],
                pointer_size: int) -> KernelArg:
    """One argument from its IR parameter and its kernel_arg_* metadata strings."""
    from kernelkit.ir import types as T

    param = function.args[index]
    where = f"kernel {function.name} argument {index}"
    if addr_space not in SPIR_ADDRESS_SPACES:
        raise FormatError(f"{where}: address space {addr_space} is not a SPIR address space",
                          field="kernel_arg_addr_space")
    if md["access_qual"] not in ACCESS_QUALIFIERS:
        raise FormatError(f"{where}: access qualifier {md['access_qual']!r}", field="kernel_arg_access_qual")
    words = md["type_qual"].split()
    if any(w not in TYPE_QUALIFIERS for w in words):
        raise FormatError(f"{where}: type qualifiers {md['type_qual']!r}", field="kernel_arg_type_qual")
    base = md["base_type"]
    parsed = parse_value_type(base)
    arg = KernelArg(index=index, name=md["name"], type_name=md["type"],
                    base_type=normalize_type_name(base),
                    address_space=SPIR_ADDRESS_SPACES[addr_space], access_qualifier=md["access_qual"],
                    type_qualifiers=tuple(q for q in TYPE_QUALIFIERS if q in words))
    ty = param.type
    byval = _byval_type(module, param)
    if isinstance(ty, T.TargetExtType):
        _opaque_arg(arg, ty, where, pointer_size)
    elif byval is not None:
        arg.kind = "union" if base.startswith("union ") or byval.name.startswith("union.") else "struct"
        arg.size, arg.align = ir_size_align(byval, pointer_size)
        arg.align = max(arg.align, _align_attribute(param) or 1)
    elif isinstance(ty, T.PointerType):
        arg.kind = "pointer"
        arg.size = arg.align = pointer_size
        _pointee(module, arg, base, pointer_size)
        align = _align_attribute(param)  # clang's `align N` on a pointer: its pointee's alignment
        if align is not None:  # (also known when the pointee's type never appears in the IR)
            arg.pointee_align = max(arg.pointee_align or 1, align)
    elif parsed is not None:
        arg.element, arg.vector_width = parsed
        arg.kind = "scalar" if arg.vector_width == 1 else "vector"
        arg.size = arg.align = value_size(*parsed)
    elif isinstance(ty, T.LiteralStructType | T.NamedStructType | T.ArrayType):
        arg.kind = "union" if base.startswith("union ") else "struct"
        arg.size, arg.align = ir_size_align(ty, pointer_size)
    elif base.startswith("enum ") and isinstance(ty, T.IntType) and ty.bits in _INT_NAMES:
        # an enum is passed as its underlying integer type (C11 6.7.2.2), which clang picks
        arg.kind, arg.element = "scalar", _INT_NAMES[ty.bits]
        arg.size = arg.align = value_size(arg.element, 1)
    else:
        raise FormatError(f"{where}: cannot classify type {base!r} (IR type {ty})", field="kernel_arg_base_type")
    return arg


def _opaque_arg(arg: KernelArg, ty, where: str, pointer_size: int) -> None:
    """Images, samplers, pipes, queues and events: handles of pointer size."""
    arg.size = arg.align = pointer_size
    if "pipe" in arg.type_qualifiers or ty.name == "spirv.Pipe":
        arg.kind = "pipe"
        parsed = parse_value_type(arg.base_type)
        if parsed:
            arg.element, arg.vector_width = parsed
    elif arg.base_type in IMAGE_DIMS:
        arg.kind = "image"
        arg.image_dim = IMAGE_DIMS[arg.base_type]
    elif arg.base_type in OPAQUE_KINDS:
        arg.kind = OPAQUE_KINDS[arg.base_type]
    else:
        raise FormatError(f"{where}: unknown opaque type {arg.base_type!r} ({ty})", field="kernel_arg_base_type")


def _pointee(module, arg: KernelArg, base: str, pointer_size: int) -> None:
    """Pointee type name, element, width, size and alignment of a pointer argument."""
    pointee = normalize_type_name(base[:-1] if base.endswith("*") else base)
    arg.pointee = pointee
    inner = pointee[len("_Atomic("):-1] if pointee.startswith("_Atomic(") and pointee.endswith(")") else pointee
    parsed = parse_value_type(inner)
    if parsed:
        arg.element, arg.vector_width = parsed
        arg.pointee_size = arg.pointee_align = value_size(*parsed)
        return
    struct = _struct_for(module, inner)
    if struct is not None and struct.elements is not None:
        arg.pointee_size, arg.pointee_align = ir_size_align(struct, pointer_size)


def _struct_for(module, c_name: str):
    """The IR struct type clang made for a C type name (``struct P`` -> %struct.P, ``S`` ->
    %struct.S or %union.S)."""
    name = c_name.split()[-1] if c_name.startswith(("struct ", "union ")) else c_name
    kinds = ("union",) if c_name.startswith("union ") else ("struct",) if c_name.startswith("struct ") \
        else ("struct", "union")
    for kind in kinds:
        st = module.struct_types.get(f"{kind}.{name}")
        if st is not None:
            return st
    return None


def _byval_type(module, param):
    """The struct type of a ``byval(%struct.X)`` parameter attribute, else None."""
    for attr in param.attributes:
        text = str(attr)
        if text.startswith("byval(") and text.endswith(")"):
            name = text[len("byval("):-1].strip()
            if name.startswith("%"):
                from kernelkit.ir.names import unescape

                plain = name[1:]
                if plain.startswith('"') and plain.endswith('"'):
                    plain = unescape(plain[1:-1]).decode("utf-8", "replace")
                st = module.struct_types.get(plain)
                if st is not None:
                    return st
            raise FormatError(f"argument {param.index}: byval type {name} is not a named struct",
                              field="byval")
    return None


def _align_attribute(param) -> int | None:
    for attr in param.attributes:
        text = str(attr)
        if text.startswith("align "):
            return int(text.split()[1])
    return None


def signatures_from_source(path_or_source: str, options: str | Sequence[str] = (), *,
                           pointer_size: int = 8, use_cache: bool = True) -> list[KernelSignature]:
    """Compile OpenCL C (a path to a file, or source text) and read its kernels' signatures.

    ``pointer_size`` 8 compiles for spir64, 4 for spir (32-bit).
    """
    import os

    from kernelkit import ir
    from kernelkit.frontend import compile_opencl, compile_opencl_file

    if pointer_size not in (4, 8):
        raise ValueError(f"pointer_size must be 4 or 8, not {pointer_size}")
    triple = "spir64-unknown-unknown" if pointer_size == 8 else "spir-unknown-unknown"
    if "\n" not in path_or_source and os.path.isfile(path_or_source):
        compiled = compile_opencl_file(path_or_source, options, triple=triple, use_cache=use_cache)
    else:
        compiled = compile_opencl(path_or_source, options, triple=triple, use_cache=use_cache)
    return signatures_from_ir(ir.parse(compiled.ir_text))
