"""Kernels with volatile loads and stores build and run on the host at every -cl-wfv setting (the work-item
loop is marked parallel for LLVM's vectoriser; volatile accesses stay out of that promise — LLVM 22 asserted
on a volatile load it was told was parallel, and the build failed). Oracle: numpy."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit

SOURCE = """
kernel void copy_volatile(volatile global int *flag, global int *out) {
    out[get_global_id(0)] = flag[get_global_id(0)];
}
kernel void store_volatile(global const int *in, volatile global int *out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * 3;
}
kernel void through_local(volatile global int *in, global int *out, local volatile int *tile) {
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[get_local_size(0) - 1 - l];
}
"""


@pytest.mark.parametrize("wfv", ["never", "auto", "always"])
def test_volatile_kernels_run(wfv):
    program = kernelkit.Program(SOURCE, [f"-cl-wfv={wfv}"]).build("host")
    data = np.random.default_rng(3).integers(-1000, 1000, 1000).astype(np.int32)
    out = np.zeros_like(data)
    program.kernel("copy_volatile")(data, out, global_size=(1000,))
    np.testing.assert_array_equal(out, data)
    program.kernel("store_volatile")(data, out, global_size=(1000,))
    np.testing.assert_array_equal(out, data * 3)
    program.kernel("through_local")(data[:960], out[:960], kernelkit.LocalMemory(4 * 32), global_size=(960,),
                                    local_size=(32,))
    np.testing.assert_array_equal(out[:960], data[:960].reshape(-1, 32)[:, ::-1].reshape(-1))
