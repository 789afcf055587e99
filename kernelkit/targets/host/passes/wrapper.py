"""The work-item loops: one native entry per kernel that runs whole work-groups.

``void @kk.run.<kernel>(ptr %args, ptr %tmpl, ptr %next, i64 %total)``:
``args`` is an array of pointers to the argument values (the kernel's parameters in order),
``tmpl`` a filled MuxWorkGroupInfo (sizes, offset, printf/check pointers), ``next`` a shared
counter of work-groups handed out, ``total`` the number of work-groups. Each calling thread
takes the next work-group (atomically) until none is left, so Python makes one call per thread
and launch. Non-uniform work-groups (OpenCL 2.0) get their smaller local size here.

Kernels without barriers are inlined into the x/y/z loops (the innermost loop runs along x,
``"mux-work-item-order"="xyz"``), where LLVM's loop vectoriser works across work-items.
Kernels with barriers are work-item coroutines (see :mod:`barriers`), started and resumed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import Function, Module
from kernelkit.ir.parser import parse
from kernelkit.ir.transforms.link import link_into
from kernelkit.ir.values import const_int
from kernelkit.targets.host.passes.region_values import RegionValues
from kernelkit.targets.host.sched import WORK_GROUP_FIELDS, WORK_ITEM_FIELDS, field_index, llvm_struct

WI_T = llvm_struct(WORK_ITEM_FIELDS)
WG_T = llvm_struct(WORK_GROUP_FIELDS)
ENTRY_PREFIX = "kk.run."


@dataclass
class Param:
    type: str
    byval: str | None  # the byval type for aggregates passed by value


def kernel_params(f: Function) -> list[Param]:
    """The kernel's own parameters (the last two are the scheduling parameters)."""
    out = []
    for a in f.args[:-2]:
        byval = next((x[len("byval("):-1] for x in a.attributes if isinstance(x, str) and x.startswith("byval(")),
                     None)
        out.append(Param(str(a.type), byval))
    return out


def _wg(reg: str, name: str, dim: int | None = None) -> str:
    i = field_index(WORK_GROUP_FIELDS, name)
    d = f", i32 {dim}" if dim is not None else ""
    return f"  {reg} = getelementptr inbounds {WG_T}, ptr %wg, i32 0, i32 {i}{d}"


def entry_name(kernel: str) -> str:
    return ENTRY_PREFIX + kernel


@dataclass
class ResumeInfo:
    """What the driver needs of a split coroutine: its resume function, the frame offset and
    integer type of the suspend index (CoroSplit's switch lowering), the number of suspend points."""

    function: str
    index_offset: int
    index_type: str
    cases: int
    access_group: int | None = None   # metadata id of the resume function's memory accesses
    soa: bool = False                 # frames laid out by soa_frames (work-items 8 bytes apart)
    values: RegionValues | None = None   # frame fields passed to the resume function as parameters


