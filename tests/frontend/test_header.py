"""kernelkit's OpenCL base header against independent oracles: numpy (type sizes, limits, bit
reinterpretation), pyopencl (image channel constants, the API's CL_* values), Python's math
module (M_* constants) and the Itanium mangling of the builtin declarations clang makes."""

from __future__ import annotations

import math
import re
import struct

import numpy as np
import pytest

from kernelkit.frontend import compile_opencl

STDS = ["CL1.2", "CL2.0", "CL3.0"]
TRIPLES = {"spir64-unknown-unknown": 8, "spir-unknown-unknown": 4}
NUMPY_TYPES = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
    "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "half": np.float16, "float": np.float32,
    "double": np.float64,
}


def _ok(src: str, options=(), **kw) -> str:
    return compile_opencl(src + "\nkernel void k_(global int *o) { o[0] = 0; }\n", options,
                          use_cache=False, **kw).ir_text


@pytest.mark.parametrize("std", STDS)
@pytest.mark.parametrize("triple", TRIPLES)
def test_every_scalar_and_vector_type(std, triple):
    """sizeof and alignof of every type; 3-vectors are as large as 4-vectors (6.3.5)."""
    lines = []
    for name, dtype in NUMPY_TYPES.items():
        size = np.dtype(dtype).itemsize
        lines.append(f'_Static_assert(sizeof({name}) == {size} && __alignof__({name}) == {size}, "{name}");')
        for n in (2, 3, 4, 8, 16):
            vsize = size * (4 if n == 3 else n)
            lines.append(f'_Static_assert(sizeof({name}{n}) == {vsize} && __alignof__({name}{n}) == {vsize}, '
                         f'"{name}{n}");')
    ptr = TRIPLES[triple]
    lines += [f'_Static_assert(sizeof({t}) == {ptr}, "{t}");' for t in ("size_t", "ptrdiff_t", "intptr_t", "uintptr_t")]
    lines += ['_Static_assert((size_t)-1 > 0 && (uintptr_t)-1 > 0, "unsigned");',
              '_Static_assert((ptrdiff_t)-1 < 0 && (intptr_t)-1 < 0, "signed");',
              '_Static_assert(sizeof(cl_mem_fence_flags) == 4, "fence flags");']
    _ok("\n".join(lines), [f"-cl-std={std}"], triple=triple)


def test_every_as_type_macro_exists():
    body = []
    for name in NUMPY_TYPES:
        for n in ("", "2", "3", "4", "8", "16"):
            body.append(f"  {{ {name}{n} v = ({name}{n})(0); {name}{n} w = as_{name}{n}(v); (void)w; }}")
    _ok("void f(void) {\n" + "\n".join(body) + "\n}")


@pytest.mark.parametrize("expr, ir_type, value", [
    ("as_uint(1.5f)", "i32", int(np.float32(1.5).view(np.uint32))),
    ("as_int(-0.0f)", "i32", int(np.float32(-0.0).view(np.int32))),
    ("as_ulong(3.25)", "i64", int(np.float64(3.25).view(np.uint64))),
    ("as_ushort((half)2.5h)", "i16", int(np.float16(2.5).view(np.uint16))),
])
def test_as_type_reinterprets_bits(expr, ir_type, value):
    """as_<type> is a bit reinterpretation: the constant clang folds equals numpy's view."""
    src = f"kernel void k(global {ir_type.replace('i32', 'uint').replace('i64', 'ulong').replace('i16', 'ushort')} *o) {{ o[0] = {expr}; }}"
    text = compile_opencl(src, ["-O1"], use_cache=False).ir_text
    signed = value - (1 << int(ir_type[1:])) if value >= 1 << (int(ir_type[1:]) - 1) else value
    assert re.search(rf"store {ir_type} ({value}|{signed}),", text), text


def test_as_type_vector_from_scalar():
    text = compile_opencl("kernel void k(global uchar4 *o) { o[0] = as_uchar4(0x01020304u); }", ["-O1"],
                          use_cache=False).ir_text
    # little endian: byte 0 is 4; clang may store it as the whole i32 or as <4 x i8>
    assert re.search(r"store (i32 16909060|<4 x i8> <i8 4, i8 3, i8 2, i8 1>)", text), text


