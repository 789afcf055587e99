"""The ``amdhsa`` compiler's Info: one Info for every amdgcn processor; the CLI target name is
any AMDGPU target ID or triple-prefixed target ID (``gfx90a:xnack-``,
``amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-``), which selects the device."""

from __future__ import annotations

from kernelkit.formats.amdgpu.tables import PROCESSORS
from kernelkit.formats.amdgpu.target_id import TargetID, TargetIDError
from kernelkit.mux.device import AddressCapabilities, DeviceInfo
from kernelkit.mux.info import Info
from kernelkit.mux.result import MuxError, Result

# spec 003 "Compilation Options Syntax": (name, takes a value, help)
AMDHSA_COMPILATION_OPTIONS = "--code-object-version,1,code object version 2..6 (default 6) also as build option -mcode-object-version=N"
_NOT_OURS = ("host", "amdil:", "amdcl2:", "visa:")
_AMDGPU_PREFIXES = ("gfx", "amdgcn-", "amdhsa:")


def amdhsa_device_info(device: str = "gfx90a") -> DeviceInfo:
    tid = TargetID.parse(device)
    wave = tid.processor.wavefront_sizes
    return DeviceInfo(device_name=tid.canonical(), device_type="gpu", address_capabilities=AddressCapabilities.BITS64,
                      max_work_group_size=(1024, 1024, 1024), max_concurrent_work_items=1024,
                      max_work_width=wave[0], max_sub_group_count=1024 // wave[0], sub_group_sizes=wave,
                      supports_work_group_collectives=False, supports_generic_address_space=True,
                      image_support=False, local_memory_size=65536,
                      extra={"processor": tid.processor.name, "wavefront_sizes": wave})


class AmdhsaInfo(Info):
    """AMDGPU HSA code objects (``gfx...`` target IDs) through LLVM's AMDGPU backend."""

    name = "amdhsa"
    description = "AMDGPU HSA code objects V2-V6 for every amdgcn processor (llvmlite + ld.lld)"

    def __init__(self) -> None:
        super().__init__(amdhsa_device_info(), supports_deferred_compilation=False,
                         compilation_options=AMDHSA_COMPILATION_OPTIONS)

    def devices(self) -> list[str]:
        return [p.name for p in PROCESSORS if p.arch == "amdgcn"]

    def parse_target(self, target_name: str) -> str | None:
        if target_name.startswith(_NOT_OURS):
            return None
        if target_name.startswith("amdhsa:"):
            target_name = target_name[len("amdhsa:"):]
        try:
            tid = TargetID.parse(target_name)
        except TargetIDError as exc:
            if target_name.startswith(_AMDGPU_PREFIXES):   # ours, but invalid: say what is valid
                raise MuxError(Result.INVALID_VALUE, str(exc)) from exc
            return None
        return tid.full() if tid.arch == "amdgcn" else None

    def create_target(self, context, device=None, callback=None):
        if context is None:
            raise MuxError(Result.INVALID_VALUE, "createTarget needs a compiler Context")
        try:
            tid = TargetID.parse(device or self.device_info.device_name)
        except TargetIDError as exc:
            raise MuxError(Result.INVALID_VALUE, str(exc)) from exc
        from kernelkit.targets.amdhsa.target import AmdhsaTarget

        return AmdhsaTarget(self, context, callback, tid.full())


_INFO: AmdhsaInfo | None = None


def get_compilers() -> list[Info]:
    global _INFO
    if _INFO is None:
        _INFO = AmdhsaInfo()
    return [_INFO]
