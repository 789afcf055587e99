"""Add the scheduling parameters (spec 003 AddSchedulingParametersPass, ``!mux_scheduled_fn``,
``!mux-scheduling-params``) to every function of a host module.

Each definition gets two trailing parameters, ``ptr %kk.wi`` (MuxWorkItemInfo) and ``ptr %kk.wg``
(MuxWorkGroupInfo), and every call to a defined function or to a host-defined builtin passes
them on. The metadata records their indices.
"""

from __future__ import annotations

import re

from kernelkit.targets.host.irtext import ModuleText, append_call_args, header_params, split_top_level
from kernelkit.targets.host.sched import SCHEDULING_PARAMS, WG_PARAM, WI_PARAM

SCHED_ARGS = f"ptr {WI_PARAM}, ptr {WG_PARAM}"


def next_metadata_id(mod: ModuleText) -> int:
    best = -1
    for item in mod.items:
        if isinstance(item, str):
            m = re.match(r"^!(\d+) = ", item)
            if m:
                best = max(best, int(m.group(1)))
    return best + 1


def add_scheduling_parameters(mod: ModuleText, extra_callees: set[str]) -> None:
    """Give every definition the two parameters; calls to definitions and ``extra_callees`` pass them."""
    callees = {f.name for f in mod.functions} | set(extra_callees)
    md = next_metadata_id(mod)
    names_md, fn_md = md, md + 1
    for f in mod.functions:
        start, end = header_params(f.header)
        nparams = len(split_top_level(f.header[start:end]))
        sep = ", " if f.header[start:end].strip() else ""
        f.header = f.header[:end] + sep + f"ptr noalias {WI_PARAM}, ptr noalias {WG_PARAM}" + f.header[end:]
        # !mux_scheduled_fn: indices of the work-item and work-group info parameters
        f.header = f.header[:-1].rstrip() + f" !mux_scheduled_fn !kk.sched.{nparams} {{"
        f.body = [append_call_args(line, callees, SCHED_ARGS) if "@" in line and "call" in line else line
                  for line in f.body]
    used = sorted({int(n) for f in mod.functions for n in re.findall(r"!kk\.sched\.(\d+)", f.header)})
    ids = {}
    for k, n in enumerate(used):
        ids[n] = fn_md + k
        mod.items.append(f"!{fn_md + k} = !{{i32 {n}, i32 {n + 1}}}")
    for f in mod.functions:
        f.header = re.sub(r"!kk\.sched\.(\d+)", lambda m: f"!{ids[int(m.group(1))]}", f.header)
    names = ", ".join(f'!"{p}"' for p in SCHEDULING_PARAMS)
    mod.items.append(f"!mux-scheduling-params = !{{!{names_md}}}")
    mod.items.append(f"!{names_md} = !{{{names}}}")
