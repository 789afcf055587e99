"""The amdcl2 compiler::Target: one CL2 device, compiled for its amdgcn processor."""

from __future__ import annotations

from kernelkit.formats.amdgpu.target_id import TargetID
from kernelkit.targets.amdcl2.info import device_processor
from kernelkit.targets.amdhsa.target import AmdhsaTarget


class Cl2Target(AmdhsaTarget):
    # the setup arguments leave out the parameters of kernels that read none (setup_args.py), which
    # is seen only once clang's kernel stubs are optimised: the frontend's LLVM passes stay on
    frontend_llvm_passes = True

    @property
    def target_id(self) -> TargetID:
        return TargetID.parse(device_processor(self.device))

    def _create_module(self):
        from kernelkit.targets.amdcl2.module import Cl2Module

        return Cl2Module(self)
