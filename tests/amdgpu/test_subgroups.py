"""Sub-group collectives (reduce, scans, broadcast, shuffles, any/all) compile for amdhsa: a
sub-group is a wavefront, values cross lanes with ds_bpermute (LLVM's disassembly shows them);
GFX6/GFX7, which have no ds_bpermute, refuse them with a clear error."""

from __future__ import annotations

import numpy as np
import pytest

from kernelkit.errors import CompileError
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.formats.amdgpu.disasm import code_object_functions, disassemble, find_library
from kernelkit.mux.registry import build_binary

SOURCE = """
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void collectives(global int *o, global float *f, global ulong *u, global double *d) {
  size_t i = get_global_id(0);
  o[i] = sub_group_reduce_add((int)i) + sub_group_scan_inclusive_max((int)i) + sub_group_broadcast((int)i, 0)
       + sub_group_scan_exclusive_min((int)i) + sub_group_any(i > 3) + sub_group_all(i < 9);
  f[i] = sub_group_reduce_min(f[i]) + sub_group_scan_exclusive_add(f[i]) + sub_group_reduce_max(f[i]);
  u[i] = sub_group_reduce_max(u[i]) + sub_group_scan_inclusive_add(u[i]) + sub_group_reduce_min(u[i]);
  d[i] = sub_group_reduce_add(d[i]) + sub_group_broadcast(d[i], 1);
}
kernel void shuffles(global int *o) {
  size_t i = get_global_id(0);
  o[i] = sub_group_shuffle((int)i, 3) + sub_group_shuffle_xor((int)i, 1);
}
"""
OPTIONS = ["-cl-std=CL3.0", "-cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_shuffle,+cl_khr_fp64"]


@pytest.mark.parametrize("target", ["gfx90a", "gfx1030"])
def test_sub_group_collectives_compile(target):
    co = CodeObject.parse(build_binary(SOURCE, target, OPTIONS))
    names = {k.name for k in co.metadata.kernels}
    assert names == {"collectives", "shuffles"}
    wave = co.metadata.kernel("collectives").wavefront_size
    assert wave == (32 if target == "gfx1030" else 64)
    find_library()
    for name, address, code in code_object_functions(co.elf):
        if name in names:
            assert any(i.text.startswith("ds_bpermute_b32") for i in disassemble(code, target, base=address))


def test_gfx7_refuses_sub_group_collectives():
    with pytest.raises(CompileError, match="no AMDGPU definition for .*__mux_sub_group_reduce_add_i32"):
        build_binary(SOURCE, "gfx704", OPTIONS)


RELATIVE = """
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle_relative : enable
kernel void relative(global const int *in, global int *up, global int *down, global float *fup, global uint *lane,
                     global uint *size, uint delta) {
  size_t i = get_global_id(0);
  up[i] = sub_group_shuffle_up(in[i], delta);
  down[i] = sub_group_shuffle_down(in[i], delta);
  fup[i] = sub_group_shuffle_up((float)in[i] * 0.5f, delta);
  lane[i] = get_sub_group_local_id();
  size[i] = get_sub_group_size();
}
"""
RELATIVE_OPTIONS = ["-cl-std=CL3.0", "-cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_shuffle_relative"]


@pytest.mark.parametrize("target", ["gfx90a", "gfx1030"])
def test_sub_group_shuffle_up_down_are_lane_permutes(target):
    """sub_group_shuffle_up/down (cl_khr_subgroup_shuffle_relative) are defined for amdhsa and move
    values between lanes with ds_bpermute (llvm's disassembly of the kernel)."""
    co = CodeObject.parse(build_binary(RELATIVE, target, RELATIVE_OPTIONS))
    find_library()
    [(name, address, code)] = [f for f in code_object_functions(co.elf) if f[0] == "relative"]
    assert sum(i.text.startswith("ds_bpermute_b32") for i in disassemble(code, target, base=address)) >= 2


def test_sub_group_shuffle_up_down_on_the_host_equal_numpy():
    """The same source run on the host: every lane whose source lane lies in its sub-group reads
    the value numpy's shifted array holds, for deltas 0, 1 and the largest the host's sub-groups
    allow (whatever their size)."""
    from kernelkit.runtime.program import Program

    n = 128
    data = (np.arange(n, dtype=np.int32) * 7 - 50).astype(np.int32)
    kernel = Program(RELATIVE, RELATIVE_OPTIONS).build("host").kernel("relative")
    i = np.arange(n)
    deltas = [0]
    while deltas:
        delta = deltas.pop()
        up, down, lane, size = (np.zeros(n, t) for t in (np.int32, np.int32, np.uint32, np.uint32))
        fup = np.zeros(n, np.float32)
        kernel(data, up, down, fup, lane, size, np.uint32(delta), global_size=(n,), local_size=(64,))
        if delta == 0:
            deltas = sorted({d for d in (1, int(size.max()) - 1) if 0 < d < size.max()})
        has_up, has_down = lane >= delta, lane + delta < size
        assert has_up.any() and has_down.any()
        np.testing.assert_array_equal(up[has_up], data[i[has_up] - delta])
        np.testing.assert_array_equal(fup[has_up], data[i[has_up] - delta].astype(np.float32) * 0.5)
        np.testing.assert_array_equal(down[has_down], data[i[has_down] + delta])
