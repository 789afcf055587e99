"""The n-body kernel of benchmarks/host_vs_peers.py on the host (16-lane packets on AVX2), its
1/sqrt by sqrt + divide (the default) and by the rsqrt estimate (-cl-rsqrt-estimate=always,
targets/host/passes/fast_rsqrt.py), with its j loop software-pipelined or not (-cl-loop-pipeline,
targets/host/passes/loop_pipelining.py), against numpy in float64 and against each other;
coincident bodies put r2 = eps."""

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


def test_estimate_and_divider_builds_match_float64(bodies):
    pos, ref = bodies
    fast, prog = run(pos, ["-cl-rsqrt-estimate=always"])
    exact, _ = run(pos, [])
    scale = np.abs(ref).max()
    for out in (fast, exact):
        assert np.abs(out[:, :3] - ref).max() <= 5e-6 * scale
        assert (out[:, 3] == 0).all()
    if "avx" in host_cpu().features and prog._binary.kernel("nbody").vector_width == 16:
        assert not np.array_equal(fast, exact)      # the estimate really ran


def test_pipelined_estimate_is_bit_identical_to_the_unpipelined_one(bodies):
    """-cl-loop-pipeline=auto (the default) pipelines the estimate's j loop (targets/host/passes/
    loop_pipelining.py): the same operations in the same order, so the same bits."""
    pos, ref = bodies
    piped, piped_prog = run(pos, ["-cl-rsqrt-estimate=always"])
    plain, plain_prog = run(pos, ["-cl-rsqrt-estimate=always", "-cl-loop-pipeline=never"])
    assert piped.tobytes() == plain.tobytes()
    assert np.abs(piped[:, :3] - ref).max() <= 5e-6 * np.abs(ref).max()
    if "avx" in host_cpu().features and piped_prog._binary.kernel("nbody").vector_width > 1:
        assert piped_prog._binary.object_code != plain_prog._binary.object_code   # it really was pipelined


def test_cost_rule_leaves_the_divider_loop_alone(bodies):
    """auto does not pipeline a loop bound by the divider; always does, with the same bits."""
    pos, _ = bodies
    auto, auto_prog = run(pos, [])
    never, never_prog = run(pos, ["-cl-loop-pipeline=never"])
    forced, forced_prog = run(pos, ["-cl-loop-pipeline=always"])
    assert auto.tobytes() == forced.tobytes() == never.tobytes()
    assert auto_prog._binary.object_code == never_prog._binary.object_code
    if auto_prog._binary.kernel("nbody").vector_width > 1:
        assert forced_prog._binary.object_code != auto_prog._binary.object_code
