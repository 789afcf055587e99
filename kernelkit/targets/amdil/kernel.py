"""The amdil deferred kernel (spec 003 "Kernel"): one kernel of a module, specialised for a local size.
The program holds that kernel alone, its local-size reads folded, with the size declared as spec 000
prescribes (``dcl_num_thread_per_group`` and the ``cws`` metadata record). AMD IL code runs one work-item,
so the work width is 1, and the preferred group fills one hardware wavefront; the devices have no
sub-groups (OpenCL 1.2)."""

from __future__ import annotations

import dataclasses

from kernelkit.mux.deferred import SpecialisingKernel


class AmdilKernel(SpecialisingKernel):
    def preferred_width(self) -> int:
        return self.module.target.device_record.wavefront

    def specialised_binary(self, local_size: tuple[int, int, int]) -> bytes:
        from kernelkit.mux.passes.local_size import specialise_local_size

        if self.module.finalized_llvm_module is None:
            self.module.finalize()
        ir, _ = specialise_local_size(self.module.finalized_llvm_module, self.name, local_size)
        return self.module.program_bytes(ir, [dataclasses.replace(self.signature, reqd_work_group_size=local_size)])
