"""printf on the host: each call site writes one record into the launch's printf buffer.

A record is ``u32 site, u32 length, u64 format pointer`` followed by the arguments, each at an
8-byte aligned offset in its in-memory form (vectors whole, ``%s`` strings as pointers). The site
table (format string, then the LLVM type of each argument) goes into the binary's KernelInfo and
the runtime formats the records after the launch (OpenCL C 1.2 s6.12.13 rules, see
``kernelkit.runtime.printf``). ``printf`` returns 0 (success) to the kernel.
"""

from __future__ import annotations

import re

from kernelkit.targets.host.irtext import ModuleText, matching_paren, split_top_level
from kernelkit.targets.host.sched import (
    PRINTF_STRUCT,
    SINK_BYTES,
    WORK_GROUP_FIELDS,
    field_index,
    llvm_struct,
)

HELPERS = ("kk_printf_alloc",)
RECORD_HEADER = 16   # u32 site, u32 length, u64 format pointer
WG_T = llvm_struct(WORK_GROUP_FIELDS)

_PRINTF_RE = re.compile(r"^(\s*)(?:(%[-\w$.]+) = )?(?:tail |notail |musttail )?call [^@]*@printf\(")
_STRING_RE = re.compile(r'^@([-\w$.]+) = .*constant \[\d+ x i8\] c"((?:[^"\\]|\\[0-9A-Fa-f]{2}|\\\\)*)"')


def type_size(ty: str) -> int:
    """Store size in bytes of a first-class LLVM type as printed (printf arguments only)."""
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


def decode_c_string(body: str) -> str:
    out = bytearray()
    i = 0
    while i < len(body):
        if body[i] == "\\":
            if body[i + 1] == "\\":
                out.append(0x5C)
                i += 2
            else:
                out.append(int(body[i + 1:i + 3], 16))
                i += 3
        else:
            out += body[i].encode("utf-8")
            i += 1
    return out.split(b"\0", 1)[0].decode("utf-8", "replace")


def _arg_type(arg: str) -> tuple[str, str]:
    """(type, value) of a call argument like ``<4 x float> noundef %44``."""
    arg = arg.strip()
    if arg[0] in "<{[":
        end = matching_paren(arg, 0) + 1
        ty, rest = arg[:end], arg[end:]
    else:
        ty, _, rest = arg.partition(" ")
        if rest.startswith("addrspace("):
            close = rest.index(")")
            ty, rest = ty + " " + rest[:close + 1], rest[close + 1:]
    words = [w for w in rest.split(" ") if w and w not in ("noundef", "signext", "zeroext", "nonnull")]
    return ty, " ".join(words)


def lower_printf(mod: ModuleText) -> list[list[str]]:
    """Rewrite every printf call; returns the site table."""
    strings = {}
    for item in mod.items:
        if isinstance(item, str):
            m = _STRING_RE.match(item)
            if m:
                strings[m.group(1)] = decode_c_string(m.group(2))
    sites: list[list[str]] = []
    for f in mod.functions:
        out: list[str] = []
        for line in f.body:
            m = _PRINTF_RE.match(line)
            if not m:
                out.append(line)
                continue
            open_i = m.end() - 1
            args = [_arg_type(a) for a in split_top_level(line[open_i + 1:matching_paren(line, open_i)])]
            fmt_ty, fmt_val = args[0]
            fmt = strings.get(fmt_val.lstrip("@"), "") if fmt_val.startswith("@") else ""
            site = len(sites)
            sites.append([fmt, *[ty for ty, _ in args[1:]]])
            offsets, off = [], RECORD_HEADER
            for ty, _ in args[1:]:
                offsets.append(off)
                off += (type_size(ty) + 7) // 8 * 8
            rec = f"%kk.pf.{site}"
            ind = m.group(1) or "  "
            out.append(f"{ind}{rec} = call ptr @kk_printf_alloc(i64 {site}, i64 {off})")
            out.append(f"{ind}{rec}.fmt = getelementptr i8, ptr {rec}, i64 8")
            out.append(f"{ind}store {fmt_ty} {fmt_val}, ptr {rec}.fmt, align 1")
            for k, ((ty, val), o) in enumerate(zip(args[1:], offsets, strict=True)):
                out.append(f"{ind}{rec}.{k} = getelementptr i8, ptr {rec}, i64 {o}")
                out.append(f"{ind}store {ty} {val}, ptr {rec}.{k}, align 1")
            if m.group(2):
                out.append(f"{ind}{m.group(2)} = add i32 0, 0")
        f.body = out
    if sites:
        mod.items = [i for i in mod.items if not (isinstance(i, str) and i.startswith("declare")
                                                  and "@printf(" in i)]
        mod.items.append(_alloc_definition())
    return sites


def _alloc_definition() -> str:
    pf = field_index(WORK_GROUP_FIELDS, "printf")
    return f"""@kk.printf.sink = internal global [{SINK_BYTES} x i8] zeroinitializer, align 16

define internal ptr @kk_printf_alloc(i64 %site, i64 %len, ptr %wi, ptr %wg) alwaysinline nounwind {{
entry:
  %pp = getelementptr inbounds {WG_T}, ptr %wg, i32 0, i32 {pf}
  %pb = load ptr, ptr %pp
  %none = icmp eq ptr %pb, null
  br i1 %none, label %sink, label %take
take:
  %offp = getelementptr inbounds {PRINTF_STRUCT}, ptr %pb, i32 0, i32 2
  %off = atomicrmw add ptr %offp, i64 %len monotonic
  %end = add i64 %off, %len
  %capp = getelementptr inbounds {PRINTF_STRUCT}, ptr %pb, i32 0, i32 1
  %cap = load i64, ptr %capp
  %fits = icmp ule i64 %end, %cap
  br i1 %fits, label %write, label %sink
write:
  %data = load ptr, ptr %pb
  %rec = getelementptr i8, ptr %data, i64 %off
  %site32 = trunc i64 %site to i32
  store i32 %site32, ptr %rec, align 1
  %lenp = getelementptr i8, ptr %rec, i64 4
  %len32 = trunc i64 %len to i32
  store i32 %len32, ptr %lenp, align 1
  ret ptr %rec
sink:
  ret ptr @kk.printf.sink
}}"""