def work_item_loops(f: Function, coroutine: bool, metadata_base: int | None = None,
                    resume: ResumeInfo | None = None, local_mem: int = 0,
                    vector: tuple | None = None,
                    local_size: tuple[int, int, int] | None = None) -> tuple[str, list[str]]:
    """IR text of the entry running kernel ``f`` over work-groups, and metadata lines it needs.

    ``local_size`` is the kernel's fixed work-group size when every group has exactly that size
    (``!reqd_work_group_size`` with uniform work-groups): the loops then have constant bounds.

    With ``metadata_base`` the x loop is marked parallel (``llvm.loop.parallel_accesses``): the
    work-items of a group are independent between barriers (OpenCL's memory model has no order
    between them without barriers or atomics), which lets LLVM vectorise across work-items
    without runtime alias checks. Only for kernels without private arrays (their ``alloca`` is
    shared by the iterations once inlined).
    """
    md: list[str] = []
    call_md = loop_md = ""
    if metadata_base is not None and not coroutine:
        g, loop, par = metadata_base, metadata_base + 1, metadata_base + 2
        md = [f"!{g} = distinct !{{}}", f"!{loop} = distinct !{{!{loop}, !{par}}}",
              f'!{par} = !{{!"llvm.loop.parallel_accesses", !{g}}}']
        call_md = ""
        loop_md = f", !llvm.loop !{loop}"
    params = kernel_params(f)
    wg_size = f"ptrtoint (ptr getelementptr ({WG_T}, ptr null, i32 1) to i64)"
    # spec 003 function attributes: the loop entry is now the kernel entry point
    attrs = (f'"mux-kernel"="entry-point" "mux-orig-fn"="{f.name}" "mux-base-fn-name"="{f.name}" '
             f'"mux-work-item-order"="xyz"' + (' "mux-barrier-schedule"="linear"' if coroutine else "")
             + (f' "mux-local-mem-usage"="{local_mem}"' if local_mem > 0 else ""))
    lines = [f"define void @{entry_name(f.name)}(ptr %args, ptr %tmpl, ptr %next, i64 %total) {attrs} {{", "entry:",
             f"  %wg = alloca {WG_T}, align 8",
             f"  call void @llvm.memcpy.p0.p0.i64(ptr %wg, ptr %tmpl, i64 {wg_size}, i1 false)",
             # private memory of the work-items lies below this frame (checked mode's generic pointers)
             "  %frame = call ptr @llvm.frameaddress.p0(i32 0)", _wg("%stp", "stack_top"), "  store ptr %frame, ptr %stp"]
    call_args = []
    for i, p in enumerate(params):
        lines += [f"  %ap{i} = getelementptr ptr, ptr %args, i64 {i}", f"  %as{i} = load ptr, ptr %ap{i}"]
        if p.byval is not None:
            call_args.append(f"ptr byval({p.byval}) %as{i}")
        else:
            lines.append(f"  %a{i} = load {p.type}, ptr %as{i}, align 1")
            call_args.append(f"{p.type} %a{i}")
    for d in range(3):
        lines += [_wg(f"%ngp{d}", "num_groups", d), f"  %ng{d} = load i64, ptr %ngp{d}",
                  _wg(f"%enp{d}", "enqueued_local_size", d),
                  f"  %en{d} = add i64 0, {local_size[d]}" if local_size else f"  %en{d} = load i64, ptr %enp{d}",
                  _wg(f"%gsp{d}", "global_size", d), f"  %gs{d} = load i64, ptr %gsp{d}",
                  _wg(f"%gip{d}", "group_id", d), _wg(f"%lsp{d}", "local_size", d)]
    lines += ["  %en01 = mul i64 %en0, %en1", "  %maxitems = mul i64 %en01, %en2",
              "  %scratch.bytes = shl i64 %maxitems, 3",
              "  %scratch = call ptr @malloc(i64 %scratch.bytes)", _wg("%scp", "scratch"),
              "  store ptr %scratch, ptr %scp", _wg("%frp", "frames"), "  store ptr null, ptr %frp",
              _wg("%fsp", "frame_stride"), "  store i64 0, ptr %fsp"]
    if coroutine:
        wi_size = f"ptrtoint (ptr getelementptr ({WI_T}, ptr null, i32 1) to i64)"
        lines += [f"  %wis.bytes = mul i64 %maxitems, {wi_size}", "  %wis = call ptr @malloc(i64 %wis.bytes)",
                  "  %hs.bytes = shl i64 %maxitems, 3", "  %hs = call ptr @malloc(i64 %hs.bytes)"]
    else:
        lines += [f"  %wi = alloca {WI_T}, align 8"]
    # threads take chunks of consecutive work-groups (one atomic, one division per chunk);
    # within a chunk the group id steps through x, then y, then z
    lines += [_wg("%chp", "chunk"), "  %chunk.raw = load i64, ptr %chp",
              "  %chunk = call i64 @llvm.umax.i64(i64 %chunk.raw, i64 1)",
              _wg("%cnp", "cancel"), "  %cancel = load ptr, ptr %cnp",
              "  br label %next.group", "next.group:",
              # a cancelled launch (Ctrl-C, timeout) takes no more work-groups
              "  %stop = load atomic i64, ptr %cancel monotonic, align 8",
              "  %stopped = icmp ne i64 %stop, 0", "  br i1 %stopped, label %exit, label %take.group",
              "take.group:",
              "  %g0 = atomicrmw add ptr %next, i64 %chunk monotonic",
              "  %more = icmp ult i64 %g0, %total", "  br i1 %more, label %chunk.start, label %exit",
              "chunk.start:", "  %gend.raw = add i64 %g0, %chunk",
              "  %gend = call i64 @llvm.umin.i64(i64 %gend.raw, i64 %total)",
              "  %gx0 = urem i64 %g0, %ng0", "  %gq0 = udiv i64 %g0, %ng0", "  %gy0 = urem i64 %gq0, %ng1",
              "  %gz0 = udiv i64 %gq0, %ng1", "  br label %group", "group:",
              "  %g = phi i64 [ %g0, %chunk.start ], [ %g.next, %group.step ]",
              "  %gx = phi i64 [ %gx0, %chunk.start ], [ %gx.next, %group.step ]",
              "  %gy = phi i64 [ %gy0, %chunk.start ], [ %gy.next, %group.step ]",
              "  %gz = phi i64 [ %gz0, %chunk.start ], [ %gz.next, %group.step ]"]
    for d, gd in enumerate(("%gx", "%gy", "%gz")):
        lines += [f"  store i64 {gd}, ptr %gip{d}", f"  %start{d} = mul i64 {gd}, %en{d}",
                  f"  %left{d} = sub i64 %gs{d}, %start{d}", f"  %lt{d} = icmp ult i64 %left{d}, %en{d}",
                  f"  %ls{d} = add i64 0, {local_size[d]}" if local_size
                  else f"  %ls{d} = select i1 %lt{d}, i64 %left{d}, i64 %en{d}", f"  store i64 %ls{d}, ptr %lsp{d}"]
    args = ", ".join([*call_args, ""])
    if not coroutine and vector is not None:
        lines += _nested_loops(
            [f"  call void @{f.name}({args}ptr %wi, ptr %wg){call_md}"],
            before=_store_wi("%wi", "%x", "%y", "%z", "%lin"), x_latch_md=loop_md,
            vector=(f"  call void @{vector[0]}({args}ptr %wi, ptr %wg)", *vector[1:]))
    elif not coroutine:
        lines += _nested_loops(
            [f"  call void @{f.name}({args}ptr %wi, ptr %wg){call_md}"],
            before=_store_wi("%wi", "%x", "%y", "%z", "%lin"), x_latch_md=loop_md)
    else:
        lines += ["  %ls01 = mul i64 %ls0, %ls1", "  %items = mul i64 %ls01, %ls2"]
        entry = "group"
        if vector is not None:
            lines[lines.index("  %wis.bytes = mul i64 %maxitems, " + wi_size):0] = [
                "  %kind = alloca i8", "  store i8 0, ptr %kind"]
            lines += packet_coroutines(vector, args)
            entry = "wi.start"
        start = [f"  %wip = getelementptr {WI_T}, ptr %wis, i64 %lin",
                 *_store_wi("%wip", "%x", "%y", "%z", "%lin"),
                 f"  %h = call ptr @{f.name}({args}ptr %wip, ptr %wg)",
                 "  %hp = getelementptr ptr, ptr %hs, i64 %lin", "  store ptr %h, ptr %hp"]
        lines += _nested_loops(start, before=[], entry=entry)
        if resume is not None:
            lines += _region_rounds(resume, md, metadata_base)
        else:
            lines += _generic_rounds()
    lines += ["  br label %group.next", "group.next:", "  %g.next = add i64 %g, 1",
              "  %chunk.more = icmp ult i64 %g.next, %gend", "  br i1 %chunk.more, label %group.step, label %next.group",
              "group.step:", "  %gx.inc = add i64 %gx, 1", "  %gx.wrap = icmp eq i64 %gx.inc, %ng0",
              "  %gx.next = select i1 %gx.wrap, i64 0, i64 %gx.inc", "  %gy.inc = zext i1 %gx.wrap to i64",
              "  %gy.add = add i64 %gy, %gy.inc", "  %gy.wrap = icmp eq i64 %gy.add, %ng1",
              "  %gy.next = select i1 %gy.wrap, i64 0, i64 %gy.add", "  %gz.inc = zext i1 %gy.wrap to i64",
              "  %gz.next = add i64 %gz, %gz.inc", "  br label %group",
              "exit:", "  call void @free(ptr %scratch)"]
    if coroutine:
        lines += ["  call void @free(ptr %wis)", "  call void @free(ptr %hs)",
                  "  %frames.end = load ptr, ptr %frp", "  call void @free(ptr %frames.end)"]
    lines += ["  ret void", "}"]
    return "\n".join(lines), md


