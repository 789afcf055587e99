"""Build options reach the back end for SPIR-V input as they do for OpenCL C (spec 003: the module's options
drive finalize and code generation whatever the frontend; OpenCL's clBuildProgram takes the same back-end
options for IL). The oracle is the OpenCL C source built with the same options: llvm-readelf's ELF header for
AMDGPU code object versions, the CL2 driver layout, the vISA SIMD width, the host CPU refusal."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import require_tool

from kernelkit.builder import build, build_spirv
from kernelkit.errors import CompileError

SOURCE = """kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
"""


@pytest.fixture(scope="module")
def spirv() -> bytes:
    return build_spirv(SOURCE).binary


def _abi_version(binary: bytes, tmp_path, name: str) -> str:
    path = tmp_path / name
    path.write_bytes(binary)
    header = subprocess.run([require_tool("llvm-readelf"), "-h", str(path)], check=True, capture_output=True,
                            text=True).stdout
    return re.search(r"ABI Version:\s+(\d+)", header).group(1)


@pytest.mark.parametrize("version", [2, 4, 5])
def test_code_object_version_applies_to_spirv(spirv, version, tmp_path):
    options = [f"-mcode-object-version={version}"]
    ours = _abi_version(build("", "gfx803", options, spirv=spirv).binary, tmp_path, "spirv.hsaco")
    assert ours == _abi_version(build(SOURCE, "gfx803", options).binary, tmp_path, "source.hsaco")
    # ELFABIVERSION_AMDGPU_HSA_V2..V6 are 0..4 (spec 001, "ELF Header")
    assert ours == str(version - 2)


def _inspect_line(binary: bytes, tmp_path, name: str, pattern: str) -> str:
    path = tmp_path / name
    path.write_bytes(binary)
    out = subprocess.run([sys.executable, "-m", "kernelkit", "inspect", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return re.search(pattern, out).group(0)


def test_cl2_driver_version_applies_to_spirv(spirv, tmp_path):
    options = ["-mamdcl2-driver-version=191205"]
    ours = _inspect_line(build("", "amdcl2:tonga", options, spirv=spirv).binary, tmp_path, "s.clo", r"driver \d+")
    assert ours == _inspect_line(build(SOURCE, "amdcl2:tonga", options).binary, tmp_path, "c.clo", r"driver \d+")
    assert ours == "driver 191205"


def test_simd_width_applies_to_spirv(spirv, tmp_path):
    pattern = r"SimdSize = \d+"
    ours = _inspect_line(build("", "visa:tgllp", ["--simd=32"], spirv=spirv).binary, tmp_path, "s.isa", pattern)
    assert ours == _inspect_line(build(SOURCE, "visa:tgllp", ["--simd=32"]).binary, tmp_path, "c.isa", pattern)
    assert ours == "SimdSize = 32"


def test_cli_simd_option_sets_the_width_and_is_refused_elsewhere(tmp_path):
    src = tmp_path / "saxpy.cl"
    src.write_text(SOURCE)
    out = tmp_path / "k.isa"
    subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", "visa:tgllp", "--simd", "8",
                    "-o", str(out)], check=True, capture_output=True)
    assert _inspect_line(out.read_bytes(), tmp_path, "again.isa", r"SimdSize = \d+") == "SimdSize = 8"
    refused = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", "host", "--simd", "8",
                              "-o", str(tmp_path / "k.bin")], capture_output=True, text=True)
    assert refused.returncode != 0 and len(refused.stderr.strip().splitlines()) == 1
    assert "--simd" in refused.stderr


def test_unknown_host_cpu_is_refused_for_spirv_as_for_source(spirv):
    with pytest.raises(CompileError) as from_spirv:
        build("", "host", ["-mcpu=notacpu"], spirv=spirv)
    with pytest.raises(CompileError) as from_source:
        build(SOURCE, "host", ["-mcpu=notacpu"])
    assert "unknown target CPU 'notacpu'" in str(from_spirv.value)
    assert str(from_spirv.value).split("'notacpu'")[1] == str(from_source.value).split("'notacpu'")[1]


@pytest.mark.parametrize("target", ["host", "visa:tgllp"])
def test_cli_runs_a_spirv_module(spirv, target, tmp_path):
    """`kernelkit run k.spv` builds the module as SPIR-V (it read it as OpenCL C text before); numpy is the
    oracle. LLVM's SPIR-V backend names no parameters, so the reader calls them arg0.. (OpName absent)."""
    import numpy as np

    path = tmp_path / "k.spv"
    path.write_bytes(spirv)
    saved = tmp_path / "out.npz"
    subprocess.run([sys.executable, "-m", "kernelkit", "run", str(path), "-t", target, "-g", "64",
                    "--arg", "arg0:2", "--arg", "arg1:[64]=random", "--arg", "arg2:[64]=ones", "--save", str(saved)],
                   check=True, capture_output=True)
    buffers = np.load(saved)
    np.testing.assert_allclose(buffers["arg2"], np.float32(2) * buffers["arg1"] + 1, rtol=1e-6)
