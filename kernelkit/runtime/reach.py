"""Before a launch runs: prove that every work-item stays inside the buffers it was given, from the
kernel's reach (:mod:`kernelkit.ir.analysis.reach`, recorded in the binary's KernelInfo), or say
which argument is too small and by how much.

A reach is a multilinear polynomial in the work-item ids and launch-time values; its extremes over
the NDRange are at the corners of the id box, so the corners are evaluated. Expressions in local
and group ids are evaluated over (group, local id) — exact for uniform work-groups, so they are
skipped when the last group of a dimension is smaller (OpenCL 2.0 non-uniform work-groups).
Target-independent: it needs the KernelSignature, the values passed and the NDRange.
"""

from __future__ import annotations

import itertools

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.ir.analysis.reach import Reach
from kernelkit.runtime.args import LocalMemory, RawBuffer
from kernelkit.runtime.ndrange import NDRange

_BOX = ("gid", "lid", "grp")


def _scalar(value, bits: int, signed: bool) -> int | None:
    try:
        v = int(np.asarray(value).reshape(-1)[0])
    except (TypeError, ValueError, IndexError):
        return None
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def _constants(signature, values, nd: NDRange) -> dict[str, int]:
    env: dict[str, int] = {}
    for d in range(3):
        env[f"gsz{d}"] = nd.global_size[d]
        env[f"lsz{d}"] = nd.local_size[d]
        env[f"ngrp{d}"] = nd.num_groups[d]
        env[f"goff{d}"] = nd.global_offset[d]
    for arg, value in zip(signature.args, values, strict=True):
        if arg.kind == "scalar" and (arg.element or "") not in ("float", "double", "half"):
            for prefix, signed in (("arg", True), ("uarg", False)):
                v = _scalar(value, 8 * max(1, arg.size), signed)
                if v is not None:
                    env[f"{prefix}{arg.index}"] = v
    return env


def _substitute_global_ids(terms, nd: NDRange):
    """gid<d> = grp<d> * lsz<d> + lid<d> + goff<d> in every monomial."""
    out: dict[tuple[str, ...], int] = {}
    for coef, mono in terms:
        expansions = [((), coef)]
        for sym in mono:
            if sym.startswith("gid"):
                d = sym[3:]
                parts = [((f"grp{d}",), nd.local_size[int(d)]), ((f"lid{d}",), 1), ((), nd.global_offset[int(d)])]
            else:
                parts = [((sym,), 1)]
            expansions = [(m + pm, c * pc) for m, c in expansions for pm, pc in parts if pc]
        for m, c in expansions:
            key = tuple(sorted(m))
            out[key] = out.get(key, 0) + c
    return [(c, m) for m, c in out.items() if c]


def _extremes(terms, env: dict[str, int], nd: NDRange):
    """(min, argmin, max, argmax) of the polynomial over the id box; None if it cannot be bounded."""
    symbols = sorted({s for _, m in terms for s in m if s.startswith(_BOX)})
    if any(s not in env and not s.startswith(_BOX) for _, m in terms for s in m):
        return None
    if any(s.startswith(("lid", "grp")) for s in symbols):
        if any(g % lsz for g, lsz in zip(nd.global_size, nd.local_size, strict=True)):
            return None
        terms = _substitute_global_ids(terms, nd)
        symbols = sorted({s for _, m in terms for s in m if s.startswith(_BOX)})
        if any(len(set(m)) != len(m) for _, m in terms):
            return None

    def bounds(sym: str) -> tuple[int, int]:
        d = int(sym[3:])
        if sym.startswith("gid"):
            return nd.global_offset[d], nd.global_offset[d] + nd.global_size[d] - 1
        if sym.startswith("lid"):
            return 0, nd.local_size[d] - 1
        return 0, nd.num_groups[d] - 1

    best = None
    for corner in itertools.product(*[bounds(s) for s in symbols]):
        point = dict(zip(symbols, corner, strict=True))
        value = 0
        for coef, mono in terms:
            term = coef
            for s in mono:
                term *= point[s] if s in point else env[s]
            value += term
        if best is None:
            best = [value, point, value, point]
        if value < best[0]:
            best[0], best[1] = value, point
        if value > best[2]:
            best[2], best[3] = value, point
    return best


def _work_item(point: dict[str, int], nd: NDRange) -> tuple[int, int, int]:
    gid = []
    for d in range(3):
        if f"gid{d}" in point:
            gid.append(point[f"gid{d}"])
        else:
            gid.append(point.get(f"grp{d}", 0) * nd.local_size[d] + point.get(f"lid{d}", 0) + nd.global_offset[d])
    return tuple(gid)


def _buffer_bytes(value) -> int | None:
    if isinstance(value, RawBuffer):
        value = value.array
    if isinstance(value, LocalMemory):
        return value.nbytes
    if isinstance(value, np.ndarray):
        return value.nbytes
    return None


def check_reach(kernel: str, signature, reaches: list[Reach], values, nd: NDRange, memo: dict | None = None) -> None:
    """Raise a LaunchError if a work-item of this launch provably reads or writes outside an argument.
    ``memo`` (one per kernel) remembers the launches found in bounds: the NDRange, scalar arguments
    and buffer sizes they had (all the proof depends on)."""
    if not reaches:
        return
    env = _constants(signature, values, nd)
    sizes = [_buffer_bytes(values[r.arg]) if r.arg < len(signature.args) else None for r in reaches]
    key = (nd, tuple(sizes), tuple(env.items()))
    if memo is not None and key in memo:
        return
    for r, nbytes in zip(reaches, sizes, strict=True):
        if r.arg >= len(signature.args):
            continue
        arg = signature.args[r.arg]
        if nbytes is None:
            continue
        found = _extremes(r.offset, env, nd)
        if found is None:
            continue
        low, low_at, high, high_at = found
        what = "writes" if r.store else "reads"
        where = f"argument {arg.index} '{arg.name}' ({arg.type_name}, {nbytes} bytes)"
        if high + r.size > nbytes:
            raise LaunchError(
                f"{kernel}: {where} is too small for this launch: work-item {_work_item(high_at, nd)} {what} "
                f"bytes {high}..{high + r.size - 1}; the launch needs {high + r.size} bytes "
                f"({high + r.size - nbytes} more)" + ("" if arg.address_space == "local" else ", or a smaller NDRange"))
        if low < 0:
            raise LaunchError(f"{kernel}: work-item {_work_item(low_at, nd)} {what} {-low} bytes before {where}")
    if memo is not None:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[key] = True


_MEMO_LIMIT = 256
