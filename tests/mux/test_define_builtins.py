"""Generic builtin definitions executed through llvmlite's JIT against spec 003's formulas and its
"trivial sub-group size of 1" semantics (numpy gives the identity values)."""

from __future__ import annotations

import ctypes
import math

import llvmlite.binding as llvm
import numpy as np
import pytest

from kernelkit.ir import parse
from kernelkit.mux.passes.define_builtins import define_linear_ids, define_trivial_sub_groups

# the basic queries, answered from a global table the test fills: [id, offset, size, lid, lsize] x 3
BASE = """
target triple = "{triple}"
@state = global [15 x i64] zeroinitializer
@fences = global i64 0
define i64 @get(i32 %row, i32 %d) {{
  %i = mul i32 %row, 3
  %j = add i32 %i, %d
  %p = getelementptr [15 x i64], ptr @state, i32 0, i32 %j
  %v = load i64, ptr %p
  ret i64 %v
}}
define i64 @__mux_get_global_id(i32 %d) {{
  %v = call i64 @get(i32 0, i32 %d)
  ret i64 %v
}}
define i64 @__mux_get_global_offset(i32 %d) {{
  %v = call i64 @get(i32 1, i32 %d)
  ret i64 %v
}}
define i64 @__mux_get_global_size(i32 %d) {{
  %v = call i64 @get(i32 2, i32 %d)
  ret i64 %v
}}
define i64 @__mux_get_local_id(i32 %d) {{
  %v = call i64 @get(i32 3, i32 %d)
  ret i64 %v
}}
define i64 @__mux_get_local_size(i32 %d) {{
  %v = call i64 @get(i32 4, i32 %d)
  ret i64 %v
}}
define void @__mux_mem_barrier(i32 %scope, i32 %sem) {{
  %s = zext i32 %scope to i64
  %t = zext i32 %sem to i64
  %u = shl i64 %s, 32
  %v = or i64 %u, %t
  store i64 %v, ptr @fences
  ret void
}}
declare i64 @__mux_get_global_linear_id()
declare i64 @__mux_get_local_linear_id()
declare i32 @__mux_get_sub_group_size()
declare i32 @__mux_get_max_sub_group_size()
declare i32 @__mux_get_sub_group_local_id()
declare i32 @__mux_get_sub_group_id()
declare i32 @__mux_get_num_sub_groups()
declare void @__mux_sub_group_barrier(i32, i32, i32)
declare i1 @__mux_sub_group_any_i1(i1)
declare i1 @__mux_sub_group_all_i1(i1)
declare i32 @__mux_sub_group_broadcast_i32(i32, i32)
declare double @__mux_sub_group_reduce_fadd_f64(double)
declare i32 @__mux_sub_group_scan_inclusive_smax_i32(i32)
declare i32 @__mux_sub_group_shuffle_i32(i32, i32)
declare float @__mux_sub_group_shuffle_xor_f32(float, i32)
declare i8 @__mux_sub_group_shuffle_up_i8(i8, i8, i32)
declare float @__mux_sub_group_shuffle_down_f32(float, float, i32)
"""
EXCLUSIVE = [("add", "i32", 0), ("mul", "i64", 1), ("smin", "i32", int(np.iinfo(np.int32).max)),
             ("umin", "i32", int(np.iinfo(np.uint32).max)), ("smax", "i64", int(np.iinfo(np.int64).min)),
             ("umax", "i16", 0), ("and", "i8", 0xFF), ("or", "i32", 0), ("xor", "i64", 0),
             ("logical_and", "i32", 1), ("logical_or", "i32", 0), ("logical_xor", "i32", 0),
             ("fadd", "float", 0.0), ("fmul", "double", 1.0), ("fmin", "float", math.inf),
             ("fmax", "double", -math.inf)]
