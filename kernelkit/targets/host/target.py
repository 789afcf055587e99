"""The host compiler::Target."""

from __future__ import annotations

from kernelkit.mux.target import Target


class HostTarget(Target):
    def frontend_options(self) -> list[str]:
        # -O1: clang simplifies (SROA, inlining) but does not vectorise or unroll; the host
        # pipeline vectorises across work-items once the kernel sits inside its work-item loops
        return ["-O1"]

    def _create_module(self):
        from kernelkit.targets.host.module import HostModule

        return HostModule(self)
