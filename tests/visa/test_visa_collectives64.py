"""OpenCL 2.0 work-group collectives on 64-bit values (long, ulong; double where the platform has
fp64; and 32-bit scans with min/max) in the vISA target, run on the vISA simulator against numpy over several work-groups;
GenX_IR finalizes them."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from tests.visa.finalizer import finalize_binary

LONGS = """
kernel void longs(global const long *x, global const ulong *u, global long *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  long v = x[i];
  out[i] = work_group_reduce_add(v);
  out[n + i] = work_group_scan_inclusive_max(v);
  out[2 * n + i] = work_group_scan_exclusive_add(v);
  out[3 * n + i] = (long)work_group_reduce_min(u[i]);
  out[4 * n + i] = (long)work_group_broadcast(u[i], 5);
  out[5 * n + i] = work_group_scan_exclusive_min((int)(v >> 40));   /* 32-bit: min/max take no predicate */
}
"""
DOUBLES = """
kernel void doubles(global const double *x, global double *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = work_group_reduce_max(x[i]);
  out[n + i] = work_group_scan_inclusive_add(x[i]);
  out[2 * n + i] = work_group_broadcast(x[i], 3);
}
"""
GROUP, GROUPS = 48, 3


def _groups(a: np.ndarray) -> np.ndarray:
    return a.reshape(GROUPS, GROUP)


@pytest.mark.parametrize("platform", ["tgllp", "dg2", "skl"])
def test_long_and_ulong_collectives(platform):
    rng = np.random.default_rng(7)
    n = GROUP * GROUPS
    x = rng.integers(-(2**61), 2**61, n, dtype=np.int64)
    u = rng.integers(2**40, 2**64 - 1, n, dtype=np.uint64)
    out = np.zeros(6 * n, np.int64)
    kernelkit.Program(LONGS, ["-cl-std=CL2.0"]).build(f"visa:{platform}").longs(x, u, out, global_size=n,
                                                                                local_size=GROUP)
    g = _groups(x)
    got = out.reshape(6, GROUPS, GROUP)
    np.testing.assert_array_equal(got[0], np.repeat(g.sum(1, keepdims=True), GROUP, 1))
    np.testing.assert_array_equal(got[1], np.maximum.accumulate(g, 1))
    np.testing.assert_array_equal(got[2], np.cumsum(g, 1) - g)
    np.testing.assert_array_equal(got[3].view(np.uint64), np.repeat(_groups(u).min(1, keepdims=True), GROUP, 1))
    np.testing.assert_array_equal(got[4].view(np.uint64), np.repeat(_groups(u)[:, 5:6], GROUP, 1))
    small = (g >> 40).astype(np.int32)
    before = np.concatenate([np.full((GROUPS, 1), 2**31 - 1), np.minimum.accumulate(small, 1)[:, :-1]], 1)
    np.testing.assert_array_equal(got[5], before)


def test_double_collectives_on_skl():
    rng = np.random.default_rng(8)
    n = GROUP * GROUPS
    x = rng.uniform(-1e6, 1e6, n)
    out = np.zeros(3 * n)
    kernelkit.Program(DOUBLES, ["-cl-std=CL2.0"]).build("visa:skl").doubles(x, out, global_size=n, local_size=GROUP)
    g = _groups(x)
    got = out.reshape(3, GROUPS, GROUP)
    np.testing.assert_array_equal(got[0], np.repeat(g.max(1, keepdims=True), GROUP, 1))
    np.testing.assert_allclose(got[1], np.cumsum(g, 1), rtol=1e-12)      # summed in work-item order
    np.testing.assert_array_equal(got[2], np.repeat(g[:, 3:4], GROUP, 1))


@pytest.mark.parametrize("platform", ["SKL", "ICLLP", "TGLLP", "DG2"])
def test_genx_ir_finalizes_64_bit_collectives(platform):
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    source = LONGS + (DOUBLES if platform == "SKL" else "")
    finalize_binary(compile_visa(source, platform.lower(), ["-cl-std=CL2.0"]).isa(), platform)
