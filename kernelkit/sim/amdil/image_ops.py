"""Image reads (``sample``/``load`` through a resource and sampler) and typed UAV stores
(``uav_store``, write images) on the simulator."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.errors import LaunchError
from kernelkit.sim.amdil.decode import Instr
from kernelkit.sim.amdil.memory import SimImage


def bound_image(exe, kind: str, rid: int, ins: Instr) -> tuple[SimImage, np.ndarray]:
    key = (kind, rid)
    if key not in exe.images:
        raise LaunchError(f"no image is bound to {kind} {rid}")
    return exe.images[key], exe._texels[key]


def compile_image_read(exe, ins: Instr) -> Callable[[], None]:
    rid = number(ins.params.get("resource", ins.params.get("id", "")), "resource id")
    if "coordtype" in ins.params:
        normalized = ins.params["coordtype"] == "normalized"
    else:       # the bound sampler's state: CLK_NORMALIZED_COORDS_TRUE is bit 0
        sid = number(ins.params.get("sampler", ""), "sampler id")
        if sid not in exe.samplers:
            raise LaunchError(f"no sampler is bound to sampler {sid}")
        normalized = bool(exe.samplers[sid] & 1)
    comps, write = exe._writer(ins.dst)
    coord = exe._read(ins.srcs[0], (0, 1, 2))
    floats = ins.op == "sample"

    def read():
        img, tex = bound_image(exe, "resource", rid, ins)
        c = np.broadcast_to(coord(), (3, exe.L))
        depth, height, width = tex.shape[:3]
        if floats:
            xyz = c.view(np.float32)
            if normalized:
                xyz = xyz * np.array([[width], [height], [depth]], np.float32)
            idx = np.floor(np.nan_to_num(xyz)).astype(np.int64)
        else:
            idx = c.view(np.int32).astype(np.int64)
        x = np.clip(idx[0], 0, width - 1)     # CLK_ADDRESS_CLAMP_TO_EDGE-like clamping
        y = np.clip(idx[1], 0, height - 1)
        z = np.clip(idx[2], 0, depth - 1) if depth > 1 else np.zeros_like(x)
        texel = tex[z, y, x].T               # (4, L)
        write(texel[list(comps)])
    return read


def compile_typed_uav(exe, ins: Instr) -> Callable[[], None]:
    uid = number(ins.params.get("id", ""), "UAV id")
    if ins.op != "uav_store":
        raise LaunchError("typed UAV loads are not supported")
    coord = exe._read(ins.srcs[0], (0, 1, 2))
    value = exe._read(ins.srcs[1], (0, 1, 2, 3))

    def store():
        img, tex = bound_image(exe, "uav", uid, ins)
        act = exe._act()
        c = exe._lane_values(coord, act).view(np.int32).astype(np.int64)
        v = exe._lane_values(value, act)
        depth, height, width = tex.shape[:3]
        z = c[2] if depth > 1 else np.zeros_like(c[0])
        bad = (c[0] < 0) | (c[0] >= width) | (c[1] < 0) | (c[1] >= height) | \
              (z < 0) | (z >= depth)
        if bad.any():
            lane = int(np.arange(exe.L)[act][int(np.argmax(bad))])
            raise LaunchError(f"{exe.where(lane)}: image write at ({int(c[0][np.argmax(bad)])}"
                              f", {int(c[1][np.argmax(bad)])}) is outside the "
                              f"{width}x{height} image on UAV {uid}")
        tex[z, c[1], c[0]] = v.T
    return store


def number(text: str, what: str) -> int:
    if not text.isdigit():
        raise LaunchError(f"{what} {text!r} is not a number")
    return int(text)
