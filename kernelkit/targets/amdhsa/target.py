"""The amdhsa compiler::Target: one AMDGPU target ID."""

from __future__ import annotations

from kernelkit.formats.amdgpu.target_id import TargetID
from kernelkit.ir import types as T
from kernelkit.mux.target import Target


class AmdhsaTarget(Target):
    # LLVM's AMDGPU pipeline gets the IR un-inlined, as in clang's amdgcn compile: its printf
    # binding runs before the inliner (one amdhsa.printf entry per source call site)
    frontend_llvm_passes = False

    @property
    def target_id(self) -> TargetID:
        return TargetID.parse(self.device)

    def frontend_options(self) -> list[str]:
        return []

    def dma_event_type(self) -> T.Type:
        return T.i32   # mux_builtins.cl returns and takes events as uint

    def _create_module(self):
        from kernelkit.targets.amdhsa.module import AmdhsaModule

        return AmdhsaModule(self)
