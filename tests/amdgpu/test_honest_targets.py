"""The amdhsa target says what it builds: its processors are those of kernelkit's table that the
LLVM in use has (clang 22 of the same LLVM major lists them), other OS ABIs are refused."""

from __future__ import annotations

import subprocess
import sys

from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.formats.amdgpu.tables import PROCESSORS
from kernelkit.mux.registry import build_binary
from kernelkit.targets.amdhsa.info import AmdhsaInfo

SOURCE = "kernel void k(global int *o) { o[get_global_id(0)] = get_sub_group_size(); }"


def _clang_cpus() -> set[str]:
    out = subprocess.run([sys.executable, "-m", "ziglang", "clang", "--target=amdgcn-amd-amdhsa",
                          "--print-supported-cpus"], capture_output=True, text=True)
    return {line.strip() for line in (out.stdout + out.stderr).splitlines() if line.startswith("\t")}


def test_listed_processors_are_the_ones_llvm_builds():
    clang = _clang_cpus()
    devices = AmdhsaInfo().devices()
    assert devices == [p.name for p in PROCESSORS if p.arch == "amdgcn" and p.name in clang]
    assert "gfx940" not in devices and "gfx941" not in devices and {"gfx1250", "gfx1251"} <= set(devices)


def test_gfx1250_builds_as_clang_writes_it():
    co = CodeObject.parse(build_binary(SOURCE, "gfx1250", ["-cl-std=CL2.0"]))
    assert co.target.processor.name == "gfx1250" and co.elf.e_flags == 0x549      # clang 22's e_flags
    assert co.metadata.kernels[0].wavefront_size == 32


def test_other_targets_are_refused_clearly(tmp_path):
    src = tmp_path / "k.cl"
    src.write_text(SOURCE)
    for target, message in (("amdgcn-amd-amdpal--gfx1030", "the amdpal OS ABI is not produced"),
                            ("amdgcn-amd-mesa3d--gfx803", "the mesa3d OS ABI is not produced"),
                            ("gfx940", "the LLVM in use has no such processor")):
        run = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", target, "-o",
                              str(tmp_path / "k.o")], capture_output=True, text=True)
        assert run.returncode == 1 and message in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "k.o").exists()
