"""The amdcl2 compiler::Target: one CL2 device, compiled for its amdgcn processor."""

from __future__ import annotations

from kernelkit.formats.amdgpu.target_id import TargetID
from kernelkit.targets.amdcl2.info import device_processor
from kernelkit.targets.amdhsa.target import AmdhsaTarget


class Cl2Target(AmdhsaTarget):
    @property
    def target_id(self) -> TargetID:
        return TargetID.parse(device_processor(self.device))

    def _create_module(self):
        from kernelkit.targets.amdcl2.module import Cl2Module

        return Cl2Module(self)
