"""The example kernels `kernelkit demo` runs on the host device, and their numpy references.

Each example's arguments are written as ``kernelkit run --arg`` texts, so the demo prints a
``kernelkit run`` command that reproduces its run exactly (same seed, same buffers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Example:
    kernel: str
    global_size: tuple[int, ...]
    local_size: tuple[int, ...] | None
    args: tuple[str, ...]                      # `kernelkit run --arg` texts, in the kernel's order
    output: str                                # the buffer compared with numpy
    numpy: Callable[[dict], np.ndarray]        # the expected output from the inputs, by argument name


def _stencil(v: dict) -> np.ndarray:
    src = v["src"]
    out = src.copy()
    out[1:-1, 1:-1] = 0.5 * src[1:-1, 1:-1] + 0.125 * (src[1:-1, :-2] + src[1:-1, 2:] + src[:-2, 1:-1]
                                                      + src[2:, 1:-1])
    return out


_N = 1 << 20
_GROUP = 256
_W, _H = 1024, 768

EXAMPLES: dict[str, Example] = {
    "saxpy": Example("saxpy", (_N,), None, ("a:2.5", f"x:[{_N}]=random", f"y:[{_N}]=random"), "y",
                     lambda v: v["a"] * v["x"] + v["y"]),
    "reduce": Example("reduce_sum", (_N,), (_GROUP,),
                      (f"in:[{_N}]=random", f"partial:[{_N // _GROUP}]=zeros", f"scratch:local:float[{_GROUP}]"),
                      "partial", lambda v: v["in"].reshape(-1, _GROUP).sum(axis=1)),
    "stencil": Example("stencil5", (_W, _H), None,
                       (f"src:[{_H},{_W}]=random", f"dst:[{_H},{_W}]=zeros", f"width:{_W}", f"height:{_H}"),
                       "dst", _stencil),
}
