"""The packetiser on kernelkit.ir alone, run natively (llvmlite's JIT): a W-lane function called
once must leave memory exactly as the scalar function called for lanes 0..W-1 in order. The
work-item id is a call to get_local_id(0) that reads a global the test sets (so the scalar runs
see ids base..base+W-1 and the vector run sees base)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from kernelkit.ir import parse
from kernelkit.ir.analysis import WorkItemRoots
from kernelkit.ir.transforms.packetise import VectorisationFailure, vectorise

from .jit import jit_module

HEADER = """
@lid = global i64 0
define i64 @_Z12get_local_idj(i32 %d) {
  %v = load i64, ptr @lid
  ret i64 %v
}
"""

KERNELS = {
    # contiguous loads/stores, a divergent diamond with a load and a division under control
    "diamond": """
define void @k(ptr %in, ptr %out, i32 %n) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr %in, i64 %id
  %v = load i32, ptr %p, align 4
  %c = icmp sgt i32 %v, %n
  br i1 %c, label %big, label %small
big:
  %q = getelementptr inbounds i32, ptr %in, i64 0
  %w = load i32, ptr %q, align 4
  %d = sdiv i32 %w, %v
  br label %join
small:
  %m = mul i32 %v, 3
  br label %join
join:
  %r = phi i32 [ %d, %big ], [ %m, %small ]
  %o = getelementptr inbounds i32, ptr %out, i64 %id
  store i32 %r, ptr %o, align 4
  ret void
}""",
    # a uniform loop around a gather (stride 3) and a float intrinsic; a scatter by index
    "loop_gather": """
declare float @llvm.sqrt.f32(float)
define void @k(ptr %in, ptr %out, i32 %n) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %i3 = mul i64 %id, 3
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %kk = sext i32 %k to i64
  %ix = add i64 %i3, %kk
  %p = getelementptr inbounds i32, ptr %in, i64 %ix
  %v = load i32, ptr %p, align 4
  %f = sitofp i32 %v to float
  %s = call float @llvm.sqrt.f32(float %f)
  %acc1 = fadd float %acc, %s
  %k1 = add i32 %k, 1
  %more = icmp slt i32 %k1, %n
  br i1 %more, label %loop, label %done
done:
  %bits = bitcast float %acc1 to i32
  %rev = sub i64 7, %id
  %o = getelementptr inbounds i32, ptr %out, i64 %rev
  store i32 %bits, ptr %o, align 4
  ret void
}""",
    # an early return under divergent control; an atomic add per lane, in lane order
    "early_return": """
define void @k(ptr %in, ptr %out, i32 %n) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %old = atomicrmw add ptr %out, i32 1 monotonic, align 4
  %p = getelementptr inbounds i32, ptr %in, i64 %id
  %v = load i32, ptr %p, align 4
  %c = icmp slt i32 %v, %n
  br i1 %c, label %leave, label %work
leave:
  ret void
work:
  %o = getelementptr inbounds i32, ptr %out, i64 %id
  %o1 = getelementptr inbounds i32, ptr %o, i64 1
  %s = add i32 %v, %old
  store i32 %s, ptr %o1, align 4
  ret void
}""",
    # a divergent loop (lanes leave it in different iterations; loop masks), its live-out stored
    "divergent_loop": """
define void @k(ptr %in, ptr %out, i32 %n) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  br label %loop
loop:
  %i = phi i64 [ %id, %entry ], [ %i1, %loop ]
  %i1 = add i64 %i, 1
  %p = getelementptr inbounds i32, ptr %in, i64 %i1
  %v = load i32, ptr %p, align 4
  %c = icmp sgt i32 %v, %n
  %inside = icmp ult i64 %i1, 48
  %go = and i1 %c, %inside
  br i1 %go, label %loop, label %done
done:
  %t = trunc i64 %i to i32
  %o = getelementptr inbounds i32, ptr %out, i64 %id
  store i32 %t, ptr %o, align 4
  ret void
}""",
}

W = 8


def _run(fn, lid_ptr, base: int, data: np.ndarray, out: np.ndarray, n: int) -> None:
    lid_ptr.value = base
    fn(data.ctypes.data, out.ctypes.data, n)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_vector_function_equals_scalar_lanes(name):
    module = parse(HEADER + KERNELS[name])
    vectorise(module.get_function("k"), W, WorkItemRoots(), name="k_vec")
    lookup = jit_module(str(module))
    sig = (None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32)
    scalar, vector = lookup("k", *sig), lookup("k_vec", *sig)
    rng = np.random.default_rng(len(name))
    data = rng.integers(1, 40, 64).astype(np.int32)
    for n in (0, 3, 20):
        expected = np.zeros(16, np.int32)
        got = np.zeros(16, np.int32)
        lid = _global(lookup)
        for lane in range(W):
            _run(scalar, lid, lane, data, expected, n)
        _run(vector, lid, 0, data, got, n)
        np.testing.assert_array_equal(got, expected, err_msg=f"{name}, n={n}")


def _global(lookup):
    """The JIT's @lid as a ctypes int64."""
    address = lookup.engine.get_global_value_address("lid")
    return ctypes.c_int64.from_address(address)


def test_refusals_name_the_reason():
    text = HEADER + """
define void @k(ptr %in, ptr %out, i32 %n) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %odd = trunc i64 %id to i1
  br i1 %odd, label %b, label %a
a:
  %x = phi i32 [ 0, %entry ], [ %y1, %b ]
  %x1 = add i32 %x, 1
  %more = icmp slt i32 %x1, %n
  br i1 %more, label %b, label %done
b:
  %y = phi i32 [ 0, %entry ], [ %x1, %a ]
  %y1 = add i32 %y, 2
  %again = icmp slt i32 %y1, %n
  br i1 %again, label %a, label %done
done:
  ret void
}"""
    module = parse(text)
    with pytest.raises(VectorisationFailure, match="irreducible control flow"):
        vectorise(module.get_function("k"), W, WorkItemRoots())
    assert [f.name for f in module.functions] == ["_Z12get_local_idj", "k"]   # nothing left behind
