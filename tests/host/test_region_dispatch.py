"""Work-item coroutines with more barriers than the region driver specialises (one region loop per
barrier up to resume_index.MAX_SPECIALISED_REGIONS; beyond, one generic region loop dispatching on
the suspend index), in the W-lane packets (group x a multiple of W) and per work-item (other
sizes, and the smaller last group of a non-uniform range); against numpy."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit
from kernelkit.targets.host.passes.resume_index import MAX_SPECIALISED_REGIONS

STEPS = 9           # two barriers a step

SRC = """
#define STEP(k) barrier(CLK_LOCAL_MEM_FENCE); t = s[(lid + k) % n]; \\
                barrier(CLK_LOCAL_MEM_FENCE); s[lid] = t + k;
kernel void rotate(global const int *in, global int *out, local int *s) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  int t;
  s[lid] = in[get_global_id(0)];
  STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) STEP(8) STEP(9)
  out[get_global_id(0)] = s[lid];
}
"""


@functools.cache
def program():
    return kernelkit.Program(SRC, ["-cl-std=CL2.0"]).build()


def reference(data: np.ndarray, local: int) -> np.ndarray:
    out = data.copy()
    for start in range(0, len(data), local):
        group = data[start:start + local].copy()
        for k in range(1, STEPS + 1):
            group = np.roll(group, -k) + k
        out[start:start + local] = group
    return out


@pytest.mark.parametrize("size,local", [(64, 32), (48, 12), (40, 16)])
def test_rotations_across_barriers(size, local):
    assert 2 * STEPS > MAX_SPECIALISED_REGIONS and SRC.count("STEP(") == STEPS + 1
    data = (np.arange(size, dtype=np.int32) * 7) % 23
    out = np.zeros(size, np.int32)
    program().rotate(data, out, kernelkit.LocalMemory(4 * local), global_size=(size,), local_size=(local,),
                     specialise=False)
    np.testing.assert_array_equal(out, reference(data, local))
