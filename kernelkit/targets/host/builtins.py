"""Definitions of the spec 003 ``__mux_*`` builtins for the host target, as LLVM IR text.

Every definition takes the builtin's own parameters followed by the two scheduling parameters
(``ptr %kk.wi``, ``ptr %kk.wg``; see :mod:`sched`). Only the builtins a module declares are
generated. ``__mux_work_group_barrier`` stays a declaration: the barrier pass turns each call
into a suspension point of the work-item coroutine.

Sub-groups here are the scalar code's: sub-groups of one work-item (the spec's trivial size 1). A
kernel the vectoriser turns into W-lane code has sub-groups of W work-items there (the packet; see
passes/sub_groups), so these definitions stay calls until it has run. Vec-groups operate across the
lanes of a vector value.
"""

from __future__ import annotations

import re

from kernelkit.targets.host.sched import WORK_GROUP_FIELDS, WORK_ITEM_FIELDS, field_index, llvm_struct

WI_T = llvm_struct(WORK_ITEM_FIELDS)
WG_T = llvm_struct(WORK_GROUP_FIELDS)
SCHED = "ptr %wi, ptr %wg"
ATTRS = "alwaysinline nounwind"

# spec 003 "Memory and Control Barriers": MemScopeWorkGroup, AcquireRelease|WorkGroupMemory|CrossWorkGroupMemory
BARRIER_SCOPE_WORK_GROUP = 2
BARRIER_SEMANTICS_DEFAULT = 0x8 | 0x100 | 0x200

# size_t __mux_get_<name>(i32 %i): (work-group field or None, value for out-of-range dimensions)
_DIM_QUERIES: dict[str, tuple[str, int]] = {
    "global_size": ("global_size", 1),
    "global_offset": ("global_offset", 0),
    "local_size": ("local_size", 1),
    "enqueued_local_size": ("enqueued_local_size", 1),
    "num_groups": ("num_groups", 1),
    "group_id": ("group_id", 0),
}

# spec 003 "reduce and scan builtins": operation -> (LLVM instruction or intrinsic, kind)
_GROUP_OPS: dict[str, str] = {
    "add": "add", "fadd": "fadd", "mul": "mul", "fmul": "fmul",
    "smin": "smin", "umin": "umin", "fmin": "minnum", "smax": "smax", "umax": "umax", "fmax": "maxnum",
    "and": "and", "or": "or", "xor": "xor",
    "logical_and": "and", "logical_or": "or", "logical_xor": "xor",
}

_FLOAT_TYPES = {"f16": "half", "f32": "float", "f64": "double"}


def _llvm_type(suffix: str) -> str:
    if suffix in _FLOAT_TYPES:
        return _FLOAT_TYPES[suffix]
    m = re.fullmatch(r"v(\d+)(i\d+|f16|f32|f64)", suffix)
    if m:
        return f"<{m.group(1)} x {_llvm_type(m.group(2))}>"
    if re.fullmatch(r"i\d+", suffix):
        return suffix
    raise ValueError(f"unknown mux type suffix {suffix!r}")


def _identity(op: str, ty: str) -> str:
    bits = int(ty[1:]) if ty.startswith("i") else 0
    if ty in ("half", "float", "double"):
        return {"fadd": "0.0", "fmul": "1.0", "fmin": "0x7FF0000000000000",
                "fmax": "0xFFF0000000000000"}[op]
    if op in ("add", "or", "xor", "umax", "logical_or", "logical_xor"):
        return "0"
    if op in ("mul", "logical_and"):
        return "1"
    if op in ("and", "umin"):
        return "-1"
    if op == "smin":
        return str((1 << (bits - 1)) - 1)
    if op == "smax":
        return str(-(1 << (bits - 1)))
    raise ValueError(op)


def _combine(op: str, ty: str, a: str, b: str, out: str) -> list[str]:
    inst = _GROUP_OPS[op]
    if op.startswith("logical_"):
        return [f"{out}.a = icmp ne {ty} {a}, 0", f"{out}.b = icmp ne {ty} {b}, 0",
                f"{out}.c = {inst} i1 {out}.a, {out}.b", f"{out} = zext i1 {out}.c to {ty}"]
    if inst in ("smin", "umin", "smax", "umax", "minnum", "maxnum"):
        return [f"{out} = call {ty} @llvm.{inst}.{_intrinsic_suffix(ty)}({ty} {a}, {ty} {b})"]
    return [f"{out} = {inst} {ty} {a}, {b}"]


