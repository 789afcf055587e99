"""The processor of each AMD CL2 device, as data: the ISA version AMD's CL2 drivers write in
amd_kernel_code_t for it (CLRX GPUId.cpp, the AMD CL2 table) and the LLVM target of that ISA
version (spec 001's code object V2 ISA table)."""

from __future__ import annotations

from kernelkit.formats.amdgpu.tables import V2_ISA_NAMES

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


