"""The host's definitions of spec 003's group builtins, called directly from hand-written IR
(mux form): work-group reduce/scan/broadcast/any/all, sub-group shuffles and scans (at the sub-group
size spec 003's query reports), vec-group operations across vector lanes. Oracle: the spec's definitions, computed with numpy."""

from __future__ import annotations

import numpy as np

import kernelkit

IR = r"""
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

declare i64 @__mux_get_local_id(i32)
declare i64 @__mux_get_global_id(i32)
declare float @__mux_work_group_reduce_fmax_f32(i32, float)
declare i32 @__mux_work_group_scan_exclusive_mul_i32(i32, i32)
declare i32 @__mux_work_group_scan_inclusive_smin_i32(i32, i32)
declare i64 @__mux_work_group_broadcast_i64(i32, i64, i64, i64, i64)
declare i1 @__mux_work_group_any_i1(i32, i1)
declare i1 @__mux_work_group_all_i1(i32, i1)
declare i32 @__mux_work_group_reduce_logical_xor_i32(i32, i32)
declare i32 @__mux_sub_group_shuffle_up_i32(i32, i32, i32)
declare i32 @__mux_sub_group_shuffle_down_i32(i32, i32, i32)
declare i32 @__mux_sub_group_scan_exclusive_umax_i32(i32)
declare i32 @__mux_vec_group_reduce_add_v4i32(<4 x i32>)
declare <4 x float> @__mux_vec_group_scan_inclusive_fadd_v4f32(<4 x float>)
declare <4 x i32> @__mux_vec_group_scan_exclusive_mul_v4i32(<4 x i32>)
declare i32 @__mux_vec_group_broadcast_v4i32(<4 x i32>, i32)

define spir_kernel void @groups(ptr addrspace(1) %in, ptr addrspace(1) %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 !kernel_arg_name !5 {
entry:
  %lid = call i64 @__mux_get_local_id(i32 0)
  %gid = call i64 @__mux_get_global_id(i32 0)
  %ip = getelementptr i32, ptr addrspace(1) %in, i64 %gid
  %v = load i32, ptr addrspace(1) %ip
  %f = sitofp i32 %v to float
  %o = mul i64 %gid, 16
  %r0 = call float @__mux_work_group_reduce_fmax_f32(i32 0, float %f)
  %r1 = call i32 @__mux_work_group_scan_exclusive_mul_i32(i32 1, i32 %v)
  %r2 = call i32 @__mux_work_group_scan_inclusive_smin_i32(i32 2, i32 %v)
  %v64 = sext i32 %v to i64
  %r3 = call i64 @__mux_work_group_broadcast_i64(i32 3, i64 %v64, i64 2, i64 0, i64 0)
  %neg = icmp slt i32 %v, 0
  %r4 = call i1 @__mux_work_group_any_i1(i32 4, i1 %neg)
  %pos = icmp sgt i32 %v, -100
  %r5 = call i1 @__mux_work_group_all_i1(i32 5, i1 %pos)
  %r6 = call i32 @__mux_work_group_reduce_logical_xor_i32(i32 6, i32 %v)
  %r7 = call i32 @__mux_sub_group_shuffle_up_i32(i32 7, i32 %v, i32 1)
  %r8 = call i32 @__mux_sub_group_shuffle_down_i32(i32 %v, i32 9, i32 0)
  %r9 = call i32 @__mux_sub_group_scan_exclusive_umax_i32(i32 %v)
  %vec0 = insertelement <4 x i32> poison, i32 %v, i32 0
  %vec1 = insertelement <4 x i32> %vec0, i32 2, i32 1
  %vec2 = insertelement <4 x i32> %vec1, i32 3, i32 2
  %vec = insertelement <4 x i32> %vec2, i32 4, i32 3
  %r10 = call i32 @__mux_vec_group_reduce_add_v4i32(<4 x i32> %vec)
  %vf = sitofp <4 x i32> %vec to <4 x float>
  %r11v = call <4 x float> @__mux_vec_group_scan_inclusive_fadd_v4f32(<4 x float> %vf)
  %r11 = extractelement <4 x float> %r11v, i32 3
  %r12v = call <4 x i32> @__mux_vec_group_scan_exclusive_mul_v4i32(<4 x i32> %vec)
  %r12 = extractelement <4 x i32> %r12v, i32 2
  %r13 = call i32 @__mux_vec_group_broadcast_v4i32(<4 x i32> %vec, i32 2)
  %r0i = fptosi float %r0 to i32
  %r3i = trunc i64 %r3 to i32
  %r4i = zext i1 %r4 to i32
  %r5i = zext i1 %r5 to i32
  %r11i = fptosi float %r11 to i32
  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 %o
  store i32 %r0i, ptr addrspace(1) %p0
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i64 1
  store i32 %r1, ptr addrspace(1) %p1
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i64 2
  store i32 %r2, ptr addrspace(1) %p2
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i64 3
  store i32 %r3i, ptr addrspace(1) %p3
  %p4 = getelementptr i32, ptr addrspace(1) %p0, i64 4
  store i32 %r4i, ptr addrspace(1) %p4
  %p5 = getelementptr i32, ptr addrspace(1) %p0, i64 5
  store i32 %r5i, ptr addrspace(1) %p5
  %p6 = getelementptr i32, ptr addrspace(1) %p0, i64 6
  store i32 %r6, ptr addrspace(1) %p6
  %p7 = getelementptr i32, ptr addrspace(1) %p0, i64 7
  store i32 %r7, ptr addrspace(1) %p7
  %p8 = getelementptr i32, ptr addrspace(1) %p0, i64 8
  store i32 %r8, ptr addrspace(1) %p8
  %p9 = getelementptr i32, ptr addrspace(1) %p0, i64 9
  store i32 %r9, ptr addrspace(1) %p9
  %p10 = getelementptr i32, ptr addrspace(1) %p0, i64 10
  store i32 %r10, ptr addrspace(1) %p10
  %p11 = getelementptr i32, ptr addrspace(1) %p0, i64 11
  store i32 %r11i, ptr addrspace(1) %p11
  %p12 = getelementptr i32, ptr addrspace(1) %p0, i64 12
  store i32 %r12, ptr addrspace(1) %p12
  %p13 = getelementptr i32, ptr addrspace(1) %p0, i64 13
  store i32 %r13, ptr addrspace(1) %p13
  ret void
}

!opencl.ocl.version = !{!0}
!0 = !{i32 2, i32 0}
!1 = !{i32 1, i32 1}
!2 = !{!"none", !"none"}
!3 = !{!"int*", !"int*"}
!4 = !{!"", !""}
!5 = !{!"in", !"out"}
"""


