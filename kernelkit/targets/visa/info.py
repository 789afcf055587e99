"""The ``visa`` target's Info: Intel platforms SKL, ICLLP, TGLLP and DG2 (``visa:<platform>``) and the
``--simd`` option. Platform facts live once, in ``kernelkit.abi.visa.PLATFORMS``."""

from __future__ import annotations

from kernelkit.abi.visa import PLATFORMS, PLATFORMS_BY_NAME, SIMD_SIZES
from kernelkit.mux.device import FULL_FLOAT, AddressCapabilities, DeviceInfo, FloatingPointCapabilities
from kernelkit.mux.info import Info

# spec 003 "Compilation Options Syntax" tuples
VISA_COMPILATION_OPTIONS = (f"--simd,1,SIMD width of the kernels: {' or '.join(map(str, SIMD_SIZES))} "
                            f"(default 16)")
SLM_BYTES = 65536                      # shared local memory per work-group (spec 004 SLMSize: 64 KB)
MAX_WORK_GROUP_SIZE = 1024


class VisaInfo(Info):
    name = "visa"
    description = "Intel vISA objects (IGC's virtual ISA) for the Gen finalizer; SIMD lanes are work-items"

    def __init__(self, platform: str = "tgllp"):
        p = PLATFORMS_BY_NAME[platform]
        super().__init__(DeviceInfo(device_name=platform, device_type="gpu",
                                    address_capabilities=AddressCapabilities.BITS64,
                                    half_capabilities=FULL_FLOAT,
                                    double_capabilities=FULL_FLOAT if p.fp64 else FloatingPointCapabilities(0),
                                    max_work_width=32, sub_group_sizes=SIMD_SIZES,
                                    image_support=False, local_memory_size=SLM_BYTES,
                                    max_work_group_size=(MAX_WORK_GROUP_SIZE,) * 3,
                                    extra={"genx_platform": p.genx, "fp64": p.fp64, "lsc": p.lsc}),
                         compilation_options=VISA_COMPILATION_OPTIONS, supports_deferred_compilation=True)

    def devices(self) -> list[str]:
        return [p.name for p in PLATFORMS]

    def _create_target(self, context, device, callback):
        from kernelkit.targets.visa.target import VisaTarget

        return VisaTarget(self, context, callback, device=device or self.device_info.device_name)


def get_compilers() -> list[Info]:
    return [VisaInfo()]