def test_image_constants_match_the_opencl_api():
    import pyopencl as cl

    lines = []
    for name in [n for n in dir(cl.channel_order) if n[0] != "_" and n != "to_string"]:
        lines.append(f"_Static_assert(CLK_{name} == {getattr(cl.channel_order, name)}, \"{name}\");")
    for name in [n for n in dir(cl.channel_type) if n[0] != "_" and n != "to_string"]:
        lines.append(f"_Static_assert(CLK_{name} == {getattr(cl.channel_type, name)}, \"{name}\");")
    assert len(lines) > 30
    _ok("\n".join(lines))


def test_integer_limits_match_numpy():
    limits = {
        "CHAR_MAX": np.iinfo(np.int8).max, "CHAR_MIN": np.iinfo(np.int8).min,
        "SCHAR_MAX": np.iinfo(np.int8).max, "SCHAR_MIN": np.iinfo(np.int8).min,
        "UCHAR_MAX": np.iinfo(np.uint8).max, "SHRT_MAX": np.iinfo(np.int16).max,
        "SHRT_MIN": np.iinfo(np.int16).min, "USHRT_MAX": np.iinfo(np.uint16).max,
        "INT_MAX": np.iinfo(np.int32).max, "INT_MIN": np.iinfo(np.int32).min,
        "UINT_MAX": np.iinfo(np.uint32).max, "LONG_MAX": np.iinfo(np.int64).max,
        "LONG_MIN": np.iinfo(np.int64).min, "ULONG_MAX": np.iinfo(np.uint64).max, "CHAR_BIT": 8,
    }
    lines = []
    for name, value in limits.items():
        literal = f"{value}UL" if value > np.iinfo(np.int64).max else (
            f"({value + 1}L - 1)" if value == np.iinfo(np.int64).min else f"{value}L")
        lines.append(f'_Static_assert({name} == {literal}, "{name}");')
    _ok("\n".join(lines))


def _ir_float(token: str) -> float:
    """An LLVM IR floating-point literal: decimal, 0x<16 hex digits> (double bits) or 0xH<half bits>."""
    if token.startswith("0xH"):
        return float(np.uint16(int(token[3:], 16)).view(np.float16))
    if token.startswith("0x"):
        return struct.unpack("<d", int(token, 16).to_bytes(8, "little"))[0]
    return float(token)


def _constant_values(names: list[str], ctype: str, ir_type: str) -> dict[str, float]:
    src = f"constant {ctype} vals[{len(names)}] = {{{', '.join(names)}}};\n" \
          f"kernel void k(global {ctype} *o, int i) {{ o[0] = vals[i]; }}\n"
    text = compile_opencl(src, ["-O0"], use_cache=False).ir_text
    m = re.search(rf"@vals = .*constant \[{len(names)} x {ir_type}\] \[(.*)\]", text)
    assert m, text
    values = [_ir_float(item.split()[1]) for item in m[1].split(", ")]
    return dict(zip(names, values, strict=True))


