"""The amdhsa compiler::Kernel: sub-groups are wavefronts (32 or 64 work-items)."""

from __future__ import annotations

from kernelkit.mux.kernel import Kernel


class AmdhsaKernel(Kernel):
    def __init__(self, module, name: str):
        sig = module.program_info.kernel(name) if module.program_info is not None else None
        reqd = tuple(sig.reqd_work_group_size) if sig is not None and sig.reqd_work_group_size else (64, 1, 1)
        super().__init__(module, name, reqd, sig.static_local_mem if sig is not None else 0)

    @property
    def wavefront_size(self) -> int:
        return self.module.target.target_id.processor.wavefront_sizes[0]

    def _precache_local_size(self, x: int, y: int, z: int) -> None:
        return None

    def _get_dynamic_work_width(self, x: int, y: int, z: int) -> int:
        return self.wavefront_size

    def _get_sub_group_size(self) -> int:
        return self.wavefront_size

    def _query_sub_group_size_for_local_size(self, x: int, y: int, z: int) -> int:
        return min(self.wavefront_size, x * y * z)

    def _query_local_size_for_sub_group_count(self, count: int):
        size = count * self.wavefront_size
        return (size, 1, 1) if 0 < size <= 1024 else (0, 0, 0)

    def _query_max_sub_group_count(self) -> int:
        return 1024 // self.wavefront_size
