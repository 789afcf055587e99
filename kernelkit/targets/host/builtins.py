"""Definitions of the spec 003 ``__mux_*`` builtins for the host target, built with kernelkit.ir.

Every definition takes the builtin's own parameters followed by the two scheduling parameters
(``ptr %wi``, ``ptr %wg``; see :mod:`sched`). Only the builtins a module declares are generated,
in a module of their own that the code generator links in. ``__mux_work_group_barrier`` stays a declaration: the barrier pass turns each call
into a suspension point of the work-item coroutine.

Sub-groups here are the scalar code's: sub-groups of one work-item (the spec's trivial size 1). A
kernel the vectoriser turns into W-lane code has sub-groups of W work-items there (the packet; see
passes/sub_groups), so these definitions stay calls until it has run. Vec-groups operate across the
lanes of a vector value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import Argument, Module
from kernelkit.ir.values import ConstantSplat, Value, poison
from kernelkit.targets.host.passes.sched_fields import wg_field, wi_field

ATTRS = ("alwaysinline", "nounwind")
# sub-group builtins stay calls until the vectoriser has seen them (its W-lane copies run them as
# operations across lanes, see passes/sub_groups); LLVM inlines the size-1 forms afterwards
SUB_GROUP_ATTRS = ("nounwind",)

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

_FLOAT_TYPES = {"f16": T.half, "f32": T.float32, "f64": T.float64}


def _ir_type(suffix: str) -> T.Type:
    if suffix in _FLOAT_TYPES:
        return _FLOAT_TYPES[suffix]
    m = re.fullmatch(r"v(\d+)(i\d+|f16|f32|f64)", suffix)
    if m:
        return T.VectorType(_ir_type(m.group(2)), int(m.group(1)))
    if re.fullmatch(r"i\d+", suffix):
        return T.IntType(int(suffix[1:]))
    raise ValueError(f"unknown mux type suffix {suffix!r}")


def _constant(ty: T.Type, value: float) -> Value:
    """``value`` as a constant of ``ty`` (every lane of a vector)."""
    if isinstance(ty, T.VectorType):
        return ConstantSplat(ty, [const(ty.element, value)])
    return const(ty, value)


def _identity(op: str, ty: T.Type) -> Value:
    scalar = ty.scalar
    if isinstance(scalar, T.FloatType):
        return _constant(ty, {"fadd": 0.0, "fmul": 1.0, "fmin": math.inf, "fmax": -math.inf}[op])
    bits = scalar.bits  # type: ignore[attr-defined]
    if op in ("add", "or", "xor", "umax", "logical_or", "logical_xor"):
        value = 0
    elif op in ("mul", "logical_and"):
        value = 1
    elif op in ("and", "umin"):
        value = -1
    elif op == "smin":
        value = (1 << (bits - 1)) - 1
    elif op == "smax":
        value = -(1 << (bits - 1))
    else:
        raise ValueError(op)
    return _constant(ty, value)


def _intrinsic_suffix(ty: T.Type) -> str:
    if isinstance(ty, T.VectorType):
        return f"v{ty.count}{_intrinsic_suffix(ty.element)}"
    return {"half": "f16", "float": "f32", "double": "f64"}.get(str(ty), str(ty))


class _Library:
    """The definitions being built, in a module of their own; ``needs``: the mux builtins they call."""

    def __init__(self) -> None:
        self.module = Module()
        self.needs: set[str] = set()

    def define(self, name: str, ret: T.Type, params: Sequence[tuple[T.Type, str]]) -> tuple[IRBuilder, list[Argument]]:
        """Start the definition of ``name(params..., ptr %wi, ptr %wg)``; returns a builder at its
        entry block and its arguments."""
        fnty = T.FunctionType(ret, (*(t for t, _ in params), T.ptr, T.ptr))
        f = self.module.declare_function(name, fnty)
        for a, n in zip(f.args, [*(n for _, n in params), "wi", "wg"], strict=True):
            a.name = n
        f.linkage = "internal"
        sub_group = "sub_group" in name and "barrier" not in name
        f.attributes = list(SUB_GROUP_ATTRS if sub_group else ATTRS)
        return IRBuilder(f.append_block("entry")), f.args

    def call(self, b: IRBuilder, name: str, ret: T.Type, args: Sequence[Value], tag: str = "") -> Value:
        """Call function ``name`` (declared here; a ``__mux_`` builtin becomes a need)."""
        if name.startswith("__mux_"):
            self.needs.add(name)
        callee = self.module.declare_function(name, T.FunctionType(ret, tuple(a.type for a in args)))
        return b.call(callee, args, tag)

    def combine(self, b: IRBuilder, op: str, a: Value, c: Value, tag: str) -> Value:
        """``a <op> c`` for a group operation ``op`` (spec 003 reduce/scan kinds)."""
        inst = _GROUP_OPS[op]
        if op.startswith("logical_"):
            zero = _constant(a.type, 0)
            x, y = b.icmp("ne", a, zero, f"{tag}.a"), b.icmp("ne", c, zero, f"{tag}.b")
            return b.zext(b.binop(inst, x, y, f"{tag}.c"), a.type, tag)
        if inst in ("smin", "umin", "smax", "umax", "minnum", "maxnum"):
            return self.call(b, f"llvm.{inst}.{_intrinsic_suffix(a.type)}", a.type, [a, c], tag)
        return b.binop(inst, a, c, tag)


def _dim_load(lib: _Library, name: str, field: str, default: int, from_wi: bool = False) -> None:
    b, (i, wi, wg) = lib.define(name, T.i64, [(T.i32, "i")])
    ok = b.icmp("ult", i, const(T.i32, 3), "ok")
    d = b.select(ok, i, const(T.i32, 0), "d")
    p = wi_field(b, wi, field, d, "p") if from_wi else wg_field(b, wg, field, d, "p")
    v = b.load(T.i64, p, "v", align=8)
    b.ret(b.select(ok, v, const(T.i64, default), "r"))


def _local_linear(b: IRBuilder, wi: Value, tag: str = "ll") -> Value:
    return b.load(T.i64, wi_field(b, wi, "local_linear_id", tag=f"{tag}.p"), tag, align=8)


def _local_sizes(b: IRBuilder, wg: Value, tag: str = "n") -> tuple[Value, Value, Value]:
    """The group's local size in dimensions 0, 1, 2 and the number of its work-items."""
    n = [b.load(T.i64, wg_field(b, wg, "local_size", d, f"{tag}.p{d}"), f"{tag}.{d}") for d in range(3)]
    return n[0], n[1], b.mul(b.mul(n[0], n[1], f"{tag}.01"), n[2], tag)