def _region_rounds(r: ResumeInfo, md: list[str], metadata_base: int | None, step: int = 1) -> list[str]:
    """After every work-item ran to its first barrier: read the (uniform) suspend index of
    work-item 0 and run that region for all work-items in a loop of its own, the resume function
    specialised for the index (its switch folds away once inlined); until work-item 0 finished."""
    out = ["  br label %round", "round:",
           "  %h0 = load ptr, ptr %hs", "  %fn0 = load ptr, ptr %h0", "  %fin0 = icmp eq ptr %fn0, null",
           *_cancelled_between_rounds(), "  %fin = or i1 %fin0, %round.stopped",
           "  br i1 %fin, label %d.end, label %dispatch", "dispatch:",
           f"  %ixp = getelementptr i8, ptr %h0, i64 {r.index_offset}",
           f"  %ix = load {r.index_type}, ptr %ixp", f"  %ix32 = zext {r.index_type} %ix to i32",
           "  switch i32 %ix32, label %region.any [ " + " ".join(f"i32 {k}, label %region.{k}"
                                                          for k in range(r.cases)) + " ]"]
    loop_md = ""
    if metadata_base is not None and r.access_group is not None:
        loop, par = metadata_base, metadata_base + 1
        md += [f"!{loop} = distinct !{{!{loop}, !{par}}}",
               f'!{par} = !{{!"llvm.loop.parallel_accesses", !{r.access_group}}}']
        loop_md = f", !llvm.loop !{loop}"
    # frames are frame_stride apart in the thread's frame array (see barriers.add_frame_allocator)
    out[-1:-1] = ["  %rframes = load ptr, ptr %frp",
                  "  %rstride = add i64 8, 0" if r.soa else "  %rstride = load i64, ptr %fsp"]
    for k in [*[str(i) for i in range(r.cases)], "any"]:
        idx = "%ix32" if k == "any" else k
        if r.values is not None:
            out += _nested_region_loop(r, k, idx, loop_md)
            continue
        out += [f"region.{k}:", f"  br label %region.{k}.loop", f"region.{k}.loop:",
                f"  %ri.{k} = phi i64 [ 0, %region.{k} ], [ %ri.{k}.next, %region.{k}.loop ]",
                f"  %roff.{k} = mul i64 %ri.{k}, %rstride", f"  %rh.{k} = getelementptr i8, ptr %rframes, i64 %roff.{k}",
                f"  call fastcc void @{r.function}(ptr %rh.{k}, i32 {idx})",
                f"  %ri.{k}.next = add nuw i64 %ri.{k}, {step}", f"  %rmore.{k} = icmp ult i64 %ri.{k}.next, %items",
                f"  br i1 %rmore.{k}, label %region.{k}.loop, label %round{loop_md}"]
    return out + ["d.end:"]


