"""Specialisation by local size (issue #10 item 5, spec 003 "BaseKernel::createSpecializedKernel" and
"BaseKernel::precacheLocalSize"): a launch whose local size is known runs the kernel compiled with
that size as a constant. Oracle: numpy; spec 003's metadata table (``!reqd_work_group_size``)."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit import ir
from kernelkit.mux import Context, MuxError, NDRangeOptions, Result
from kernelkit.mux.passes.local_size import LOCAL_SIZE_BUILTINS, specialise_local_size
from kernelkit.mux.registry import find_compiler
from kernelkit.targets.host.binary import read_host_binary

SOURCE = """
kernel void rowsum(global const float *a, global float *out) {
  size_t g = get_group_id(0), n = get_local_size(0), l = get_local_id(0);
  float s = 0.0f;
  for (size_t i = 0; i < n; i++) s += a[g * n + i];
  out[get_global_id(0)] = s * (float)(l + 1);
}
kernel void tile_sum(global const float *a, global float *out, local float *tile) {
  size_t l = get_local_linear_id(), n = get_local_size(0) * get_local_size(1);
  size_t w = get_global_size(0), gid = get_global_id(1) * w + get_global_id(0);
  tile[l] = a[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (size_t i = 0; i < n; i++) s += tile[i];
  out[gid] = s + (float)get_enqueued_local_size(1);
}
kernel void scale(global const float *a, global float *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 3.0f + (float)get_local_size(0);
}
"""
RNG = np.random.default_rng(5)


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(SOURCE, ["-cl-std=CL2.0"]).build("host")


def _rowsum(a, n):
    sums = a.reshape(-1, n).sum(axis=1, dtype=np.float64).astype(np.float32)
    return (np.repeat(sums, n) * np.tile(np.arange(1, n + 1, dtype=np.float32), len(sums))).astype(np.float32)


def _tile_sum(a, w, h, lx, ly):
    grid = a.reshape(h, w)
    out = np.empty_like(grid)
    for gy in range(0, h, ly):
        for gx in range(0, w, lx):
            out[gy:gy + ly, gx:gx + lx] = grid[gy:gy + ly, gx:gx + lx].sum() + ly
    return out.ravel()


@pytest.mark.parametrize("n", [4, 16, 32])
def test_specialised_rowsum_matches_numpy(program, n):
    a = RNG.random(256, dtype=np.float32)
    out = np.zeros_like(a)
    program.rowsum(a, out, global_size=256, local_size=n, specialise=True)
    np.testing.assert_allclose(out, _rowsum(a, n), rtol=1e-5)
    assert ("rowsum", (n, 1, 1), False) in program._executables


@pytest.mark.parametrize(("lx", "ly"), [(4, 2), (8, 8), (16, 1)])
def test_specialised_2d_barrier_kernel_matches_numpy(program, lx, ly):
    w, h = 32, 16
    a = RNG.random(w * h, dtype=np.float32)
    out = np.zeros_like(a)
    program.tile_sum(a, out, kernelkit.LocalMemory(lx * ly * 4), global_size=(w, h), local_size=(lx, ly),
                     specialise=True)
    np.testing.assert_allclose(out, _tile_sum(a, w, h, lx, ly), rtol=1e-5)


@pytest.mark.parametrize("n", [8, 13])
def test_specialised_vectorised_kernel_matches_numpy(program, n):
    a = RNG.random(n * 8, dtype=np.float32)
    out = np.zeros_like(a)
    program.scale(a, out, global_size=a.size, local_size=n, specialise=True)
    np.testing.assert_allclose(out, a * 3.0 + n, rtol=1e-6)


def test_non_uniform_groups_are_not_specialised(program):
    a = RNG.random(100, dtype=np.float32)
    out = np.zeros_like(a)
    program.scale(a, out, global_size=100, local_size=16, specialise=True)   # last group has 4 items
    sizes = np.minimum(16, 100 - np.arange(100) // 16 * 16)
    np.testing.assert_allclose(out, a * 3.0 + sizes, rtol=1e-6)
    assert ("scale", (16, 1, 1), False) not in program._executables


def test_the_third_launch_with_one_local_size_runs_specialised():
    prog = kernelkit.Program(SOURCE, ["-cl-std=CL2.0"]).build("host")
    a = RNG.random(64, dtype=np.float32)
    for launch in range(1, 4):
        out = np.zeros_like(a)
        prog.scale(a, out, global_size=64, local_size=8)
        np.testing.assert_allclose(out, a * 3.0 + 8, rtol=1e-6)
        assert (("scale", (8, 1, 1), False) in prog._executables) == (launch == 3)


def _module():
    target = find_compiler("host").create_target(Context(), None)
    target.init_with_builtins(None)
    module = target.create_module()
    module.compile_opencl_c(SOURCE, ["-cl-std=CL2.0"])
    module.finalize()
    return module


def test_specialised_ir_folds_local_size_and_carries_reqd_work_group_size():
    module = _module()
    spec, folded = specialise_local_size(module.finalized_llvm_module, "rowsum", (16, 1, 1))
    assert folded >= 1
    assert [f.name for f in spec.functions if not f.is_declaration and f.calling_conv == "spir_kernel"] == ["rowsum"]
    calls = [i for f in spec.functions for i in f.instructions()
             if getattr(i, "called_function", None) is not None and i.called_function.name in LOCAL_SIZE_BUILTINS]
    assert calls == []
    text = str(spec)
    assert "!reqd_work_group_size" in text and "!{i32 16, i32 1, i32 1}" in text
    # the unspecialised module keeps its reads
    assert "__mux_get_local_size" in str(module.finalized_llvm_module)


def test_create_specialized_kernel_gives_a_runnable_binary_cached_per_size():
    module = _module()
    kernel = module.get_kernel("rowsum")
    options = NDRangeOptions(local_size=(8, 1, 1), global_size=(64,))
    first = kernel.create_specialized_kernel(options)
    assert kernel.create_specialized_kernel(options) is first
    assert [k.name for k in read_host_binary(first).kernels] == ["rowsum"]
    kernel.precache_local_size(4, 1, 1)
    assert set(kernel.specialised) == {(8, 1, 1), (4, 1, 1)}
    a = RNG.random(64, dtype=np.float32)
    out = np.zeros_like(a)
    kernelkit.Program.from_binary(first).rowsum(a, out, global_size=64, local_size=8)
    np.testing.assert_allclose(out, _rowsum(a, 8), rtol=1e-5)
    # a smaller last group: the binary for any size
    generic = kernel.create_specialized_kernel(NDRangeOptions(local_size=(8, 1, 1), global_size=(60,)))
    assert sorted(k.name for k in read_host_binary(generic).kernels) == ["rowsum", "scale", "tile_sum"]


def test_specialising_against_reqd_work_group_size_is_invalid_value():
    src = "__attribute__((reqd_work_group_size(8, 1, 1))) kernel void k(global int *a) { a[0] = 1; }"
    module = ir.parse(_mux_ir(src))
    with pytest.raises(MuxError) as err:
        specialise_local_size(module, "k", (4, 1, 1))
    assert err.value.result == Result.INVALID_VALUE and "(8, 1, 1)" in str(err.value)


def _mux_ir(src: str) -> str:
    target = find_compiler("host").create_target(Context(), None)
    target.init_with_builtins(None)
    module = target.create_module()
    module.compile_opencl_c(src)
    module.finalize()
    return str(module.finalized_llvm_module)