def _program(local_size: int = 8) -> tuple[kernelkit.Program, int]:
    """The program, and the sub-group size its ``groups`` kernel has at ``local_size`` (1 when it runs one
    work-item at a time, the packet width when the vectoriser takes it: spec 003's query)."""
    from kernelkit.ir import parse
    from kernelkit.mux.context import Context
    from kernelkit.targets.host.info import get_compilers

    target = get_compilers()[0].create_target(Context())
    module = target.create_module()
    module.llvm_module = parse(IR)
    module.state = module.COMPILED
    module.finalize()
    size = module.create_kernel("groups").query_sub_group_size_for_local_size(local_size, 1, 1)
    return kernelkit.Program.from_binary(module.create_binary()), size


def test_group_builtins_follow_the_spec():
    rng = np.random.default_rng(5)
    groups, n = 3, 8
    v = rng.integers(-20, 20, groups * n).astype(np.int32)
    v[v == 0] = 1
    out = np.zeros((groups * n, 16), np.int32)
    program, sub_group = _program(n)
    program.kernel("groups")(v, out, global_size=groups * n, local_size=n)
    g = v.reshape(groups, n).astype(np.int64)
    rep = lambda x: np.repeat(np.asarray(x).reshape(groups, 1), n, 1).reshape(-1)  # noqa: E731
    excl_mul = np.concatenate([np.ones((groups, 1), np.int64), np.cumprod(g, 1)[:, :-1]], 1)
    np.testing.assert_array_equal(out[:, 0], rep(g.max(1)))                                  # reduce fmax
    np.testing.assert_array_equal(out[:, 1], (excl_mul.reshape(-1) + 2**31) % 2**32 - 2**31)  # scan excl mul
    np.testing.assert_array_equal(out[:, 2], np.minimum.accumulate(g, 1).reshape(-1))       # scan incl smin
    np.testing.assert_array_equal(out[:, 3], rep(g[:, 2]))                                  # broadcast lid 2
    np.testing.assert_array_equal(out[:, 4], rep((g < 0).any(1)))
    np.testing.assert_array_equal(out[:, 5], rep((g > -100).all(1)))
    np.testing.assert_array_equal(out[:, 6], rep((g != 0).sum(1) % 2))                      # logical xor
    # sub-groups of `sub_group` invocations (spec 003): shuffle_up by 1 gives the previous invocation's
    # %curr, and %prev (7) in an invocation that starts a sub-group; shuffle_down by 0 gives %curr; an
    # exclusive umax scan gives 0 (the identity) first, then the running unsigned maximum before each
    subs = v.reshape(-1, sub_group)
    up = np.concatenate([np.full((subs.shape[0], 1), 7, np.int32), subs[:, :-1]], 1)
    np.testing.assert_array_equal(out[:, 7], up.reshape(-1))
    np.testing.assert_array_equal(out[:, 8], v)
    unsigned = subs.view(np.uint32)
    running = np.concatenate([np.zeros((subs.shape[0], 1), np.uint32),
                              np.maximum.accumulate(unsigned, 1)[:, :-1]], 1)
    np.testing.assert_array_equal(out[:, 9], running.view(np.int32).reshape(-1))
    # vec-groups: the lanes <v, 2, 3, 4>
    np.testing.assert_array_equal(out[:, 10], v + 9)
    np.testing.assert_array_equal(out[:, 11], v + 9)
    np.testing.assert_array_equal(out[:, 12], v * 2)
    np.testing.assert_array_equal(out[:, 13], 3)
