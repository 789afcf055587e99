"""Sub-group collectives (reduce, scans, broadcast, shuffles, any/all) compile for amdhsa: a
sub-group is a wavefront, values cross lanes with ds_bpermute (LLVM's disassembly shows them);
GFX6/GFX7, which have no ds_bpermute, refuse them with a clear error."""

from __future__ import annotations

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