def _intrinsic_suffix(ty: str) -> str:
    return {"half": "f16", "float": "f32", "double": "f64"}.get(ty, ty)


def _wg_field(reg: str, name: str, index: str | None = None) -> str:
    i = field_index(WORK_GROUP_FIELDS, name)
    idx = f", i32 {index}" if index is not None else ""
    return f"{reg} = getelementptr inbounds {WG_T}, ptr %wg, i32 0, i32 {i}{idx}"


def _wi_field(reg: str, name: str, index: str | None = None) -> str:
    i = field_index(WORK_ITEM_FIELDS, name)
    idx = f", i32 {index}" if index is not None else ""
    return f"{reg} = getelementptr inbounds {WI_T}, ptr %wi, i32 0, i32 {i}{idx}"


# sub-group builtins stay calls until the vectoriser has seen them (its W-lane copies run them as
# operations across lanes, see passes/sub_groups); LLVM inlines the size-1 forms afterwards
SUB_GROUP_ATTRS = "nounwind"


def _define(ret: str, name: str, params: str, body: list[str]) -> str:
    sep = ", " if params else ""
    attrs = SUB_GROUP_ATTRS if "sub_group" in name and "barrier" not in name else ATTRS
    lines = [f"define internal {ret} @{name}({params}{sep}{SCHED}) {attrs} {{", "entry:"]
    lines += [f"  {b}" if not b.endswith(":") else b for b in body]
    lines.append("}")
    return "\n".join(lines)


def _dim_load(field: str, default: int, from_wi: bool = False) -> list[str]:
    gep = _wi_field("%p", field, "%d") if from_wi else _wg_field("%p", field, "%d")
    return [
        "%ok = icmp ult i32 %i, 3",
        "%d = select i1 %ok, i32 %i, i32 0",
        gep,
        "%v = load i64, ptr %p, align 8",
        f"%r = select i1 %ok, i64 %v, i64 {default}",
        "ret i64 %r",
    ]


def _local_linear(prefix: str = "%ll") -> list[str]:
    return [_wi_field(f"{prefix}.p", "local_linear_id"), f"{prefix} = load i64, ptr {prefix}.p, align 8"]


def _local_count(prefix: str = "%n") -> list[str]:
    out = []
    for d in range(3):
        out += [_wg_field(f"{prefix}.p{d}", "local_size", str(d)), f"{prefix}.{d} = load i64, ptr {prefix}.p{d}"]
    return out + [f"{prefix}.01 = mul i64 {prefix}.0, {prefix}.1", f"{prefix} = mul i64 {prefix}.01, {prefix}.2"]


def _work_item_query(name: str) -> str | None:
    if name.startswith("get_") and name[4:] in _DIM_QUERIES:
        field, default = _DIM_QUERIES[name[4:]]
        return _define("i64", f"__mux_{name}", "i32 %i", _dim_load(field, default))
    if name == "get_local_id":
        return _define("i64", "__mux_get_local_id", "i32 %i", _dim_load("local_id", 0, from_wi=True))
    if name == "get_global_id":
        body = ["%ok = icmp ult i32 %i, 3", "%d = select i1 %ok, i32 %i, i32 0",
                _wg_field("%gp", "group_id", "%d"), "%g = load i64, ptr %gp",
                _wg_field("%ep", "enqueued_local_size", "%d"), "%e = load i64, ptr %ep",
                _wg_field("%op", "global_offset", "%d"), "%o = load i64, ptr %op",
                _wi_field("%lp", "local_id", "%d"), "%l = load i64, ptr %lp",
                "%ge = mul i64 %g, %e", "%gl = add i64 %ge, %l", "%v = add i64 %gl, %o",
                "%r = select i1 %ok, i64 %v, i64 0", "ret i64 %r"]
        return _define("i64", "__mux_get_global_id", "i32 %i", body)
    if name == "get_work_dim":
        return _define("i32", "__mux_get_work_dim", "", [
            _wg_field("%p", "work_dim"), "%v = load i64, ptr %p", "%r = trunc i64 %v to i32", "ret i32 %r"])
    if name == "get_local_linear_id":
        return _define("i64", "__mux_get_local_linear_id", "", [*_local_linear(), "ret i64 %ll"])
    if name == "get_global_linear_id":
        body = []
        for d in range(3):
            body += [f"%id{d} = call i64 @__mux_get_global_id(i32 {d}, {SCHED})",
                     f"%of{d} = call i64 @__mux_get_global_offset(i32 {d}, {SCHED})",
                     f"%gs{d} = call i64 @__mux_get_global_size(i32 {d}, {SCHED})",
                     f"%x{d} = sub i64 %id{d}, %of{d}"]
        body += ["%a = mul i64 %x2, %gs1", "%b = add i64 %a, %x1", "%c = mul i64 %b, %gs0",
                 "%r = add i64 %c, %x0", "ret i64 %r"]
        return _define("i64", "__mux_get_global_linear_id", "", body)
    if name == "get_sub_group_id":  # (scalar code: sub-groups of one work-item)
        return _define("i32", "__mux_get_sub_group_id", "", [*_local_linear(), "%r = trunc i64 %ll to i32", "ret i32 %r"])
    if name == "get_num_sub_groups":
        return _define("i32", "__mux_get_num_sub_groups", "", [*_local_count(), "%r = trunc i64 %n to i32", "ret i32 %r"])
    if name in ("get_max_sub_group_size", "get_sub_group_size"):
        return _define("i32", f"__mux_{name}", "", ["ret i32 1"])
    if name == "get_sub_group_local_id":
        return _define("i32", "__mux_get_sub_group_local_id", "", ["ret i32 0"])
    return None