def _nested_region_loop(r: ResumeInfo, k: str, idx: str, loop_md: str) -> list[str]:
    """Region ``k`` over the group's work-items in z, y, x loops (x innermost, the frame index is
    the linear id); the resume function takes the region's uniform values (loaded once from
    work-item 0's frame) and the local ids (see :mod:`region_values`)."""
    rv = r.values
    out = [f"region.{k}:"]
    uargs = []
    for off, ty in sorted(rv.uniform.items()):
        out += [f"  %ru.{k}.{off}.p = getelementptr inbounds i8, ptr %rframes, i64 {off}",
                f"  %ru.{k}.{off} = load {ty}, ptr %ru.{k}.{off}.p"]
        uargs.append(f"{ty} %ru.{k}.{off}")
    out += [f"  br label %rz.{k}", f"rz.{k}:",
            f"  %z.{k} = phi i64 [ 0, %region.{k} ], [ %z.{k}.next, %rye.{k} ]",
            f"  br label %ry.{k}", f"ry.{k}:",
            f"  %y.{k} = phi i64 [ 0, %rz.{k} ], [ %y.{k}.next, %rxe.{k} ]",
            f"  %zy.{k} = mul i64 %z.{k}, %ls1", f"  %zyy.{k} = add i64 %zy.{k}, %y.{k}",
            f"  %rb.{k} = mul i64 %zyy.{k}, %ls0", f"  br label %rx.{k}", f"rx.{k}:",
            f"  %x.{k} = phi i64 [ 0, %ry.{k} ], [ %x.{k}.next, %rx.{k} ]",
            f"  %ri.{k} = add i64 %rb.{k}, %x.{k}",
            f"  %roff.{k} = mul i64 %ri.{k}, %rstride", f"  %rh.{k} = getelementptr i8, ptr %rframes, i64 %roff.{k}",
            f"  call fastcc void @{r.function}(ptr %rh.{k}, i32 {idx}, "
            + "".join(a + ", " for a in uargs) + f"ptr %rframes, i64 %x.{k}, i64 %y.{k}, i64 %z.{k}, i64 %ri.{k})",
            f"  %x.{k}.next = add nuw i64 %x.{k}, 1", f"  %x.{k}.more = icmp ult i64 %x.{k}.next, %ls0",
            f"  br i1 %x.{k}.more, label %rx.{k}, label %rxe.{k}{loop_md}", f"rxe.{k}:",
            f"  %y.{k}.next = add nuw i64 %y.{k}, 1", f"  %y.{k}.more = icmp ult i64 %y.{k}.next, %ls1",
            f"  br i1 %y.{k}.more, label %ry.{k}, label %rye.{k}", f"rye.{k}:",
            f"  %z.{k}.next = add nuw i64 %z.{k}, 1", f"  %z.{k}.more = icmp ult i64 %z.{k}.next, %ls2",
            f"  br i1 %z.{k}.more, label %rz.{k}, label %round"]
    return out


