"""AMD IL runtime ABI, constant buffer 0 (spec 000, "Runtime ABI" table "Reserved Locations"),
the private/local offset formulas and hardware local memory offsets.

``fill_cb0(dispatch)`` gives the bytes the runtime writes for ``clEnqueueNDRangeKernel``;
``fill_cb0(dispatch, task=True)`` those for ``clEnqueueTask``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from kernelkit.errors import LaunchError

# spec 000 "Runtime ABI", Reserved Locations: (byte offset, CB location, clEnqueueNDRangeKernel
# value, clEnqueueTask value). Values name a Dispatch field, an integer, or a float constant
# ("f:<value>"); a task value of None means the spec gives none (the NDRange meaning applies).
CB0_TABLE: tuple[tuple[int, str, str | int, str | int | None], ...] = (
    (0, "cb0[0].x", "global_work_size[0]", 1),
    (4, "cb0[0].y", "global_work_size[1]", 1),
    (8, "cb0[0].z", "global_work_size[2]", 1),
    (12, "cb0[0].w", "work_dim", 0),
    (16, "cb0[1].x", "local_work_size[0]", 1),
    (20, "cb0[1].y", "local_work_size[1]", 1),
    (24, "cb0[1].z", "local_work_size[2]", 1),
    (28, "cb0[1].w", 0, None),
    (32, "cb0[2].x", "num_groups[0]", 1),
    (36, "cb0[2].y", "num_groups[1]", 1),
    (40, "cb0[2].z", "num_groups[2]", 1),
    (44, "cb0[2].w", 0, None),
    (48, "cb0[3].x", "private_ring_offset", None),
    (52, "cb0[3].y", "private_per_thread", None),
    (56, "cb0[3].z", 0, None),
    (60, "cb0[3].w", 0, None),
    (64, "cb0[4].x", "local_ring_offset", None),
    (68, "cb0[4].y", "local_per_group", None),
    (72, "cb0[4].z", 0, None),
    (76, "cb0[4].w", "math_table_pointer", None),
    (80, "cb0[5].x", "f:0.0", None),
    (84, "cb0[5].y", "f:0.5", None),
    (88, "cb0[5].z", "f:1.0", None),
    (92, "cb0[5].w", "f:2.0", None),
    (96, "cb0[6].x", "global_offset[0]", None),
    (100, "cb0[6].y", "global_offset[1]", None),
    (104, "cb0[6].z", "global_offset[2]", None),
    (108, "cb0[6].w", "global_flat_offset", None),
    (112, "cb0[7].x", "group_offset[0]", None),
    (116, "cb0[7].y", "group_offset[1]", None),
    (120, "cb0[7].z", "group_offset[2]", None),
    (124, "cb0[7].w", "group_flat_offset", None),
    (128, "cb0[8].x", "data_segment_offset", None),
    (132, "cb0[8].y", "printf_offset", None),
    (136, "cb0[8].z", "printf_size", None),
)
# real programs declare ``dcl_cb cb0[9]``: 9 vec4 slots
CB0_SLOTS = 9
CB0_SIZE = CB0_SLOTS * 16


@dataclass
class Dispatch:
    """What the runtime knows when it launches a kernel."""
    global_work_size: tuple[int, int, int] = (1, 1, 1)
    local_work_size: tuple[int, int, int] = (1, 1, 1)
    work_dim: int = 1
    global_offset: tuple[int, int, int] = (0, 0, 0)
    group_offset: tuple[int, int, int] = (0, 0, 0)
    private_ring_offset: int = 0      # 0 if private memory is not emulated
    private_per_thread: int = 0
    local_ring_offset: int = 0        # 0 if local memory is not emulated
    local_per_group: int = 0
    math_table_pointer: int = 0
    data_segment_offset: int = 0
    printf_offset: int = 0
    printf_size: int = 0

    @classmethod
    def ndrange(cls, global_size, local_size=None, offset=None, **kw) -> Dispatch:
        """From clEnqueueNDRangeKernel's arguments (1 to 3 dimensions)."""
        dims = len(global_size)
        if not 1 <= dims <= 3:
            raise LaunchError(f"work_dim must be 1, 2 or 3, not {dims}")
        pad = (1,) * (3 - dims)
        local = tuple(local_size) if local_size is not None else (1,) * dims
        if len(local) != dims:
            raise LaunchError("local_work_size has a different dimensionality than global")
        for g, sz in zip(global_size, local, strict=True):
            if sz <= 0 or g % sz:
                raise LaunchError(f"global size {g} is not a multiple of local size {sz}")
        off = tuple(offset) + (0,) * (3 - dims) if offset is not None else (0, 0, 0)
        return cls(tuple(global_size) + pad, local + pad, dims, off, **kw)  # type: ignore[arg-type]

    @property
    def num_groups(self) -> tuple[int, int, int]:
        return tuple(g // sz for g, sz in zip(self.global_work_size, self.local_work_size,
                                               strict=True))  # type: ignore[return-value]

    @property
    def global_flat_offset(self) -> int:
        """spec: "Global single dimension flat offset, x * y * z"."""
        x, y, z = self.global_offset
        return x * y * z

    @property
    def group_flat_offset(self) -> int:
        x, y, z = self.group_offset
        return x * y * z

    def value(self, name: str) -> int:
        if name.endswith("]"):
            base, index = name[:-1].split("[")
            return int(getattr(self, base)[int(index)])
        return int(getattr(self, name))