def _work_group_op(name: str, op: str, kind: str, suffix: str) -> str:
    """__mux_work_group_<op>[_<kind>]_<suffix>(i32 %id, T %val[, i64 x, y, z]) through the scratch slots."""
    ty = _llvm_type(suffix)
    st = "i32" if ty == "i1" else ty
    val = "%v"
    body = [_wg_field("%sp", "scratch"), "%s = load ptr, ptr %sp", *_local_linear(), *_local_count()]
    if ty == "i1":
        body.append("%v.z = zext i1 %v to i32")
        val = "%v.z"
    body += ["%slot = getelementptr i64, ptr %s, i64 %ll", f"store {st} {val}, ptr %slot, align 8",
             f"call void @__mux_work_group_barrier(i32 %id, i32 {BARRIER_SCOPE_WORK_GROUP}, i32 {BARRIER_SEMANTICS_DEFAULT}, {SCHED})"]
    params = f"i32 %id, {ty} %v"
    if op == "broadcast":
        params += ", i64 %x, i64 %y, i64 %z"
        body += ["%zy = mul i64 %z, %n.1", "%zyy = add i64 %zy, %y", "%zyx = mul i64 %zyy, %n.0",
                 "%li = add i64 %zyx, %x", "%bp = getelementptr i64, ptr %s, i64 %li",
                 f"%acc.done = load {st}, ptr %bp, align 8"]
    else:
        comb_op = {"any": "or", "all": "and"}.get(op, kind)
        hi = {"reduce": "%n", "any": "%n", "all": "%n", "scan_inclusive": "%ll.1", "scan_exclusive": "%ll"}[op]
        if op == "scan_inclusive":
            body.append("%ll.1 = add i64 %ll, 1")
        ident = _identity(comb_op, st)
        body += ["br label %loop", "loop:",
                 "%i = phi i64 [ 0, %entry ], [ %i.next, %body ]",
                 f"%acc = phi {st} [ {ident}, %entry ], [ %acc.next, %body ]",
                 f"%more = icmp ult i64 %i, {hi}", "br i1 %more, label %body, label %exit", "body:",
                 "%ep = getelementptr i64, ptr %s, i64 %i", f"%e = load {st}, ptr %ep, align 8",
                 *_combine(comb_op, st, "%acc", "%e", "%acc.next"), "%i.next = add i64 %i, 1",
                 "br label %loop", "exit:", f"%acc.done = add {st} %acc, 0" if not st.startswith(("h", "f", "d"))
                 else f"%acc.done = fadd {st} %acc, -0.0"]
    body.append(f"call void @__mux_work_group_barrier(i32 %id, i32 {BARRIER_SCOPE_WORK_GROUP}, i32 {BARRIER_SEMANTICS_DEFAULT}, {SCHED})")
    if ty == "i1":
        body += ["%r = icmp ne i32 %acc.done, 0", "ret i1 %r"]
    else:
        body.append(f"ret {ty} %acc.done")
    return _define(ty, name, params, body)