def _work_item_query(lib: _Library, name: str) -> bool:
    mux = f"__mux_{name}"
    if name.startswith("get_") and name[4:] in _DIM_QUERIES:
        _dim_load(lib, mux, *_DIM_QUERIES[name[4:]])
    elif name == "get_local_id":
        _dim_load(lib, mux, "local_id", 0, from_wi=True)
    elif name == "get_global_id":
        b, (i, wi, wg) = lib.define(mux, T.i64, [(T.i32, "i")])
        ok = b.icmp("ult", i, const(T.i32, 3), "ok")
        d = b.select(ok, i, const(T.i32, 0), "d")
        g = b.load(T.i64, wg_field(b, wg, "group_id", d, "gp"), "g")
        e = b.load(T.i64, wg_field(b, wg, "enqueued_local_size", d, "ep"), "e")
        o = b.load(T.i64, wg_field(b, wg, "global_offset", d, "op"), "o")
        lid = b.load(T.i64, wi_field(b, wi, "local_id", d, "lp"), "l")
        v = b.add(b.add(b.mul(g, e, "ge"), lid, "gl"), o, "v")
        b.ret(b.select(ok, v, const(T.i64, 0), "r"))
    elif name == "get_work_dim":
        b, (wi, wg) = lib.define(mux, T.i32, [])
        b.ret(b.trunc(b.load(T.i64, wg_field(b, wg, "work_dim", tag="p"), "v"), T.i32, "r"))
    elif name == "get_local_linear_id":
        b, (wi, wg) = lib.define(mux, T.i64, [])
        b.ret(_local_linear(b, wi))
    elif name == "get_global_linear_id":
        b, (wi, wg) = lib.define(mux, T.i64, [])
        x, gs = [], []
        for d in range(3):
            dim = const(T.i32, d)
            gid = lib.call(b, "__mux_get_global_id", T.i64, [dim, wi, wg], f"id{d}")
            off = lib.call(b, "__mux_get_global_offset", T.i64, [dim, wi, wg], f"of{d}")
            gs.append(lib.call(b, "__mux_get_global_size", T.i64, [dim, wi, wg], f"gs{d}"))
            x.append(b.sub(gid, off, f"x{d}"))
        zy = b.add(b.mul(x[2], gs[1], "a"), x[1], "b")
        b.ret(b.add(b.mul(zy, gs[0], "c"), x[0], "r"))
    elif name == "get_sub_group_id":  # (scalar code: sub-groups of one work-item)
        b, (wi, wg) = lib.define(mux, T.i32, [])
        b.ret(b.trunc(_local_linear(b, wi), T.i32, "r"))
    elif name == "get_num_sub_groups":
        b, (wi, wg) = lib.define(mux, T.i32, [])
        b.ret(b.trunc(_local_sizes(b, wg)[2], T.i32, "r"))
    elif name in ("get_max_sub_group_size", "get_sub_group_size", "get_sub_group_local_id"):
        b, _ = lib.define(mux, T.i32, [])
        b.ret(const(T.i32, 0 if name == "get_sub_group_local_id" else 1))
    else:
        return False
    return True


