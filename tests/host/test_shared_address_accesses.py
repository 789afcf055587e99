"""Accesses in a divergent region whose lanes share one address (kernelkit.ir.transforms.packet_memory):
one scalar access when any lane is active, not a gather/scatter of that address. Oracle: numpy."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit

SOURCE = r"""
kernel void shared(global const int *in, global int *picked, global int *marked, global int *last)
{
    size_t lid = get_local_id(0), g = get_group_id(0);
    int v = in[get_global_id(0)];
    if (lid == 5) {
        int base = in[0];                     // one address, loaded under the mask
        picked[g] = v * 7 + base;             // a varying value to one address: the one active lane's
    }
    if (lid % 4 == 1)
        marked[g] = 11 + (int)g;              // a uniform value to one address, from several lanes
    if (lid >= 2 && lid < 9)
        last[g] = v;                          // several lanes: the last one's, as work-items run in order
}
"""
OPTIONS = ["-cl-wfv=always"]
LOCAL = 16


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(SOURCE, OPTIONS).build("host")


def test_shared_addresses_in_divergent_regions(program):
    kernel = program.kernel("shared")
    assert kernel.info.vector_width > 1 and LOCAL % kernel.info.vector_width == 0
    groups = 4
    data = np.random.default_rng(5).integers(-500, 500, groups * LOCAL, dtype=np.int32)
    picked, marked, last = (np.full(groups, -1, np.int32) for _ in range(3))
    kernel(data, picked, marked, last, global_size=groups * LOCAL, local_size=LOCAL, specialise=False)
    rows = data.reshape(groups, LOCAL)
    np.testing.assert_array_equal(picked, rows[:, 5] * 7 + data[0])
    np.testing.assert_array_equal(marked, 11 + np.arange(groups))
    np.testing.assert_array_equal(last, rows[:, 8])


def test_no_gather_or_scatter_of_one_address(program):
    from kernelkit.targets.host.codegen import _LAST_IR, compile_host

    code = compile_host(program._binary.mux_ir, options=OPTIONS, keep_ir=True)
    assert code.vectorised.get("shared", 1) > 1
    assert "masked.gather" not in _LAST_IR["text"] and "masked.scatter" not in _LAST_IR["text"]
