"""SPIR-V from clang 22 runs on the host with the results of the same OpenCL C source.

Oracle: the OpenCL C program built through kernelkit's clang frontend, same inputs; the SPIR-V passes
spirv-val. SPIR-V integers carry no signedness, so unsigned buffers are passed as their signed view
and outputs compared byte for byte.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host"))
from corpus_harness import Case, cases, make_args  # noqa: E402
from spirv_corpus import assert_runs_like_source, clang_spirv  # noqa: E402

import kernelkit  # noqa: E402

KERNELS = ("scalar_args", "integer_ops", "small_int_ops", "vec_char", "vec_ushort", "vec_float", "vec_double",
           "vec_half", "copy_through_local", "lookup_constant", "two_local_buffers", "saxpy_restrict",
           "volatile_flag", "collatz", "classify", "reduce_sum", "transpose_tile", "reduce_max_static",
           "histogram", "atomic_mix", "c11_counter", "c11_exchange", "swizzles", "int_vector_ops",
           "math_float", "math_vector", "fixed_group", "all_attributes", "calibrate", "generic_pointers",
           "conversions", "reinterpret", "math_integer", "c11_flags", "wg_reduce", "wg_scan", "wg_vote_broadcast",
           "half_double_args", "vec_uchar", "vec_short", "vec_int", "vec_uint", "vec_long", "vec_ulong",
           "const_value_args", "math_double", "hinted", "vec_hinted", "uint_hinted", "sub_group_sized", "count_calls",
           "horner", "nested_loops", "blur5")
CASES = [c for c in cases() if c.name in KERNELS]


@functools.cache
def programs(file: str, cl_std: str):
    spirv = kernelkit.Program(clang_spirv(file, cl_std)).build("host")
    source = kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}"]).build("host")
    return spirv, source


def test_the_chosen_kernels_are_in_the_corpus():
    assert {c.name for c in CASES} == set(KERNELS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_spirv_runs_like_the_opencl_c_source(case):
    assert_runs_like_source(*programs(case.file, case.cl_std), case, make_args)


def test_struct_passed_by_value_like_the_opencl_c_source():
    """struct_args.cl scale_by_params: SPIR-V passes the struct as a ByVal pointer parameter."""
    case = next(c for c in cases() if c.name == "scale_by_params")
    spirv, source = programs(case.file, case.cl_std)
    fields = case.run["args"]["p"]
    params = np.array([(fields["count"], fields["scale"])],
                      np.dtype({"names": ["count", "scale"], "formats": [np.int32, np.float32]}, align=True))[0]
    results = []
    for program in (spirv, source):
        data = np.arange(64, dtype=np.float32)
        program.kernel("scale_by_params")(params, data, global_size=case.run["global"])
        results.append(data)
    assert results[0].tobytes() == results[1].tobytes()
    assert results[0][fields["count"]] == fields["count"]    # past p.count: untouched
