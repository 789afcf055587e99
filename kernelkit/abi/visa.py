"""The vISA kernel payload ABI of IGC's OpenCL runtime (spec 004 "Input Variables"): which inputs a
kernel receives, in which GRF bytes, for a platform and SIMD width; ``kernelkit layout -t visa:tgllp``.

The thread payload is the GRF file at dispatch: r0 (the thread header, GRF 0, predefined ``%r0``),
then the per-thread local ids, then the cross-thread data (explicit arguments and the implicit ones).
Rules as IGC 1.0.12504 applies them (checked against its own objects by tests/visa/test_abi_igc.py):

* local ids: x, y, z as ``w`` GRFs of 16 lanes each — one GRF per dimension at SIMD8 and SIMD16,
  two (lanes 0-15, 16-31) at SIMD32; present when the kernel reads local or global ids. Without
  them the cross-thread data starts at GRF 2, with them right after the last local-id GRF.
* cross-thread data, in this order: the payload header (8 dwords; dwords 0-2 the global offset),
  ``__local`` pointer arguments (a 32-bit SLM offset each), ``__global``/``__constant`` pointers
  (64-bit addresses), by-value arguments, then the implicit arguments in ``IMPLICIT_ORDER``.
* each input is aligned to its alignment (by-value arguments to at least 4 bytes, ``__local``
  pointers to their pointee's alignment), moves to the next GRF rather than straddle one, and is
  GRF-aligned when it is a GRF or larger.

Where kernelkit differs on purpose: IGC adds a 32-bit ``bufferOffset`` per pointer it promotes to
stateful (binding-table) access when it cannot prove the offset zero; kernelkit addresses every
buffer statelessly (64-bit) and never has them (``buffer_offsets`` lets a test reproduce IGC's
choice). A by-value struct is one input covering the whole struct (IGC splits it into the scalar
fields it reads, at the same offsets). Images, samplers, pipes and device queues are refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from kernelkit.errors import KernelkitError

GRF_BYTES = 32                     # SKL .. DG2 (spec 004 tables.GRF_BYTES)
LOCAL_ID_LANES_PER_GRF = 16        # a local-id GRF holds 16 uw lanes
SIMD_SIZES = (8, 16, 32)
DEFAULT_SIMD = 16                  # kernelkit's default (IGC chooses per kernel, mostly 32 on TGLLP)


@dataclass(frozen=True)
class Platform:
    """A vISA platform: CLI name, GenX_IR ``-platform`` name, spec 004 gen_platform code, ocloc
    device, and what it has (fp64; LSC messages on DG2, svm messages before)."""
    name: str
    genx: str
    gen_platform: int
    ocloc: str
    fp64: bool
    lsc: bool


# spec 004 "gen_binary_info" platform codes (DG2 = 13 as in reference/visa/dg2-g10_saxpy); fp64 as
# ocloc reports it (kernels with double fail to build for icllp, tgllp and dg2)
PLATFORMS: tuple[Platform, ...] = (
    Platform("skl", "SKL", 5, "skl", True, False),
    Platform("icllp", "ICLLP", 10, "icllp", False, False),
    Platform("tgllp", "TGLLP", 12, "tgllp", False, False),
    Platform("dg2", "DG2", 13, "dg2-g10", False, True),
)
PLATFORMS_BY_NAME = {p.name: p for p in PLATFORMS}

# implicit arguments after the by-value ones, in IGC's allocation order (KernelArg::ArgType):
# name -> (vISA type, elements)
IMPLICIT_ORDER: tuple[tuple[str, str, int], ...] = (
    ("constant_base", "uq", 1), ("global_base", "uq", 1), ("private_base", "uq", 1),
    ("printf_buffer", "uq", 1), ("buffer_offset", "d", 1), ("work_dim", "d", 1),
    ("num_groups", "d", 3), ("global_size", "d", 3), ("local_size", "d", 3),
    ("enqueued_local_size", "d", 3),
)
PAYLOAD_HEADER_DWORDS = 8          # dwords 0-2: global offset x, y, z
# OpenCL work-item builtins (mangled) -> the implicit inputs they read
BUILTIN_INPUTS: dict[str, tuple[str, ...]] = {
    "_Z13get_global_idj": ("local_ids", "enqueued_local_size"),
    "_Z12get_local_idj": ("local_ids",),
    "_Z14get_local_sizej": ("local_size",),
    "_Z23get_enqueued_local_sizej": ("enqueued_local_size",),
    "_Z15get_global_sizej": ("global_size",),
    "_Z14get_num_groupsj": ("num_groups",),
    "_Z12get_work_dimv": ("work_dim",),
    "printf": ("printf_buffer",),
    # sub-groups (kernelkit.targets.visa.subgroups): the local linear id of the thread's first lane
    "_Z16get_sub_group_idv": ("local_ids", "local_size"),
    "_Z18get_num_sub_groupsv": ("local_ids", "local_size"),
    "_Z18get_sub_group_sizev": ("local_ids", "local_size"),
    "_Z27get_enqueued_num_sub_groupsv": ("enqueued_local_size",),
}
# OpenCL 2.0 work-group collectives (mangled name prefix): IGC's implementations read local ids and sizes
WORK_GROUP_PREFIXES = ("_Z20work_group_", "_Z21work_group_", "_Z22work_group_", "_Z23work_group_",
                       "_Z24work_group_", "_Z25work_group_", "_Z26work_group_", "_Z27work_group_",
                       "_Z28work_group_", "_Z29work_group_", "_Z30work_group_", "_Z31work_group_",
                       "_Z32work_group_", "_Z33work_group_", "_Z34work_group_", "_Z35work_group_",
                       "_Z36work_group_", "_Z37work_group_", "_Z38work_group_", "_Z39work_group_")
# DG2: IGC 1.0.12504 emulates 32-bit integer division and remainder and the work-group collectives
# with stack calls, which give the kernel a private base
STACK_CALL_PLATFORMS = frozenset({"dg2"})
DIVISIONS = frozenset({"sdiv", "udiv", "srem", "urem"})
VISA_SCALAR_TYPES: dict[str, str] = {
    "char": "b", "uchar": "ub", "short": "w", "ushort": "uw", "int": "d", "uint": "ud",
    "long": "q", "ulong": "uq", "half": "hf", "float": "f", "double": "df",
}
TYPE_SIZES: dict[str, int] = {"b": 1, "ub": 1, "w": 2, "uw": 2, "d": 4, "ud": 4, "q": 8, "uq": 8,
                              "hf": 2, "f": 4, "df": 8}
REFUSED_KINDS = ("image", "sampler", "pipe", "queue", "event")


@dataclass
class PayloadInput:
    """One ``.input``: what it carries (``kind``: local_id, payload_header, argument, or an
    implicit name), its argument index, vISA type and element count, GRF byte offset and size.
    Local ids carry their dimension and the first lane of their GRF."""
    name: str
    kind: str
    type: str
    num_elements: int
    offset: int
    size: int
    arg_index: int | None = None
    dim: int | None = None
    lane: int = 0

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Payload:
    kernel: str
    platform: str
    simd: int
    inputs: list[PayloadInput]

    @property
    def size(self) -> int:
        """Bytes of GRF the payload occupies (r0 included), rounded to whole GRFs."""
        end = max((i.offset + i.size for i in self.inputs), default=GRF_BYTES)
        return -(-end // GRF_BYTES) * GRF_BYTES

    def argument(self, index: int) -> PayloadInput:
        for inp in self.inputs:
            if inp.kind == "argument" and inp.arg_index == index:
                return inp
        raise KeyError(index)

    def implicit(self, name: str) -> PayloadInput | None:
        return next((i for i in self.inputs if i.kind == name), None)

    def to_json(self) -> dict:
        return {"abi": "visa", "kernel": self.kernel, "platform": self.platform, "simd": self.simd,
                "payload_bytes": self.size, "inputs": [i.to_json() for i in self.inputs]}


def resolve_platform(name: str) -> Platform:
    platform = PLATFORMS_BY_NAME.get(name.lower())
    if platform is None:
        raise KernelkitError(f"unknown vISA platform {name!r} (platforms: "
                             f"{', '.join(p.name for p in PLATFORMS)})")
    return platform


def _align_up(value: int, align: int) -> int:
    return -(-value // align) * align


def _place(offset: int, size: int, align: int) -> int:
    offset = _align_up(offset, align)
    if size >= GRF_BYTES:
        return _align_up(offset, GRF_BYTES)
    if offset // GRF_BYTES != (offset + size - 1) // GRF_BYTES:
        return _align_up(offset, GRF_BYTES)
    return offset


def _value_input(arg) -> tuple[str, int, int, int]:
    """(vISA type, elements, size, alignment) of a by-value argument."""
    if arg.kind in ("scalar", "vector") and arg.element in VISA_SCALAR_TYPES:
        ty = VISA_SCALAR_TYPES[arg.element]
        count = arg.vector_width
        size = TYPE_SIZES[ty] * count
        return ty, count, size, max(4, arg.align)
    if arg.kind in ("struct", "union"):
        return "ub", arg.size, arg.size, max(4, arg.align)
    raise KernelkitError(f"kernel argument {arg.index} ({arg.name}): {arg.type_name} cannot be passed "
                         f"to a vISA kernel")


def lay_out(sig, simd: int, platform: str, implicit: Iterable[str] = (),
            buffer_offsets: Sequence[int] = ()) -> Payload:
    """The payload of kernel ``sig`` at ``simd`` lanes. ``implicit`` names what the kernel reads:
    ``local_ids`` and entries of ``IMPLICIT_ORDER``; ``buffer_offsets`` the pointer arguments that
    get an IGC bufferOffset (kernelkit: none)."""
    resolve_platform(platform)
    if simd not in SIMD_SIZES:
        raise KernelkitError(f"SIMD width {simd} is not one of {', '.join(map(str, SIMD_SIZES))}")
    used = set(implicit)
    if any(a.kind in ("struct", "union") for a in sig.args):
        used.add("private_base")                         # IGC copies by-value aggregates to private memory
    for arg in sig.args:
        if arg.kind in REFUSED_KINDS:
            raise KernelkitError(f"kernel {sig.name}: argument {arg.index} ({arg.name}) is a {arg.kind}: "
                                 f"{arg.kind}s are not supported by kernelkit's vISA target")
    inputs: list[PayloadInput] = []
    offset = GRF_BYTES                                   # GRF 0 is r0
    if "local_ids" in used:
        halves = range(0, simd, LOCAL_ID_LANES_PER_GRF) if simd > LOCAL_ID_LANES_PER_GRF else (0,)
        for dim, axis in enumerate("xyz"):
            for lane in halves:
                inputs.append(PayloadInput(f"local_id_{axis}" + (f"[{lane}:{lane + 16}]" if simd > 16 else ""),
                                           "local_id", "uw", LOCAL_ID_LANES_PER_GRF, offset, GRF_BYTES,
                                           dim=dim, lane=lane))
                offset += GRF_BYTES
    else:
        offset = 2 * GRF_BYTES

    def add(name: str, kind: str, ty: str, count: int, size: int, align: int, index: int | None = None):
        nonlocal offset
        at = _place(offset, size, align)
        inputs.append(PayloadInput(name, kind, ty, count, at, size, arg_index=index))
        offset = at + size

    add("payload_header", "payload_header", "d", PAYLOAD_HEADER_DWORDS, 4 * PAYLOAD_HEADER_DWORDS, 4)
    pointers = [a for a in sig.args if a.kind == "pointer"]
    for arg in pointers:
        if arg.address_space == "local":
            add(arg.name, "argument", "ud", 1, 4, max(4, arg.pointee_align or 4), arg.index)
    for arg in pointers:
        if arg.address_space != "local":
            add(arg.name, "argument", "uq", 1, 8, 8, arg.index)
    for arg in sig.args:
        if arg.kind != "pointer":
            ty, count, size, align = _value_input(arg)
            add(arg.name, "argument", ty, count, size, align, arg.index)
    for name, ty, count in IMPLICIT_ORDER:
        size = TYPE_SIZES[ty] * count
        if name == "buffer_offset":
            for index in buffer_offsets:
                add(f"buffer_offset[{index}]", name, ty, count, size, TYPE_SIZES[ty], index)
        elif name in used:
            add(name, name, ty, count, size, TYPE_SIZES[ty])
    return Payload(sig.name, platform, simd, inputs)


def implicit_inputs(function, unoptimised=None, platform: str = "") -> set[str]:
    """What kernel ``function`` reads beyond its arguments: the names ``lay_out`` takes. Work-item
    builtins and program-scope variables come from ``unoptimised`` (the kernel at -O0, as IGC decides
    them before folding; defaults to ``function``), private memory from the optimised kernel's allocas
    and on DG2 its integer divisions."""
    from kernelkit import ir

    used: set[str] = set()
    for fn in _reachable(unoptimised if unoptimised is not None else function):
        for block in fn.blocks:
            for inst in block:
                if isinstance(inst, ir.CallInst):
                    callee = inst.called_function
                    name = callee.name if callee is not None else ""
                    used.update(BUILTIN_INPUTS.get(name, ()))
                    if name.startswith(WORK_GROUP_PREFIXES):
                        used.update(("local_ids", "local_size"))
                        if platform in STACK_CALL_PLATFORMS:
                            used.add("private_base")
                for op in inst.operands:
                    _global_use(op, used, set())
    for fn in _reachable(function):
        for block in fn.blocks:
            for inst in block:
                if inst.opcode == "alloca" and _kept_in_memory(inst):
                    used.add("private_base")
                if inst.opcode in DIVISIONS and platform in STACK_CALL_PLATFORMS and \
                        not isinstance(inst.operands[1], ir.Constant):
                    used.add("private_base")
    return used


def _kept_in_memory(alloca) -> bool:
    """Does private array ``alloca`` stay in memory (indexed with a run-time index, or its address
    passed to a function defined in the program)? IGC promotes the others to registers."""
    from kernelkit import ir

    for user in alloca.users:
        if user.opcode == "getelementptr" and any(not isinstance(i, ir.Constant) for i in user.operands[1:]):
            return True
        if isinstance(user, ir.CallInst) and user.called_function is not None and user.called_function.blocks:
            return True
    return False


def _reachable(function) -> list:
    """``function`` and every defined function it calls, directly or not."""
    from kernelkit import ir

    seen: dict[str, object] = {}
    work = [function]
    while work:
        fn = work.pop()
        if fn.name in seen:
            continue
        seen[fn.name] = fn
        for block in fn.blocks:
            for inst in block:
                if isinstance(inst, ir.CallInst) and inst.called_function is not None and inst.called_function.blocks:
                    work.append(inst.called_function)
    return list(seen.values())


def _global_use(value, used: set[str], visited: set[int]) -> None:
    """Mark constant_base / global_base for program-scope variables ``value`` refers to."""
    from kernelkit import ir

    if id(value) in visited:
        return
    visited.add(id(value))
    if isinstance(value, ir.GlobalVariable):
        if value.addrspace == 2:
            used.add("constant_base")
        elif value.addrspace == 1:
            used.add("global_base")
        return
    if isinstance(value, ir.Constant) and not isinstance(value, ir.GlobalValue):
        for op in getattr(value, "operands", ()):
            _global_use(op, used, visited)


def payloads_for_source(path_or_source: str, platform: str, simd: int, options: Sequence[str] = (),
                        buffer_offsets: dict[str, Sequence[int]] | None = None) -> list[Payload]:
    """Compile OpenCL C (optimised, and at -O0 for the builtins it calls) and lay out every kernel
    (``buffer_offsets``: per kernel, the pointer arguments IGC gives a bufferOffset)."""
    from kernelkit import ir
    from kernelkit.abi.signature import signatures_from_ir

    module, unoptimised = (ir.parse(_compile(path_or_source, list(options) + extra).ir_text)
                           for extra in ([], ["-O0"]))
    functions = {f.name: f for f in module.functions}
    at_o0 = {f.name: f for f in unoptimised.functions}
    return [lay_out(sig, simd, platform, implicit_inputs(functions[sig.name], at_o0.get(sig.name), platform),
                    (buffer_offsets or {}).get(sig.name, ()))
            for sig in signatures_from_ir(module)]


def _compile(path_or_source: str, options: Sequence[str]):
    import os

    from kernelkit.frontend import compile_opencl, compile_opencl_file

    if "\n" not in path_or_source and os.path.isfile(path_or_source):
        return compile_opencl_file(path_or_source, options)
    return compile_opencl(path_or_source, options)


# ---- `kernelkit layout -t visa:<platform>` ----
def handles(target: str) -> bool:
    return target.partition(":")[0] == "visa"


def layout_for(path: str, target: str, kernel: str, options: dict) -> dict:
    platform = resolve_platform(target.partition(":")[2] or "tgllp")
    simd = options.get("simd") or DEFAULT_SIMD
    payloads = payloads_for_source(path, platform.name, simd, options.get("build_options") or ())
    for payload in payloads:
        if payload.kernel == kernel:
            return payload.to_json()
    raise KernelkitError(f"no kernel {kernel!r} in {path} (kernels: {', '.join(p.kernel for p in payloads)})")


def render_layout(layout: dict) -> str:
    out = [f"vISA payload (IGC OpenCL ABI), {layout['platform']}, SIMD{layout['simd']}, kernel "
           f"{layout['kernel']}: {layout['payload_bytes']} bytes of GRF",
           f"  +{0:4} {GRF_BYTES:3} B  r0        %r0 (thread header: group id x in dword 1, y 6, z 7)"]
    for i in layout["inputs"]:
        what = i["type"] + (f" x{i['num_elements']}" if i["num_elements"] > 1 else "")
        out.append(f"  +{i['offset']:4} {i['size']:3} B  {what:9} {i['name']} ({i['kind']})")
    return "\n".join(out) + "\n"
