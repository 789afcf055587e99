"""compiler::BaseKernel (spec 003 "Kernel"): a deferred kernel and its queries.

Every public method checks its arguments exactly as the spec's "Return Value" lists say, then
calls the matching ``_``-prefixed hook, which a target overrides; the base hooks raise
``FEATURE_UNSUPPORTED``. Values a target returns are checked against the spec's guarantees.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kernelkit.mux.result import MuxError, Result, unsupported

if TYPE_CHECKING:
    from kernelkit.mux.module import Module


class DescriptorType(enum.IntEnum):
    """mux_descriptor_info_type_e."""

    BUFFER = 0
    IMAGE = 1
    SAMPLER = 2
    PLAIN_OLD_DATA = 3
    SHARED_LOCAL_BUFFER = 4
    NULL_BUFFER = 5
    CUSTOM_BUFFER = 6


@dataclass
class Descriptor:
    type: DescriptorType
    data: object = None


@dataclass
class NDRangeOptions:
    """mux_ndrange_options_t: what createSpecializedKernel is told about the launch."""

    local_size: tuple[int, int, int] = (1, 1, 1)
    global_offset: Sequence[int] | None = (0, 0, 0)
    global_size: Sequence[int] | None = None
    length: int = 1  # dimensions
    descriptors: list[Descriptor] | None = None
    descriptors_length: int = 0
    extra: dict[str, object] = field(default_factory=dict)


def _check_local_size(x: int, y: int, z: int) -> None:
    for axis, value in zip("xyz", (x, y, z), strict=True):
        if value == 0:
            raise MuxError(Result.INVALID_VALUE, f"local_size_{axis} is 0")


class Kernel:
    def __init__(self, module: Module, name: str, preferred_local_size: tuple[int, int, int] = (1, 1, 1),
                 local_memory_size: int = 0):
        self.module = module
        self.name = name
        self.preferred_local_size_x, self.preferred_local_size_y, self.preferred_local_size_z = \
            preferred_local_size
        self.local_memory_size = local_memory_size

    @property
    def device_info(self):
        return self.module.target.info.device_info

    def _require_sub_groups(self) -> None:
        if not self.device_info.supports_sub_groups:
            raise unsupported(f"sub-groups on {self.device_info.device_name}")

    # -- spec methods ------------------------------------------------------------------------
    def precache_local_size(self, local_size_x: int, local_size_y: int, local_size_z: int) -> None:
        _check_local_size(local_size_x, local_size_y, local_size_z)
        self._precache_local_size(local_size_x, local_size_y, local_size_z)

    def get_dynamic_work_width(self, local_size_x: int, local_size_y: int, local_size_z: int) -> int:
        _check_local_size(local_size_x, local_size_y, local_size_z)
        width = self._get_dynamic_work_width(local_size_x, local_size_y, local_size_z)
        if width <= 0:
            raise MuxError(Result.FAILURE, f"target returned work width {width}; it must be > 0")
        return width

    def create_specialized_kernel(self, options: NDRangeOptions) -> bytes:
        if options.descriptors is not None and options.descriptors_length == 0:
            raise MuxError(Result.INVALID_VALUE, "descriptors given but descriptors_length is 0")
        if options.descriptors is None and options.descriptors_length != 0:
            raise MuxError(Result.INVALID_VALUE, "descriptors_length is not 0 but descriptors is NULL")
        if any(v == 0 for v in options.local_size):
            raise MuxError(Result.INVALID_VALUE, f"local_size {tuple(options.local_size)} has a 0 element")
        if options.global_offset is None:
            raise MuxError(Result.INVALID_VALUE, "global_offset is NULL")
        if options.global_size is None:
            raise MuxError(Result.INVALID_VALUE, "global_size is NULL")
        if options.length == 0 or options.length > 3:
            raise MuxError(Result.INVALID_VALUE, f"length {options.length} is not 1, 2 or 3")
        if options.descriptors and not self.device_info.custom_buffer_capabilities and any(
                d.type == DescriptorType.CUSTOM_BUFFER for d in options.descriptors):
            raise MuxError(Result.INVALID_VALUE, "custom buffer descriptor on a device without custom buffers")
        return self._create_specialized_kernel(options)

    def get_sub_group_size(self) -> int:
        self._require_sub_groups()
        size = self._get_sub_group_size()
        if size <= 0:
            raise MuxError(Result.FAILURE, f"target returned sub-group size {size}; it must be > 0")
        return size

    def query_sub_group_size_for_local_size(self, local_size_x: int, local_size_y: int,
                                            local_size_z: int) -> int:
        _check_local_size(local_size_x, local_size_y, local_size_z)
        self._require_sub_groups()
        size = self._query_sub_group_size_for_local_size(local_size_x, local_size_y, local_size_z)
        if size <= 0:
            raise MuxError(Result.FAILURE, f"target returned sub-group size {size}; it must be > 0")
        return size

    def query_local_size_for_sub_group_count(self, sub_group_count: int) -> tuple[int, int, int]:
        self._require_sub_groups()
        size = tuple(self._query_local_size_for_sub_group_count(sub_group_count))
        one_dimensional = len(size) == 3 and (sum(1 for v in size if v == 1) >= 2 or 0 in size)
        if not one_dimensional or any(v < 0 for v in size):
            raise MuxError(Result.FAILURE, f"target returned local size {size}; it must be 1-dimensional")
        return size  # type: ignore[return-value]

    def query_max_sub_group_count(self) -> int:
        self._require_sub_groups()
        count = self._query_max_sub_group_count()
        if count <= 0:
            raise MuxError(Result.FAILURE, f"target returned sub-group count {count}; it must be > 0")
        return count

    # -- target hooks ------------------------------------------------------------------------
    def _precache_local_size(self, x: int, y: int, z: int) -> None:
        raise unsupported("precacheLocalSize")

    def _get_dynamic_work_width(self, x: int, y: int, z: int) -> int:
        raise unsupported("getDynamicWorkWidth")

    def _create_specialized_kernel(self, options: NDRangeOptions) -> bytes:
        raise unsupported("createSpecializedKernel")

    def _get_sub_group_size(self) -> int:
        raise unsupported("getSubGroupSize")

    def _query_sub_group_size_for_local_size(self, x: int, y: int, z: int) -> int:
        raise unsupported("querySubGroupSizeForLocalSize")

    def _query_local_size_for_sub_group_count(self, count: int) -> Sequence[int]:
        raise unsupported("queryLocalSizeForSubGroupCount")

    def _query_max_sub_group_count(self) -> int:
        raise unsupported("queryMaxSubGroupCount")
