"""compile_spirv for every target (issue #14 item 1): a SPIR-V module builds for each target with the
kernel interface the same OpenCL C source gives (``kernelkit inspect --json`` of both binaries: argument
layout, kinds, sizes, kernarg size); on the simulated targets (AMD IL, vISA) it runs with numpy's results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from spirv_corpus import CORPUS

import kernelkit
from kernelkit.builder import build, build_spirv

# parameters named as the SPIR-V frontend names parameters without OpName (arg<i>)
SOURCE = """kernel void saxpy(float arg0, global const float *arg1, global float *arg2, local float *arg3) {
  size_t i = get_global_id(0);
  arg3[get_local_id(0)] = arg1[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  arg2[i] = arg0 * arg3[get_local_id(0)] + arg2[i];
}
"""


def _interface(binary: bytes, tmp_path, name: str, drop=("type_name",)) -> list[dict]:
    path = tmp_path / name
    path.write_bytes(binary)
    out = subprocess.run([sys.executable, "-m", "kernelkit", "inspect", str(path), "--json"], check=True,
                         capture_output=True, text=True).stdout
    kernels = json.loads(out)["kernels"]
    return [{"name": k["name"], "args": [{key: v for key, v in a.items() if key not in drop} for a in k["args"]],
             "kernarg_size": k["resources"]["kernarg_size"]} for k in kernels]


@pytest.mark.parametrize(("target", "suffix"), [("gfx90a", ".hsaco"), ("amdil", ".il"), ("amdcl2", ".clo")])
def test_spirv_builds_with_the_interface_of_the_opencl_c_source(target, suffix, tmp_path):
    spirv = build_spirv(SOURCE).binary
    from_spirv = build("", target, spirv=spirv).binary
    from_source = build(SOURCE, target).binary
    ours = _interface(from_spirv, tmp_path, "spirv" + suffix)
    assert ours == _interface(from_source, tmp_path, "source" + suffix)
    named = [a["name"] for a in ours[0]["args"] if (a["name"] or "").startswith("arg")]   # (not hidden ones)
    assert named == ["arg0", "arg1", "arg2", "arg3"]


@pytest.mark.parametrize(("target", "suffix"), [("gfx90a", ".hsaco"), ("amdil", ".il"), ("amdcl2", ".clo")])
def test_spirv_images_build_with_the_interface_of_the_opencl_c_source(target, suffix, tmp_path):
    """corpus images.cl (2D/3D/buffer/array images, a sampler argument and a constant sampler) through
    LLVM's SPIR-V backend: parameters have no OpName there, so names are left out."""
    source = (CORPUS / "images.cl").read_text()
    from_spirv = build("", target, spirv=build_spirv(source, ["-cl-std=CL1.2"]).binary).binary
    from_source = build(source, target, ["-cl-std=CL1.2"]).binary
    drop = ("type_name", "name")
    assert (_interface(from_spirv, tmp_path, "spirv" + suffix, drop)
            == _interface(from_source, tmp_path, "source" + suffix, drop))


def test_spirv32_runs_on_the_amd_il_simulator():
    spirv = build_spirv(SOURCE, bits=32).binary
    x, y = np.arange(64, dtype=np.float32), np.ones(64, np.float32)
    program = kernelkit.Program(spirv).build("amdil:juniper")
    program.saxpy(np.float32(2), x, y, kernelkit.LocalMemory(16 * 4), global_size=64, local_size=16)
    np.testing.assert_array_equal(y, 2 * np.arange(64, dtype=np.float32) + 1)


def test_spirv_builds_for_visa_and_genx_ir_finalizes_it():
    """compile_spirv on visa: the object holds the kernel, and Intel's finalizer accepts it."""
    from conftest import require_tool

    from kernelkit.formats.visa import read_isa

    require_tool("GenX_IR")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "visa"))
    from finalizer import finalize_binary

    binary = build("", "visa", spirv=build_spirv(SOURCE).binary).binary
    assert [k.name for k in read_isa(binary).kernels] == ["saxpy"]
    asm, _ = finalize_binary(binary, "TGLLP")
    assert any(line.startswith("send") or " send" in line for line in asm)


@pytest.mark.parametrize("platform", ["tgllp", "skl"])
def test_spirv_runs_on_the_visa_simulator(platform):
    spirv = build_spirv(SOURCE).binary
    x, y = np.arange(64, dtype=np.float32), np.ones(64, np.float32)
    program = kernelkit.Program(spirv).build(f"visa:{platform}")
    program.saxpy(np.float32(2), x, y, kernelkit.LocalMemory(16 * 4), global_size=64, local_size=16)
    np.testing.assert_array_equal(y, 2 * np.arange(64, dtype=np.float32) + 1)
