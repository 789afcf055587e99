"""SPIR-V memory instructions beyond load/store (issue #14 item 1): OpenCL.std vloadn/vstoren,
OpCopyMemorySized (both from LLVM's SPIR-V backend, kernelkit.builder.build_spirv) and OpCopyMemory
(assembled by spirv-as). Oracles: spirv-dis shows the instructions are in the modules; numpy."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import numpy as np
from conftest import require_tool

import kernelkit
from kernelkit.builder import build_spirv

SOURCE = """
typedef struct { float a[6]; int n; } Blob;
kernel void vec(global const float *x, global float *y, global const Blob *bi, global Blob *bo) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, x) * 2.0f, i, y);
  vstore3(vload3(i, x + 64) + 1.0f, i, y + 64);
  if (i == 0) { Blob t = *bi; t.n += 1; *bo = t; }
}
"""
BLOB = np.dtype([("a", np.float32, 6), ("n", np.int32)])


@functools.cache
def module() -> tuple[bytes, str]:
    spv = build_spirv(SOURCE, ["-cl-std=CL2.0"]).binary
    text = subprocess.run([require_tool("spirv-dis"), "-"], input=spv, capture_output=True, check=True).stdout
    return spv, text.decode()


def test_the_module_uses_vloadn_vstoren_and_copy_memory_sized():
    _, text = module()
    for needle in ("vloadn", "vstoren", "OpCopyMemorySized"):
        assert needle in text


def test_vloadn_vstoren_and_copy_memory_sized_run_like_numpy():
    spv, _ = module()
    x = np.arange(200, dtype=np.float32)
    y = np.zeros(200, np.float32)
    blob = np.zeros(1, BLOB)
    blob["a"], blob["n"] = np.arange(6), 41
    out = np.zeros_like(blob)
    raw = kernelkit.RawBuffer   # LLVM's backend types x as i8* (see notes/spirv.md): pass untyped bytes
    kernelkit.Program(spv).build("host").vec(raw(x), raw(y), raw(blob), raw(out), global_size=16)
    expected = np.zeros(200, np.float32)
    expected[:64] = x[:64] * 2
    expected[64:112] = x[64:112] + 1
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(out["a"], blob["a"])
    assert out["n"][0] == 42


def test_copy_memory_runs_like_numpy():
    asm = Path(__file__).parent / "spirv_asm" / "copy_memory.spvasm"
    spv = subprocess.run([require_tool("spirv-as"), "--target-env", "opencl2.0", str(asm), "-o", "-"],
                         capture_output=True, check=True).stdout
    subprocess.run([require_tool("spirv-val"), "--target-env", "opencl2.0", "-"], input=spv, check=True,
                   capture_output=True)
    src = np.arange(64, dtype=np.float32)
    dst = np.zeros_like(src)
    kernelkit.Program(spv).build("host").copy4(dst, src, global_size=16)
    np.testing.assert_array_equal(dst, src)