def _sub_group_op(name: str, op: str, kind: str, suffix: str) -> str:
    """Sub-groups of size 1 (scalar code): reductions/inclusive scans/broadcasts/shuffles return the
    value itself."""
    ty = _llvm_type(suffix)
    if op in ("reduce", "scan_inclusive", "any", "all"):
        return _define(ty, name, f"{ty} %v", [f"ret {ty} %v"])
    if op == "scan_exclusive":
        st = ty
        return _define(ty, name, f"{ty} %v", [f"ret {ty} {_identity(kind, st)}"])
    if op == "broadcast":
        return _define(ty, name, f"{ty} %v, i32 %l", [f"ret {ty} %v"])
    if op == "shuffle":
        return _define(ty, name, f"{ty} %v, i32 %l", [f"ret {ty} %v"])
    if op == "shuffle_xor":
        return _define(ty, name, f"{ty} %v, i32 %x", [f"ret {ty} %v"])
    if op == "shuffle_up":  # index = 0 - delta: 0 -> curr, -1 -> prev (index + max size 1)
        return _define(ty, name, f"{ty} %prev, {ty} %curr, i32 %d",
                       ["%z = icmp eq i32 %d, 0", f"%r = select i1 %z, {ty} %curr, {ty} %prev", f"ret {ty} %r"])
    if op == "shuffle_down":  # index = delta: 0 -> curr, 1 -> next
        return _define(ty, name, f"{ty} %curr, {ty} %next, i32 %d",
                       ["%z = icmp eq i32 %d, 0", f"%r = select i1 %z, {ty} %curr, {ty} %next", f"ret {ty} %r"])
    raise ValueError(name)


_VEC_REDUCE = {"add": "add", "fadd": None, "mul": "mul", "fmul": None, "smin": "smin", "umin": "umin",
               "fmin": "fmin", "smax": "smax", "umax": "umax", "fmax": "fmax", "and": "and", "or": "or",
               "xor": "xor"}


def _vec_group_op(name: str, op: str, kind: str, suffix: str) -> str:
    """Vec-groups: the group is the lanes of the vector operand."""
    vty = _llvm_type(suffix)
    m = re.fullmatch(r"<(\d+) x (.+)>", vty)
    if not m:  # scalar vec-group == sub-group of size 1
        return _sub_group_op(name, op, kind, suffix)
    lanes, ety = int(m.group(1)), m.group(2)
    body: list[str] = []
    if op in ("any", "all", "reduce"):
        comb = {"any": "or", "all": "and"}.get(op, kind)
        acc = _identity(comb, ety) if ety != "i1" else ("1" if comb == "and" else "0")
        for i in range(lanes):
            body.append(f"%e{i} = extractelement {vty} %v, i32 {i}")
            body += _combine(comb, ety, acc, f"%e{i}", f"%a{i}")
            acc = f"%a{i}"
        body.append(f"ret {ety} {acc}")
        return _define(ety, name, f"{vty} %v", body)
    if op == "broadcast":
        return _define(ety, name, f"{vty} %v, i32 %l", [f"%r = extractelement {vty} %v, i32 %l", f"ret {ety} %r"])
    if op in ("scan_inclusive", "scan_exclusive"):
        acc = _identity(kind, ety)
        out = "poison"
        for i in range(lanes):
            body.append(f"%e{i} = extractelement {vty} %v, i32 {i}")
            if op == "scan_exclusive":
                body.append(f"%o{i} = insertelement {vty} {out}, {ety} {acc}, i32 {i}")
                body += _combine(kind, ety, acc, f"%e{i}", f"%a{i}")
            else:
                body += _combine(kind, ety, acc, f"%e{i}", f"%a{i}")
                body.append(f"%o{i} = insertelement {vty} {out}, {ety} %a{i}, i32 {i}")
            acc, out = f"%a{i}", f"%o{i}"
        body.append(f"ret {vty} {out}")
        return _define(vty, name, f"{vty} %v", body)
    raise ValueError(name)


_GROUP_RE = re.compile(
    r"__mux_(sub|work|vec)_group_(reduce|scan_inclusive|scan_exclusive|any|all|broadcast|"
    r"shuffle_up|shuffle_down|shuffle_xor|shuffle)(?:_(logical_and|logical_or|logical_xor|fadd|fmul|fmin|fmax|"
    r"add|mul|smin|umin|smax|umax|and|or|xor))?_((?:nx)?v?\d*(?:i\d+|f16|f32|f64))$")