def cb0_values(dispatch: Dispatch, task: bool = False) -> list[tuple[int, str, int | float]]:
    """(offset, location, value) for every reserved location, per the spec's table."""
    out = []
    for offset, loc, ndrange, task_value in CB0_TABLE:
        source = task_value if (task and task_value is not None) else ndrange
        if isinstance(source, int):
            value: int | float = source
        elif source.startswith("f:"):
            value = float(source[2:])
        else:
            value = dispatch.value(source)
        out.append((offset, loc, value))
    return out


def fill_cb0(dispatch: Dispatch, task: bool = False) -> bytes:
    """The 144 bytes of cb0 for a launch (little-endian, floats as IEEE-754 binary32)."""
    data = bytearray(CB0_SIZE)
    for offset, _loc, value in cb0_values(dispatch, task):
        if isinstance(value, float):
            struct.pack_into("<f", data, offset, value)
        else:
            struct.pack_into("<I", data, offset, value & 0xFFFFFFFF)
    return bytes(data)


def cb0_word(cb0: bytes, location: str) -> int:
    """Read ``cb0[N].c`` as an unsigned 32-bit integer."""
    index, comp = location[4:].split("].")
    return struct.unpack_from("<I", cb0, int(index) * 16 + "xyzw".index(comp) * 4)[0]


def private_offset(cb0: bytes, abs_tid: int, ptr_offset: int) -> int:
    """spec: Private offset = (vAbsTid & cb0[3].z) * cb0[3].y + cb0[3].x + ptr_offset."""
    return ((abs_tid & cb0_word(cb0, "cb0[3].z")) * cb0_word(cb0, "cb0[3].y")
            + cb0_word(cb0, "cb0[3].x") + ptr_offset)


def local_offset(cb0: bytes, group_id_flat: int, ptr_offset: int) -> int:
    """spec: Local offset = (vThreadGrpIdFlat & cb0[4].z) * cb0[4].y + cb0[4].x + ptr_offset."""
    return ((group_id_flat & cb0_word(cb0, "cb0[4].z")) * cb0_word(cb0, "cb0[4].y")
            + cb0_word(cb0, "cb0[4].x") + ptr_offset)


# LDS allocation granule used for local-pointer arguments (AMD's compiler rounds hardware local
# sizes up to dwords: (size + 3) & ~3)
LOCAL_ALIGN = 4


def hardware_local_offsets(static_local: int, arg_sizes: list[int]) -> list[int]:
    """spec "Hardware Local Memory Usage": local-pointer arguments are placed after all the local
    memory the compiler reported (``;memory:hwlocal`` sum), one after another."""
    offset = (static_local + LOCAL_ALIGN - 1) & ~(LOCAL_ALIGN - 1)
    out = []
    for size in arg_sizes:
        out.append(offset)
        offset = (offset + size + LOCAL_ALIGN - 1) & ~(LOCAL_ALIGN - 1)
    return out


def hardware_local_end(static_local: int, arg_sizes: list[int]) -> int:
    """Local memory one group needs: the kernel's own plus every ``__local`` argument placed
    by ``hardware_local_offsets``."""
    offsets = hardware_local_offsets(static_local, arg_sizes)
    if not offsets:
        return static_local
    return offsets[-1] + arg_sizes[-1]
