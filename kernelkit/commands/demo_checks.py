"""numpy references for the example kernels `kernelkit demo` runs on the host device.

Each check builds inputs, runs the kernel and returns (description, result, numpy expectation).
"""

from __future__ import annotations

import numpy as np


def saxpy(program, rng):
    n = 1 << 20
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    expected = np.float32(2.5) * x + y
    program.kernel("saxpy")(np.float32(2.5), x, y, global_size=n)
    return f"saxpy over {n} floats", y, expected


def reduce(program, rng):
    import kernelkit

    n, group = 1 << 16, 256
    data = rng.random(n, dtype=np.float32)
    partial = np.zeros(n // group, dtype=np.float32)
    program.kernel("reduce_sum")(data, partial, kernelkit.LocalMemory(group * 4),
                                 global_size=n, local_size=group)
    expected = data.reshape(-1, group).astype(np.float64).sum(axis=1)
    return f"work-group sums of {n} floats in groups of {group}", partial, expected.astype(np.float32)


def stencil(program, rng):
    h, w = 256, 320
    src = rng.random((h, w), dtype=np.float32)
    dst = np.zeros_like(src)
    program.kernel("stencil5")(src, dst, np.int32(w), np.int32(h), global_size=(w, h))
    expected = src.copy()
    expected[1:-1, 1:-1] = 0.5 * src[1:-1, 1:-1] + 0.125 * (
        src[1:-1, :-2] + src[1:-1, 2:] + src[:-2, 1:-1] + src[2:, 1:-1])
    return f"5-point stencil on a {w}x{h} grid", dst, expected


CHECKS = {"saxpy": saxpy, "reduce": reduce, "stencil": stencil}
