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
from kernelkit.targets.host.sched import WORK_GROUP_FIELDS, WORK_ITEM_FIELDS, field_index, llvm_struct

RAMP_FRAME = "%kk.coro.mem"
RESUME_FRAME = "%kk.coro.hdl"
WG_T = llvm_struct(WORK_GROUP_FIELDS)
FRAMES = field_index(WORK_GROUP_FIELDS, "frames")
ID_PARAMS = ("%kk.lid0", "%kk.lid1", "%kk.lid2", "%kk.lin")

_NAME = r"%[-\w$.]+"
_GEP_RE = re.compile(rf"^\s*({_NAME}) = getelementptr inbounds (?:nuw )?i8, ptr ({_NAME}), i64 (\d+)$")
_DEF_RE = re.compile(rf"^\s*({_NAME}) = (.*)$")
_STORE_RE = re.compile(rf"^\s*store (?:volatile )?(.+?) ([^ ]+), ptr ({_NAME})(?:,|$)")
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
    reloaded: set[int] = field(default_factory=set)         # offsets the resume function loads

    def uniform_param(self, off: int) -> str:
        return f"%kk.u{off}"


def _operands(expr: str) -> list[str]:
    return re.findall(rf"({_NAME})(?![-\w$.])", expr)


@dataclass
class _Facts:
    """One function's frame accesses and the values it computes, by block."""

    blocks: dict[str, list[str]] = field(default_factory=dict)       # label -> instruction lines
    succ: dict[str, list[str]] = field(default_factory=dict)
    field_loads: dict[str, int] = field(default_factory=dict)        # value -> frame offset
    load_types: dict[int, set[str]] = field(default_factory=dict)
    stores: list[tuple[int, str, str]] = field(default_factory=list)  # (offset, value, block)
    ids: dict[str, int] = field(default_factory=dict)                # value -> index into ID_PARAMS


_TERM_RE = re.compile(r"^\s*(br|switch)\b(.*)$")


def _facts(f: Function, frame: str) -> _Facts:
    fx = _Facts()
    geps: dict[str, int] = {}
    wi_ptrs: dict[str, int] = {"%kk.wi": 0}
    id_offsets = _wi_id_offsets()
    for line in f.body:   # (a block may use a value defined in a block printed after it)
        g = _GEP_RE.match(line)
        if g and g.group(2) == frame:
            geps[g.group(1)] = int(g.group(3))
        elif g and g.group(2) == "%kk.wi":
            wi_ptrs[g.group(1)] = int(g.group(3))
    label = "<entry>"
    in_switch = False
    for line in f.body:
        lb = block_label(line)
        if lb is not None:
            label = lb
            fx.blocks.setdefault(label, [])
            continue
        targets = [x[1:] for x in re.findall(r"label (%[-\w$.]+|%\"[^\"]+\")", line)]
        if in_switch:   # the cases of a switch, one a line up to "]"
            fx.succ[label] += targets
            in_switch = not line.strip().endswith("]")
            continue
        fx.blocks.setdefault(label, []).append(line)
        t = _TERM_RE.match(line)
        if t:
            fx.succ[label] = targets
            in_switch = t.group(1) == "switch" and not line.rstrip().endswith("]")
        st = _STORE_RE.match(line)
        if st and st.group(3) in geps:
            fx.stores.append((geps[st.group(3)], st.group(2), label))
        ld = _LOAD_RE.match(line)
        if ld and ld.group(4) in geps:
            off = geps[ld.group(4)]
            fx.field_loads[ld.group(2)] = off
            fx.load_types.setdefault(off, set()).add(ld.group(3).strip())
        elif ld and ld.group(4) in wi_ptrs and ld.group(3) == "i64" and wi_ptrs[ld.group(4)] in id_offsets:
            fx.ids[ld.group(2)] = id_offsets[wi_ptrs[ld.group(4)]]
    return fx