def test_float_limits_and_constants():
    f32, f64, f16 = np.finfo(np.float32), np.finfo(np.float64), np.finfo(np.float16)
    fl = _constant_values(["FLT_MAX", "FLT_MIN", "FLT_EPSILON", "MAXFLOAT", "M_PI_F", "M_E_F", "M_SQRT2_F",
                           "M_LN2_F", "M_1_PI_F", "M_LOG2E_F", "M_PI_4_F"], "float", "float")
    assert fl["FLT_MAX"] == fl["MAXFLOAT"] == float(f32.max)
    assert fl["FLT_MIN"] == float(f32.tiny) and fl["FLT_EPSILON"] == float(f32.eps)
    expected = {"M_PI_F": math.pi, "M_E_F": math.e, "M_SQRT2_F": math.sqrt(2), "M_LN2_F": math.log(2),
                "M_1_PI_F": 1 / math.pi, "M_LOG2E_F": 1 / math.log(2), "M_PI_4_F": math.pi / 4}
    for name, value in expected.items():
        assert fl[name] == float(np.float32(value)), name
    db = _constant_values(["DBL_MAX", "DBL_MIN", "DBL_EPSILON", "M_PI", "M_E", "M_SQRT1_2", "M_LN10"],
                          "double", "double")
    assert (db["DBL_MAX"], db["DBL_MIN"], db["DBL_EPSILON"]) == (f64.max, f64.tiny, f64.eps)
    assert (db["M_PI"], db["M_E"], db["M_SQRT1_2"], db["M_LN10"]) == (math.pi, math.e, math.sqrt(0.5), math.log(10))
    hf = _constant_values(["HALF_MAX", "HALF_MIN", "HALF_EPSILON"], "half", "half")
    assert (hf["HALF_MAX"], hf["HALF_MIN"], hf["HALF_EPSILON"]) == (float(f16.max), float(f16.tiny), float(f16.eps))
    ints = {
        "FLT_DIG": f32.precision, "DBL_DIG": f64.precision, "HALF_DIG": f16.precision,
        "FLT_MANT_DIG": f32.nmant + 1, "DBL_MANT_DIG": f64.nmant + 1, "HALF_MANT_DIG": f16.nmant + 1,
        "FLT_MAX_EXP": f32.maxexp, "DBL_MAX_EXP": f64.maxexp, "HALF_MAX_EXP": f16.maxexp,
        "FLT_MIN_EXP": f32.minexp + 1, "DBL_MIN_EXP": f64.minexp + 1, "HALF_MIN_EXP": f16.minexp + 1,
        "FLT_MAX_10_EXP": math.floor(math.log10(f32.max)), "DBL_MAX_10_EXP": math.floor(math.log10(f64.max)),
        "FLT_MIN_10_EXP": math.ceil(math.log10(f32.tiny)), "DBL_MIN_10_EXP": math.ceil(math.log10(f64.tiny)),
        "HALF_MAX_10_EXP": math.floor(math.log10(f16.max)), "HALF_MIN_10_EXP": math.ceil(math.log10(f16.tiny)),
        "FLT_RADIX": 2, "HALF_RADIX": 2,
    }
    _ok("\n".join(f'_Static_assert({k} == {v}, "{k}");' for k, v in ints.items()))


def test_infinity_and_nan():
    v = _constant_values(["INFINITY", "HUGE_VALF", "NAN", "-INFINITY"], "float", "float")
    assert v["INFINITY"] == v["HUGE_VALF"] == math.inf and v["-INFINITY"] == -math.inf
    assert math.isnan(v["NAN"])


@pytest.mark.parametrize("std", ["CL2.0", "CL3.0"])
def test_c11_atomic_types_resolve_the_builtins(std):
    """memory_order / memory_scope are the enum types the builtin declarations are mangled with."""
    src = ("kernel void k(global atomic_int *a) {\n"
           "  atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_group);\n"
           "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);\n}\n")
    text = compile_opencl(src, [f"-cl-std={std}"], use_cache=False).ir_text
    assert "@_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(" in text
    assert "@_Z22atomic_work_item_fencej12memory_order12memory_scope(" in text


def test_named_address_space_builtins_in_opencl_1_2():
    """Without the generic address space, pointer builtins have __global/__local/__private overloads."""
    src = ("kernel void k(global float *g, local float *l, global float4 *o) {\n"
           "  float p[4] = {1, 2, 3, 4};\n  o[0] = vload4(0, g) + vload4(0, l) + vload4(0, p);\n}\n")
    text = compile_opencl(src, ["-cl-std=CL1.2", "-O0"], use_cache=False).ir_text
    for mangled in ("_Z6vload4mPU3AS1Kf", "_Z6vload4mPU3AS3Kf", "_Z6vload4mPKf"):
        assert f"@{mangled}(" in text


