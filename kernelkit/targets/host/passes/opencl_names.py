"""OpenCL work-item functions that may reach the host target unlowered, and their mux builtins.

The mux pipeline lowers OpenCL builtins to ``__mux_*``; these forwarding definitions only
catch what a module still calls by its OpenCL name (e.g. IR handed straight to the target).
"""

from __future__ import annotations

# OpenCL C 3.0 s6.15.1 work-item functions (SPIR mangling, size_t = ulong) -> __mux builtin
WORK_ITEM_FUNCTIONS: dict[str, str] = {
    "_Z13get_global_idj": "__mux_get_global_id",
    "_Z12get_local_idj": "__mux_get_local_id",
    "_Z12get_group_idj": "__mux_get_group_id",
    "_Z15get_global_sizej": "__mux_get_global_size",
    "_Z14get_local_sizej": "__mux_get_local_size",
    "_Z14get_num_groupsj": "__mux_get_num_groups",
    "_Z17get_global_offsetj": "__mux_get_global_offset",
    "_Z23get_enqueued_local_sizej": "__mux_get_enqueued_local_size",
}
NO_ARG_FUNCTIONS: dict[str, tuple[str, str]] = {
    "_Z12get_work_dimv": ("i32", "__mux_get_work_dim"),
    "_Z20get_global_linear_idv": ("i64", "__mux_get_global_linear_id"),
    "_Z19get_local_linear_idv": ("i64", "__mux_get_local_linear_id"),
}
# barrier(flags) / work_group_barrier(flags[, scope]) / mem_fence(flags): OpenCL C 3.0 s6.15.9, s6.15.11
BARRIERS = ("_Z7barrierj", "_Z18work_group_barrierj", "_Z18work_group_barrierj12memory_scope")
FENCES = ("_Z9mem_fencej", "_Z14read_mem_fencej", "_Z15write_mem_fencej")

SCHED = "ptr %wi, ptr %wg"


def forwarding_definitions(names: set[str]) -> tuple[str, set[str], set[str]]:
    """(IR text, names defined, mux builtins needed) for the OpenCL names among ``names``."""
    out, defined, needs = [], set(), set()
    for name in sorted(names):
        if name in WORK_ITEM_FUNCTIONS:
            mux = WORK_ITEM_FUNCTIONS[name]
            out.append(f"define internal i64 @{name}(i32 %i, {SCHED}) alwaysinline {{\n"
                       f"  %r = call i64 @{mux}(i32 %i, {SCHED})\n  ret i64 %r\n}}")
        elif name in NO_ARG_FUNCTIONS:
            ty, mux = NO_ARG_FUNCTIONS[name]
            out.append(f"define internal {ty} @{name}({SCHED}) alwaysinline {{\n"
                       f"  %r = call {ty} @{mux}({SCHED})\n  ret {ty} %r\n}}")
        elif name in BARRIERS:
            mux = "__mux_work_group_barrier"
            extra = ", i32 %scope" if name.endswith("memory_scope") else ""
            out.append(f"define internal void @{name}(i32 %flags{extra}, {SCHED}) alwaysinline {{\n"
                       f"  call void @{mux}(i32 0, i32 2, i32 776, {SCHED})\n  ret void\n}}")
        elif name in FENCES:
            mux = "__mux_mem_barrier"
            out.append(f"define internal void @{name}(i32 %flags, {SCHED}) alwaysinline {{\n"
                       f"  call void @{mux}(i32 2, i32 776, {SCHED})\n  ret void\n}}")
        else:
            continue
        defined.add(name)
        needs.add(mux)
    return "\n\n".join(out), defined, needs
