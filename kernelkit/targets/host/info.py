"""The ``host`` compiler's Info (spec 003 "Info", ``getCompilers``)."""

from __future__ import annotations

import os

from kernelkit.mux.device import AddressCapabilities, DeviceInfo
from kernelkit.mux.info import Info
from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE, MAX_WORK_ITEM_SIZES

# spec 003 "Compilation Options Syntax": (name, takes a value, help). None: checked mode is chosen
# at launch (`kernelkit run --check`, ``check=True``), not by a compilation option.
HOST_COMPILATION_OPTIONS = ""


def host_device_info() -> DeviceInfo:
    return DeviceInfo(
        device_name="host", device_type="cpu", address_capabilities=AddressCapabilities.BITS64,
        max_work_group_size=MAX_WORK_ITEM_SIZES, max_concurrent_work_items=MAX_WORK_GROUP_SIZE,
        max_work_width=1, max_sub_group_count=MAX_WORK_GROUP_SIZE, sub_group_sizes=(1,),
        supports_work_group_collectives=True, supports_generic_address_space=True, image_support=True,
        local_memory_size=1 << 20, extra={"threads": os.cpu_count() or 1})


class HostInfo(Info):
    """Native CPU execution (``host``)."""

    name = "host"
    description = "native x86-64 code run on the host CPU's threads (JIT through LLVM)"

    def __init__(self) -> None:
        super().__init__(host_device_info(), supports_deferred_compilation=True,
                         compilation_options=HOST_COMPILATION_OPTIONS, vectorizable=True,
                         dma_optimizable=False, scalable_vector_support=False)

    def _create_target(self, context, device, callback):
        from kernelkit.targets.host.target import HostTarget

        return HostTarget(self, context, callback, device)


_INFO: HostInfo | None = None


def get_compilers() -> list[Info]:
    global _INFO
    if _INFO is None:
        _INFO = HostInfo()
    return [_INFO]
