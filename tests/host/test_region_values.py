"""Values live across barriers that region loops receive as parameters (passes/region_values):
work-group-uniform values, values that only look uniform (a divergent choice between uniform
values), loop counters re-stored in every region, and the local ids of 2-D groups; against numpy."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit

SRC = """
kernel void live_values(global int *out, local int *t, int k) {
  int lx = get_local_id(0), ly = get_local_id(1);
  int lid = ly * get_local_size(0) + lx;
  int n = get_local_size(0) * get_local_size(1);
  int u = k * 3 + (int)get_group_id(0);        // uniform in the group
  int d = lx < 3 ? k : k + 1;                  // divergent, from two uniform values
  int s = 0;
  for (int r = 0; r < k; ++r) {                // uniform counter, spilled in every round
    t[lid] = lid + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    s += t[(lid + 1) % n] + u + d;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s + d * 100 + ly * 10000;
}
"""


@functools.cache
def kernel():
    return kernelkit.Program(SRC, ["-cl-std=CL1.2"]).build().kernel("live_values")


def reference(gsize, lsize, k):
    gx, gy = gsize
    lx, ly = lsize
    out = np.zeros((gy, gx), np.int64)
    n = lx * ly
    for y in range(gy):
        for x in range(gx):
            a, b = x % lx, y % ly
            lid = b * lx + a
            u = k * 3 + x // lx
            d = k if a < 3 else k + 1
            s = sum(((lid + 1) % n) + r + u + d for r in range(k))
            out[y, x] = s + d * 100 + b * 10000
    return out


@pytest.mark.parametrize("gsize,lsize", [((32, 1), (8, 1)), ((16, 6), (8, 3)), ((12, 4), (4, 2))])
@pytest.mark.parametrize("k", [0, 1, 3])
def test_values_live_across_barriers(gsize, lsize, k):
    out = np.zeros(gsize[0] * gsize[1], np.int32)
    kernel()(out, kernelkit.LocalMemory(4 * lsize[0] * lsize[1]), np.int32(k),
             global_size=gsize, local_size=lsize)
    np.testing.assert_array_equal(out.reshape(gsize[1], gsize[0]), reference(gsize, lsize, k))
