"""printf on the host: each call site writes one record into the launch's printf buffer.

A record is ``u32 site, u32 length, u64 format pointer`` followed by the arguments, each at an
8-byte aligned offset in its in-memory form (vectors whole, ``%s`` strings as pointers). The site
table (format string, then the LLVM type of each argument) goes into the binary's KernelInfo and
the runtime formats the records after the launch (OpenCL C 1.2 s6.12.13 rules, see
``kernelkit.runtime.printf``). ``printf`` returns 0 (success) to the kernel.
"""

from __future__ import annotations

import re

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Function, GlobalVariable, Module
from kernelkit.ir.values import ConstantBytes, ConstantExpr, null, zeroinitializer
from kernelkit.targets.host.sched import SINK_BYTES, PrintfBuffer, WorkGroupInfo

HELPERS = ("kk_printf_alloc",)
RECORD_HEADER = 16   # u32 site, u32 length, u64 format pointer


def type_size(ty: str) -> int:
    """Store size in bytes of a first-class LLVM type as printed (printf arguments only); the
    runtime reads the site table's types with it."""
    ty = ty.strip()
    m = re.fullmatch(r"<(\d+) x (.+)>", ty)
    if m:
        return int(m.group(1)) * type_size(m.group(2))
    if ty.startswith("ptr"):
        return 8
    if ty in ("half", "bfloat"):
        return 2
    if ty == "float":
        return 4
    if ty == "double":
        return 8
    m = re.fullmatch(r"i(\d+)", ty)
    if m:
        return max(1, (int(m.group(1)) + 7) // 8)
    raise ValueError(f"printf: unsupported argument type {ty}")


def _format_string(value) -> str:
    """The text of a format string argument: a constant global ``[N x i8] c"..."`` (up to its NUL), also
    reached through pointer casts and constant byte offsets (a getelementptr instruction or constant
    expression, as SPIR-V readers and -O0 code give it)."""
    offset = 0
    while True:
        opcode = getattr(value, "opcode", None)
        if opcode in ("bitcast", "addrspacecast") and isinstance(value, I.Instruction | ConstantExpr):
            value = value.operands[0]
        elif opcode == "getelementptr" and isinstance(value, I.Instruction | ConstantExpr):
            step = _byte_offset(value)
            if step is None:
                return ""
            offset += step
            value = value.operands[0]
        else:
            break
    if isinstance(value, GlobalVariable) and isinstance(value.initializer, ConstantBytes):
        return value.initializer.data[offset:].split(b"\0", 1)[0].decode("utf-8", "replace")
    return ""


def _byte_offset(gep) -> int | None:
    """The constant byte offset of a getelementptr over bytes (``i8`` or ``[N x i8]``), else None."""
    indices = [getattr(i, "value", None) for i in gep.operands[1:]]
    if any(not isinstance(i, int) for i in indices):
        return None
    source = gep.source_type
    if source == T.i8 and len(indices) == 1:
        return indices[0]
    if isinstance(source, T.ArrayType) and source.element == T.i8 and len(indices) == 2:
        return indices[0] * source.count + indices[1]
    return None


def lower_printf(module: Module) -> list[list[str]]:
    """Rewrite every printf call; returns the site table. The calls go to
    ``kk_printf_alloc(i64 site, i64 length)`` (declared here; :func:`alloc_definition` defines it
    once the scheduling parameters are in place)."""
    printf = module.get_function("printf")
    if printf is None:
        return []
    sites: list[list[str]] = []
    alloc: Function | None = None
    for f in module.functions:
        calls = [i for i in f.instructions() if isinstance(i, I.CallInst) and i.called_function is printf]
        for call in calls:
            if alloc is None:
                alloc = module.declare_function("kk_printf_alloc", T.FunctionType(T.ptr, (T.i64, T.i64)))
            args = call.args
            site = len(sites)
            sites.append([_format_string(args[0]), *[str(a.type) for a in args[1:]]])
            offsets, off = [], RECORD_HEADER
            for a in args[1:]:
                offsets.append(off)
                off += (type_size(str(a.type)) + 7) // 8 * 8
            b = IRBuilder().position_before(call)
            rec = b.call(alloc, [const(T.i64, site), const(T.i64, off)], name=f"kk.pf.{site}")
            fmt_at = b.gep(T.i8, rec, [const(T.i64, 8)], name=f"kk.pf.{site}.fmt")
            b.store(args[0], fmt_at, align=1)
            for k, (a, o) in enumerate(zip(args[1:], offsets, strict=True)):
                at = b.gep(T.i8, rec, [const(T.i64, o)], name=f"kk.pf.{site}.{k}")
                b.store(a, at, align=1)
            call.replace_all_uses_with(const(T.i32, 0))   # printf succeeded
            call.erase()
    if not printf.uses:
        module.remove_function(printf)
    return sites


def add_alloc_definition(module: Module) -> Function:
    """Define ``kk_printf_alloc(site, length, wi, wg)`` (declared by :func:`lower_printf`, given the
    scheduling parameters since): a record of ``length`` bytes in the launch's printf buffer,
    headed by the site and the length, or the sink when the buffer is absent or full."""
    sink = GlobalVariable("kk.printf.sink", T.ArrayType(T.i8, SINK_BYTES), zeroinitializer(T.ArrayType(T.i8, SINK_BYTES)))
    sink.linkage, sink.align = "internal", 16
    module.add_global(sink)
    f = module.declare_function(HELPERS[0], T.FunctionType(T.ptr, (T.i64, T.i64, T.ptr, T.ptr)))
    site, length, _wi, wg = f.args
    for a, n in zip(f.args, ("site", "len", "wi", "wg"), strict=True):
        a.name = n
    f.linkage, f.attributes = "internal", ["alwaysinline", "nounwind"]
    entry, take, write, to_sink = (f.append_block(n) for n in ("entry", "take", "write", "sink"))
    b = IRBuilder(entry)
    pp = b.gep(T.i8, wg, [const(T.i64, WorkGroupInfo.printf.offset)], "pp", ["inbounds"])
    buf = b.load(T.ptr, pp, "pb")
    b.cbr(b.icmp("eq", buf, null(T.ptr), "none"), to_sink, take)
    b.position_at_end(take)
    offp = b.gep(T.i8, buf, [const(T.i64, PrintfBuffer.offset.offset)], "offp", ["inbounds"])
    off = b.atomicrmw("add", offp, length, "monotonic", name="off")
    end = b.add(off, length, "end")
    capp = b.gep(T.i8, buf, [const(T.i64, PrintfBuffer.capacity.offset)], "capp", ["inbounds"])
    b.cbr(b.icmp("ule", end, b.load(T.i64, capp, "cap"), "fits"), write, to_sink)
    b.position_at_end(write)
    rec = b.gep(T.i8, b.load(T.ptr, buf, "data"), [off], "rec")
    b.store(b.trunc(site, T.i32, "site32"), rec, align=1)
    b.store(b.trunc(length, T.i32, "len32"), b.gep(T.i8, rec, [const(T.i64, 4)], "lenp"), align=1)
    b.ret(rec)
    IRBuilder(to_sink).ret(sink)
    return f
