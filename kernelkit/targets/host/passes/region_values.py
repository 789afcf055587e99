"""Work-item-invariant and local-id frame fields of a split work-item coroutine.

CoroSplit keeps every value live across a barrier in each work-item's frame, including values
that are the same for the whole work-group (kernel arguments, the local size, the group id) and
the work-item's own local id. Reloaded from the frame in a region loop over work-items, the
former are loads through per-work-item pointers (gathers, branches LLVM cannot see are uniform)
and the latter hide that consecutive work-items touch consecutive elements.

This pass finds, in the ramp (the code up to the first barrier), the frame fields that are
  * stored once in the ramp's entry block with a value computed only from the kernel arguments
    and the work-group info (uniform: work-item 0's copy serves all work-items), or
  * stored with ``local_id[d]`` / ``local_linear_id`` loaded from the work-item info,
and never stored by the resume function. The resume function then takes those values as
parameters (the region loop loads the uniform ones once per region from work-item 0's frame and
passes its loop counters for the ids), the role PoCL's uniformity analysis plays for its
work-item loops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernelkit.targets.host.irtext import Function, block_label, header_params
from kernelkit.targets.host.sched import WORK_ITEM_FIELDS, field_index

RAMP_FRAME = "%kk.coro.mem"
RESUME_FRAME = "%kk.coro.hdl"
ID_PARAMS = ("%kk.lid0", "%kk.lid1", "%kk.lid2", "%kk.lin")

_NAME = r"%[-\w$.]+"
_GEP_RE = re.compile(rf"^\s*({_NAME}) = getelementptr inbounds (?:nuw )?i8, ptr ({_NAME}), i64 (\d+)$")
_DEF_RE = re.compile(rf"^\s*({_NAME}) = (.*)$")
_STORE_RE = re.compile(rf"^\s*store (?:volatile )?(.+?) ({_NAME}), ptr ({_NAME})(?:,|$)")
_LOAD_RE = re.compile(rf"^(\s*)({_NAME}) = load ([^,]+), ptr ({_NAME})(?:,.*)?$")
_PURE_OPS = frozenset("add sub mul shl lshr ashr and or xor udiv sdiv urem srem trunc zext sext getelementptr "
                      "icmp fcmp select fadd fsub fmul fdiv fneg bitcast ptrtoint inttoptr sitofp uitofp "
                      "fptosi fptoui fpext fptrunc freeze".split())
_PURE_CALLS = re.compile(r"call (?:[\w ]+ )?i\d+ @llvm\.(?:umin|umax|smin|smax)\.i\d+\(")
_LOCAL_ID_OFFSETS = {0: 0, 8: 1, 16: 2}   # byte offset in MuxWorkItemInfo -> dimension


def _wi_id_offsets() -> dict[int, int]:
    """Byte offset of local_id[d] / local_linear_id in MuxWorkItemInfo -> index into ID_PARAMS."""
    assert field_index(WORK_ITEM_FIELDS, "local_id") == 0 and field_index(WORK_ITEM_FIELDS, "local_linear_id") == 1
    return {**_LOCAL_ID_OFFSETS, 24: 3}


@dataclass
class RegionValues:
    """Frame fields the resume function receives as parameters instead of reloading."""

    uniform: dict[int, str] = field(default_factory=dict)   # frame offset -> LLVM type
    ids: dict[int, int] = field(default_factory=dict)       # frame offset -> index into ID_PARAMS

    def uniform_param(self, off: int) -> str:
        return f"%kk.u{off}"


def _operands(expr: str) -> list[str]:
    return re.findall(rf"({_NAME})(?![-\w$.])", expr)


def _ramp_fields(ramp: Function) -> tuple[dict[int, str], dict[int, int]]:
    """(offset -> stored uniform value's type, offset -> id index) from the ramp."""
    start, end = header_params(ramp.header)
    uniform = set(re.findall(rf"({_NAME})(?![-\w$.])", ramp.header[start:end])) - {"%kk.wi"}
    wg_ptrs = {"%kk.wg"}
    wi_ptrs: dict[str, int] = {"%kk.wi": 0}
    ids: dict[str, int] = {}
    geps: dict[str, int] = {}
    id_offsets = _wi_id_offsets()
    stores: dict[int, list[tuple[str, str, bool]]] = {}
    entry = True
    for i, line in enumerate(ramp.body):
        if block_label(line) is not None:
            if i > 0:
                entry = False
            continue
        g = _GEP_RE.match(line)
        if g and g.group(2) == RAMP_FRAME:
            geps[g.group(1)] = int(g.group(3))
            continue
        if g and g.group(2) == "%kk.wi":
            wi_ptrs[g.group(1)] = int(g.group(3))
            continue
        s = _STORE_RE.match(line)
        if s and s.group(3) in geps:
            stores.setdefault(geps[s.group(3)], []).append((s.group(1), s.group(2), entry))
            continue
        ld = _LOAD_RE.match(line)
        if ld:
            ptr = ld.group(4)
            if ptr in wi_ptrs and ld.group(3) == "i64" and wi_ptrs[ptr] in id_offsets:
                ids[ld.group(2)] = id_offsets[wi_ptrs[ptr]]
            elif ptr in wg_ptrs:
                uniform.add(ld.group(2))
            continue
        d = _DEF_RE.match(line)
        if not d:
            continue
        name, expr = d.groups()
        op = expr.split(" ", 1)[0]
        ops = _operands(expr)
        pure = op in _PURE_OPS or (op in ("call", "tail") and _PURE_CALLS.search(expr))
        if op == "getelementptr" and ops and ops[0] in wg_ptrs and all(o in uniform for o in ops[1:]):
            wg_ptrs.add(name)
        if pure and all(o in uniform for o in ops):
            uniform.add(name)
    out_u: dict[int, str] = {}
    out_i: dict[int, int] = {}
    for off, sts in stores.items():
        if len(sts) != 1:
            continue
        ty, val, in_entry = sts[0]
        if val in ids:
            out_i[off] = ids[val]
        elif in_entry and val in uniform:
            out_u[off] = ty
    return out_u, out_i


def analyse(ramp: Function, resume: Function) -> RegionValues | None:
    u, ids = _ramp_fields(ramp)
    geps: dict[str, int] = {}
    stored: set[int] = set()
    types: dict[int, set[str]] = {}
    for line in resume.body:
        g = _GEP_RE.match(line)
        if g and g.group(2) == RESUME_FRAME:
            geps[g.group(1)] = int(g.group(3))
            continue
        s = _STORE_RE.match(line)
        if s and s.group(3) in geps:
            stored.add(geps[s.group(3)])
        ld = _LOAD_RE.match(line)
        if ld and ld.group(4) in geps:
            types.setdefault(geps[ld.group(4)], set()).add(ld.group(3).strip())
    rv = RegionValues()
    for off, ty in u.items():
        if off not in stored and off in types and types[off] == {ty}:
            rv.uniform[off] = ty
    for off, k in ids.items():
        if off not in stored and off in types and types[off] == {"i64"}:
            rv.ids[off] = k
    if not rv.uniform and not rv.ids:
        return None
    return rv


def rewrite_resume(resume: Function, rv: RegionValues) -> None:
    """Replace the reloads of the fields by the new parameters (appended to the header)."""
    geps: dict[str, int] = {}
    out = []
    for line in resume.body:
        g = _GEP_RE.match(line)
        if g and g.group(2) == RESUME_FRAME:
            geps[g.group(1)] = int(g.group(3))
        ld = _LOAD_RE.match(line)
        if ld and ld.group(4) in geps:
            off = geps[ld.group(4)]
            ty = ld.group(3).strip()
            if off in rv.uniform:
                p = rv.uniform_param(off)
                line = f"{ld.group(1)}{ld.group(2)} = select i1 true, {ty} {p}, {ty} {p}"
            elif off in rv.ids:
                line = f"{ld.group(1)}{ld.group(2)} = add i64 {ID_PARAMS[rv.ids[off]]}, 0"
        out.append(line)
    resume.body = out
    _, end = header_params(resume.header)
    extra = "".join(f", {ty} {rv.uniform_param(off)}" for off, ty in sorted(rv.uniform.items()))
    extra += "".join(f", i64 {p}" for p in ID_PARAMS)
    resume.header = resume.header[:end] + extra + resume.header[end:]
