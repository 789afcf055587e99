"""Atomics on __local memory (plain read-modify-write on the host, passes/local_atomics): many
work-items of a group updating the same words, every integer operation, against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit

SRC = """
kernel void local_ops(global const int *in, global int *out, local int *w) {
  int lid = get_local_id(0), n = get_local_size(0);
  if (lid < 8) w[lid] = lid == 3 ? -1 : (lid == 4 || lid == 5 ? in[get_group_id(0) * n] : 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[get_global_id(0)];
  atomic_inc(&w[0]);
  atomic_add(&w[1], v);
  atomic_sub(&w[2], v);
  atomic_and(&w[3], v | 0x10);
  atomic_max(&w[4], v);
  atomic_min(&w[5], v);
  atomic_xor(&w[6], v);
  atomic_or(&w[7], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 8) out[get_group_id(0) * 8 + lid] = w[lid];
}
"""


@pytest.mark.parametrize("local", [16, 64])
def test_local_atomics_match_numpy(local):
    groups = 5
    rng = np.random.default_rng(3)
    data = rng.integers(-1000, 1000, groups * local).astype(np.int32)
    out = np.zeros(groups * 8, np.int32)
    k = kernelkit.Program(SRC, ["-cl-std=CL1.2"]).build().kernel("local_ops")
    k(data, out, kernelkit.LocalMemory(32), global_size=groups * local, local_size=local)
    for g in range(groups):
        v = data[g * local:(g + 1) * local]
        want = [local, v.sum(), -v.sum(), np.bitwise_and.reduce(v | 0x10), v.max(), v.min(),
                np.bitwise_xor.reduce(v), np.bitwise_or.reduce(v)]
        np.testing.assert_array_equal(out[g * 8:(g + 1) * 8], np.array(want, np.int64).astype(np.int32))
