"""The amdil compiler::Target: one AMD IL device (spec 000 "Calling the compiler")."""

from __future__ import annotations

from kernelkit.mux.target import Target


class AmdilTarget(Target):
    @property
    def device_record(self):
        from kernelkit.targets.amdil.info import resolve_device

        return resolve_device(self.device)

    def frontend_options(self) -> list[str]:
        from kernelkit.targets.amdil.info import frontend_options

        return frontend_options(self.device_record)

    def _create_module(self):
        from kernelkit.targets.amdil.module import AmdilModule

        return AmdilModule(self)