def _barrier(lib: _Library, b: IRBuilder, barrier_id: Value, wi: Value, wg: Value) -> None:
    lib.call(b, "__mux_work_group_barrier", T.void, [barrier_id, const(T.i32, BARRIER_SCOPE_WORK_GROUP),
                                                     const(T.i32, BARRIER_SEMANTICS_DEFAULT), wi, wg])


def _work_group_op(lib: _Library, name: str, op: str, kind: str, suffix: str) -> None:
    """__mux_work_group_<op>[_<kind>]_<suffix>(i32 %id, T %val[, i64 x, y, z]) through the scratch slots."""
    ty = _ir_type(suffix)
    st = T.i32 if ty == T.i1 else ty
    params = [(T.i32, "id"), (ty, "v")]
    if op == "broadcast":
        params += [(T.i64, "x"), (T.i64, "y"), (T.i64, "z")]
    b, args = lib.define(name, ty, params)
    barrier_id, v, wi, wg = args[0], args[1], args[-2], args[-1]
    s = b.load(T.ptr, wg_field(b, wg, "scratch", tag="sp"), "s")
    ll = _local_linear(b, wi)
    n0, n1, n = _local_sizes(b, wg)
    val = b.zext(v, T.i32, "v.z") if ty == T.i1 else v
    b.store(val, b.gep(T.i64, s, [ll], "slot"), align=8)
    _barrier(lib, b, barrier_id, wi, wg)
    if op == "broadcast":
        x, y, z = args[2:5]
        li = b.add(b.mul(b.add(b.mul(z, n1, "zy"), y, "zyy"), n0, "zyx"), x, "li")
        acc = b.load(st, b.gep(T.i64, s, [li], "bp"), "acc.done", align=8)
    else:
        comb_op = {"any": "or", "all": "and"}.get(op, kind)
        hi = {"reduce": n, "any": n, "all": n, "scan_exclusive": ll}.get(op)
        if op == "scan_inclusive":
            hi = b.add(ll, const(T.i64, 1), "ll.1")
        entry, loop, body, done = b.block, *(b.function.append_block(t) for t in ("loop", "body", "exit"))
        b.br(loop)
        b.position_at_end(loop)
        i, acc = b.phi(T.i64, "i"), b.phi(st, "acc")
        b.cbr(b.icmp("ult", i, hi, "more"), body, done)
        b.position_at_end(body)
        e = b.load(st, b.gep(T.i64, s, [i], "ep"), "e", align=8)
        acc_next = lib.combine(b, comb_op, acc, e, "acc.next")
        i_next = b.add(i, const(T.i64, 1), "i.next")
        b.br(loop)
        i.add_incoming(const(T.i64, 0), entry)
        i.add_incoming(i_next, body)
        acc.add_incoming(_identity(comb_op, st), entry)
        acc.add_incoming(acc_next, body)
        b.position_at_end(done)
    _barrier(lib, b, barrier_id, wi, wg)
    b.ret(b.icmp("ne", acc, const(T.i32, 0), "r") if ty == T.i1 else acc)