def _switch_frames(kind: int, prefix: str) -> list[str]:
    """Entering a group that runs coroutines of kind ``kind`` (1 work-items, 2 packets): the frame
    array of the other kind has another layout, so a change of kind makes kk_frame allocate anew."""
    return [f"  %{prefix}.kind = load i8, ptr %kind", f"  %{prefix}.same = icmp eq i8 %{prefix}.kind, {kind}",
            f"  br i1 %{prefix}.same, label %{prefix}.start, label %{prefix}.reset", f"{prefix}.reset:",
            "  store i64 0, ptr %fsp", f"  store i8 {kind}, ptr %kind", f"  br label %{prefix}.start",
            f"{prefix}.start:"]


def packet_coroutines(vector: tuple, args: str) -> list[str]:
    """The group's part for a kernel with barriers whose W-lane copy ``vector`` = (function, W) is a
    coroutine per packet of W work-items along x: when the group's size along x is a multiple of W,
    start one coroutine per packet (its MuxWorkItemInfo is lane 0's, its handle at lane 0's slot),
    then resume the packets round by round until all have finished; otherwise branch to
    ``%wi.group`` (one coroutine per work-item)."""
    fn, w = vector[0], vector[1]
    out = [f"  %pk.rem = and i64 %ls0, {w - 1}", "  %pk.ok = icmp eq i64 %pk.rem, 0",
           "  br i1 %pk.ok, label %pk.group, label %wi.group", "pk.group:", *_switch_frames(2, "pk"),
           "  br label %pk.z", "pk.z:",
           "  %pk.zi = phi i64 [ 0, %pk.start ], [ %pk.zi.next, %pk.ye ]", "  br label %pk.y", "pk.y:",
           "  %pk.yi = phi i64 [ 0, %pk.z ], [ %pk.yi.next, %pk.xe ]",
           "  %pk.zy = mul i64 %pk.zi, %ls1", "  %pk.zyy = add i64 %pk.zy, %pk.yi", "  %pk.row = mul i64 %pk.zyy, %ls0",
           "  br label %pk.x", "pk.x:",
           "  %pk.xi = phi i64 [ 0, %pk.y ], [ %pk.xi.next, %pk.x ]",
           "  %pk.lin = add i64 %pk.row, %pk.xi",
           f"  %pk.wip = getelementptr {WI_T}, ptr %wis, i64 %pk.lin",
           *_store_wi("%pk.wip", "%pk.xi", "%pk.yi", "%pk.zi", "%pk.lin"),
           f"  %pk.h = call ptr @{fn}({args}ptr %pk.wip, ptr %wg)",
           "  %pk.hp = getelementptr ptr, ptr %hs, i64 %pk.lin", "  store ptr %pk.h, ptr %pk.hp",
           f"  %pk.xi.next = add nuw i64 %pk.xi, {w}", "  %pk.xi.more = icmp ult i64 %pk.xi.next, %ls0",
           "  br i1 %pk.xi.more, label %pk.x, label %pk.xe", "pk.xe:",
           "  %pk.yi.next = add nuw i64 %pk.yi, 1", "  %pk.yi.more = icmp ult i64 %pk.yi.next, %ls1",
           "  br i1 %pk.yi.more, label %pk.y, label %pk.ye", "pk.ye:",
           "  %pk.zi.next = add nuw i64 %pk.zi, 1", "  %pk.zi.more = icmp ult i64 %pk.zi.next, %ls2"]
    resume = vector[3] if len(vector) > 3 else None
    if resume is not None:
        # one suspend point per barrier: the packets' regions in loops of their own (as per work-item)
        rounds = _prefixed(_region_rounds(resume, [], None, step=w), "pk.")
        return [*out, "  br i1 %pk.zi.more, label %pk.z, label %pk.regions", "pk.regions:", *rounds,
                "  br label %group.next", "wi.group:", *_switch_frames(1, "wi")]
    out += ["  br i1 %pk.zi.more, label %pk.z, label %pk.round", "pk.round:",
           "  %pk.stop = load atomic i64, ptr %cancel monotonic, align 8",
           "  %pk.stopped = icmp ne i64 %pk.stop, 0", "  br i1 %pk.stopped, label %group.next, label %pk.res",
           "pk.res:",
           "  %pk.ri = phi i64 [ 0, %pk.round ], [ %pk.ri.next, %pk.res.next ]",
           "  %pk.busy = phi i1 [ false, %pk.round ], [ %pk.busy.next, %pk.res.next ]",
           "  %pk.rhp = getelementptr ptr, ptr %hs, i64 %pk.ri", "  %pk.rh = load ptr, ptr %pk.rhp",
           "  %pk.done = call i1 @llvm.coro.done(ptr %pk.rh)",
           "  br i1 %pk.done, label %pk.res.next, label %pk.res.do", "pk.res.do:",
           "  call void @llvm.coro.resume(ptr %pk.rh)", "  br label %pk.res.next", "pk.res.next:",
           "  %pk.stepped = xor i1 %pk.done, true", "  %pk.busy.next = or i1 %pk.busy, %pk.stepped",
           f"  %pk.ri.next = add i64 %pk.ri, {w}", "  %pk.rmore = icmp ult i64 %pk.ri.next, %items",
           "  br i1 %pk.rmore, label %pk.res, label %pk.round.end", "pk.round.end:",
           "  br i1 %pk.busy.next, label %pk.round, label %group.next",
           "wi.group:", *_switch_frames(1, "wi")]
    return out


