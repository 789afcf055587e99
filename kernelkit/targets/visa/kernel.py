"""The visa deferred kernel (spec 003 "Kernel"): one kernel of a module, specialised for a local size.
The frontend IR's local-size reads (``get_local_size``, ``get_enqueued_local_size``) fold to the size
and the kernel gets ``!reqd_work_group_size``; the vISA object holds that kernel alone. One run of the
kernel's code covers its SIMD width of work-items, which is also its sub-group size."""

from __future__ import annotations

from kernelkit.mux.deferred import SpecialisingKernel


class VisaDeferredKernel(SpecialisingKernel):
    def __init__(self, module, name: str):
        self._simd: int | None = None
        self.programs: dict[tuple[int, int, int], object] = {}   # local size -> VisaBinary
        super().__init__(module, name)

    def work_width(self) -> int:
        if self._simd is None:
            self._simd = self.module.visa_binary().kernel(self.name).payload.simd
        return self._simd

    def specialised_program(self, local_size: tuple[int, int, int]):
        """The VisaBinary (vISA text, payload layout) of the kernel specialised for ``local_size``."""
        if local_size not in self.programs:
            from kernelkit.mux.passes.local_size import OPENCL_LOCAL_SIZE_BUILTINS, specialise_local_size

            ir, _ = specialise_local_size(self.module.llvm_module, self.name, local_size, OPENCL_LOCAL_SIZE_BUILTINS)
            self.programs[local_size] = self.module.visa_binary(ir)
        return self.programs[local_size]

    def specialised_binary(self, local_size: tuple[int, int, int]) -> bytes:
        return self.specialised_program(local_size).isa()

    def _get_sub_group_size(self) -> int:
        return self.work_width()

    def _query_sub_group_size_for_local_size(self, x: int, y: int, z: int) -> int:
        return min(self.work_width(), x * y * z)
