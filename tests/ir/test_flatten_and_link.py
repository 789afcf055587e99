"""kernelkit.ir additions for the host's late passes: flatten_address_spaces, link_into /
add_definitions, append_call_args, intrinsics declared on first call. Oracle: LLVM (llvmlite)
parses and verifies the result, and runs it."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from kernelkit import ir
from kernelkit.ir import types as T
from kernelkit.ir.transforms.address_spaces import flatten_address_spaces
from kernelkit.ir.transforms.editing import append_call_args
from kernelkit.ir.transforms.link import add_definitions
from kernelkit.llvm_binding import llvm

SPIR = """
%struct.pair = type { ptr addrspace(1), i32 }
@table = addrspace(1) global [2 x ptr addrspace(1)] [ptr addrspace(1) null, ptr addrspace(1) null], align 8
@scratch = internal addrspace(3) global [4 x float] zeroinitializer, align 4
@cst = addrspace(2) constant [2 x float] [float 1.0, float 2.0], align 4

define void @copy(ptr addrspace(1) %dst, ptr addrspace(2) %src, ptr %p) {
entry:
  %s = alloca %struct.pair, align 8
  %f = getelementptr inbounds %struct.pair, ptr %s, i32 0, i32 0
  store ptr addrspace(1) %dst, ptr %f, align 8
  %q = load ptr addrspace(1), ptr %f, align 8
  %v = load <2 x float>, ptr addrspace(2) %src, align 8
  %l = getelementptr inbounds [4 x float], ptr addrspace(3) @scratch, i64 0, i64 1
  %lg = addrspacecast ptr addrspace(3) %l to ptr addrspace(4)
  %x = load float, ptr addrspace(2) getelementptr inbounds ([2 x float], ptr addrspace(2) @cst, i64 0, i64 1), align 4
  store float %x, ptr addrspace(4) %lg, align 4
  %y = load float, ptr addrspace(3) %l, align 4
  %v2 = insertelement <2 x float> %v, float %y, i32 1
  store <2 x float> %v2, ptr addrspace(1) %q, align 8
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) %dst, ptr %p, i64 4, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 0, i1 false)
  ret void
}

declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
"""


def _verified(module: ir.Module):
    m = llvm().parse_assembly(str(module))
    m.verify()
    return m


def test_flatten_address_spaces_leaves_no_address_space_and_runs():
    module = ir.parse(SPIR)
    flatten_address_spaces(module, (1, 2, 3, 4))
    text = str(module)
    assert "addrspace" not in text
    assert "addrspacecast" not in text
    # the two memcpy overloads are one declaration now
    assert [f.name for f in module.functions if f.name.startswith("llvm.memcpy")] == ["llvm.memcpy.p0.p0.i64"]
    assert module.struct_types["struct.pair"].elements[0] == T.ptr
    m = _verified(module)
    b = llvm()
    engine = b.create_mcjit_compiler(m, b.Target.from_default_triple().create_target_machine())
    engine.finalize_object()
    fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(engine.get_function_address("copy"))
    dst = np.zeros(2, np.float32)
    src = np.array([3.0, 4.0], np.float32)
    head = np.array([7.0], np.float32)
    fn(dst.ctypes.data, src.ctypes.data, head.ctypes.data)
    # dst = (src[0], cst[1]) through local memory, then its first float overwritten by *p
    np.testing.assert_array_equal(dst, [7.0, 2.0])


def test_flatten_keeps_other_address_spaces():
    module = ir.parse("define void @f(ptr addrspace(5) %a, ptr addrspace(1) %b) {\n  ret void\n}\n")
    flatten_address_spaces(module, (1,))
    assert [str(a.type) for a in module.get_function("f").args] == ["ptr addrspace(5)", "ptr"]


def test_add_definitions_replaces_declarations_and_shares_declarations():
    module = ir.parse("""
declare i32 @helper(i32)
declare i32 @llvm.umax.i32(i32, i32)

define i32 @main(i32 %x) {
  %a = call i32 @helper(i32 %x)
  %b = call i32 @llvm.umax.i32(i32 %a, i32 3)
  ret i32 %b
}
""")
    added = add_definitions(module, """
@bias = internal global i32 10

define internal i32 @helper(i32 %v) {
  %b = load i32, ptr @bias
  %r = add i32 %v, %b
  %m = call i32 @llvm.umax.i32(i32 %r, i32 0)
  ret i32 %m
}
""")
    assert sorted(g.name for g in added) == ["bias", "helper"]
    assert [f.name for f in module.functions].count("llvm.umax.i32") == 1
    assert not module.get_function("helper").is_declaration
    _verified(module)
    with pytest.raises(ValueError, match="defined twice"):
        add_definitions(module, "define i32 @helper(i32 %v) {\n  ret i32 %v\n}\n")


def test_append_call_args_and_intrinsic_declared_on_first_call():
    module = ir.parse("""
define float @g(float %a, float %b, ptr %p) {
  %r = call float @llvm.maxnum.f32(float %a, float %b)
  ret float %r
}

define float @f(ptr %p) {
  %r = call float @g(float 1.0, float 2.0)
  ret float %r
}
""")
    assert module.get_function("llvm.maxnum.f32").is_declaration   # declared by the parser, as LLVM does
    call = next(i for i in module.get_function("f").instructions() if isinstance(i, ir.CallInst))
    append_call_args(call, [module.get_function("f").args[0]])
    assert [str(a.type) for a in call.args] == ["float", "float", "ptr"]
    _verified(module)