def _prefixed(lines: list[str], prefix: str) -> list[str]:
    """``lines`` with the values and blocks they define renamed ``prefix + name``."""
    defined = {m.group(1) for line in lines for m in [re.match(r"^\s*%([-\w.]+) =", line)] if m}
    defined |= {m.group(1) for line in lines for m in [re.match(r"^([-\w.]+):$", line)] if m}

    def rename(m: re.Match) -> str:
        return f"%{prefix}{m.group(1)}" if m.group(1) in defined else m.group(0)

    out = []
    for line in lines:
        label = re.match(r"^([-\w.]+):$", line)
        if label:
            out.append(f"{prefix}{label.group(1)}:")
        else:
            out.append(re.sub(r"%([-\w.]+?)(?![-\w.])", rename, line))
    return out


def _cancelled_between_rounds() -> list[str]:
    """``%round.stopped``: was the launch cancelled? Tested before each round of a barrier kernel,
    which is the cancellation point of every loop with a barrier in each iteration (see
    :mod:`cancellation`)."""
    return ["  %round.stop = load atomic i64, ptr %cancel monotonic, align 8",
            "  %round.stopped = icmp ne i64 %round.stop, 0"]


def _generic_rounds() -> list[str]:
    return ["  br label %round", "round:", *_cancelled_between_rounds(),
            "  br i1 %round.stopped, label %d.end, label %res.loop", "res.loop:",
                  "  %ri = phi i64 [ 0, %round ], [ %ri.next, %res.next ]",
                  "  %busy = phi i1 [ false, %round ], [ %busy.next, %res.next ]",
                  "  %rhp = getelementptr ptr, ptr %hs, i64 %ri", "  %rh = load ptr, ptr %rhp",
                  "  %rdone = call i1 @llvm.coro.done(ptr %rh)",
                  "  br i1 %rdone, label %res.next, label %res.do", "res.do:",
                  "  call void @llvm.coro.resume(ptr %rh)", "  br label %res.next", "res.next:",
                  "  %stepped = xor i1 %rdone, true", "  %busy.next = or i1 %busy, %stepped",
                  "  %ri.next = add i64 %ri, 1", "  %rmore = icmp ult i64 %ri.next, %items",
                  "  br i1 %rmore, label %res.loop, label %round.end", "round.end:",
                  "  br i1 %busy.next, label %round, label %d.end",
                  # frames live in the thread's frame array (kk_frame): nothing to destroy
                  "d.end:"]


