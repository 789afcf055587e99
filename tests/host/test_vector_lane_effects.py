"""Atomics and printf under divergence in the whole-function vectoriser (issue 10, point 2): they
run once per active lane, in lane order (`ir.transforms.lane_guards`), so a vectorised kernel's
atomics hand out the tickets and its printf records come out in the order of the scalar run (one
work-group: work-items in order), checked against numpy / Python and the scalar (-cl-wfv=never)
build. The kernels are tests/host/vector_lane_effects.cl."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from corpus_harness import cases, make_args

import kernelkit

SOURCE = Path(__file__).with_name("vector_lane_effects.cl")
KERNELS = ("tickets_in_branch", "claim_slots", "print_some", "print_until", "volatile_reads")


@functools.cache
def program(mode: str) -> kernelkit.Program:
    return kernelkit.Program(SOURCE.read_text(), [f"-cl-wfv={mode}"]).build()


def test_side_effects_under_divergence_are_vectorised():
    p = program("always")
    assert "not vectorised" not in p.build_log, p.build_log
    for name in KERNELS:
        assert p._binary.kernel(name).vector_width > 1, name


@pytest.mark.parametrize("n", [48, 21])
def test_atomics_in_a_divergent_branch(n):
    x = np.random.default_rng(n).integers(-50, 50, n).astype(np.int32)
    counter, sum_ = np.zeros(1, np.int32), np.zeros(1, np.int32)
    ticket = np.zeros(n, np.int32)
    program("always").kernel("tickets_in_branch")(counter, ticket, sum_, x, global_size=(n,), local_size=(n,))
    chosen = np.arange(n) % 3 == 0
    expected = np.full(n, -1, np.int32)
    expected[chosen] = np.arange(chosen.sum())      # one group: tickets in work-item order
    np.testing.assert_array_equal(ticket, expected)
    assert counter[0] == chosen.sum() and sum_[0] == x[chosen].sum()


@pytest.mark.parametrize("n,nslots", [(40, 5), (24, 16)])
def test_compare_exchange_in_a_divergent_branch(n, nslots):
    slots = np.zeros(nslots, np.int32)
    owner = np.zeros(n, np.int32)
    program("always").kernel("claim_slots")(slots, owner, np.int32(nslots), global_size=(n,), local_size=(n,))
    ref_slots, expected = np.zeros(nslots, np.int32), np.full(n, -1, np.int32)
    for gid in range(1, n, 2):
        s = gid % nslots
        expected[gid] = ref_slots[s]
        if ref_slots[s] == 0:
            ref_slots[s] = gid + 1
    np.testing.assert_array_equal(owner, expected)
    np.testing.assert_array_equal(slots, ref_slots)


@pytest.mark.parametrize("n", [32, 19])
def test_printf_in_a_divergent_branch_keeps_the_scalar_order(n):
    x = np.random.default_rng(n).integers(0, 100, n).astype(np.int32)
    outputs = {mode: program(mode).kernel("print_some")(x, global_size=(n,), local_size=(n,))
               for mode in ("never", "always")}
    expected = "".join(f"item {g} has {x[g]}\n" for g in range(n) if x[g] % 3 == 0)
    assert outputs["never"] == expected
    assert outputs["always"] == expected


def test_printf_in_a_divergent_loop():
    n = 24
    x = np.random.default_rng(7).integers(0, 100, n).astype(np.int32)
    out = program("always").kernel("print_until")(x, global_size=(n,), local_size=(n,))
    # the lanes of a packet print iteration by iteration (OpenCL orders no printf between work-items)
    expected = [f"{g}:{k}" for g in range(n) for k in range(x[g] % 4, 0, -1)]
    assert sorted(out.splitlines()) == sorted(expected)


def test_volatile_loads_in_a_divergent_branch():
    n = 40
    flag = np.arange(8, dtype=np.int32) * 10 + 1
    out = np.zeros(n, np.int32)
    program("always").kernel("volatile_reads")(flag, out, np.int32(5), global_size=(n,), local_size=(n,))
    expected = [sum(int(flag[(g + k) % 8]) for k in range(5) if (g + k) % 4 != 1) for g in range(n)]
    np.testing.assert_array_equal(out, expected)


PRINTF_CASES = [c for c in cases() if c.file == "printf.cl"]


@pytest.mark.parametrize("case", PRINTF_CASES, ids=lambda c: c.name)
def test_corpus_printf_kernels_print_as_the_scalar_build(case):
    outputs = {}
    for mode in ("never", "always"):
        prog = kernelkit.Program(case.source, [*case.options, f"-cl-wfv={mode}"]).build()
        values, _ = make_args(case)
        outputs[mode] = prog.kernel(case.name)(*values, global_size=case.run["global"],
                                               local_size=case.run.get("local"))
        if mode == "always":
            assert prog._binary.kernel(case.name).vector_width > 1, prog.build_log
    assert outputs["never"] and outputs["always"] == outputs["never"]
