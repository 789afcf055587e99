"""A helper function the source keeps out of line (``__attribute__((noinline))``) in a kernel that needs no
builtin library: the vISA target inlines it (vISA objects here have no calls), GenX_IR finalizes the object
and the simulator gives numpy's results."""

from __future__ import annotations

import numpy as np
from conftest import require_tool
from finalizer import finalize_binary

import kernelkit

SOURCE = """
__attribute__((noinline)) int twice(int x) { return 2 * x; }
__attribute__((noinline)) int add_one(int x) { return twice(x) + 1; }
kernel void k(global int *a) { size_t i = get_global_id(0); a[i] = add_one(a[i]); }
"""


def test_noinline_helpers_build_finalize_and_run():
    require_tool("GenX_IR")
    program = kernelkit.Program(SOURCE).build("visa:tgllp")
    finalize_binary(program.binary, "TGLLP")
    a = np.arange(-8, 24, dtype=np.int32)
    program.kernel("k")(a, global_size=(32,))
    np.testing.assert_array_equal(a, 2 * np.arange(-8, 24, dtype=np.int32) + 1)
