"""NDRange validation (OpenCL-like launch errors) and default work-group sizes."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass

from kernelkit.errors import LaunchError

# the host device's limits (reported like CL_DEVICE_MAX_WORK_GROUP_SIZE / _ITEM_SIZES)
MAX_WORK_GROUP_SIZE = 4096
MAX_WORK_ITEM_SIZES = (4096, 4096, 4096)
MAX_WORK_DIM = 3


@dataclass(frozen=True)
class NDRange:
    work_dim: int
    global_size: tuple[int, int, int]
    local_size: tuple[int, int, int]      # enqueued local size
    global_offset: tuple[int, int, int]

    @functools.cached_property   # (asked for many times per launch)
    def num_groups(self) -> tuple[int, int, int]:
        return tuple(-(-g // max(1, lsz)) for g, lsz in zip(self.global_size, self.local_size, strict=True))

    @functools.cached_property
    def total_groups(self) -> int:
        return math.prod(self.num_groups)

    @property
    def group_items(self) -> int:
        return math.prod(self.local_size)


SIZE_T_MAX = (1 << 64) - 1   # size_t of the host device (64-bit)


def _as_tuple(name: str, value, kernel: str) -> tuple[int, ...]:
    """1-3 integers (Python or numpy integers; not floats, which would be truncated)."""
    try:
        out = (operator.index(value),)
    except TypeError:
        try:
            out = tuple(operator.index(v) for v in value)
        except TypeError:
            raise LaunchError(f"{kernel}: {name} must be an integer or a sequence of 1-3 integers, "
                              f"got {value!r}") from None
    if not 1 <= len(out) <= MAX_WORK_DIM:
        raise LaunchError(f"{kernel}: {name} has {len(out)} dimensions; work_dim must be 1..{MAX_WORK_DIM} "
                          "(CL_INVALID_WORK_DIMENSION)")
    if any(v > SIZE_T_MAX for v in out):
        raise LaunchError(f"{kernel}: {name} {out} does not fit in size_t (at most 2^64-1 per dimension)")
    return out


def _pad(values: Sequence[int], fill: int) -> tuple[int, int, int]:
    v = list(values) + [fill] * (3 - len(values))
    return (v[0], v[1], v[2])


def default_local_size(global_size: Sequence[int], reqd: Sequence[int] | None, has_barriers: bool) -> tuple[int, ...]:
    if reqd:
        return tuple(reqd[: len(global_size)])
    # largest divisor per dimension within the limits, x first (uniform groups, as OpenCL 1.x requires)
    budget = 64 if has_barriers else 1024
    out = []
    for g in global_size:
        best = 1
        for cand in range(min(g, budget), 0, -1):
            if g % cand == 0:
                best = cand
                break
        out.append(best)
        budget = max(1, budget // best)
    return tuple(out)


def make_ndrange(kernel: str, global_size, local_size, global_offset, *, reqd_work_group_size=None,
                 max_work_dim: int | None = None, uniform_required: bool = True,
                 has_barriers: bool = False) -> NDRange:
    gs = _as_tuple("global_size", global_size, kernel)
    dim = len(gs)
    if max_work_dim is not None and dim > max_work_dim:
        raise LaunchError(f"{kernel}: launched with work_dim {dim} but the kernel declares max_work_dim "
                          f"{max_work_dim} (CL_INVALID_WORK_DIMENSION)")
    if any(g <= 0 for g in gs):
        raise LaunchError(f"{kernel}: global_size {gs} has a zero or negative dimension (CL_INVALID_GLOBAL_WORK_SIZE)")
    if math.prod(gs) > SIZE_T_MAX:
        raise LaunchError(f"{kernel}: global_size {gs} has {math.prod(gs)} work-items, more than size_t holds "
                          "(CL_INVALID_GLOBAL_WORK_SIZE)")
    if global_offset is None:
        off = (0,) * dim
    else:
        off = _as_tuple("global_offset", global_offset, kernel)
        if len(off) != dim:
            raise LaunchError(f"{kernel}: global_offset has {len(off)} dimensions, global_size {dim}")
        if any(o < 0 for o in off):
            raise LaunchError(f"{kernel}: global_offset {off} is negative (CL_INVALID_GLOBAL_OFFSET)")
        if any(o + g > SIZE_T_MAX + 1 for o, g in zip(off, gs, strict=True)):
            raise LaunchError(f"{kernel}: global_offset {off} + global_size {gs} exceeds size_t "
                              "(CL_INVALID_GLOBAL_OFFSET)")
    reqd = tuple(reqd_work_group_size) if reqd_work_group_size else None
    if local_size is None:
        ls = default_local_size(gs, reqd, has_barriers)
    else:
        ls = _as_tuple("local_size", local_size, kernel)
        if len(ls) != dim:
            raise LaunchError(f"{kernel}: local_size has {len(ls)} dimensions, global_size {dim} "
                              "(CL_INVALID_WORK_DIMENSION)")
        if any(v <= 0 for v in ls):
            raise LaunchError(f"{kernel}: local_size {ls} has a zero or negative dimension "
                              "(CL_INVALID_WORK_GROUP_SIZE)")
    if reqd and _pad(ls, 1) != _pad(reqd, 1):
        raise LaunchError(f"{kernel}: local_size {ls} does not match the kernel's "
                          f"reqd_work_group_size{tuple(reqd)} (CL_INVALID_WORK_GROUP_SIZE)")
    for d, (v, lim) in enumerate(zip(ls, MAX_WORK_ITEM_SIZES, strict=False)):
        if v > lim:
            raise LaunchError(f"{kernel}: local_size[{d}] = {v} exceeds the device maximum {lim} "
                              "(CL_INVALID_WORK_ITEM_SIZE)")
    if math.prod(ls) > MAX_WORK_GROUP_SIZE:
        raise LaunchError(f"{kernel}: work-group of {math.prod(ls)} work-items exceeds the device maximum "
                          f"{MAX_WORK_GROUP_SIZE} (CL_INVALID_WORK_GROUP_SIZE)")
    if uniform_required:
        for d, (g, v) in enumerate(zip(gs, ls, strict=True)):
            if g % v:
                raise LaunchError(
                    f"{kernel}: global_size[{d}] = {g} is not a multiple of local_size[{d}] = {v}; "
                    "non-uniform work-groups need OpenCL C 2.0 or later (-cl-std=CL2.0) "
                    "and no -cl-uniform-work-group-size (CL_INVALID_WORK_GROUP_SIZE)")
    return NDRange(dim, _pad(gs, 1), _pad(ls, 1), _pad(off, 0))