def _sub_group_op(lib: _Library, name: str, op: str, kind: str, suffix: str) -> None:
    """Sub-groups of size 1 (scalar code): reductions/inclusive scans/broadcasts/shuffles return the
    value itself."""
    ty = _ir_type(suffix)
    if op in ("reduce", "scan_inclusive", "any", "all"):
        b, (v, *_) = lib.define(name, ty, [(ty, "v")])
        b.ret(v)
    elif op == "scan_exclusive":
        b, _ = lib.define(name, ty, [(ty, "v")])
        b.ret(_identity(kind, ty))
    elif op in ("broadcast", "shuffle", "shuffle_xor"):
        b, (v, *_) = lib.define(name, ty, [(ty, "v"), (T.i32, "x" if op == "shuffle_xor" else "l")])
        b.ret(v)
    elif op in ("shuffle_up", "shuffle_down"):
        # up: index = 0 - delta (0 -> curr, -1 -> prev); down: index = delta (0 -> curr, 1 -> next)
        first, other = ("prev", "curr") if op == "shuffle_up" else ("curr", "next")
        b, (a0, a1, delta, *_) = lib.define(name, ty, [(ty, first), (ty, other), (T.i32, "d")])
        curr, neighbour = (a1, a0) if op == "shuffle_up" else (a0, a1)
        b.ret(b.select(b.icmp("eq", delta, const(T.i32, 0), "z"), curr, neighbour, "r"))
    else:
        raise ValueError(name)


def _vec_group_op(lib: _Library, name: str, op: str, kind: str, suffix: str) -> None:
    """Vec-groups: the group is the lanes of the vector operand."""
    vty = _ir_type(suffix)
    if not isinstance(vty, T.VectorType):  # scalar vec-group == sub-group of size 1
        _sub_group_op(lib, name, op, kind, suffix)
        return
    lanes, ety = vty.count, vty.element
    if op in ("any", "all", "reduce"):
        comb = {"any": "or", "all": "and"}.get(op, kind)
        b, (v, *_) = lib.define(name, ety, [(vty, "v")])
        acc = _identity(comb, ety) if ety != T.i1 else const(T.i1, comb == "and")
        for i in range(lanes):
            acc = lib.combine(b, comb, acc, b.extract_element(v, const(T.i32, i), f"e{i}"), f"a{i}")
        b.ret(acc)
    elif op == "broadcast":
        b, (v, lane, *_) = lib.define(name, ety, [(vty, "v"), (T.i32, "l")])
        b.ret(b.extract_element(v, lane, "r"))
    elif op in ("scan_inclusive", "scan_exclusive"):
        b, (v, *_) = lib.define(name, vty, [(vty, "v")])
        acc, out = _identity(kind, ety), poison(vty)
        for i in range(lanes):
            e = b.extract_element(v, const(T.i32, i), f"e{i}")
            if op == "scan_exclusive":
                out = b.insert_element(out, acc, const(T.i32, i), f"o{i}")
                acc = lib.combine(b, kind, acc, e, f"a{i}")
            else:
                acc = lib.combine(b, kind, acc, e, f"a{i}")
                out = b.insert_element(out, acc, const(T.i32, i), f"o{i}")
        b.ret(out)
    else:
        raise ValueError(name)


_GROUP_RE = re.compile(
    r"__mux_(sub|work|vec)_group_(reduce|scan_inclusive|scan_exclusive|any|all|broadcast|"
    r"shuffle_up|shuffle_down|shuffle_xor|shuffle)(?:_(logical_and|logical_or|logical_xor|fadd|fmul|fmin|fmax|"
    r"add|mul|smin|umin|smax|umax|and|or|xor))?_((?:nx)?v?\d*(?:i\d+|f16|f32|f64))$")


def _misc(lib: _Library, name: str) -> bool:
    if name in ("__mux_isftz", "__mux_usefast", "__mux_isembeddedprofile"):
        b, _ = lib.define(name, T.i1, [])
        b.ret(const(T.i1, 0))
    elif name in ("__mux_mem_barrier", "__mux_sub_group_barrier"):
        params = [(T.i32, "scope"), (T.i32, "sem")]
        b, _ = lib.define(name, T.void, [(T.i32, "id"), *params] if "sub_group" in name else params)
        b.fence("seq_cst")
        b.ret_void()
    elif m := re.fullmatch(r"__mux_dma_(read|write)_(1|2|3)D", name):
        _dma(lib, name, int(m.group(2)))
    elif name == "__mux_dma_wait":
        b, _ = lib.define(name, T.void, [(T.i32, "n"), (T.ptr, "events")])
        b.ret_void()
    else:
        return False
    return True


