"""compile_opencl: triples, OpenCL C versions, -D/-I/-O, diagnostics with file:line:column."""

from __future__ import annotations

import re

import pytest

from kernelkit import CompileError
from kernelkit.frontend import compile_opencl, compile_opencl_file

SIMPLE = """kernel void k(global float *out, float a) {
  out[get_global_id(0)] = a * 2.0f + 1.0f;
}
"""


@pytest.mark.parametrize("triple, size_bits", [("spir64-unknown-unknown", 64), ("spir-unknown-unknown", 32)])
def test_triples_and_size_t(triple, size_bits):
    """SPIR: size_t (get_global_id's result) is 64-bit for spir64 and 32-bit for spir."""
    r = compile_opencl(SIMPLE, ["-O0"], triple=triple, use_cache=False)
    assert f'target triple = "{triple}"' in r.ir_text
    assert re.search(rf"declare \S+ spir_func i{size_bits} @_Z13get_global_idj\(i32", r.ir_text)
    assert "spir_kernel void @k(ptr addrspace(1)" in r.ir_text


@pytest.mark.parametrize("std, version", [("CL1.0", (1, 0)), ("CL1.1", (1, 1)), ("CL1.2", (1, 2)),
                                          ("CL2.0", (2, 0)), ("CL3.0", (3, 0))])
def test_cl_std(std, version):
    src = f"#if __OPENCL_C_VERSION__ != {version[0] * 100 + version[1] * 10}\n#error wrong version\n#endif\n" + SIMPLE
    r = compile_opencl(src, [f"-cl-std={std}"])
    assert f"!opencl.ocl.version = !{{!{'{'}" not in r.ir_text  # sanity on the format below
    m = re.search(r"!opencl\.ocl\.version = !\{!(\d+)\}", r.ir_text)
    assert m
    assert re.search(rf"^!{m[1]} = !\{{i32 {version[0]}, i32 {version[1]}\}}", r.ir_text, re.MULTILINE)


def test_default_is_opencl_1_2():
    compile_opencl("#if __OPENCL_C_VERSION__ != 120\n#error not 1.2\n#endif\n" + SIMPLE)


def test_defines_and_include_dirs(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "scale.h").write_text("#define SCALE 3.5f\n")
    src = '#include "scale.h"\n#if !defined(FLAG) || FLAG != 1 || WIDTH != 16\n#error defines\n#endif\n' \
          "kernel void k(global float *o) { o[0] = SCALE * WIDTH; }\n"
    r = compile_opencl(src, ["-DFLAG", "-D", "WIDTH=16", "-I", str(inc), "-O2"], use_cache=False)
    assert "store float 5.600000e+01" in r.ir_text
    r2 = compile_opencl(src, f"-D FLAG -DWIDTH=16 -I{inc}", use_cache=False)  # one options string
    assert r2.ir_text == r.ir_text


def test_include_beside_source_file(tmp_path):
    (tmp_path / "helper.h").write_text("static int twice(int x) { return 2 * x; }\n")
    path = tmp_path / "main.cl"
    path.write_text('#include "helper.h"\nkernel void k(global int *o) { o[0] = twice(21); }\n')
    r = compile_opencl_file(path, ["-O2"], use_cache=False)
    assert "store i32 42" in r.ir_text


@pytest.mark.parametrize("opt", ["-O0", "-O1", "-O2", "-O3"])
def test_optimisation_levels(opt):
    r = compile_opencl(SIMPLE, [opt], use_cache=False)
    if opt == "-O0":
        assert "alloca" in r.ir_text and "optnone" in r.ir_text
    else:
        assert "alloca" not in r.ir_text and "optnone" not in r.ir_text


def test_cl_opt_disable_means_O0():
    r = compile_opencl(SIMPLE, ["-cl-opt-disable"], use_cache=False)
    assert "optnone" in r.ir_text


