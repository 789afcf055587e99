"""The devices the Python API runs kernels on, described like clGetDeviceInfo would.

``kernelkit.devices()`` lists them; each :class:`Device` says what a launch may ask of it (work-group
limits, sub-group sizes, __local memory) in OpenCL's terms (the CL_DEVICE_* query each field answers
is named beside it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Device:
    name: str                                   # CL_DEVICE_NAME
    target: str                                 # what Program.build(target) takes
    type: str                                   # CL_DEVICE_TYPE: cpu | gpu | accelerator | custom
    compute_units: int                          # CL_DEVICE_MAX_COMPUTE_UNITS (host: threads)
    max_work_group_size: int                    # CL_DEVICE_MAX_WORK_GROUP_SIZE
    max_work_item_sizes: tuple[int, int, int]   # CL_DEVICE_MAX_WORK_ITEM_SIZES
    sub_group_sizes: tuple[int, ...]            # CL_DEVICE_SUB_GROUP_SIZES_INTEL / mux sub_group_sizes
    local_memory: int                           # CL_DEVICE_LOCAL_MEM_SIZE, bytes
    address_bits: int                           # CL_DEVICE_ADDRESS_BITS
    printf_buffer: int                          # CL_DEVICE_PRINTF_BUFFER_SIZE, bytes

    def __str__(self) -> str:
        return (f"{self.name} ({self.type}, target {self.target!r}): {self.compute_units} compute units, "
                f"work-groups up to {self.max_work_group_size}, sub-groups {self.sub_group_sizes}, "
                f"{self.local_memory} bytes of __local memory")


def host_device() -> Device:
    from kernelkit.runtime.launch import PRINTF_BUFFER_BYTES, thread_count
    from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE, MAX_WORK_ITEM_SIZES
    from kernelkit.targets.host.info import host_device_info

    info = host_device_info()
    return Device(name=info.device_name, target="host", type=info.device_type, compute_units=thread_count(),
                  max_work_group_size=MAX_WORK_GROUP_SIZE, max_work_item_sizes=MAX_WORK_ITEM_SIZES,
                  sub_group_sizes=tuple(info.sub_group_sizes), local_memory=info.local_memory_size,
                  address_bits=8 * info.pointer_size, printf_buffer=PRINTF_BUFFER_BYTES)


def devices() -> list[Device]:
    """The devices ``Program.build(target)`` can run kernels on."""
    return [host_device()]
