"""A kernel calling a function that nothing defines is refused at build time with the function's name.

Oracle: C11 s6.9p5 (OpenCL C 3.0 s6 builds on C99/C11): a program using an identifier with external
linkage must contain exactly one external definition of it; here neither the program, the OpenCL
builtin library nor the host target defines ``mystery``/``blur``, so there is nothing to call and the
build must fail (as clang's own link step fails with an undefined symbol).
"""

from __future__ import annotations

import numpy as np
import pytest

from kernelkit.errors import CompileError
from kernelkit.runtime.program import Program


@pytest.mark.parametrize(("source", "shown"), [
    ("float mystery(float); kernel void k(global float *a) { a[0] = mystery(a[0]); }", "mystery"),
    # an overloadable declaration is mangled: the message shows the mangled symbol too
    ("float __attribute__((overloadable)) blur(float);\n"
     "kernel void k(global float *a) { a[0] = blur(a[0]); }", "_Z4blurf"),
])
def test_call_to_undefined_function_is_a_compile_error_naming_it(source, shown):
    with pytest.raises(CompileError, match=f"no definition for .*{shown}"):
        Program(source).build("host")


def test_defined_helper_is_linked_and_runs():
    src = ("float twice(float x) { return 2.0f * x; }\n"
           "kernel void k(global float *a) { a[get_global_id(0)] = twice(a[get_global_id(0)]); }")
    a = np.arange(16, dtype=np.float32)
    Program(src).build("host").k(a, global_size=(16,))
    np.testing.assert_array_equal(a, 2 * np.arange(16, dtype=np.float32))
