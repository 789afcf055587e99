"""The ``amdcl2`` target's Info: AMD Catalyst OpenCL 2.0 devices (GCN 1.1+, as the drivers'
device code tables name them), compiled through LLVM's AMDGPU backend (``module.py``), each
mapped to its amdgcn processor as data: the device's ISA
version as AMD's CL2 drivers write it in amd_kernel_code_t (CLRX GPUId.cpp, the AMD CL2 table)
and the LLVM target of that ISA version (spec 001's code object V2 ISA table)."""

from __future__ import annotations

from kernelkit.formats.amdcl2.binary import DEVICE_CODES
from kernelkit.formats.amdgpu.tables import V2_ISA_NAMES
from kernelkit.mux.device import AddressCapabilities, DeviceInfo
from kernelkit.mux.info import Info

# every device any driver generation's e_flags table names (lower-case on the CLI)
DEVICES: tuple[str, ...] = tuple(sorted({n.lower() for table in DEVICE_CODES.values()
                                         for n in table.values() if n != "Dummy"}))
# CLRX GPUId.cpp amdCL2GpuArchVersionTbl: (major, minor, stepping) the CL2 driver writes
DEVICE_ISA: dict[str, tuple[int, int, int]] = {
    "spectre": (7, 0, 0), "spooky": (7, 0, 0), "kalindi": (7, 0, 0), "mullins": (7, 0, 0),
    "bonaire": (7, 0, 0), "hawaii": (7, 0, 1), "iceland": (8, 0, 0), "tonga": (8, 0, 0),
    "carrizo": (8, 0, 1), "fiji": (8, 0, 4), "goose": (8, 0, 4), "horse": (8, 0, 4),
    "stoney": (8, 1, 0), "ellesmere": (8, 0, 4), "baffin": (8, 0, 4), "gfx804": (8, 0, 4),
    "gfx900": (9, 0, 0), "gfx901": (9, 0, 1), "gfx902": (9, 0, 2), "gfx903": (9, 0, 3),
    "gfx904": (9, 0, 4), "gfx905": (9, 0, 5), "gfx906": (9, 0, 6), "gfx907": (9, 0, 7),
}
# LLVM processor names of the GCN devices whose CL2 ISA version is the generation's base
# (7.0.0 / 8.0.0: LLVM names them gfx700..gfx705 / gfx801..gfx803 by chip)
LLVM_PROCESSOR_OF_CHIP: dict[str, str] = {
    "spectre": "gfx700", "spooky": "gfx700", "kalindi": "gfx703", "mullins": "gfx703",
    "bonaire": "gfx704", "hawaii": "gfx701", "iceland": "gfx802", "tonga": "gfx802",
}


def device_processor(device: str) -> str:
    """The LLVM target ID that compiles for a CL2 device."""
    if device in LLVM_PROCESSOR_OF_CHIP:
        return LLVM_PROCESSOR_OF_CHIP[device]
    major, minor, stepping = DEVICE_ISA[device]
    return V2_ISA_NAMES[f"AMD:AMDGPU:{major}:{minor}:{stepping}"]


def gfx_level(device: str) -> int:
    return DEVICE_ISA.get(device, (7, 0, 0))[0]


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
