"""A deferred kernel (spec 003 "Kernel") for targets whose binary is made from the module's IR:
``createSpecializedKernel`` with uniform work-groups gives a binary of that one kernel compiled for
its local size (``kernelkit.mux.passes.local_size``: local-size reads folded, ``!reqd_work_group_size``
set), cached per size and filled ahead by ``precacheLocalSize``; with a smaller last group it gives
the module's generic binary. A target says how to build the specialised binary and how many
work-items one run of the kernel's code covers."""

from __future__ import annotations

from kernelkit.errors import KernelkitError
from kernelkit.mux.kernel import Kernel, NDRangeOptions
from kernelkit.mux.result import MuxError, Result


class SpecialisingKernel(Kernel):
    def __init__(self, module, name: str):
        if module.program_info is None:
            module.finalize()
        self.signature = module.program_info.kernel(name)
        self.module = module
        self.name = name
        reqd = self.signature.reqd_work_group_size
        preferred = tuple(reqd) if reqd else (self.preferred_width(), 1, 1)
        super().__init__(module, name, preferred, self.signature.static_local_mem or 0)
        self.specialised: dict[tuple[int, int, int], bytes] = {}

    # -- what a target provides ------------------------------------------------------------------
    def work_width(self) -> int:
        """Work-items one run of the kernel's code covers (SIMD lanes; 1 for per-work-item code)."""
        return 1

    def preferred_width(self) -> int:
        """The x size of the preferred local size of a kernel that requires none."""
        return self.work_width()

    def specialised_binary(self, local_size: tuple[int, int, int]) -> bytes:
        raise NotImplementedError

    # -- spec hooks ------------------------------------------------------------------------------
    def _specialised(self, local_size: tuple[int, int, int]) -> bytes:
        binary = self.specialised.get(local_size)
        if binary is None:
            try:
                binary = self.specialised_binary(local_size)
            except KernelkitError as exc:
                self.module.add_build_error(f"specialising {self.name} for local size {local_size}: {exc}")
                raise MuxError(Result.FINALIZE_PROGRAM_FAILURE, str(exc)) from exc
            self.specialised[local_size] = binary
        return binary

    def _precache_local_size(self, x: int, y: int, z: int) -> None:
        self._specialised((x, y, z))

    def _get_dynamic_work_width(self, x: int, y: int, z: int) -> int:
        width = self.work_width()
        return width if x >= width else 1

    def _create_specialized_kernel(self, options: NDRangeOptions) -> bytes:
        local = tuple(int(v) for v in options.local_size)
        sizes = list(options.global_size) + [1] * (3 - len(options.global_size))
        if all(g % lsz == 0 for g, lsz in zip(sizes, local, strict=True)):
            return self._specialised(local)   # type: ignore[arg-type]
        return self.module.create_binary()    # a smaller last group: sizes vary
