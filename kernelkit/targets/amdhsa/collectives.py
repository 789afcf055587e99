"""Work-group collectives (spec 003 "Group operation builtins", ``__mux_work_group_*``) for
AMDGPU, generated as IR: each work-item writes its value to an LDS scratch slot, a barrier, then
each work-item folds the slots it needs (all for reduce/any/all, up to itself for scans, one
for broadcast), and a closing barrier frees the scratch for the next collective. The definitions
are written as IR and added to the kernelkit.ir module (``kernelkit.ir.transforms.link``)."""

from __future__ import annotations

import re

from kernelkit.ir import types as T
from kernelkit.ir.module import Module
from kernelkit.ir.transforms.link import add_definitions

MAX_WORK_GROUP_SIZE = 1024
SCRATCH = "@__kk_wg_scratch"
# what the generated definitions call
HELPERS = {"__mux_get_local_linear_id": T.FunctionType(T.i64, ()),
           "__mux_get_local_size": T.FunctionType(T.i64, (T.i32,)),
           "__mux_work_group_barrier": T.FunctionType(T.void, (T.i32, T.i32, T.i32))}
HELPER_DECLARATIONS = tuple(f"declare {t.return_type} @{n}({', '.join(map(str, t.params))})" for n, t in HELPERS.items())
_COLLECTIVE = re.compile(r"__mux_work_group_(?!barrier)\w+")
_NAME = re.compile(r"^__mux_work_group_(?P<kind>[a-z_]+?)_(?P<ty>[if]\d+)$")
_IR_TYPE = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "f16": "half", "f32": "float",
            "f64": "double"}


def _identity(op: str, ty: str) -> str:
    if ty in ("half", "float", "double"):
        return {"fadd": "0.0", "fmul": "1.0", "fmin": "0x7FF0000000000000", "fmax": "0xFFF0000000000000"}[op]
    bits = int(ty[1:])
    return {"add": "0", "mul": "1", "and": "-1", "or": "0", "xor": "0", "smin": str((1 << (bits - 1)) - 1),
            "smax": str(-(1 << (bits - 1))), "umin": "-1", "umax": "0", "logical_and": "1",
            "logical_or": "0", "logical_xor": "0"}[op]


def _combine(op: str, ty: str, a: str, b: str, out: str) -> list[str]:
    simple = {"add": "add", "mul": "mul", "and": "and", "or": "or", "xor": "xor", "fadd": "fadd", "fmul": "fmul"}
    if op in simple:
        return [f"  {out} = {simple[op]} {ty} {a}, {b}"]
    intr = {"smin": "smin", "smax": "smax", "umin": "umin", "umax": "umax", "fmin": "minnum", "fmax": "maxnum"}
    if op in intr:
        return [f"  {out} = call {ty} @llvm.{intr[op]}.{_suffix(ty)}({ty} {a}, {ty} {b})"]
    # logical_*: operands are 0/1 after normalisation
    base = op.split("_")[1]
    return [f"  {out}.a = icmp ne {ty} {a}, 0", f"  {out}.b = icmp ne {ty} {b}, 0",
            f"  {out}.c = {base} i1 {out}.a, {out}.b", f"  {out} = zext i1 {out}.c to {ty}"]


def _suffix(ty: str) -> str:
    return {"half": "f16", "float": "f32", "double": "f64"}.get(ty, ty)


def _prologue(ty: str, value: str) -> list[str]:
    return [
        "  %lid = call i64 @__mux_get_local_linear_id()",
        "  %s0 = call i64 @__mux_get_local_size(i32 0)", "  %s1 = call i64 @__mux_get_local_size(i32 1)",
        "  %s2 = call i64 @__mux_get_local_size(i32 2)", "  %s01 = mul i64 %s0, %s1", "  %n = mul i64 %s01, %s2",
        "  call void @__mux_work_group_barrier(i32 0, i32 2, i32 0)",
        f"  %slot = getelementptr [{MAX_WORK_GROUP_SIZE} x i64], ptr addrspace(3) {SCRATCH}, i64 0, i64 %lid",
        f"  store {ty} {value}, ptr addrspace(3) %slot, align 8",
        "  call void @__mux_work_group_barrier(i32 0, i32 2, i32 0)",
    ]