SUFFIX = {"i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "float": "f32", "double": "f64"}
CTYPE = {"i1": ctypes.c_bool, "i8": ctypes.c_uint8, "i16": ctypes.c_uint16, "i32": ctypes.c_uint32,
         "i64": ctypes.c_uint64, "float": ctypes.c_float, "double": ctypes.c_double}


@pytest.fixture(scope="module")
def jit():
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    text = BASE.format(triple=llvm.get_default_triple())
    text += "".join(f"declare {ty} @__mux_sub_group_scan_exclusive_{op}_{SUFFIX[ty]}({ty})\n"
                    for op, ty, _ in EXCLUSIVE)
    module = parse(text)
    assert define_linear_ids(module, linkage="") == ["__mux_get_global_linear_id", "__mux_get_local_linear_id"]
    defined = define_trivial_sub_groups(module, linkage="")
    assert len(defined) == 15 + len(EXCLUSIVE)
    ref = llvm.parse_assembly(str(module))
    ref.verify()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(ref, machine)
    engine.finalize_object()
    state = (ctypes.c_int64 * 15).from_address(engine.get_global_value_address("state"))
    fences = ctypes.c_int64.from_address(engine.get_global_value_address("fences"))

    def fn(name, restype, *argtypes):
        return ctypes.CFUNCTYPE(restype, *argtypes)(engine.get_function_address(name))

    return fn, state, fences


def test_linear_ids_follow_the_spec_formulas(jit):
    fn, state, _ = jit
    global_linear = fn("__mux_get_global_linear_id", ctypes.c_uint64)
    local_linear = fn("__mux_get_local_linear_id", ctypes.c_uint64)
    rng = np.random.default_rng(7)
    for _ in range(50):
        gsize = rng.integers(1, 50, 3)
        off = rng.integers(0, 20, 3)
        gid = off + np.array([rng.integers(0, s) for s in gsize])
        lsize = rng.integers(1, 9, 3)
        lid = np.array([rng.integers(0, s) for s in lsize])
        state[:] = [*gid, *off, *gsize, *lid, *lsize]
        expected_global = ((gid[2] - off[2]) * gsize[1] * gsize[0] + (gid[1] - off[1]) * gsize[0] + (gid[0] - off[0]))
        assert global_linear() == expected_global
        assert local_linear() == lid[2] * lsize[1] * lsize[0] + lid[1] * lsize[0] + lid[0]


def test_trivial_sub_group_queries(jit):
    fn, state, fences = jit
    state[:] = [0, 0, 0, 0, 0, 0, 1, 1, 1, 3, 1, 0, 4, 2, 1]  # local id (3,1,0) in a 4x2x1 group
    assert fn("__mux_get_sub_group_size", ctypes.c_uint32)() == 1
    assert fn("__mux_get_max_sub_group_size", ctypes.c_uint32)() == 1
    assert fn("__mux_get_sub_group_local_id", ctypes.c_uint32)() == 0
    assert fn("__mux_get_sub_group_id", ctypes.c_uint32)() == 3 + 1 * 4  # one sub-group per invocation
    assert fn("__mux_get_num_sub_groups", ctypes.c_uint32)() == 8
    fn("__mux_sub_group_barrier", None, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32)(5, 3, 0x110)
    assert fences.value == (3 << 32) | 0x110  # a sub-group barrier of one is its memory barrier


def test_trivial_sub_group_collectives(jit):
    fn, _, _ = jit
    assert fn("__mux_sub_group_any_i1", ctypes.c_bool, ctypes.c_bool)(True) is True
    assert fn("__mux_sub_group_all_i1", ctypes.c_bool, ctypes.c_bool)(False) is False
    assert fn("__mux_sub_group_broadcast_i32", ctypes.c_int32, ctypes.c_int32, ctypes.c_uint32)(-9, 0) == -9
    assert fn("__mux_sub_group_reduce_fadd_f64", ctypes.c_double, ctypes.c_double)(2.5) == 2.5
    assert fn("__mux_sub_group_scan_inclusive_smax_i32", ctypes.c_int32, ctypes.c_int32)(-4) == -4
    assert fn("__mux_sub_group_shuffle_i32", ctypes.c_int32, ctypes.c_int32, ctypes.c_uint32)(11, 0) == 11
    assert fn("__mux_sub_group_shuffle_xor_f32", ctypes.c_float, ctypes.c_float, ctypes.c_uint32)(1.5, 0) == 1.5
    up = fn("__mux_sub_group_shuffle_up_i8", ctypes.c_uint8, ctypes.c_uint8, ctypes.c_uint8, ctypes.c_uint32)
    assert up(7, 9, 0) == 9 and up(7, 9, 1) == 7   # index 0 - delta: 0 -> curr, -1 -> prev
    down = fn("__mux_sub_group_shuffle_down_f32", ctypes.c_float, ctypes.c_float, ctypes.c_float, ctypes.c_uint32)
    assert down(1.0, 2.0, 0) == 1.0 and down(1.0, 2.0, 1) == 2.0  # 0 + delta: 0 -> curr, 1 -> next


@pytest.mark.parametrize(("op", "ty", "expected"), EXCLUSIVE)
def test_exclusive_scan_of_one_is_the_identity(jit, op, ty, expected):
    fn, _, _ = jit
    call = fn(f"__mux_sub_group_scan_exclusive_{op}_{SUFFIX[ty]}", CTYPE[ty], CTYPE[ty])
    if ty in ("float", "double"):
        assert call(3.0) == expected
    else:  # unsigned ctypes: compare the bit pattern
        assert call(3) == expected % (1 << int(ty[1:]))
