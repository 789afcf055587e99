"""``--emit spirv`` (issue #14 item 2): OpenCL C -> SPIR-V through LLVM's SPIR-V backend in llvmlite.

Oracles: spirv-val and Intel's ocloc (Gen9, which has fp64) accept the modules; kernelkit running the SPIR-V gives the
results of the OpenCL C source (same inputs, byte for byte; floats to 1e-6); a backend abort is a
CompileError in the caller, whose process goes on.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tool

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host"))
from corpus_harness import Case, cases, make_args  # noqa: E402
from spirv_corpus import assert_runs_like_source  # noqa: E402

import kernelkit  # noqa: E402
from kernelkit.builder import build_spirv  # noqa: E402
from kernelkit.errors import CompileError  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
KERNELS = ("scalar_args", "integer_ops", "vec_float", "vec_int", "collatz", "classify", "reduce_sum",
           "transpose_tile", "swizzles", "int_vector_ops")
CASES = [c for c in cases() if c.name in KERNELS]


@functools.cache
def emitted(file: str, cl_std: str) -> bytes:
    return build_spirv((CORPUS / file).read_text(), [f"-cl-std={cl_std}"], filename=str(CORPUS / file)).binary


@functools.cache
def programs(file: str, cl_std: str):
    return (kernelkit.Program(emitted(file, cl_std)).build("host"),
            kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}"]).build("host"))


def test_the_chosen_kernels_are_in_the_corpus():
    assert {c.name for c in CASES} == set(KERNELS)


@pytest.mark.parametrize("file", sorted({(c.file, c.cl_std) for c in CASES}), ids=lambda f: f[0])
def test_emitted_spirv_passes_spirv_val_and_ocloc(file, tmp_path):
    spv = tmp_path / "k.spv"
    spv.write_bytes(emitted(*file))
    subprocess.run([require_tool("spirv-val"), str(spv)], check=True, capture_output=True)
    done = subprocess.run([require_tool("ocloc"), "compile", "-spirv_input", "-file", str(spv), "-device", "skl",
                           "-output", str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Build succeeded" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_opencl_c_to_spirv_to_host_runs_like_the_source(case):
    assert_runs_like_source(*programs(case.file, case.cl_std), case, make_args)


def test_cli_emit_spirv_writes_a_module_that_runs(tmp_path):
    src = tmp_path / "saxpy.cl"
    src.write_text("kernel void saxpy(float a, global const float *x, global float *y) {\n"
                   "  size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n")
    out = tmp_path / "saxpy.spv"
    subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "--emit", "spirv", "-o", str(out)],
                   check=True, capture_output=True)
    x, y = np.arange(32, dtype=np.float32), np.ones(32, np.float32)
    kernelkit.Program(out.read_bytes()).build("host").saxpy(np.float32(2), x, y, global_size=32)
    np.testing.assert_array_equal(y, 2 * np.arange(32, dtype=np.float32) + 1)


def test_spirv32_with_m32(tmp_path):
    out = build_spirv("kernel void k(global int *a) { a[get_global_id(0)] = 7; }", bits=32).binary
    a = np.zeros(8, np.int32)
    (tmp_path / "k.spv").write_bytes(out)
    subprocess.run([require_tool("spirv-val"), str(tmp_path / "k.spv")], check=True, capture_output=True)
    assert int.from_bytes(out[:4], "little") == 0x07230203
    kernelkit.Program(out).build("host").k(a, global_size=8)
    assert a.tolist() == [7] * 8


def test_a_backend_abort_is_a_compile_error_and_the_caller_survives():
    # LLVM 22's SPIR-V backend asserts on pipes (SPIRVBuiltins.cpp getBlockStructInstr)
    with pytest.raises(CompileError, match="LLVM aborted"):
        build_spirv((CORPUS / "pipes_cl20.cl").read_text(), ["-cl-std=CL2.0"], use_cache=False)
    assert build_spirv("kernel void k(global int *a) { a[0] = 1; }").binary[:4] == bytes.fromhex("03022307")
