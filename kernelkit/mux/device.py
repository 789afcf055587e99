"""The part of ``mux_device_info_t`` the compiler side reads (spec 003 ``Info::device_info``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class AddressCapabilities(enum.IntFlag):
    """mux_address_capabilities_e: pointer widths a device supports."""

    BITS32 = 0x1
    BITS64 = 0x2


class FloatingPointCapabilities(enum.IntFlag):
    """mux_floating_point_capabilities_e (0 means the type is unsupported)."""

    DENORM = 0x1
    INF_NAN = 0x2
    RTE = 0x4
    RTZ = 0x8
    RTP = 0x10
    RTN = 0x20
    FMA = 0x40
    SOFT = 0x80
    FULL = 0x100


class BuiltinCapabilities(enum.IntFlag):
    """builtins::file::capabilities_bitfield (``Info::getBuiltinCapabilities``)."""

    DEFAULT = 0x0  # 64-bit, no fp64, no fp16
    BITS32 = 0x1
    FP64 = 0x2
    FP16 = 0x4


FULL_FLOAT = (FloatingPointCapabilities.DENORM | FloatingPointCapabilities.INF_NAN
              | FloatingPointCapabilities.RTE | FloatingPointCapabilities.RTZ
              | FloatingPointCapabilities.RTP | FloatingPointCapabilities.RTN
              | FloatingPointCapabilities.FMA | FloatingPointCapabilities.FULL)


@dataclass
class DeviceInfo:
    """What a compiler needs to know of its device (a subset of mux_device_info_t)."""

    device_name: str
    device_type: str = "cpu"  # cpu | gpu | accelerator | custom
    address_capabilities: AddressCapabilities = AddressCapabilities.BITS64
    half_capabilities: FloatingPointCapabilities = FloatingPointCapabilities(0)
    float_capabilities: FloatingPointCapabilities = FULL_FLOAT
    double_capabilities: FloatingPointCapabilities = FULL_FLOAT
    max_work_group_size: tuple[int, int, int] = (1024, 1024, 1024)
    max_concurrent_work_items: int = 1024
    max_work_width: int = 1
    max_sub_group_count: int = 0  # 0: the device has no sub-groups
    sub_group_sizes: tuple[int, ...] = ()
    supports_work_group_collectives: bool = True
    supports_generic_address_space: bool = True
    image_support: bool = False
    custom_buffer_capabilities: int = 0
    local_memory_size: int = 32768
    endianness: str = "little"
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def pointer_size(self) -> int:
        return 8 if self.address_capabilities & AddressCapabilities.BITS64 else 4

    @property
    def supports_sub_groups(self) -> bool:
        return self.max_sub_group_count > 0

    def builtin_capabilities(self) -> BuiltinCapabilities:
        caps = BuiltinCapabilities.DEFAULT
        if self.address_capabilities & AddressCapabilities.BITS32 and not (
                self.address_capabilities & AddressCapabilities.BITS64):
            caps |= BuiltinCapabilities.BITS32
        if self.double_capabilities:
            caps |= BuiltinCapabilities.FP64
        if self.half_capabilities:
            caps |= BuiltinCapabilities.FP16
        return caps
