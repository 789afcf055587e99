"""The host compiler::Kernel: queries about one kernel of a host module.

Host sub-groups are the trivial sub-groups of size 1 (spec 003), the work width is 1 (work-items
run one after the other inside the work-item loop, vectorised by LLVM where it can).
"""

from __future__ import annotations

from kernelkit.mux.kernel import Kernel, NDRangeOptions
from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE


class HostKernel(Kernel):
    def __init__(self, module, name: str):
        sig = None
        if module.program_info is not None:
            sig = module.program_info.kernel(name)
        local_mem = sig.static_local_mem if sig is not None else 0
        reqd = sig.reqd_work_group_size if sig is not None and sig.reqd_work_group_size else (1, 1, 1)
        super().__init__(module, name, tuple(reqd), local_mem)

    def _precache_local_size(self, x: int, y: int, z: int) -> None:
        return None

    def _get_dynamic_work_width(self, x: int, y: int, z: int) -> int:
        return 1

    def _create_specialized_kernel(self, options: NDRangeOptions) -> bytes:
        return self.module.create_binary()

    def _get_sub_group_size(self) -> int:
        return 1

    def _query_sub_group_size_for_local_size(self, x: int, y: int, z: int) -> int:
        return 1

    def _query_local_size_for_sub_group_count(self, count: int):
        return (count, 1, 1) if 0 < count <= MAX_WORK_GROUP_SIZE else (0, 0, 0)

    def _query_max_sub_group_count(self) -> int:
        return MAX_WORK_GROUP_SIZE