@pytest.mark.parametrize("option, ir_marker", [
    # the multiply-add clang contracts `a * 2.0f + 1.0f` to, with the option's fast-math flags
    ("-cl-fast-relaxed-math", re.compile(r"call reassoc nnan ninf nsz arcp afn float @llvm\.fmuladd")),
    ("-cl-finite-math-only", re.compile(r"call nnan ninf float @llvm\.fmuladd")),
    ("-cl-no-signed-zeros", re.compile(r"call nsz float @llvm\.fmuladd")),
    ("-cl-unsafe-math-optimizations", re.compile(r"call reassoc nsz arcp afn float @llvm\.fmuladd")),
    ("-cl-mad-enable", re.compile(r'"less-precise-fpmad"="true"')),
    ("-cl-uniform-work-group-size", re.compile(r'"uniform-work-group-size"="true"')),
    ("-g", re.compile(r"!DICompileUnit\(")),
])
def test_cl_options_reach_the_ir(option, ir_marker):
    """Each option changes the IR as it should (OpenCL 2.0: work-groups are non-uniform by default)."""
    plain = compile_opencl(SIMPLE, ["-O0", "-cl-std=CL2.0"], use_cache=False).ir_text
    r = compile_opencl(SIMPLE, ["-O0", "-cl-std=CL2.0", option], use_cache=False)
    assert ir_marker.search(r.ir_text) and not ir_marker.search(plain)


@pytest.mark.parametrize("option", ["-cl-single-precision-constant", "-cl-denorms-are-zero",
                                    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-strict-aliasing",
                                    "-cl-no-subgroup-ifp", "-cl-kernel-arg-info", "-w", "-Werror"])
def test_other_standard_options_accepted(option):
    r = compile_opencl(SIMPLE, [option], use_cache=False)
    assert "spir_kernel" in r.ir_text


@pytest.mark.parametrize("options, message", [
    (["-cl-fast-math"], "unknown build option '-cl-fast-math'"),
    (["-O4"], "unknown build option '-O4'"),
    (["-cl-std=CL4.0"], "unknown OpenCL C version"),
    (["-D"], "-D needs a value"),
    (["-D", "1X=2"], "not a macro name"),
    (["-Wall"], "unknown build option '-Wall'"),
    (["-fno-builtin"], "unknown build option"),
])
def test_bad_options_are_rejected(options, message):
    with pytest.raises(CompileError, match=re.escape(message)):
        compile_opencl(SIMPLE, options, use_cache=False)


def test_compile_error_location_and_log():
    src = "kernel void k(global int *out) {\n  int x = 1;\n  out[0] = x + undefined_name;\n}\n"
    with pytest.raises(CompileError) as info:
        compile_opencl(src, filename="prog.cl", use_cache=False)
    err = info.value
    line, col = 3, src.splitlines()[2].index("undefined_name") + 1
    assert err.location == f"prog.cl:{line}:{col}"
    assert ("prog.cl", line, col, "error", "use of undeclared identifier 'undefined_name'") in err.diagnostics
    assert f"prog.cl:{line}:{col}: error:" in err.log
    assert str(err).startswith(f"prog.cl:{line}:{col}: error:")


def test_missing_include_is_a_fatal_error():
    with pytest.raises(CompileError) as info:
        compile_opencl('#include "no_such_header.h"\n' + SIMPLE, filename="a.cl", use_cache=False)
    assert info.value.location == "a.cl:1:10"
    assert info.value.diagnostics[0][3] == "fatal error"


def test_warnings_go_to_the_log():
    src = "#warning check this\n" + SIMPLE
    r = compile_opencl(src, filename="w.cl", use_cache=False)
    assert "w.cl:1:2: warning: check this" in r.log
    assert ("w.cl", 1, 2, "warning", "check this") in r.diagnostics
    assert compile_opencl(src, ["-w"], use_cache=False).log == ""
    with pytest.raises(CompileError, match="w.cl:1:2: error: check this"):
        compile_opencl(src, ["-Werror"], filename="w.cl", use_cache=False)


def test_kernel_arg_info_always_present():
    r = compile_opencl(SIMPLE, ["-O3"], use_cache=False)
    for key in ("addr_space", "access_qual", "type", "base_type", "type_qual", "name"):
        assert f"!kernel_arg_{key} !" in r.ir_text


def test_output_is_deterministic():
    a = compile_opencl(SIMPLE, ["-O2"], filename="/somewhere/x.cl", use_cache=False).ir_text
    b = compile_opencl(SIMPLE, ["-O2"], filename="/somewhere/x.cl", use_cache=False).ir_text
    assert a == b
    assert 'source_filename = "x.cl"' in a