_MEMORY_ACCESSES = (I.LoadInst, I.StoreInst, I.CallInst, I.AtomicRMWInst, I.CmpXchgInst)


def mark_parallel_accesses(f: Function, group: MDNode) -> None:
    """Put every memory access of (fully inlined) kernel ``f`` in access group ``group``."""
    for inst in f.instructions():
        if isinstance(inst, _MEMORY_ACCESSES):
            inst.metadata.setdefault("llvm.access.group", group)


def _store_wi(ptr: str, x: str, y: str, z: str, lin: str, tag: str = "") -> list[str]:
    i_id = field_index(WORK_ITEM_FIELDS, "local_id")
    i_lin = field_index(WORK_ITEM_FIELDS, "local_linear_id")
    out = []
    for d, v in enumerate((x, y, z)):
        out += [f"  %wi.id{d}.{ptr[1:]}{tag} = getelementptr inbounds {WI_T}, ptr {ptr}, i32 0, i32 {i_id}, i32 {d}",
                f"  store i64 {v}, ptr %wi.id{d}.{ptr[1:]}{tag}"]
    out += [f"  %wi.lin.{ptr[1:]}{tag} = getelementptr inbounds {WI_T}, ptr {ptr}, i32 0, i32 {i_lin}",
            f"  store i64 {lin}, ptr %wi.lin.{ptr[1:]}{tag}"]
    return out


def _vector_x_loop(call: str, width: int, whole_rows: bool = False) -> list[str]:
    """The x loop's first part for a vectorised kernel: ``call`` (the W-lane kernel) for W
    consecutive work-items at a time while a whole packet fits in the row; ``%x.start`` is where
    the scalar loop takes over. ``whole_rows`` (kernels using sub-groups, which are the packets):
    only when the row is whole packets, else all of it scalar."""
    end = [f"  %xv.end = and i64 %ls0, {-width}"]
    if whole_rows:
        end = [f"  %xv.packed = and i64 %ls0, {-width}", "  %xv.whole = icmp eq i64 %xv.packed, %ls0",
               "  %xv.end = select i1 %xv.whole, i64 %xv.packed, i64 0"]
    return [
        *end, "  %xv.any = icmp ne i64 %xv.end, 0",
        "  br i1 %xv.any, label %loop.xv, label %loop.xt", "loop.xv:",
        "  %xv = phi i64 [ 0, %loop.y ], [ %xv.next, %loop.xv ]",
        "  %linv = add i64 %rowbase, %xv",
        *_store_wi("%wi", "%xv", "%y", "%z", "%linv", ".v"), call,
        f"  %xv.next = add nuw i64 %xv, {width}", "  %xv.more = icmp ult i64 %xv.next, %xv.end",
        "  br i1 %xv.more, label %loop.xv, label %loop.xt", "loop.xt:",
        "  %xt.more = icmp ult i64 %xv.end, %ls0",
        "  br i1 %xt.more, label %loop.x, label %end.x",
    ]


