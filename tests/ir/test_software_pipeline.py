"""kernelkit.ir.transforms.software_pipeline: the pipelined loop runs natively (llvmlite's JIT) on the
same inputs as the original and gives bit-identical results, both equal to numpy's float32
computation in the same order; loops it must not touch are left alone with a reason."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from kernelkit import ir
from kernelkit.ir.transforms.software_pipeline import analyse, pipeline_loop
from kernelkit.targets.host.passes.loop_pipelining import latency

from .jit import jit_module

# sum over j of (q_j - p) / sqrt(((q_j - p)^2 + 0.5)^3), four lanes; also the trip count
LOOP = """
declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)

define void @f(ptr %a, i32 %n, ptr %pp, ptr %out, ptr %trips) {
entry:
  %p = load <4 x float>, ptr %pp, align 4
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %loop, label %done
loop:
  %j = phi i32 [ 0, %entry ], [ %j1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %jz = zext i32 %j to i64
  %ptr = getelementptr inbounds float, ptr %a, i64 %jz
  %q = load float, ptr %ptr, align 4
  %qi = insertelement <4 x float> poison, float %q, i32 0
  %qs = shufflevector <4 x float> %qi, <4 x float> poison, <4 x i32> zeroinitializer
  %d = fsub <4 x float> %qs, %p
  %r2 = fmul <4 x float> %d, %d
  %r2e = fadd <4 x float> %r2, <float 0.5, float 0.5, float 0.5, float 0.5>
  %r4 = fmul <4 x float> %r2e, %r2e
  %r6 = fmul <4 x float> %r4, %r2e
  %s = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %r6)
  %inv = fdiv <4 x float> <float 1.0, float 1.0, float 1.0, float 1.0>, %s
  %t = fmul <4 x float> %d, %inv
  %acc1 = fadd <4 x float> %acc, %t
  %j1 = add nuw nsw i32 %j, 1
  %more = icmp slt i32 %j1, %n
  br i1 %more, label %loop, label %exit
exit:
  br label %done
done:
  %r = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %exit ]
  %count = phi i32 [ 0, %entry ], [ %j1, %exit ]
  store <4 x float> %r, ptr %out, align 4
  store i32 %count, ptr %trips, align 4
  ret void
}
"""


def _loop_block(module: ir.Module):
    return next(b for b in module.get_function("f").blocks if b.name == "loop")


@pytest.fixture(scope="module")
def runners():
    original = ir.parse(LOOP)
    pipelined = ir.parse(LOOP)
    assert pipeline_loop(_loop_block(pipelined), latency) is None
    names = [b.name for b in pipelined.get_function("f").blocks]
    assert {"loop.pipe.pro", "loop.pipe", "loop.pipe.epi"} <= set(names) and "loop" not in names
    out = []
    for module in (original, pipelined):
        fn = jit_module(str(module))("f", None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                                     ctypes.c_void_p)

        def run(a: np.ndarray, n: int, p: np.ndarray, fn=fn) -> tuple[np.ndarray, int]:
            res, trips = np.full(4, np.nan, np.float32), np.zeros(1, np.int32)
            fn(a.ctypes.data, n, p.ctypes.data, res.ctypes.data, trips.ctypes.data)
            return res, int(trips[0])
        out.append(run)
    return out


def _numpy(a: np.ndarray, n: int, p: np.ndarray) -> np.ndarray:
    acc = np.zeros(4, np.float32)
    for j in range(n):
        d = a[j] - p
        r2e = d * d + np.float32(0.5)
        acc = acc + d * (np.float32(1) / np.sqrt(r2e * r2e * r2e))
    return acc


@pytest.mark.parametrize("n", [0, 1, 2, 3, 37])
def test_pipelined_loop_matches_original_and_numpy(runners, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(max(n, 1)).astype(np.float32)
    p = rng.standard_normal(4).astype(np.float32)
    (ref, ref_trips), (got, got_trips) = (run(a, n, p) for run in runners)
    assert ref.tobytes() == got.tobytes()
    assert ref_trips == got_trips == n
    assert np.array_equal(got, _numpy(a, n, p))


def test_stages_split_the_chain_and_recompute_cheap_values():
    block = _loop_block(ir.parse(LOOP))
    stages = analyse(block, latency)
    by_name = {i.name: i for i in block.instructions}
    # the exit test and the induction are in stage 1 with the chain's first half (up to the sqrt,
    # which starts at 22 of 60 cycles), the division and the accumulation in stage 2
    assert {by_name[n] for n in ("j", "j1", "more", "q", "r2", "r6", "s")} <= stages.first
    assert not {by_name[n] for n in ("acc", "acc1", "inv", "t")} & stages.first
    # d is needed by stage 2 and is one load and one subtraction away: computed again, not carried
    assert by_name["d"] in stages.recomputed
    assert stages.critical_path > stages.split_at > 0


@pytest.mark.parametrize("edit, replacement, reason", [
    # a store: stage 1's load of the next iteration would pass it
    ("  %acc1 = fadd <4 x float> %acc, %t\n",
     "  %acc1 = fadd <4 x float> %acc, %t\n  store float %q, ptr %trips, align 4\n", "write memory"),
    # the exit test needs the end of the chain: everything is stage 1
    ("  %more = icmp slt i32 %j1, %n\n",
     "  %e = extractelement <4 x float> %acc1, i32 0\n  %more = fcmp olt float %e, 1.0e3\n", "two stages"),
])
def test_loops_it_must_not_change_are_left_alone(edit, replacement, reason):
    module = ir.parse(LOOP.replace(edit, replacement))
    before = str(module)
    why = pipeline_loop(_loop_block(module), latency)
    assert why is not None and reason in why
    assert str(module) == before
