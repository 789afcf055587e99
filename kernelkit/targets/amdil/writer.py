"""Complete AMD IL programs as AMD's OpenCL stack writes them (spec 000; the layout of the
driver's programs in reference/amdil/hlc-juniper): the ``il_cs_2_0`` prolog with its literal
pool, the multi-kernel token and ``endmain``; per kernel the wrapper ``func N ;
__OpenCL_<k>_kernel`` (work-item ids from the thread-group registers and cb0, UAV and group-size
declarations, the kernel's literals, ``dcl_cb cb1[n]`` and the argument copies), its metadata
block, then the body function with its own block; ``end``. Program-scope constants form the
data segment in front of the program. The text goes through ``kernelkit.formats.amdil`` and
must print back byte for byte."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from kernelkit.abi.amdil import allocate
from kernelkit.abi.opencl_types import ir_size_align
from kernelkit.errors import CompileError
from kernelkit.formats.amdil import MULTI_KERNEL_TOKEN, parse_program
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.datasegment import DataEntry, DataSegment
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.values import (
    ConstantAggregate,
    ConstantBytes,
    ConstantFP,
    ConstantInt,
    ConstantSimple,
    ConstantSplat,
)
from kernelkit.targets.amdil import metadata30 as md30
from kernelkit.targets.amdil.counters import MAX_COUNTERS
from kernelkit.targets.amdil.debuginfo import DebugProgram
from kernelkit.targets.amdil.debugtypes import parameters
from kernelkit.targets.amdil.emitter import Emitter
from kernelkit.targets.amdil.info import FAMILY_7XX
from kernelkit.targets.amdil.isel import KernelSelector
from kernelkit.targets.amdil.messages import message
from kernelkit.targets.amdil.regalloc import reuse_registers
from kernelkit.targets.amdil.regs import (
    FIRST_KERNEL_LITERAL,
    FIRST_VALUE_REGISTER,
    LAST_VALUE_REGISTER,
    PROLOG_LITERALS,
    Literals,
    Registers,
)

_REGISTER = re.compile(r"\br(\d+)\b")
_LITERAL = re.compile(r"\bl(\d+)\b")
METADATA_VERSION = (1, 4, 53)       # what the reference juniper programs carry
FIRST_UNIQUE_ID = 1024
DEFAULT_MAX_THREADS = 256


@dataclass
class Options:
    fp64: bool
    max_work_group: tuple[int, int, int] | None = None
    metadata30: bool = False      # the 3.x metadata dialect (metadata30.py)


def prolog() -> list[str]:
    out = ["il_cs_2_0", "dcl_cb cb0[9] ; Constant buffer that holds ABI data"]
    out += [f"dcl_literal {name}, {values}" for name, values in PROLOG_LITERALS]
    return out + ["mov r769, cb0[8].x", MULTI_KERNEL_TOKEN, "endmain"]


def wrapper_setup(device) -> list[str]:
    """The work-item id set-up of the driver's wrappers (r1021 global, r1022 local, r1023
    group id; spec 000 cb0[1] local size, cb0[6] global offset, cb0[7] group offset)."""
    uavs = ["dcl_raw_uav_id(1)"]
    if device.family != "7XX":
        uavs.append("dcl_arena_uav_id(8)")
    return uavs + [
        "mov r0.z, vThreadGrpIdFlat.x",
        "mov r1022.xyz0, vTidInGrp.xyz",
        "mov r1023.xyz0, vThreadGrpId.xyz",
        "umad24 r1021.xyz0, r1023.xyz0, cb0[1].xyz0, r1022.xyz0",
        "iadd r1021.xyz0, r1021.xyz0, cb0[6].xyz0",
        "iadd r1023.xyz0, r1023.xyz0, cb0[7].xyz0",
        "mov r1023.w, r0.z",
        "ishl r1023.w, r1023.w, l0.z",
        "mov r771.x, l0.0",
        "mov r774.x, cb0[8].x",
    ]


# -- program-scope data ------------------------------------------------------------------------

_DATA_TYPES = {("i", 8): "i8", ("i", 16): "i16", ("i", 32): "i32", ("i", 64): "i64",
               ("f", 32): "float", ("f", 64): "double"}


def _flatten(c, ty: T.Type, offset: int, out: list[tuple[str, int, int]]) -> None:
    """(data type, byte offset, value bits) of every scalar in a constant initializer."""
    if isinstance(ty, T.ArrayType | T.VectorType):
        esize = ir_size_align(ty.element, 4)[0]
        if isinstance(c, ConstantBytes):
            step = esize
            for k in range(ty.count):
                v = int.from_bytes(c.data[k * step:(k + 1) * step], "little")
                out.append((_DATA_TYPES[("i", step * 8)], offset + k * step, v))
            return
        for k in range(ty.count):
            if isinstance(c, ConstantAggregate):
                e = c.operands[k]
            elif isinstance(c, ConstantSplat):
                e = c.operands[0]
            else:
                e = ConstantSimple(ty.element, "zeroinitializer")
            _flatten(e, ty.element, offset + k * esize, out)
        return
    if isinstance(ty, T.LiteralStructType | T.NamedStructType):
        from kernelkit.targets.amdil.memory import _field_offset
        for k, member in enumerate(ty.elements):
            e = c.operands[k] if isinstance(c, ConstantAggregate) else \
                ConstantSimple(member, "zeroinitializer")
            _flatten(e, member, offset + _field_offset(ty, k), out)
        return
    if isinstance(ty, T.IntType):
        v = c.value if isinstance(c, ConstantInt) else 0
        bits = max(8, ty.bits)
        out.append((_DATA_TYPES[("i", bits)], offset, v & ((1 << bits) - 1)))
        return
    if isinstance(ty, T.FloatType) and ty.kind in ("float", "double"):
        import struct
        v = c.value if isinstance(c, ConstantFP) else 0.0
        bits = struct.unpack("<Q", struct.pack("<d", v))[0] if ty.kind == "double" else \
            struct.unpack("<I", struct.pack("<f", v))[0]
        out.append((_DATA_TYPES[("f", ty.bits)], offset, bits))
        return
    if isinstance(ty, T.PointerType):
        out.append(("i32", offset, 0))
        return
    raise CompileError(f"amdil: program-scope constant of type {ty} is not supported")


def data_segment(module) -> tuple[DataSegment | None, dict[str, int]]:
    """Program-scope __constant data (address space 2, and 1 for constants clang placed there)."""
    scalars: list[tuple[str, int, int]] = []
    places: dict[str, int] = {}
    offset = 0
    for gv in module.globals:
        if gv.addrspace not in (1, 2) or gv.initializer is None:
            continue
        if gv.addrspace == 1 and not gv.is_constant:
            raise CompileError(f"amdil: program-scope __global variable @{gv.name} needs OpenCL "
                               f"C 2.0")
        size, align = ir_size_align(gv.value_type, 4)
        align = max(align, 4)
        offset = (offset + align - 1) // align * align
        places[gv.name] = offset
        _flatten(gv.initializer, gv.value_type, offset, scalars)
        offset += size
    if not places:
        return None, places
    entries: list[DataEntry] = []
    for dtype, off, value in scalars:
        last = entries[-1] if entries else None
        esize = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "float": 4, "double": 8}[dtype]
        if last is not None and last.type == dtype and last.offset + len(last.values) * esize == off:
            last.values.append(value)
        else:
            entries.append(DataEntry(dtype, off, [value]))
    size = (offset + 15) // 16 * 16
    return DataSegment(size, entries, None, 0), places


# -- one kernel ---------------------------------------------------------------------------------

def _uses(fn, predicate) -> bool:
    return any(predicate(op) for b in fn.blocks for i in b.instructions for op in i.operands)


def _writes(line: str) -> bool:
    op = line.lstrip().split(" ", 1)[0]
    return op.startswith(("uav_", "lds_store", "lds_read", "lds_add", "lds_and", "lds_or",
                          "lds_xor", "lds_min", "lds_max", "lds_umin", "lds_umax", "lds_sub")) \
        and not op.startswith(("uav_raw_load", "uav_arena_load"))


def _printf_promotion(v) -> bool:
    """A float clang promoted to double only to pass it to printf (sent as the float)."""
    return getattr(v, "opcode", None) == "fpext" and bool(v.users) and all(
        getattr(getattr(u, "called_function", None), "name", None) == "printf" for u in v.users)


def _types_used(fn):
    for b in fn.blocks:
        for i in b.instructions:
            if _printf_promotion(i):
                continue
            yield i.type
            for op in i.operands:
                if not _printf_promotion(op):
                    yield op.type


def kernel_lines(fn, sig, device, opts: Options, wrapper_id: int, body_id: int, module,
                 data_places: dict[str, int], printf_base: int = 0,
                 debug=None, functions: dict[str, int] | None = None,
                 stats: dict | None = None) -> list[str]:
    if not opts.fp64 and any(t.scalar == T.float64 for t in _types_used(fn)):
        raise CompileError(f"amdil: kernel {fn.name} uses double, which {device.name} does not "
                           f"support (double precision needs cypress, cayman or rv770, or "
                           f"-mattr=+fp64)")
    layout = allocate(sig, device.name, version_major=md30.VERSION_MAJOR if opts.metadata30 else 1)
    if opts.metadata30:
        md30.check_arguments(fn, layout)
    lits = Literals()
    em = Emitter(lits, Registers())

    # private frame: byval arguments, then every alloca
    private = 0
    args_info = []
    for arg, slot in zip(fn.args, layout.args, strict=True):
        info = {"register": 1 + slot.offset // 16, "kind": slot.kind}
        if slot.kind == "image":
            info.update(image_id=slot.record.id, access=slot.access, dim=slot.image_dim)
        elif slot.kind == "counter":
            info.update(counter=slot.record.id)
        if any(isinstance(a, str) and a.startswith("byval") for a in arg.attributes):
            info.update(kind="byval", private=private, size=slot.size)
            private += (slot.size + 3) // 4 * 4
        args_info.append(info)
    globals_: dict[str, tuple[str, int]] = {n: ("data", o) for n, o in data_places.items()}
    local_offset = 0
    for gv in module.globals:
        if gv.addrspace == 3 and _uses(fn, lambda op, g=gv: op is g) or \
                gv.addrspace == 3 and _uses_through_constexpr(fn, gv):
            size, align = ir_size_align(gv.value_type, 4)
            local_offset = (local_offset + max(align, 4) - 1) // max(align, 4) * max(align, 4)
            globals_[gv.name] = ("local", local_offset)
            local_offset += size
    static_local = (local_offset + 3) // 4 * 4
    sel = KernelSelector(fn, em, device, {"args": args_info, "globals": globals_,
                                          "fp64": opts.fp64, "printf_base": printf_base,
                                          "debug": debug,
                                          "functions": functions or {},
                                          # AMD's compiler lists every sampler argument, used or not
                                          "sampler_args": [a.index for a in sig.args
                                                           if a.kind == "sampler"]})
    private = place_allocas(fn, sel, private)
    if stats is not None:
        stats["private"] = private
    body = sel.select()
    compiler_write = not any(_writes(line) for line in body)
    if compiler_write:
        # spec 000 "Reserved Memory Location": a kernel without memory writes gets a (never
        # taken) write to the private arena's first dword so that SC keeps the kernel
        body[-1:-1] = ["if_logicalz cb0[0].x", "uav_raw_store_id(1) mem0.x___, cb0[3].x, r0.0",
                       "endif"]
    own = len(sel.layout.get("samplers", []))
    for k in range(len(sel.layout.get("sampler_args", []))):    # argument samplers after own
        body = [line.replace(f"_sampler({1000 + k})", f"_sampler({own + k})") for line in body]
    body = reuse_registers(body)
    if private:
        body.insert(0, f"dcl_indexed_temp_array x1[{private // 4}]")
    uses_data = bool(data_places) and any("r769" in line for line in body)

    name = fn.name
    reqd = sig.reqd_work_group_size
    out = [f"func {wrapper_id} ; __OpenCL_{name}_kernel", "mov r770, l1.0"]
    for a in layout.args:     # image resources and typed UAVs, as the driver declares them
        if a.kind == "image":
            dim = (a.image_dim or "2d").replace("_", "")
            if a.access == "WO":
                out.append(f"dcl_uav_id({a.record.id})_type({dim})_fmtx(uint)")
            else:
                out.append(f"dcl_resource_id({a.record.id})_type({dim})_fmtx(unknown)"
                           f"_fmty(unknown)_fmtz(unknown)_fmtw(unknown)")
    if reqd:
        out.append(f"dcl_num_thread_per_group {reqd[0]}, {reqd[1]}, {reqd[2]}")
    else:
        limit = opts.max_work_group
        total = DEFAULT_MAX_THREADS if limit is None else limit[0] * limit[1] * limit[2]
        out.append(f"dcl_max_thread_per_group {total} ")
    if static_local and device.family != "7XX":
        out.append(f"dcl_lds_id(1) {static_local}")
    out += wrapper_setup(device)
    out += lits.declarations()
    if layout.cb1_slots:
        out.append(f"dcl_cb cb1[{layout.cb1_slots}]")
    for a in layout.args:
        out.append(f"; Kernel arg setup: {a.name}")
        for k in range(a.slots):
            out.append(f"mov r{1 + a.offset // 16 + k}, cb1[{a.offset // 16 + k}]")
    out += [f"call {body_id} ; {name}", "ret", f"endfunc ; __OpenCL_{name}_kernel"]

    version = md30.VERSION if opts.metadata30 else METADATA_VERSION
    records: list[r.Record] = [r.Version(*version), r.Device(device.name),
                               r.UniqueId(wrapper_id), r.Memory("hwprivate", private)]
    records.append(r.Memory("local" if device.family == "7XX" else "hwlocal", static_local))
    if opts.metadata30:
        records += md30.memory_records(device)
    if compiler_write:
        records.append(r.Memory("compilerwrite"))
    if uses_data:
        records.append(r.Memory("datareqd"))
    if reqd:
        records.append(r.GroupSize("cws", *reqd))
    records += md30.argument_records(sig, layout) if opts.metadata30 else layout.metadata_records()
    # AMD's compiler: on 7XX a barrier synchronises one wavefront only, so a kernel with a
    # barrier limits its work-group size (the runtime keeps it to a wavefront) and warns
    limit = bool(sel.barriers) and device.family == FAMILY_7XX
    if limit:
        records.append(r.LimitGroupSize())
    records.append(r.IdList("function", [body_id]))
    records += [r.Sampler(f"unknown_{v}", k, 1, v)
                for k, v in enumerate(sel.layout.get("samplers", []))]
    records += [r.Sampler(sig.args[index].name, own + k, 0, 0)
                for k, index in enumerate(sel.layout.get("sampler_args", []))]
    records += sel.layout.get("printf", [])
    if limit:
        records.append(message("W000"))
    counters = [a for a in layout.args if a.kind == "counter"]
    if len(counters) > MAX_COUNTERS:
        records.append(message("E018"))
    if any(len(ops) > 1 for ops in sel.counter_uses.values()):
        records.append(message("E023"))
    records.append(r.ResourceId("uavid", 1))
    if opts.metadata30:
        records += md30.closing_records(sig)
    out += [f";ARGSTART:__OpenCL_{name}_kernel"] + [x.to_line() for x in records] + \
        [f";ARGEND:__OpenCL_{name}_kernel"]
    out += [f"func {body_id} ; {name}"] + body + [f"endfunc ; {name}"]
    out += [f";ARGSTART:{name}", f";uniqueid:{body_id}", ";memory:hwlocal:0"]
    out += _called(sel.calls) + [f";ARGEND:{name}"]
    return out


def _called(calls: list[int]) -> list[str]:
    ids = sorted(set(calls))
    return [r.IdList("function", ids).to_line()] if ids else []


def function_lines(fn, device, opts: Options, fid: int, functions: dict[str, int],
                   data_places: dict[str, int], first_register: int, first_literal: int,
                   debug, frame: int = 0) -> tuple[list[str], list[int], int, int]:
    """An IL function of its own (``functions.py``): its lines, the ids it calls, the next
    free literal number and the end of its private frame (placed from ``frame`` on, above its
    callers' frames in the kernel's private array)."""
    from kernelkit.targets.amdil.functions import FunctionSelector

    if not opts.fp64 and any(t.scalar == T.float64 for t in _types_used(fn)):
        raise CompileError(f"amdil: function {fn.name} uses double, which {device.name} does not "
                           f"support")
    lits = Literals(next=first_literal)
    sel = FunctionSelector(fn, Emitter(lits, Registers()), device, {
        "args": [], "globals": {n: ("data", o) for n, o in data_places.items()},
        "fp64": opts.fp64, "printf_base": 0, "debug": debug,
        "functions": functions})
    frame_end = place_allocas(fn, sel, frame)
    body = reuse_registers(sel.select(), first_register)
    name = fn.name
    out = [f"func {fid} ; {name}"] + lits.declarations() + body + [f"endfunc ; {name}"]
    out += [f";ARGSTART:{name}", f";uniqueid:{fid}", ";memory:hwlocal:0"]
    out += _called(sel.calls) + [f";ARGEND:{name}"]
    return out, sel.calls, lits.next, frame_end


def _highest_register(lines: list[str]) -> int:
    regs = [int(m) for line in lines for m in _REGISTER.findall(line.split(";", 1)[0])]
    return max((n for n in regs if FIRST_VALUE_REGISTER <= n <= LAST_VALUE_REGISTER),
               default=FIRST_VALUE_REGISTER - 1)


def _highest_literal(lines: list[str]) -> int:
    return max((int(m) for line in lines for m in _LITERAL.findall(line)), default=0)


def place_allocas(fn, sel, private: int) -> int:
    """Every alloca of ``fn`` gets its private-frame offset from ``private`` on; returns the
    frame's end (4-byte aligned)."""
    for b in fn.blocks:
        for a in b.instructions:
            if not isinstance(a, I.AllocaInst):
                continue
            if a.operands and not isinstance(a.operands[0], ConstantInt):
                raise CompileError(f"amdil: {fn.name}: variable-sized private arrays")
            count = a.operands[0].value if a.operands else 1
            size, align = ir_size_align(a.allocated_type, 4)
            private = (private + max(align, 4) - 1) // max(align, 4) * max(align, 4)
            sel.values[id(a)] = [private]
            private += size * count
    return (private + 3) // 4 * 4


