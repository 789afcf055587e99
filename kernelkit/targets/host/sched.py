"""The host target's scheduling structures: MuxWorkItemInfo and MuxWorkGroupInfo (spec 003
"!mux_scheduled_fn" / "!mux-scheduling-params").

Every kernel function (and every function it calls) receives two extra trailing parameters:
a pointer to the work-item info and a pointer to the work-group info. The layouts below are the
single source of truth: the IR builtins index them by field number, the runtime fills them
through ctypes structures built from the same tables.
"""

from __future__ import annotations

import ctypes

# Names recorded in !mux-scheduling-params, in parameter order (spec 003 "Module Metadata").
SCHEDULING_PARAMS: tuple[str, ...] = ("MuxWorkItemInfo", "MuxWorkGroupInfo")
WI_PARAM = "%kk.wi"
WG_PARAM = "%kk.wg"

# MuxWorkItemInfo: (field, LLVM type, ctypes type); one per work-item.
WORK_ITEM_FIELDS: tuple[tuple[str, str, object], ...] = (
    ("local_id", "[3 x i64]", ctypes.c_uint64 * 3),
    ("local_linear_id", "i64", ctypes.c_uint64),
)

# MuxWorkGroupInfo: (field, LLVM type, ctypes type); one per work-group being executed.
WORK_GROUP_FIELDS: tuple[tuple[str, str, object], ...] = (
    ("group_id", "[3 x i64]", ctypes.c_uint64 * 3),
    ("num_groups", "[3 x i64]", ctypes.c_uint64 * 3),
    ("global_offset", "[3 x i64]", ctypes.c_uint64 * 3),
    ("local_size", "[3 x i64]", ctypes.c_uint64 * 3),       # this group's size (non-uniform tail)
    ("enqueued_local_size", "[3 x i64]", ctypes.c_uint64 * 3),
    ("global_size", "[3 x i64]", ctypes.c_uint64 * 3),
    ("work_dim", "i64", ctypes.c_uint64),
    ("scratch", "ptr", ctypes.c_void_p),                    # work-group collectives, 8 B per item
    ("printf", "ptr", ctypes.c_void_p),                     # PrintfBuffer
    ("check", "ptr", ctypes.c_void_p),                      # CheckTable (checked mode)
    ("frames", "ptr", ctypes.c_void_p),                     # coroutine frames of this thread's group
    ("frame_stride", "i64", ctypes.c_uint64),               # bytes per frame (0: none allocated)
    ("chunk", "i64", ctypes.c_uint64),                      # work-groups a thread takes at a time
    ("cancel", "ptr", ctypes.c_void_p),                     # u64 the runtime sets to 1 to stop the launch
    ("stack_top", "ptr", ctypes.c_void_p),                  # frame of the work-group loop (checked mode)
)


def field_index(fields: tuple[tuple[str, str, object], ...], name: str) -> int:
    for i, (fname, _, _) in enumerate(fields):
        if fname == name:
            return i
    raise KeyError(name)


class WorkItemInfo(ctypes.Structure):
    _fields_ = [(n, c) for n, _, c in WORK_ITEM_FIELDS]


class WorkGroupInfo(ctypes.Structure):
    _fields_ = [(n, c) for n, _, c in WORK_GROUP_FIELDS]


class PrintfBuffer(ctypes.Structure):
    """Where printf records go: ``data[0:capacity]``, ``offset`` bumped atomically."""

    _fields_ = [("data", ctypes.c_void_p), ("capacity", ctypes.c_uint64), ("offset", ctypes.c_uint64)]


class CheckTable(ctypes.Structure):
    """Checked mode: the valid address ranges and the first violation seen."""

    _fields_ = [
        ("count", ctypes.c_uint64),
        ("ranges", ctypes.c_void_p),        # count pairs of (begin, end) u64
        ("sink", ctypes.c_void_p),          # harmless target for a faulting access
        ("violated", ctypes.c_uint64),      # 0, or 1 after the first violation
        ("address", ctypes.c_uint64),
        ("size", ctypes.c_uint64),
        ("is_store", ctypes.c_uint64),
        ("global_id", ctypes.c_uint64 * 3),
        ("kind", ctypes.c_uint64),          # bit 0: a store; bits 1-3: the pointer's address space
        ("base", ctypes.c_uint64),          # [base, end) of the private object the pointer came from
        ("end", ctypes.c_uint64),           # (0, 0: looked up in the ranges)
        ("object", ctypes.c_uint64),        # index of that object in @kk.checked.sites
        ("site", ctypes.c_uint64),          # index of the access's source location there
        ("unknown", ctypes.c_uint64),       # 1: a private pointer of unknown origin (cannot be bounded)
        ("args", ctypes.c_void_p),          # (begin, end) u64 pairs per kernel parameter (0, 0: no buffer)
    ]


SINK_BYTES = 4096