def _uniform(f: Function, fx: _Facts, fields: set[int], wg: bool) -> tuple[set[str], set[str]]:
    """(uniform values, uniformly reached blocks): the greatest fixed point, given that the
    frame fields ``fields`` hold work-group-uniform values (``wg``: loads through the work-group
    info pointer are uniform too)."""
    start, end = header_params(f.header)
    params = set(_operands(f.header[start:end])) - {"%kk.wi", RESUME_FRAME}
    defs: dict[str, tuple[str, str]] = {}   # value -> (block, expression)
    for label, lines in fx.blocks.items():
        for line in lines:
            d = _DEF_RE.match(line)
            if d:
                defs[d.group(1)] = (label, d.group(2))
    uni = set(defs) | params
    blocks = set(fx.blocks)
    wg_ptrs = {"%kk.wg"} if wg else set()
    preds: dict[str, list[str]] = {b: [] for b in fx.blocks}
    for b, ss in fx.succ.items():
        for s_ in ss:
            preds.setdefault(s_, []).append(b)
    changed = True
    while changed:
        changed = False
        for name, (label, expr) in defs.items():
            if name not in uni:
                continue
            op = expr.split(" ", 1)[0]
            ops = _operands(expr)
            if op == "load":
                ld = re.match(rf"load [^,]+, ptr ({_NAME})", expr)
                ok = (name in fx.field_loads and fx.field_loads[name] in fields) or (
                    ld is not None and ld.group(1) in wg_ptrs)
            elif op == "phi":
                ok = label in blocks and all(o in uni for o in re.findall(rf"\[ ({_NAME}),", expr))
            elif op in _PURE_OPS or (op in ("call", "tail") and _PURE_CALLS.search(expr)):
                ok = all(o in uni for o in ops)
                if ok and op == "getelementptr" and ops and ops[0] in wg_ptrs:
                    wg_ptrs.add(name)
            else:
                ok = False
            if not ok:
                uni.discard(name)
                changed = True
        for b in list(blocks):
            for p in preds.get(b, []):
                term = fx.blocks[p][-1] if fx.blocks[p] else ""
                cond = re.match(rf"^\s*(?:br i1|switch i\d+) ({_NAME})", term)
                if p not in blocks or (cond and cond.group(1) not in uni):
                    blocks.discard(b)
                    changed = True
                    break
    return uni, blocks


def _reachable(fx: _Facts, sources: set[str]) -> set[str]:
    seen: set[str] = set()
    todo = [s_ for b in sources for s_ in fx.succ.get(b, [])]
    while todo:
        b = todo.pop()
        if b not in seen:
            seen.add(b)
            todo += fx.succ.get(b, [])
    return seen


def analyse(ramp: Function, resume: Function) -> RegionValues | None:
    rf, sf = _facts(ramp, RAMP_FRAME), _facts(resume, RESUME_FRAME)
    fields = {off for off, _, _ in rf.stores} | {off for off, _, _ in sf.stores}
    types: dict[int, set[str]] = {}
    for fx in (rf, sf):
        for off, ts in fx.load_types.items():
            types.setdefault(off, set()).update(ts)
    resume_stored = {off for off, _, _ in sf.stores}
    for off in list(fields):
        if off not in sf.load_types or len(types[off]) != 1:
            fields.discard(off)
            continue
        # a reload of the field the resume function stored in the same region would see the new
        # value; the region loop passes the value of the region's start
        loads = {b for b, lines in sf.blocks.items() for line in lines
                 for m in [_LOAD_RE.match(line)] if m and sf.field_loads.get(m.group(2)) == off}
        if off in resume_stored and _reachable(sf, {b for o, _, b in sf.stores if o == off}) & loads:
            fields.discard(off)
    while True:
        ru, rb = _uniform(ramp, rf, fields, True)
        su, sb = _uniform(resume, sf, fields, False)
        bad = {off for off, v, b in rf.stores if (v.startswith("%") and v not in ru) or b not in rb}
        bad |= {off for off, v, b in sf.stores if (v.startswith("%") and v not in su) or b not in sb}
        if not bad & fields:
            break
        fields -= bad
    rv = RegionValues(reloaded=set(sf.load_types))
    for off in fields:
        rv.uniform[off] = next(iter(types[off]))
    for off, v, _ in rf.stores:
        if (v in rf.ids and off not in resume_stored and types.get(off) == {"i64"}
                and sum(o == off for o, _, _ in rf.stores) == 1):
            rv.ids[off] = rf.ids[v]
    if not rv.uniform and not rv.ids:
        return None
    return rv


