"""The host compiler::Kernel: one kernel of a host module, compiled on demand (spec 003 "Kernel").

Host sub-groups are W work-items (the vectoriser's packet) when the kernel is vectorised and the
group's x size is a multiple of W, else one work-item (spec 003's trivial size). The work width is the number of
work-items one call of the kernel's code runs: the whole-function vectoriser's width along x when
the group's x size holds a whole packet, else 1. ``create_specialized_kernel`` with uniform
work-groups compiles the kernel with its local size as a constant (``kernelkit.mux.passes.local_size``),
cached per size; ``precache_local_size`` fills that cache ahead of the launch.
"""

from __future__ import annotations

from kernelkit.mux.kernel import Kernel, NDRangeOptions
from kernelkit.mux.result import MuxError, Result
from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE


class HostKernel(Kernel):
    def __init__(self, module, name: str):
        if module.program_info is None:
            module.finalize()
        self.signature = module.program_info.kernel(name)
        self.vector_width = module.generic_host_binary().kernel(name).vector_width
        reqd = self.signature.reqd_work_group_size
        preferred = tuple(reqd) if reqd else (self.vector_width, 1, 1)
        super().__init__(module, name, preferred, self.signature.static_local_mem or 0)
        self.specialised: dict[tuple[int, int, int], bytes] = {}

    def _specialised(self, local_size: tuple[int, int, int]) -> bytes:
        binary = self.specialised.get(local_size)
        if binary is None and self.module.finalized_llvm_module is None:
            raise MuxError(Result.FINALIZE_PROGRAM_FAILURE, f"{self.name}: the module's IR was cleared; "
                                                            "it cannot be specialised")
        if binary is None:
            from kernelkit.errors import KernelkitError
            from kernelkit.llvm_binding import in_worker
            from kernelkit.targets.host.module import specialised_binary_and_log

            try:   # LLVM in a worker process: its aborting is a CompileError, not the caller's end
                binary, log = in_worker(specialised_binary_and_log, str(self.module.finalized_llvm_module),
                                        self.signature, self.module.options, local_size, target="host",
                                        kernels=[self.name])
            except KernelkitError as exc:
                self.module.add_build_error(f"specialising {self.name} for local size {local_size}: {exc}")
                raise MuxError(Result.FINALIZE_PROGRAM_FAILURE, str(exc)) from exc
            for line in log:
                self.module.add_diagnostic(line)
            self.specialised[local_size] = binary
        return binary

    def _precache_local_size(self, x: int, y: int, z: int) -> None:
        self._specialised((x, y, z))

    def _get_dynamic_work_width(self, x: int, y: int, z: int) -> int:
        return self.vector_width if x >= self.vector_width else 1

    def _create_specialized_kernel(self, options: NDRangeOptions) -> bytes:
        local = tuple(int(v) for v in options.local_size)
        sizes = list(options.global_size) + [1] * (3 - len(options.global_size))
        if all(g % lsz == 0 for g, lsz in zip(sizes, local, strict=True)):
            return self._specialised(local)   # type: ignore[arg-type]
        # a smaller last group: sizes vary
        generic = self.module.generic_host_binary()
        if generic.kernel(self.name).needs_work_item_copy(sizes[0], local[0]):
            return self.module.full_host_binary().to_bytes()
        return generic.to_bytes()

    # Sub-groups: W work-items (a packet of the vectorised kernel) in the work-groups whose x size is
    # a multiple of W, one work-item where the kernel runs scalar (see passes/vectorise)
    def _get_sub_group_size(self) -> int:
        return self.vector_width

    def _query_sub_group_size_for_local_size(self, x: int, y: int, z: int) -> int:
        return self.vector_width if x % self.vector_width == 0 else 1

    def _query_local_size_for_sub_group_count(self, count: int):
        items = count * self.vector_width
        reqd = self.signature.reqd_work_group_size
        if reqd:
            fits = tuple(reqd) == (items, 1, 1)
        else:
            fits = 0 < items <= MAX_WORK_GROUP_SIZE
        return (items, 1, 1) if fits else (0, 0, 0)

    def _query_max_sub_group_count(self) -> int:
        reqd = self.signature.reqd_work_group_size
        if reqd:
            x, y, z = reqd
            return x * y * z // self._query_sub_group_size_for_local_size(x, y, z)
        return MAX_WORK_GROUP_SIZE   # (local size (MAX, 1, 1) with W not dividing it: sub-groups of 1)