def test_printf_and_sampler_constants():
    src = ("constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
           "kernel void k(read_only image2d_t im, global float4 *o) {\n"
           '  printf("%d %f\\n", 1, 2.0f);\n  o[0] = read_imagef(im, s, (float2)(0.5f));\n}\n')
    for std in STDS:
        text = compile_opencl(src, [f"-cl-std={std}"], use_cache=False).ir_text
        assert "@printf(ptr addrspace(2)" in text


@pytest.mark.parametrize("std, version", [("CL1.2", 120), ("CL2.0", 200), ("CL3.0", 300)])
def test_standard_macros(std, version):
    checks = [f"__OPENCL_VERSION__ == {version}", f"__OPENCL_C_VERSION__ == {version}",
              "CL_VERSION_1_0 == 100", "CL_VERSION_1_1 == 110", "CL_VERSION_1_2 == 120",
              "CL_VERSION_2_0 == 200", "__ENDIAN_LITTLE__ == 1", "__IMAGE_SUPPORT__ == 1",
              "CLK_LOCAL_MEM_FENCE != CLK_GLOBAL_MEM_FENCE", "(CLK_LOCAL_MEM_FENCE & CLK_GLOBAL_MEM_FENCE) == 0"]
    src = "\n".join(f"#if !({c})\n#error {c}\n#endif" for c in checks)
    src += "\n#ifdef __FAST_RELAXED_MATH__\n#error fast\n#endif\n"
    src += "__kernel_exec(64, float4) void ke(global float4 *v) { v[0] = 0; }\n"
    text = _ok(src, [f"-cl-std={std}"])
    assert re.search(r"@ke\(.*!work_group_size_hint ", text) and "!vec_type_hint" in text
    _ok("#ifndef __FAST_RELAXED_MATH__\n#error not fast\n#endif\n", [f"-cl-std={std}", "-cl-fast-relaxed-math"])


def test_event_and_opaque_types():
    """event_t (async copies) in 1.2; queue_t, clk_event_t, reserve_id_t, ndrange_t, the enqueue
    constants and pipes in 2.0; every image type and sampler_t everywhere."""
    images = ("image1d_t", "image1d_array_t", "image1d_buffer_t", "image2d_t", "image2d_array_t",
              "image2d_depth_t", "image2d_array_depth_t", "image3d_t")
    params = ", ".join(f"read_only {t} i{n}" for n, t in enumerate(images))
    _ok(f"kernel void imgs({params}, sampler_t s) {{}}\n"
        "kernel void copy(global const float *g, local float *l) {\n"
        "  event_t e = async_work_group_copy(l, g, 64, 0);\n  wait_group_events(1, &e);\n}\n")
    _ok("kernel void dev(queue_t q, global int *o) {\n"
        "  clk_event_t ev = CLK_NULL_EVENT;\n  ndrange_t r = ndrange_1D(1);\n"
        "  kernel_enqueue_flags_t f = CLK_ENQUEUE_FLAGS_WAIT_KERNEL;\n  (void)ev; (void)r; (void)f;\n"
        "  o[0] = CLK_SUCCESS + CLK_PROFILING_COMMAND_EXEC_TIME + MAX_WORK_DIM;\n}\n"
        "kernel void pip(read_only pipe int p, global int *o) {\n"
        "  reserve_id_t id = reserve_read_pipe(p, 1);\n"
        "  if (is_valid_reserve_id(id)) { read_pipe(p, id, 0, o); commit_read_pipe(p, id); }\n}\n",
        ["-cl-std=CL2.0"])


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_null_handles_give_valid_ir(opt):
    """CLK_NULL_EVENT / CLK_NULL_RESERVE_ID compile (clang 22 crashes on an all-ones handle) and
    the IR verifies in llvmlite."""
    import llvmlite.binding as llvm

    src = ("kernel void k(read_only pipe int p, global int *o) {\n"
           "  clk_event_t ev = CLK_NULL_EVENT;\n  reserve_id_t id = CLK_NULL_RESERVE_ID;\n"
           "  o[0] = is_valid_event(ev) + is_valid_reserve_id(id);\n}\n")
    text = compile_opencl(src, ["-cl-std=CL2.0", opt], use_cache=False).ir_text
    llvm.parse_assembly(text).verify()
