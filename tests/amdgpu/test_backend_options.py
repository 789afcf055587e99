"""AMDGPU source attributes and machine options reach LLVM's backend as clang's do: the
metadata and kernel-descriptor bits they decide equal clang 22's compile of the same source with
the same options."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from amdgpu.clang_oracle import HEADER
from kernelkit.errors import CompileError
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.mux.registry import build_binary

SOURCE = """
kernel void __attribute__((amdgpu_flat_work_group_size(32, 128))) __attribute__((amdgpu_waves_per_eu(2, 4)))
__attribute__((amdgpu_num_sgpr(40))) __attribute__((amdgpu_num_vgpr(24)))
limited(global float *o, float a) { o[get_global_id(0)] = a * o[get_global_id(0)]; }

kernel void __attribute__((reqd_work_group_size(16, 4, 1))) plain(global int *o) { o[get_global_id(0)] = 1; }
"""


def _clang(source: str, mcpu: str, options=()) -> CodeObject:
    with tempfile.TemporaryDirectory(prefix="kk-clang-options-") as tmp:
        src, out = Path(tmp) / "k.cl", Path(tmp) / "k.o"
        src.write_text(source)
        cmd = [sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL1.2", "-cl-no-stdinc", "-nostdinc",
               "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target", "amdgcn-amd-amdhsa",
               f"-mcpu={mcpu}", "-mcode-object-version=5", "-nogpulib", "-O2", *options, "-c", str(src), "-o", str(out)]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        return CodeObject.parse(out.read_bytes())


def test_source_attributes_reach_the_backend():
    ours = CodeObject.parse(build_binary(SOURCE, "gfx90a", ["-mcode-object-version=5"]))
    clang = _clang(SOURCE, "gfx90a")
    for name in ("limited", "plain"):
        k, ref = ours.metadata.kernel(name), clang.metadata.kernel(name)
        assert k.max_flat_workgroup_size == ref.max_flat_workgroup_size
    assert ours.metadata.kernel("limited").max_flat_workgroup_size == 128
    assert ours.metadata.kernel("plain").max_flat_workgroup_size == 64
    limited = ours.metadata.kernel("limited")
    assert limited.sgpr_count <= 40 and limited.vgpr_count <= 24


def _bits(co: CodeObject, name: str) -> dict:
    desc = co.descriptor(co.metadata.kernel(name))
    proc = co.target.processor
    return {"WGP_MODE": desc.rsrc1(proc).get("WGP_MODE"), "TG_SPLIT": desc.rsrc3(proc).get("TG_SPLIT"),
            "ENABLE_WAVEFRONT_SIZE32": desc.code_properties()["ENABLE_WAVEFRONT_SIZE32"],
            "wavefront_size": co.metadata.kernel(name).wavefront_size}


CASES = [("gfx1030", ()), ("gfx1030", ("-mcumode",)), ("gfx1030", ("-mno-cumode",)),
         ("gfx1030", ("-mwavefrontsize64",)), ("gfx1030", ("-mwavefrontsize64", "-mno-wavefrontsize64")),
         ("gfx90a", ("-mtgsplit",)), ("gfx90a", ("-mtgsplit", "-mno-tgsplit")), ("gfx90a", ("-mno-cumode",))]


@pytest.mark.parametrize("mcpu,options", CASES, ids=[f"{c}{''.join(o)}" for c, o in CASES])
def test_machine_options_as_clang_spells_them(mcpu, options):
    source = "kernel void k(global int *o) { o[get_global_id(0)] = get_local_id(0); }"
    ours = CodeObject.parse(build_binary(source, mcpu, ["-mcode-object-version=5", *options]))
    assert _bits(ours, "k") == _bits(_clang(source, mcpu, options), "k")


def test_bad_code_object_version_is_a_compile_error():
    with pytest.raises(CompileError, match="code object version must be one of"):
        build_binary("kernel void k() {}", "gfx90a", ["-mcode-object-version=9"])
