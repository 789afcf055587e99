"""Spec 003 "Kernel" (deferred compilation) on the simulated targets, AMD IL and vISA: getKernel,
createSpecializedKernel, precacheLocalSize, getDynamicWorkWidth and the preferred local size.

Oracles: numpy (the specialised binaries run on the simulators), spec 000's declaration of a fixed
group size (``dcl_num_thread_per_group`` and the ``;cws`` record), spec 004's object read back and
Intel's finalizer (GenX_IR) accepting the specialised vISA object.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tool

from kernelkit.formats.amdil import parse_program
from kernelkit.formats.amdil import records as r
from kernelkit.formats.visa import parse_visaasm, read_isa
from kernelkit.mux import Context, MuxError, NDRangeOptions, Result
from kernelkit.mux.registry import find_compiler

# the group's size read in a loop bound: specialisation folds it
SOURCE = """
kernel void rowsum(global const float *a, global float *out) {
  size_t g = get_group_id(0), n = get_local_size(0);
  if (get_local_id(0) == 0) {
    float s = 0;
    for (size_t i = 0; i < n; i++) s += a[g * n + i];
    out[g] = s;
  }
}
kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }
"""


def module_for(compiler: str, device: str):
    target = find_compiler(compiler).create_target(Context(), device)
    target.init_with_builtins(None)
    module = target.create_module()
    module.compile_opencl_c(SOURCE)
    module.finalize()
    return module


@pytest.fixture(scope="module")
def amdil():
    return module_for("amdil", "juniper")


@pytest.fixture(scope="module")
def visa():
    return module_for("visa", "tgllp")


def rows(local: int, groups: int = 4):
    a = np.arange(local * groups, dtype=np.float32)
    return a, a.reshape(groups, local).sum(axis=1)


# -- AMD IL ------------------------------------------------------------------------------------------
def test_kernel_amdil_create_specialized_kernel_declares_the_group_size_and_runs(amdil):
    from kernelkit.sim.amdil import launch

    kernel = amdil.get_kernel("rowsum")
    text = kernel.create_specialized_kernel(NDRangeOptions(local_size=(16, 1, 1), global_size=(64,))).decode()
    program = parse_program(text)
    assert {b.source_name for b in program.metadata} == {"rowsum"}   # "twice" left the program
    assert {(g.tag, g.x, g.y, g.z) for b in program.metadata for g in b.of(r.GroupSize)} == {("cws", 16, 1, 1)}
    assert "dcl_num_thread_per_group 16, 1, 1" in text
    a, want = rows(16)
    out = np.zeros(4, np.float32)
    launch(text, "rowsum", [a, out], [64], [16], [0], device="juniper")
    np.testing.assert_array_equal(out, want)


def test_kernel_amdil_non_uniform_groups_get_the_generic_program(amdil):
    kernel = amdil.get_kernel("twice")
    binary = kernel.create_specialized_kernel(NDRangeOptions(local_size=(16, 1, 1), global_size=(40,)))
    assert binary == amdil.create_binary()
    assert "dcl_num_thread_per_group" not in binary.decode()


def test_kernel_amdil_precache_fills_the_cache_and_sizes_are_checked(amdil):
    kernel = amdil.get_kernel("twice")
    kernel.precache_local_size(8, 1, 1)
    assert (8, 1, 1) in kernel.specialised
    assert kernel.create_specialized_kernel(NDRangeOptions(local_size=(8, 1, 1), global_size=(32,))) \
        == kernel.specialised[(8, 1, 1)]
    with pytest.raises(MuxError) as err:
        kernel.precache_local_size(0, 1, 1)
    assert err.value.result == Result.INVALID_VALUE


def test_kernel_amdil_work_width_is_one_work_item_and_the_preferred_group_a_wavefront(amdil):
    kernel = amdil.get_kernel("rowsum")
    assert kernel.get_dynamic_work_width(64, 1, 1) == 1     # AMD IL code runs one work-item
    # juniper: 64 work-items per wavefront (AMD's Evergreen device class)
    assert (kernel.preferred_local_size_x, kernel.preferred_local_size_y, kernel.preferred_local_size_z) == (64, 1, 1)
    with pytest.raises(MuxError) as err:   # OpenCL 1.2 devices: no sub-groups
        kernel.get_sub_group_size()
    assert err.value.result == Result.FEATURE_UNSUPPORTED


# -- vISA --------------------------------------------------------------------------------------------
def test_kernel_visa_create_specialized_kernel_runs_on_the_simulator(visa):
    from kernelkit.sim.visa import decode, launch

    kernel = visa.get_kernel("rowsum")
    binary = kernel.create_specialized_kernel(NDRangeOptions(local_size=(16, 1, 1), global_size=(64,)))
    assert [k.name for k in read_isa(binary).kernels] == ["rowsum"]
    built = kernel.specialised_program((16, 1, 1)).kernel("rowsum")
    assert built.signature.reqd_work_group_size == (16, 1, 1)
    # the group size is a constant: the payload no longer carries it (the generic kernel's does)
    assert "local_size" not in {i.kind for i in built.payload.inputs}
    assert "local_size" in {i.kind for i in visa.visa_binary().kernel("rowsum").payload.inputs}
    a, want = rows(16)
    out = np.zeros(4, np.float32)
    launch(decode(parse_visaasm(built.text).kernels[0]), built.payload, [a, out], [64], [16], [0],
           signature=built.signature, static_slm=built.static_slm, segments={}, private_bytes=built.private_bytes)
    np.testing.assert_array_equal(out, want)


def test_kernel_visa_specialised_object_is_accepted_by_genx_ir(visa):
    require_tool("GenX_IR")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "visa"))
    from finalizer import finalize_binary

    binary = visa.get_kernel("rowsum").create_specialized_kernel(
        NDRangeOptions(local_size=(16, 1, 1), global_size=(64,)))
    asm, _ = finalize_binary(binary, "TGLLP")
    assert asm


def test_kernel_visa_work_width_and_sub_group_size_are_the_simd_width(visa):
    kernel = visa.get_kernel("twice")
    simd = visa.visa_binary().kernel("twice").payload.simd
    assert kernel.get_dynamic_work_width(64, 1, 1) == simd and kernel.get_dynamic_work_width(1, 1, 1) == 1
    assert kernel.preferred_local_size_x == simd
    assert kernel.create_specialized_kernel(NDRangeOptions(local_size=(16, 1, 1), global_size=(40,))) \
        == visa.create_binary()
