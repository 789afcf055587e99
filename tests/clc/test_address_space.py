"""to_global/to_local/to_private and get_fence (OpenCL C 3.0 s6.15.10 address space
qualifier functions) with the default space hook and a target's own."""

from __future__ import annotations

import ctypes

import numpy as np
from clc_harness import Jit, ptr

SOURCE = """
void probe(__global int *g, __global int *out) {
  __generic int *p = g;
  out[0] = to_global(p) == g;
  out[1] = to_local(p) == 0;
  out[2] = to_private(p) == 0;
  out[3] = get_fence(p);
  out[4] = get_fence((const __generic int *)p);
}
"""
# a target telling local memory apart (SPIR space numbers: 3 = local)
OVERRIDE = """
uint __kk_generic_address_space(const __generic void *p) { return 3u; }
"""


def _probe(jit: Jit) -> list[int]:
    g = np.zeros(1, np.int32)
    out = np.zeros(5, np.int32)
    jit.fn("probe", None, ctypes.c_void_p, ctypes.c_void_p)(ptr(g), ptr(out))
    return out.tolist()


def test_default_is_global() -> None:
    assert _probe(Jit(SOURCE)) == [1, 1, 1, 2, 2]  # CLK_GLOBAL_MEM_FENCE = 2


def test_target_hook_overrides() -> None:
    jit = Jit(SOURCE + OVERRIDE)
    g = np.zeros(1, np.int32)
    out = np.zeros(5, np.int32)
    jit.fn("probe", None, ctypes.c_void_p, ctypes.c_void_p)(ptr(g), ptr(out))
    assert out.tolist() == [0, 0, 1, 1, 1]  # CLK_LOCAL_MEM_FENCE = 1