def _uses_through_constexpr(fn, gv) -> bool:
    from kernelkit.ir.values import ConstantExpr

    def refers(v, depth=0):
        if v is gv:
            return True
        if isinstance(v, ConstantExpr) and depth < 8:
            return any(refers(o, depth + 1) for o in v.operands)
        return False
    return _uses(fn, refers)


def _source_place(fn, module) -> tuple[int, str, str]:
    """(declaration line, file name, directory) of a kernel: the line from its debug
    information, the names from the module's source file name (not clang's working directory,
    a temporary one, so that the text is deterministic)."""
    source = module.source_filename or "<source>"
    sp = fn.metadata.get("dbg")
    try:
        line = int(sp.field("line"))
    except (AttributeError, KeyError, TypeError, ValueError):
        line = 0
    return line, os.path.basename(source), os.path.dirname(source) or "."


def _reachable(fn) -> list:
    from kernelkit.targets.amdil.functions import function_calls

    seen: list = []
    work = list(function_calls(fn))
    while work:
        f = work.pop()
        if f not in seen:
            seen.append(f)
            work += function_calls(f)
    return seen


def _grow_private(lines: list[str], span: tuple[int, int], name: str, own: int,
                  needed: int) -> None:
    """Widen kernel ``name``'s private array (``dcl_indexed_temp_array x1``) and its
    ``;memory:hwprivate`` record to ``needed`` bytes when the functions it calls use more."""
    if needed <= own:
        return
    start, end = span
    for k in range(start, end):
        if lines[k].startswith(";memory:hwprivate:"):
            lines[k] = f";memory:hwprivate:{needed}"
            break
    declaration = f"dcl_indexed_temp_array x1[{needed // 4}]"
    for k in range(start, end):
        if lines[k].startswith("dcl_indexed_temp_array x1["):
            lines[k] = declaration
            return
    body = next(k for k in range(start, end) if lines[k].startswith("func ")
                and lines[k].endswith(f" ; {name}"))
    lines.insert(body + 1, declaration)


