"""The host compiler::Target."""

from __future__ import annotations

from kernelkit.mux.target import Target


class HostTarget(Target):
    def frontend_options(self) -> list[str]:
        return []

    def _create_module(self):
        from kernelkit.targets.host.module import HostModule

        return HostModule(self)
