"""Names and encodings ComputeMux IR uses (spec 003 "Metadata", "Function Attributes",
"Memory and Control Barriers"), plus the OpenCL C constants the lowering reads.
"""

from __future__ import annotations

import enum

# SPIR address spaces clang emits for OpenCL C (DESIGN.md "The spine"); name -> number.
SPIR_ADDRESS_SPACES: dict[str, int] = {"private": 0, "global": 1, "constant": 2, "local": 3, "generic": 4}
ADDRESS_SPACE_NAMES: dict[int, str] = {v: k for k, v in SPIR_ADDRESS_SPACES.items()}


class MemScope(enum.IntEnum):
    """spec 003 "Memory and Control Barriers": enum MemScope."""

    CROSS_DEVICE = 0
    DEVICE = 1
    WORK_GROUP = 2
    SUB_GROUP = 3
    WORK_ITEM = 4


class MemSemantics(enum.IntFlag):
    """spec 003 "Memory and Control Barriers": enum MemSemantics (ordering | memory bits)."""

    RELAXED = 0x0
    ACQUIRE = 0x2
    RELEASE = 0x4
    ACQUIRE_RELEASE = 0x8
    SEQUENTIALLY_CONSISTENT = 0x10
    MASK = 0x1F
    SUB_GROUP_MEMORY = 0x80
    WORK_GROUP_MEMORY = 0x100
    CROSS_WORK_GROUP_MEMORY = 0x200


# OpenCL C cl_mem_fence_flags bits (OpenCL C 3.0 §6.15.9; kernelkit_opencl.h) -> MemSemantics memory bits.
FENCE_FLAG_SEMANTICS: dict[int, MemSemantics] = {
    0x01: MemSemantics.WORK_GROUP_MEMORY,        # CLK_LOCAL_MEM_FENCE
    0x02: MemSemantics.CROSS_WORK_GROUP_MEMORY,  # CLK_GLOBAL_MEM_FENCE
    0x04: MemSemantics.CROSS_WORK_GROUP_MEMORY,  # CLK_IMAGE_MEM_FENCE (images live in global memory)
}

# OpenCL C memory_scope values as clang defines them (__OPENCL_MEMORY_SCOPE_*) -> MemScope.
OPENCL_SCOPE_TO_MUX: dict[int, MemScope] = {
    0: MemScope.WORK_ITEM,     # memory_scope_work_item
    1: MemScope.WORK_GROUP,    # memory_scope_work_group
    2: MemScope.DEVICE,        # memory_scope_device
    3: MemScope.CROSS_DEVICE,  # memory_scope_all_svm_devices / memory_scope_all_devices
    4: MemScope.SUB_GROUP,     # memory_scope_sub_group
}

# OpenCL C memory_order values as clang defines them (__ATOMIC_*) -> MemSemantics ordering.
OPENCL_ORDER_TO_MUX: dict[int, MemSemantics] = {
    0: MemSemantics.RELAXED,                  # memory_order_relaxed
    1: MemSemantics.ACQUIRE,                  # __ATOMIC_CONSUME (not in OpenCL C; treated as acquire)
    2: MemSemantics.ACQUIRE,                  # memory_order_acquire
    3: MemSemantics.RELEASE,                  # memory_order_release
    4: MemSemantics.ACQUIRE_RELEASE,          # memory_order_acq_rel
    5: MemSemantics.SEQUENTIALLY_CONSISTENT,  # memory_order_seq_cst
}

# spec 003 "Function Attributes".
ATTR_KERNEL = "mux-kernel"
KERNEL_ENTRY_POINT = "entry-point"
ATTR_ORIG_FN = "mux-orig-fn"
ATTR_BASE_FN_NAME = "mux-base-fn-name"
ATTR_LOCAL_MEM_USAGE = "mux-local-mem-usage"
ATTR_WORK_ITEM_ORDER = "mux-work-item-order"
ATTR_BARRIER_SCHEDULE = "mux-barrier-schedule"
ATTR_NO_SUBGROUPS = "mux-no-subgroups"

# spec 003 "Function Metadata" / "Module Metadata".
MD_REQD_WORK_GROUP_SIZE = "reqd_work_group_size"
MD_MAX_WORK_DIM = "max_work_dim"
MD_SCHEDULED_FN = "mux_scheduled_fn"
MD_INTEL_REQD_SUB_GROUP_SIZE = "intel_reqd_sub_group_size"
MD_SCHEDULING_PARAMS = "mux-scheduling-params"
MD_OPENCL_VERSION = "opencl.ocl.version"

# utils_work_item_order_e: dimensions from innermost to outermost ("xyz" when absent).
WORK_ITEM_ORDERS: tuple[str, ...] = ("xyz", "xzy", "yxz", "yzx", "zxy", "zyx")
DEFAULT_WORK_ITEM_ORDER = "xyz"


class BarrierSchedule(enum.Enum):
    """BarrierSchedule: ordering of work-items after a barrier (``mux-barrier-schedule`` value)."""

    UNORDERED = "unordered"
    ONCE = "once"
    SCALAR_TAIL = "scalar-tail"
    LINEAR = "linear"
