"""64-bit values in __local memory and through generic pointers that may point to __local memory
(each element as two dword SLM messages; SVM qword messages for the others), run on the vISA
simulator against numpy; GenX_IR finalizes them."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from tests.visa.finalizer import finalize_binary

SOURCE = """
kernel void local64(global const long *g, global long *out, global ulong *back) {
  local long l[64];
  local ulong2 v[64];
  size_t i = get_local_id(0);
  l[i] = g[i] * 3;
  v[i] = (ulong2)((ulong)g[i] << 1, ~(ulong)i);
  barrier(CLK_LOCAL_MEM_FENCE);
  generic long *p = (i & 1) ? &l[63 - i] : (generic long *)&g[i];
  out[i] = *p + 1;
  generic long *q = (i & 2) ? &l[i] : (generic long *)&out[128 + i];
  *q = (long)i << 40;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[64 + i] = l[i];
  back[i] = v[63 - i].x ^ v[i].y;
}
"""


@pytest.mark.parametrize("platform", ["tgllp", "skl"])
def test_64_bit_local_and_generic_accesses(platform):
    rng = np.random.default_rng(11)
    g = rng.integers(-(2**60), 2**60, 64, dtype=np.int64)
    out, back = np.zeros(192, np.int64), np.zeros(64, np.uint64)
    kernelkit.Program(SOURCE, ["-cl-std=CL2.0"]).build(f"visa:{platform}").local64(g, out, back, global_size=64,
                                                                                   local_size=64)
    i = np.arange(64)
    local = g * 3
    np.testing.assert_array_equal(out[:64], np.where(i & 1, local[63 - i], g) + 1)
    np.testing.assert_array_equal(out[64:128], np.where(i & 2, i.astype(np.int64) << 40, local))
    np.testing.assert_array_equal(out[128:][(i & 2) == 0], (i.astype(np.int64) << 40)[(i & 2) == 0])
    np.testing.assert_array_equal(back, (g[63 - i].astype(np.uint64) << np.uint64(1)) ^ ~i.astype(np.uint64))


@pytest.mark.parametrize("platform", ["SKL", "ICLLP", "TGLLP", "DG2"])
def test_genx_ir_finalizes_64_bit_local_accesses(platform):
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    finalize_binary(compile_visa(SOURCE, platform.lower(), ["-cl-std=CL2.0"]).isa(), platform)