def _memmove(lib: _Library, b: IRBuilder, dst: Value, src: Value, size: Value) -> None:
    lib.call(b, "llvm.memmove.p0.p0.i64", T.void, [dst, src, size, const(T.i1, 0)])


def _dma_rows(b: IRBuilder, count: Value, copy: Callable[[IRBuilder, Value], None]) -> None:
    """``for (r = 0; r < count; ++r) copy(r)`` from ``b``'s block; ``b`` ends in the exit block."""
    entry = b.block
    loop, body, done = (b.function.append_block(t) for t in ("loop", "body", "done"))
    b.br(loop)
    b.position_at_end(loop)
    r = b.phi(T.i64, "r")
    b.cbr(b.icmp("ult", r, count, "c"), body, done)
    b.position_at_end(body)
    copy(b, r)
    r1 = b.add(r, const(T.i64, 1), "r1")
    b.br(loop)
    r.add_incoming(const(T.i64, 0), entry)
    r.add_incoming(r1, body)
    b.position_at_end(done)


def _dma(lib: _Library, name: str, dims: int) -> None:
    """Synchronous copies: each work-item that calls performs the whole copy (idempotent, the
    spec's DMA calls are made with uniform arguments); the event is returned unchanged."""
    p, i = T.ptr, T.i64
    if dims == 1:
        b, (dst, src, w, ev, *_) = lib.define(name, p, [(p, "dst"), (p, "src"), (i, "w"), (p, "ev")])
        _memmove(lib, b, dst, src, w)
    elif dims == 2:
        b, (dst, src, w, ds, ss, h, ev, *_) = lib.define(
            name, p, [(p, "dst"), (p, "src"), (i, "w"), (i, "ds"), (i, "ss"), (i, "h"), (p, "ev")])

        def row(b: IRBuilder, r: Value) -> None:
            d = b.gep(T.i8, dst, [b.mul(r, ds, "do")], "d")
            _memmove(lib, b, d, b.gep(T.i8, src, [b.mul(r, ss, "so")], "s"), w)
        _dma_rows(b, h, row)
    else:
        b, (dst, src, w, dls, sls, h, dps, sps, dp, ev, wi, wg) = lib.define(
            name, p, [(p, "dst"), (p, "src"), (i, "w"), (i, "dls"), (i, "sls"), (i, "h"), (i, "dps"),
                      (i, "sps"), (i, "dp"), (p, "ev")])

        def plane(b: IRBuilder, k: Value) -> None:
            d = b.gep(T.i8, dst, [b.mul(k, dps, "do")], "d")
            s = b.gep(T.i8, src, [b.mul(k, sps, "so")], "s")
            lib.call(b, f"{name[:-2]}2D", p, [d, s, w, dls, sls, h, ev, wi, wg], "e")
        _dma_rows(b, dp, plane)
    b.ret(ev)


def _define(lib: _Library, name: str) -> bool:
    """Add the definition of builtin ``name`` to ``lib``; False if it is not a mux builtin we know."""
    if name.startswith("__mux_get_"):
        return _work_item_query(lib, name[len("__mux_"):])
    m = _GROUP_RE.fullmatch(name)
    if m:
        group, op, kind, suffix = m.group(1), m.group(2), m.group(3) or "", m.group(4)
        {"work": _work_group_op, "sub": _sub_group_op, "vec": _vec_group_op}[group](lib, name, op, kind, suffix)
        return True
    return _misc(lib, name)


def definitions_for(names: set[str]) -> tuple[Module, set[str]]:
    """(module of definitions, names defined) for the mux builtins among ``names`` and the builtins
    they call; link the module into the kernel's (``kernelkit.ir.transforms.link.link_into``).

    ``__mux_work_group_barrier`` is never defined here (see module docstring)."""
    lib = _Library()
    done: set[str] = set()
    todo = [n for n in sorted(names) if n.startswith("__mux_")]
    while todo:
        name = todo.pop()
        if name in done or name == "__mux_work_group_barrier":
            continue
        if not _define(lib, name):
            continue
        done.add(name)
        todo.extend(sorted(lib.needs - done))
    return lib.module, done
