"""The ``amdcl2`` target's Info: AMD Catalyst OpenCL 2.0 devices (GCN 1.1+, as the drivers'
device code tables name them), compiled through LLVM's AMDGPU backend (``module.py``), each
mapped to its amdgcn processor as data: the device's ISA
version as AMD's CL2 drivers write it in amd_kernel_code_t (CLRX GPUId.cpp, the AMD CL2 table)
and the LLVM target of that ISA version (spec 001's code object V2 ISA table)."""

from __future__ import annotations

from kernelkit.formats.amdcl2.binary import DEVICE_CODES
from kernelkit.formats.amdcl2.devices import DEVICE_ISA, device_processor, gfx_level  # noqa: F401
from kernelkit.mux.device import AddressCapabilities, DeviceInfo
from kernelkit.mux.info import Info

# every device any driver generation's e_flags table names (lower-case on the CLI)
DEVICES: tuple[str, ...] = tuple(sorted({n.lower() for table in DEVICE_CODES.values()
                                         for n in table.values() if n != "Dummy"}))
# GCN generation of each (GFX9 changes the user-data rule, spec 002)
GFX_LEVEL: dict[str, int] = {d: isa[0] for d, isa in DEVICE_ISA.items()}


class Cl2Info(Info):
    name = "amdcl2"
    description = "AMD Catalyst OpenCL 2.0 binaries (HSA code inside an AMD ELF)"

    def __init__(self, device: str = "bonaire"):
        super().__init__(DeviceInfo(device_name=device, device_type="gpu",
                                    address_capabilities=AddressCapabilities.BITS64
                                    | AddressCapabilities.BITS32,
                                    image_support=True, local_memory_size=65536,
                                    max_work_group_size=(256, 256, 256),
                                    extra={"gfx": GFX_LEVEL.get(device, 7)}))

    def devices(self) -> list[str]:
        return list(DEVICES)

    def _create_target(self, context, device, callback):
        from kernelkit.targets.amdcl2.target import Cl2Target

        return Cl2Target(self, context, callback, device or self.device_info.device_name)


def get_compilers() -> list[Info]:
    return [Cl2Info()]
