"""Explicit OpenCL vectors in the packetiser (issue 10, point 2: "explicit OpenCL vectors scalarised
first"): `transforms.scalarise` splits `<n x T>` values into components, so the W-lane function works
on `<W x T>` per component. Oracle: the unchanged function run natively by LLVM (lane by lane for
the W-lane form), on the same memory."""

from __future__ import annotations

import ctypes
import re

import numpy as np
import pytest

from kernelkit.ir import parse
from kernelkit.ir.analysis import WorkItemRoots
from kernelkit.ir.transforms.packetise import vectorise
from kernelkit.ir.transforms.scalarise import scalarise

from .jit import jit_module

HEADER = """
@lid = global i64 0
declare <4 x i32> @llvm.smax.v4i32(<4 x i32>, <4 x i32>)
define i64 @_Z12get_local_idj(i32 %d) {
  %v = load i64, ptr @lid
  ret i64 %v
}
"""

# an int4 per work-item (stride 16 bytes): swizzles, inserts/extracts, a vector phi in a uniform
# loop, a vector compare + select, an element-wise intrinsic, a call that keeps the vector form
# (a bitcast to i128), and a whole-vector store
KERNEL = """
define void @k(ptr %in, ptr %out, i32 %n) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds <4 x i32>, ptr %in, i64 %id
  %v = load <4 x i32>, ptr %p, align 16
  %sw = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi <4 x i32> [ zeroinitializer, %entry ], [ %acc2, %loop ]
  %ks = insertelement <4 x i32> poison, i32 %k, i64 0
  %kv = shufflevector <4 x i32> %ks, <4 x i32> poison, <4 x i32> zeroinitializer
  %t = mul <4 x i32> %sw, %kv
  %acc1 = add <4 x i32> %acc, %t
  %big = icmp sgt <4 x i32> %acc1, <i32 100, i32 200, i32 300, i32 400>
  %acc2 = select <4 x i1> %big, <4 x i32> %v, <4 x i32> %acc1
  %k1 = add i32 %k, 1
  %more = icmp slt i32 %k1, %n
  br i1 %more, label %loop, label %done
done:
  %x = extractelement <4 x i32> %acc2, i64 1
  %m = call <4 x i32> @llvm.smax.v4i32(<4 x i32> %acc2, <4 x i32> %sw)
  %r = insertelement <4 x i32> %m, i32 %x, i64 3
  %wide = bitcast <4 x i32> %r to i128
  %back = bitcast i128 %wide to <4 x i32>
  %o = getelementptr inbounds <4 x i32>, ptr %out, i64 %id
  store <4 x i32> %back, ptr %o, align 16
  ret void
}"""

W = 8
SIG = (None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32)


def _lid(lookup):
    return ctypes.c_int64.from_address(lookup.engine.get_global_value_address("lid"))


def _data():
    return np.random.default_rng(7).integers(-50, 90, 4 * W).astype(np.int32)


def test_scalarised_function_equals_original():
    module = parse(HEADER + KERNEL)
    original = module.get_function("k")
    from kernelkit.ir.transforms.editing import clone_function

    copy = clone_function(original, "k_split")
    assert scalarise(copy) > 0
    text = str(copy)
    assert not re.search(r"= (add|mul|select|icmp sgt|load|phi) <4 x i32>", text)
    lookup = jit_module(str(module))
    ref_fn, split_fn = lookup("k", *SIG), lookup("k_split", *SIG)
    data = _data()
    for n in (0, 1, 5, 17):
        for lane in range(W):
            _lid(lookup).value = lane
            ref, got = np.zeros(4 * W, np.int32), np.zeros(4 * W, np.int32)
            ref_fn(data.ctypes.data, ref.ctypes.data, n)
            split_fn(data.ctypes.data, got.ctypes.data, n)
            np.testing.assert_array_equal(got, ref, err_msg=f"n={n} lane={lane}")


@pytest.mark.parametrize("n", [0, 3, 17])
def test_vector_kernel_packetised_per_component(n):
    module = parse(HEADER + KERNEL)
    g = vectorise(module.get_function("k"), W, WorkItemRoots(), name="k_vec")
    text = str(g)
    # the loop works on one <W x i32> per component, never on interleaved <W*4 x i32> forms
    # (only the bitcast to i128, which keeps the vector form, rebuilds an int4 per lane)
    loop = text[text.index("\nloop:"):text.index("\ndone:")]
    assert f"<{4 * W} x i32>" not in loop and loop.count(f"phi <{W} x i32>") == 4
    lookup = jit_module(str(module))
    scalar, vector = lookup("k", *SIG), lookup("k_vec", *SIG)
    data = _data()
    expected, got = np.zeros(4 * W, np.int32), np.zeros(4 * W, np.int32)
    for lane in range(W):
        _lid(lookup).value = lane
        scalar(data.ctypes.data, expected.ctypes.data, n)
    _lid(lookup).value = 0
    vector(data.ctypes.data, got.ctypes.data, n)
    np.testing.assert_array_equal(got, expected)
