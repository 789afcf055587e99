"""Buffer sizes checked before a launch where the kernel's reach is provable (issue 16.2): too small
a buffer or __local size, too large a global size are LaunchErrors saying which argument is too small
and by how much, never a crash. Oracle: the index expressions of the kernels below, evaluated by
hand (numpy) for the launch's largest work-item; guarded accesses are not held against a launch."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""
kernel void rows(global float *y, global const float *x, int n) {
  size_t i = get_global_id(0), j = get_global_id(1);
  y[j * n + i] = x[i + 1];
}
kernel void guarded(global float *y, int n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = 1;                        // the usual rounded-up NDRange: nothing to prove
}
kernel void reverse(global float *out, local float *t) {
  int l = get_local_id(0);
  t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[get_local_size(0) - 1 - l];
}
"""


@functools.cache
def prog() -> kernelkit.Program:
    return kernelkit.Program(SRC, ["-cl-std=CL1.2"]).build()


def test_the_reach_is_the_index_polynomial():
    from kernelkit import ir
    from kernelkit.ir.analysis.reach import kernel_reach

    module = ir.parse(prog()._binary.mux_ir)
    rows = next(f for f in module.functions if f.name == "rows")
    reach = {(r.arg, r.store): dict((m, c) for c, m in r.offset) for r in kernel_reach(rows)}
    assert reach == {(0, True): {("arg2", "gid1"): 4, ("gid0",): 4},      # 4 * (j * n + i)
                     (1, False): {(): 4, ("gid0",): 4}}                    # 4 * (i + 1)
    guarded = next(f for f in module.functions if f.name == "guarded")
    assert kernel_reach(guarded) == []


@pytest.mark.parametrize("ny,nx,n,gsize,message", [
    (64, 9, 8, (8, 8), None),
    (64, 8, 8, (8, 8), r"argument 1 'x' \(float\*, 32 bytes\) is too small for this launch: work-item \(7, 0, 0\) "
                       r"reads bytes 32..35; the launch needs 36 bytes \(4 more\)"),
    (63, 9, 8, (8, 8), r"argument 0 'y' \(float\*, 252 bytes\) .* work-item \(7, 7, 0\) writes bytes 252..255; "
                       r"the launch needs 256 bytes \(4 more\)"),
    (64, 9, 9, (8, 8), r"argument 0 'y' .* needs 284 bytes \(28 more\)"),      # (7 * 9 + 7) * 4 + 4 = 284
    (64, 9, 8, (8, 9), r"argument 0 'y' .* work-item \(7, 8, 0\) writes .* \(32 more\)"),   # too large a global size
])
def test_buffers_too_small_for_the_launch_are_refused_before_it_runs(ny, nx, n, gsize, message):
    y = np.zeros(ny, np.float32)
    x = np.arange(nx, dtype=np.float32)
    k = prog().kernel("rows")
    if message is None:
        k(y, x, np.int32(n), global_size=gsize)
        np.testing.assert_array_equal(y.reshape(8, 8), np.tile(x[1:9], (8, 1)))
    else:
        with pytest.raises(LaunchError, match=message):
            k(y, x, np.int32(n), global_size=gsize)
        assert not y.any()                       # refused before anything ran


def test_guarded_accesses_and_local_sizes():
    y = np.zeros(10, np.float32)
    prog().kernel("guarded")(y, np.int32(10), global_size=64)       # 64 work-items, 10 floats: fine
    np.testing.assert_array_equal(y, 1)
    out = np.zeros(64, np.float32)
    prog().kernel("reverse")(out, kernelkit.LocalMemory(64 * 4), global_size=64, local_size=64)
    np.testing.assert_array_equal(out, np.arange(64)[::-1])
    with pytest.raises(LaunchError, match=r"argument 1 't' .*128 bytes\) is too small.* needs 256 bytes \(128 more\)$"):
        prog().kernel("reverse")(out, kernelkit.LocalMemory(32 * 4), global_size=64, local_size=64)
