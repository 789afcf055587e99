"""The n-body kernel of benchmarks/host_vs_peers.py on the host (16-lane packets), its 1/sqrt by
sqrt + divide (-cl-rsqrt-estimate=never; the default without AVX-512) and by the rsqrt estimate
(targets/host/passes/fast_rsqrt.py: the form with a branch, built for x86-64-v3, and the AVX-512 form,
built for x86-64-v4 where this CPU has AVX-512), with its j loop software-pipelined or not
(-cl-loop-pipeline, targets/host/passes/loop_pipelining.py), against numpy in float64 and against each
other; coincident bodies put r2 = eps."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import ROOT

import kernelkit
from kernelkit.targets.host.cpu import host_cpu

sys.path.insert(0, str(ROOT / "benchmarks"))
from host_vs_peers import NBODY  # noqa: E402  (the benchmark's own kernel)

N, DT, EPS = 384, 0.01, 1e-3


@pytest.fixture(scope="module")
def bodies():
    rng = np.random.default_rng(3)
    pos = rng.random((N, 4), dtype=np.float32)
    pos[:, 3] += np.float32(0.5)
    pos[:7, :3] = pos[7, :3]          # coincident bodies: r2 = eps exactly
    p = pos.astype(np.float64)
    d = p[None, :, :3] - p[:, None, :3]
    r2 = (d ** 2).sum(-1) + np.float64(np.float32(EPS))
    ref = (d * (p[None, :, 3, None] / np.sqrt(r2 ** 3)[..., None])).sum(1) * np.float64(np.float32(DT))
    return pos, ref


def run(pos: np.ndarray, options: list[str]) -> tuple[np.ndarray, object]:
    prog = kernelkit.Program(NBODY, ["-cl-std=CL1.2", *options]).build()
    out = np.zeros((N, 4), np.float32)
    prog.kernel("nbody")(np.int32(N), np.float32(DT), np.float32(EPS), pos, out, global_size=(N,), local_size=(64,))
    return out, prog


AVX512 = {"avx512f", "avx512vl"} <= set(host_cpu().features)
BRANCH, NO_BRANCH = "-mcpu=x86-64-v3", "-mcpu=x86-64-v4"
FORMS = [pytest.param(BRANCH, id="branch"),
         pytest.param(NO_BRANCH, id="avx512", marks=pytest.mark.skipif(not AVX512, reason="this CPU has no AVX-512"))]
ESTIMATE, DIVIDER = "-cl-rsqrt-estimate=always", "-cl-rsqrt-estimate=never"


@pytest.mark.parametrize("cpu", FORMS)
def test_estimate_and_divider_builds_match_float64(bodies, cpu):
    pos, ref = bodies
    fast, prog = run(pos, [ESTIMATE, cpu])
    exact, _ = run(pos, [DIVIDER, cpu])
    scale = np.abs(ref).max()
    for out in (fast, exact):
        assert np.abs(out[:, :3] - ref).max() <= 5e-6 * scale
        assert (out[:, 3] == 0).all()
    if prog._binary.kernel("nbody").vector_width == 16:
        assert not np.array_equal(fast, exact)      # the estimate really ran


@pytest.mark.parametrize("cpu", FORMS)
def test_pipelined_estimate_is_bit_identical_to_the_unpipelined_one(bodies, cpu):
    """-cl-loop-pipeline=always pipelines the estimate's j loop: the same operations in the same
    order, so the same bits."""
    pos, ref = bodies
    piped, piped_prog = run(pos, [ESTIMATE, cpu, "-cl-loop-pipeline=always"])
    plain, plain_prog = run(pos, [ESTIMATE, cpu, "-cl-loop-pipeline=never"])
    assert piped.tobytes() == plain.tobytes()
    assert np.abs(piped[:, :3] - ref).max() <= 5e-6 * np.abs(ref).max()
    if piped_prog._binary.kernel("nbody").vector_width > 1:
        assert piped_prog._binary.object_code != plain_prog._binary.object_code   # it really was pipelined


@pytest.mark.parametrize("cpu, estimate, pipelined", [
    pytest.param(BRANCH, DIVIDER, False, id="divider"),
    pytest.param(BRANCH, ESTIMATE, True, id="branch"),
    pytest.param(NO_BRANCH, ESTIMATE, False, id="avx512",
                 marks=pytest.mark.skipif(not AVX512, reason="this CPU has no AVX-512"))])
def test_cost_rule(bodies, cpu, estimate, pipelined):
    """auto pipelines the estimate's loop in the form with a branch, and leaves the loop bound by
    the divider and the AVX-512 form's alone; always pipelines each, with the same bits."""
    pos, _ = bodies
    auto, auto_prog = run(pos, [cpu, estimate])
    never, never_prog = run(pos, [cpu, estimate, "-cl-loop-pipeline=never"])
    forced, forced_prog = run(pos, [cpu, estimate, "-cl-loop-pipeline=always"])
    assert auto.tobytes() == forced.tobytes() == never.tobytes()
    assert auto_prog._binary.kernel("nbody").vector_width > 1
    assert forced_prog._binary.object_code != never_prog._binary.object_code
    assert auto_prog._binary.object_code == (forced_prog if pipelined else never_prog)._binary.object_code