def _visit(fn, order: list, path: list) -> None:
    """Depth-first: ``fn`` after its callers, each function once (a cycle is an error, as AMD's
    compiler reports recursion)."""
    from kernelkit.targets.amdil.functions import function_calls

    if fn in path:
        chain = " -> ".join(f.name for f in [*path[path.index(fn):], fn])
        raise CompileError(f"amdil: recursive function calls ({chain}): IL functions cannot "
                           f"recurse")
    if fn in order:
        order.remove(fn)       # called again deeper: keep it after this caller too
    order.append(fn)
    for callee in function_calls(fn):
        _visit(callee, order, [*path, fn])


def write_program(module, signatures, device, opts: Options, debug: bool = False) -> str:
    """The whole program for every kernel of an optimised ``kernelkit.ir`` module."""
    from kernelkit.targets.amdil.functions import function_calls

    kernels = [f for f in module.functions if f.calling_conv == "spir_kernel" and f.blocks]
    by_name = {s.name: s for s in signatures}
    # the functions kept out of line, callers before callees (recursion is refused)
    order: list = []
    for k in kernels:
        _visit(k, order, [])
    order = [f for f in order if f.calling_conv != "spir_kernel"]
    n = len(kernels)
    functions = {f.name: FIRST_UNIQUE_ID + 2 * n + i for i, f in enumerate(order)}
    segment, places = data_segment(module)
    info = None
    if debug and kernels:
        _, file, directory = _source_place(kernels[0], module)
        info = DebugProgram(file, directory)
    lines: list[str] = []
    if segment is not None:
        lines += segment.lines()
    lines += prolog()
    highest: dict[str, int] = {}
    frame_end: dict[str, int] = {}
    spans: dict[str, tuple[int, int]] = {}
    for i, fn in enumerate(kernels):
        first_line = len(lines)
        stats: dict = {}
        sig = by_name.get(fn.name)
        if sig is None:
            raise CompileError(f"amdil: kernel {fn.name} has no signature")
        if info is not None:
            line = _source_place(fn, module)[0]
            layout = allocate(sig, device.name,
                              version_major=md30.VERSION_MAJOR if opts.metadata30 else 1)
            lines += info.kernel_start(f"__OpenCL_{fn.name}_kernel", line,
                                       parameters(fn, sig, layout, line))
        lines += kernel_lines(fn, sig, device, opts, FIRST_UNIQUE_ID + i,
                              FIRST_UNIQUE_ID + n + i, module, places,
                              printf_base=sum(line.startswith(";printf_fmt:") for line in lines),
                              debug=info, functions=functions, stats=stats)
        highest[fn.name] = _highest_register(lines[first_line:])
        frame_end[fn.name] = stats["private"]
        spans[fn.name] = (first_line, len(lines))
    literal = 1 + max(_highest_literal(lines), FIRST_KERNEL_LITERAL)
    callers: dict[str, list[str]] = {}
    for f in [*kernels, *order]:
        for callee in function_calls(f):
            callers.setdefault(callee.name, []).append(f.name)
    for fn in order:
        # IL registers are shared: the function's own start above every caller's
        first = 1 + max(highest[c] for c in callers[fn.name])
        frame = max(frame_end[c] for c in callers[fn.name])
        text, _, literal, frame_end[fn.name] = function_lines(
            fn, device, opts, functions[fn.name], functions, places, first, literal, info, frame)
        highest[fn.name] = max(_highest_register(text), first - 1)
        lines += text
    for k in reversed(kernels):   # a kernel's private array covers what its callees use
        _grow_private(lines, spans[k.name], k.name, frame_end[k.name],
                      max((frame_end[f.name] for f in _reachable(k)), default=0))
    if info is not None:
        lines += info.closing()
    lines.append("end")
    text = "\n".join(lines) + "\n"
    if parse_program(text).to_text() != text:
        raise CompileError("amdil internal: the program does not print back as written")
    return text
