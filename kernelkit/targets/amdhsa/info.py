"""The ``amdhsa`` compiler's Info: one Info for every amdgcn processor; the CLI target name is
any AMDGPU target ID or triple-prefixed target ID (``gfx90a:xnack-``,
``amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-``), which selects the device."""

from __future__ import annotations

import functools
import re
import subprocess

from kernelkit.formats.amdgpu.tables import PROCESSORS
from kernelkit.formats.amdgpu.target_id import TargetID, TargetIDError
from kernelkit.mux.device import AddressCapabilities, DeviceInfo
from kernelkit.mux.info import Info
from kernelkit.mux.result import MuxError, Result

# spec 003 "Compilation Options Syntax": (name, takes a value, help)
AMDHSA_COMPILATION_OPTIONS = "--code-object-version,1,code object version 2..6 (default 6) also as build option -mcode-object-version=N"
_NOT_OURS = ("host", "amdil:", "amdcl2:", "visa:")
_AMDGPU_PREFIXES = ("gfx", "amdgcn-", "amdhsa:")
# the OS of the code objects kernelkit writes; amdpal (PAL metadata) and mesa3d are not produced
OS_ABI = "amdhsa"


@functools.cache
def llvm_processors() -> frozenset[str]:
    """The amdgcn processors of the LLVM in use: clang 22 of the ziglang wheel (the LLVM major
    llvmlite links) lists them with ``--print-supported-cpus``; empty when clang cannot say."""
    from kernelkit.frontend.clang import clang_command

    try:
        run = subprocess.run([*clang_command(), "--target=amdgcn-amd-amdhsa", "--print-supported-cpus"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(re.findall(r"^\s+(gfx[\w-]+)\s*$", run.stdout + run.stderr, re.M))


def buildable(name: str) -> bool:
    known = llvm_processors()
    return not known or name in known


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
        """The amdgcn processors kernelkit knows that the LLVM in use builds."""
        return [p.name for p in PROCESSORS if p.arch == "amdgcn" and buildable(p.name)]

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
        if tid.arch != "amdgcn":
            return None
        os_name = tid.triple.split("-")[2] if tid.triple and tid.triple.count("-") >= 2 else OS_ABI
        if os_name != OS_ABI:
            raise MuxError(Result.INVALID_VALUE, f"{target_name}: kernelkit writes amdgcn-amd-amdhsa code objects "
                                                 f"only; the {os_name} OS ABI is not produced")
        if not buildable(tid.processor.name):
            raise MuxError(Result.INVALID_VALUE, f"{tid.processor.name}: the LLVM in use has no such "
                                                 "processor (see `kernelkit targets`)")
        return tid.full()

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