def _fold(op: str, ty: str, limit: str, exclusive: bool = False) -> list[str]:
    ident = _identity(op, ty)
    lines = ["  br label %loop", "loop:",
             "  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]",
             f"  %acc = phi {ty} [ {ident}, %entry ], [ %acc.next, %body ]",
             f"  %more = icmp ult i64 %i, {limit}", "  br i1 %more, label %body, label %done", "body:",
             f"  %p = getelementptr [{MAX_WORK_GROUP_SIZE} x i64], ptr addrspace(3) {SCRATCH}, i64 0, i64 %i",
             f"  %x = load {ty}, ptr addrspace(3) %p, align 8"]
    lines += _combine(op, ty, "%acc", "%x", "%acc.next")
    lines += ["  %i.next = add i64 %i, 1", "  br label %loop", "done:",
              "  call void @__mux_work_group_barrier(i32 0, i32 2, i32 0)"]
    return lines


def definition(name: str) -> str | None:
    """IR text defining ``name``, or None when it is not a work-group collective we generate."""
    m = _NAME.match(name)
    if not m or m.group("ty") not in _IR_TYPE:
        return None
    kind, ty = m.group("kind"), _IR_TYPE[m.group("ty")]
    if kind in ("any", "all"):
        body = _prologue("i32", "%v32") + _fold("or" if kind == "any" else "and", "i32", "%n")
        return (f"define internal i1 @{name}(i32 %id, i1 %v) alwaysinline {{\nentry:\n  %v32 = zext i1 %v to i32\n"
                + "\n".join(body) + "\n  %r = icmp ne i32 %acc, 0\n  ret i1 %r\n}\n")
    if kind == "broadcast":
        body = _prologue(ty, "%v") + [
            "  %iy = mul i64 %lz, %s1", "  %iyz = add i64 %iy, %ly", "  %ixyz = mul i64 %iyz, %s0",
            "  %idx = add i64 %ixyz, %lx",
            f"  %src = getelementptr [{MAX_WORK_GROUP_SIZE} x i64], ptr addrspace(3) {SCRATCH}, i64 0, i64 %idx",
            f"  %r = load {ty}, ptr addrspace(3) %src, align 8",
            "  call void @__mux_work_group_barrier(i32 0, i32 2, i32 0)"]
        return (f"define internal {ty} @{name}(i32 %id, {ty} %v, i64 %lx, i64 %ly, i64 %lz) alwaysinline {{\n"
                "entry:\n" + "\n".join(body) + f"\n  ret {ty} %r\n}}\n")
    for prefix, limit in (("reduce_", "%n"), ("scan_inclusive_", "%lid1"), ("scan_exclusive_", "%lid")):
        if kind.startswith(prefix):
            op = kind[len(prefix):]
            try:
                _identity(op, ty)
            except KeyError:
                return None
            body = _prologue(ty, "%v") + (["  %lid1 = add i64 %lid, 1"] if limit == "%lid1" else [])
            body += _fold(op, ty, limit)
            return (f"define internal {ty} @{name}(i32 %id, {ty} %v) alwaysinline {{\nentry:\n"
                    + "\n".join(body) + f"\n  ret {ty} %acc\n}}\n")
    return None


def add_collectives(module: Module) -> None:
    """Define every ``__mux_work_group_*`` collective the module declares (after the declarations
    of the module, in their order; the LDS scratch last of the globals)."""
    defs = {f.name: d for f in module.functions if f.is_declaration and _COLLECTIVE.fullmatch(f.name)
            and (d := definition(f.name))}
    if not defs:
        return
    for name, function_type in HELPERS.items():    # declared before the definitions, as they were
        module.declare_function(name, function_type)
    declared = {f.name: f for f in module.functions if f.name in defs}
    module.functions = [f for f in module.functions if f.name not in defs] + [declared[n] for n in defs]
    scratch = f"{SCRATCH} = internal addrspace(3) global [{MAX_WORK_GROUP_SIZE} x i64] poison, align 8"
    add_definitions(module, "\n".join([scratch, *HELPER_DECLARATIONS, *defs.values()]))