def _nested_loops(body: list[str], before: list[str], x_latch_md: str = "",
                  vector: tuple | None = None, entry: str = "group") -> list[str]:
    """z, y, x loops over the group's local size (x innermost); ``%lin`` is the linear id.
    With ``vector`` (call, W): W-lane calls first, the scalar loop for the rest of each row.
    ``entry``: the block the loops are entered from."""
    x_entry = ("  %x = phi i64 [ %xv.end, %loop.xt ], [ %x.next, %loop.x ]" if vector is not None
               else "  %x = phi i64 [ 0, %loop.y ], [ %x.next, %loop.x ]")
    return [
        "  br label %loop.z", "loop.z:",
        f"  %z = phi i64 [ 0, %{entry} ], [ %z.next, %end.y ]",
        "  br label %loop.y", "loop.y:",
        "  %y = phi i64 [ 0, %loop.z ], [ %y.next, %end.x ]",
        "  %zy = mul i64 %z, %ls1", "  %zyy = add i64 %zy, %y", "  %rowbase = mul i64 %zyy, %ls0",
        *(_vector_x_loop(*vector) if vector is not None else ["  br label %loop.x"]), "loop.x:",
        x_entry,
        "  %lin = add i64 %rowbase, %x",
        *before, *body,
        "  %x.next = add nuw i64 %x, 1", "  %x.more = icmp ult i64 %x.next, %ls0",
        f"  br i1 %x.more, label %loop.x, label %end.x{x_latch_md}", "end.x:",
        "  %y.next = add nuw i64 %y, 1", "  %y.more = icmp ult i64 %y.next, %ls1",
        "  br i1 %y.more, label %loop.y, label %end.y", "end.y:",
        "  %z.next = add nuw i64 %z, 1", "  %z.more = icmp ult i64 %z.next, %ls2",
        "  br i1 %z.more, label %loop.z, label %end.z", "end.z:",
    ]


WRAPPER_DECLS = ("declare ptr @malloc(i64)", "declare void @free(ptr)")


def _declarations(module: Module, text: str) -> list[str]:
    """What the entry text needs declared: the wrapper's C functions, the module's functions it
    calls (with their types and calling conventions) and the named types of byval arguments."""
    out = list(WRAPPER_DECLS)
    for name in sorted(set(re.findall(r"@([-\w$.]+)\(", text))):
        f = module.get_function(name)
        if f is None or name.startswith("llvm.") or name in ("malloc", "free"):
            continue
        params = ", ".join(str(t) for t in f.function_type.params)
        cc = f"{f.calling_conv} " if f.calling_conv else ""
        out.append(f"declare {cc}{f.return_type} @{name}({params})")
    for name in sorted(set(re.findall(r"byval\(%([-\w$.]+)\)", text))):
        st = module.get_struct(name)
        if st is not None:
            out.insert(0, f"{st} = type {st.body_text()}")
    return out


def link_entry(module: Module, text: str, md: list[str], kernel: Function | None) -> Function:
    """Parse the entry ``text`` (with its metadata ``md``, numbered on its own) into ``module``; with
    ``kernel``, put ``kernel``'s memory accesses in the access group of the entry's parallel loops."""
    entry = parse("\n".join([*_declarations(module, text), text, *md]) + "\n")
    if kernel is not None:
        mark_parallel_accesses(kernel, _access_group(entry) or MDNode(distinct=True))
    (fn,) = [g for g in link_into(module, entry) if isinstance(g, Function) and not g.is_declaration]
    return fn


def _access_group(module: Module) -> MDNode | None:
    """The access group the parallel loops of a just-parsed entry name."""
    for f in module.functions:
        for inst in f.instructions():
            loop = inst.metadata.get("llvm.loop")
            for op in loop.operands if loop is not None else ():
                if (isinstance(op, MDNode) and op.operands and isinstance(op.operands[0], MDString)
                        and op.operands[0].value == "llvm.loop.parallel_accesses"):
                    return op.operands[1]
    return None


def _md_int(ty: T.Type, value: int) -> ValueAsMetadata:
    return ValueAsMetadata(const_int(ty, value))


def add_wrapper_metadata(entry: Function, width: int, tail: bool) -> None:
    """spec 003 ``!codeplay_ca_wrapper`` on a kernel's entry: ``!{main, tail}``, each loop
    ``!{i32 width, i1 scalable, i32 vectorised dimension, i1 predicated}`` and the tail ``null`` when
    there is none; ``width`` work-items per call of the main loop."""
    def loop(w: int) -> MDNode:
        return MDNode([_md_int(T.i32, w), _md_int(T.i1, 0), _md_int(T.i32, 0), _md_int(T.i1, 0)])

    entry.metadata["codeplay_ca_wrapper"] = MDNode([loop(width), loop(1) if tail else None])
