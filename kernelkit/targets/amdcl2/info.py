"""The ``amdcl2`` target's Info: AMD Catalyst OpenCL 2.0 devices (GCN 1.1+, as the driver's
device codes name them). Compiling OpenCL C to CL2 binaries is a later issue: FEATURE_UNSUPPORTED."""

from __future__ import annotations

from kernelkit.formats.amdcl2.binary import DEVICE_CODES
from kernelkit.mux.device import AddressCapabilities, DeviceInfo
from kernelkit.mux.info import Info

# every device any driver generation's e_flags table names (lower-case on the CLI)
DEVICES: tuple[str, ...] = tuple(sorted({n.lower() for table in DEVICE_CODES.values()
                                         for n in table.values() if n != "Dummy"}))
# GCN generation of each (GFX9 changes the user-data rule, spec 002); none of these is GFX9
GFX_LEVEL: dict[str, int] = {"spectre": 7, "spooky": 7, "kalindi": 7, "mullins": 7, "bonaire": 7,
                             "hawaii": 7, "iceland": 8, "tonga": 8, "carrizo": 8, "fiji": 8,
                             "stoney": 8, "horse": 8, "goose": 8, "baffin": 8, "ellesmere": 8}


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


def get_compilers() -> list[Info]:
    return [Cl2Info()]