def rewrite_resume(resume: Function, rv: RegionValues, index_offset: int) -> None:
    """Replace the reloads of the fields by the new parameters (appended to the header), and let
    the stores of uniform fields, of the suspend index and of the "finished" mark go to work-item
    0's frame ``%kk.base`` (the only copy read: every work-item stores the same value there)."""
    geps: dict[str, int] = {}
    for line in resume.body:
        g = _GEP_RE.match(line)
        if g and g.group(2) == RESUME_FRAME:
            geps[g.group(1)] = int(g.group(3))
    shared = set(rv.uniform) | {index_offset}
    out = []
    for n, line in enumerate(resume.body):
        ld = _LOAD_RE.match(line)
        st = _STORE_RE.match(line)
        if ld and ld.group(4) in geps:
            off = geps[ld.group(4)]
            ty = ld.group(3).strip()
            if off in rv.uniform:
                p = rv.uniform_param(off)
                line = f"{ld.group(1)}{ld.group(2)} = select i1 true, {ty} {p}, {ty} {p}"
            elif off in rv.ids:
                line = f"{ld.group(1)}{ld.group(2)} = add i64 {ID_PARAMS[rv.ids[off]]}, 0"
        elif st and st.group(3) in geps and geps[st.group(3)] in shared:
            out.append(f"  %kk.base.{n} = getelementptr inbounds i8, ptr %kk.base, i64 {geps[st.group(3)]}")
            line = line.replace(f"ptr {st.group(3)}", f"ptr %kk.base.{n}", 1)
        elif line.strip().startswith(f"store ptr null, ptr {RESUME_FRAME}"):
            line = line.replace(f"ptr {RESUME_FRAME}", "ptr %kk.base", 1)
        out.append(line)
    resume.body = out
    _, end = header_params(resume.header)
    extra = "".join(f", {ty} {rv.uniform_param(off)}" for off, ty in sorted(rv.uniform.items()))
    extra += ", ptr %kk.base" + "".join(f", i64 {p}" for p in ID_PARAMS)
    resume.header = resume.header[:end] + extra + resume.header[end:]


def rewrite_ramp(ramp: Function, rv: RegionValues, index_offset: int) -> None:
    """The ramp's stores of uniform fields and of fields no region reloads (the suspend index,
    the resume and destroy pointers) go to work-item 0's frame only (see :func:`rewrite_resume`)."""
    geps: dict[str, int] = {}
    for line in ramp.body:
        g = _GEP_RE.match(line)
        if g and g.group(2) == RAMP_FRAME:
            geps[g.group(1)] = int(g.group(3))
    out = []
    based = False
    for n, line in enumerate(ramp.body):
        st = _STORE_RE.match(line)
        call = re.search(r"@kk_frame_soa\(ptr [^,]+, ptr ([^,]+),", line)
        if call and RAMP_FRAME in line.split("=")[0]:
            out += [line, f"  %kk.base.fp = getelementptr inbounds {WG_T}, ptr {call.group(1)}, i32 0, i32 {FRAMES}",
                    "  %kk.base = load ptr, ptr %kk.base.fp"]
            based = True
            continue
        if based and st and st.group(3) in geps:
            off = geps[st.group(3)]
            if off in rv.uniform or off in rv.ids or off == index_offset or off not in rv.reloaded:
                out.append(f"  %kk.base.{n} = getelementptr inbounds i8, ptr %kk.base, i64 {off}")
                line = line.replace(f"ptr {st.group(3)}", f"ptr %kk.base.{n}", 1)
        elif based and st and st.group(3) == RAMP_FRAME:
            line = line.replace(f"ptr {RAMP_FRAME}", "ptr %kk.base", 1)
        out.append(line)
    ramp.body = out
