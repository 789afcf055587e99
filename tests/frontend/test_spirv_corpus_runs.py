"""SPIR-V from clang 22 runs on the host with the results of the same OpenCL C source.

Oracle: the OpenCL C program built through kernelkit's clang frontend, same inputs; the SPIR-V passes
spirv-val. SPIR-V integers carry no signedness, so unsigned buffers are passed as their signed view
and outputs compared byte for byte.
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
from spirv_corpus import (  # noqa: E402
    PRINTED,
    STRUCT_KERNELS,
    assert_runs_like_source,
    clang_spirv,
    run_struct_kernel,
    signed_view,
)

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
def programs(file: str, cl_std: str, extensions: str = ""):
    spirv = kernelkit.Program(clang_spirv(file, cl_std, extensions=extensions)).build("host")
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


@pytest.mark.parametrize("name", sorted(STRUCT_KERNELS))
def test_struct_and_union_arguments_like_the_opencl_c_source(name):
    """struct_args.cl: a struct with vectors, a packed struct, a union and a nested struct passed by value
    give from SPIR-V the bytes the OpenCL C build gives, and numpy's values."""
    case = next(c for c in cases() if c.name == name)
    run_struct_kernel(*programs(case.file, case.cl_std), case, make_args)


PRINTF_EXTENSION = "+SPV_EXT_relaxed_printf_string_address_space"


def test_clang_printf_spirv_breaks_only_the_format_rule_spirv_val_checks(tmp_path):
    """clang 22 writes printf.cl only with SPV_EXT_relaxed_printf_string_address_space, and passes the
    format as the string's array (``[N x i8]*``) where OpenCL.std printf asks for a pointer to i8:
    spirv-val rejects that and nothing else of the module."""
    spv = tmp_path / "printf.spv"
    spv.write_bytes(clang_spirv("printf.cl", "CL1.2", extensions=PRINTF_EXTENSION))
    verdict = subprocess.run([require_tool("spirv-val"), str(spv)], capture_output=True, text=True)
    assert verdict.returncode != 0
    assert "OpenCL.std printf: expected Format data type to be 8-bit int" in verdict.stderr


@pytest.mark.parametrize("name,expected", sorted(PRINTED.items()))
def test_printf_from_spirv_prints_what_the_opencl_c_source_prints(name, expected):
    """printf.cl from clang's SPIR-V (OpenCL.std printf, format and %s strings as constant char arrays)
    prints on the host what the OpenCL C build prints: the formats of OpenCL C 1.2 s6.12.13."""
    case = next(c for c in cases() if c.name == name)
    printed = []
    for program, view in zip(programs(case.file, case.cl_std, PRINTF_EXTENSION), (signed_view, lambda v: v),
                             strict=True):
        values, _ = make_args(case)
        printed.append(program.kernel(name)(*map(view, values), global_size=case.run["global"]))
    assert printed == [expected, expected]