def _misc(name: str) -> str | None:
    if name in ("__mux_isftz", "__mux_usefast", "__mux_isembeddedprofile"):
        return _define("i1", name, "", ["ret i1 false"])
    if name == "__mux_mem_barrier":
        return _define("void", name, "i32 %scope, i32 %sem", ["fence seq_cst", "ret void"])
    if name == "__mux_sub_group_barrier":
        return _define("void", name, "i32 %id, i32 %scope, i32 %sem", ["fence seq_cst", "ret void"])
    m = re.fullmatch(r"__mux_dma_(read|write)_(1|2|3)D", name)
    if m:
        return _dma(name, int(m.group(2)))
    if name == "__mux_dma_wait":
        return _define("void", name, "i32 %n, ptr %events", ["ret void"])
    return None


def _dma(name: str, dims: int) -> str:
    """Synchronous copies: each work-item that calls performs the whole copy (idempotent, the
    spec's DMA calls are made with uniform arguments); the event is returned unchanged."""
    if dims == 1:
        params = "ptr %dst, ptr %src, i64 %w, ptr %ev"
        body = ["call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %w, i1 false)", "ret ptr %ev"]
        return _define("ptr", name, params, body)
    if dims == 2:
        params = "ptr %dst, ptr %src, i64 %w, i64 %ds, i64 %ss, i64 %h, ptr %ev"
        body = ["br label %loop", "loop:", "%r = phi i64 [ 0, %entry ], [ %r1, %body ]",
                "%c = icmp ult i64 %r, %h", "br i1 %c, label %body, label %done", "body:",
                "%do = mul i64 %r, %ds", "%so = mul i64 %r, %ss", "%d = getelementptr i8, ptr %dst, i64 %do",
                "%s = getelementptr i8, ptr %src, i64 %so",
                "call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %w, i1 false)",
                "%r1 = add i64 %r, 1", "br label %loop", "done:", "ret ptr %ev"]
        return _define("ptr", name, params, body)
    params = ("ptr %dst, ptr %src, i64 %w, i64 %dls, i64 %sls, i64 %h, i64 %dps, i64 %sps, i64 %dp, ptr %ev")
    body = ["br label %loop", "loop:", "%p = phi i64 [ 0, %entry ], [ %p1, %body ]",
            "%c = icmp ult i64 %p, %dp", "br i1 %c, label %body, label %done", "body:",
            "%do = mul i64 %p, %dps", "%so = mul i64 %p, %sps", "%d = getelementptr i8, ptr %dst, i64 %do",
            "%s = getelementptr i8, ptr %src, i64 %so",
            f"%e = call ptr @{name[:-2]}2D(ptr %d, ptr %s, i64 %w, i64 %dls, i64 %sls, i64 %h, ptr %ev, {SCHED})",
            "%p1 = add i64 %p, 1", "br label %loop", "done:", "ret ptr %ev"]
    return _define("ptr", name, params, body)


def definition(name: str) -> str | None:
    """IR text defining builtin ``name`` for the host, or None if it is not a mux builtin we know."""
    if name.startswith("__mux_get_"):
        return _work_item_query(name[len("__mux_"):])
    m = _GROUP_RE.fullmatch(name)
    if m:
        group, op, kind, suffix = m.group(1), m.group(2), m.group(3) or "", m.group(4)
        if group == "work":
            return _work_group_op(name, op, kind, suffix)
        if group == "sub":
            return _sub_group_op(name, op, kind, suffix)
        return _vec_group_op(name, op, kind, suffix)
    return _misc(name)


def dependencies(text: str) -> set[str]:
    """Other mux builtins a generated definition calls."""
    return set(re.findall(r"@(__mux_\w+)\(", text))


def definitions_for(names: set[str]) -> tuple[str, set[str]]:
    """(IR text, names defined) for the mux builtins among ``names`` and what they need.

    ``__mux_work_group_barrier`` is never defined here (see module docstring)."""
    done: dict[str, str] = {}
    todo = [n for n in sorted(names) if n.startswith("__mux_")]
    while todo:
        name = todo.pop()
        if name in done or name == "__mux_work_group_barrier":
            continue
        text = definition(name)
        if text is None:
            continue
        done[name] = text
        todo.extend(dependencies(text) - set(done))
    return "\n\n".join(done[n] for n in sorted(done)), set(done)
