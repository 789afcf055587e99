"""Loop masks in the whole-function vectoriser (issue 10, point 2; `ir.transforms.loop_masks`):
divergent loops with per-work-item trip counts, several exits, nesting and loops under divergent
control are vectorised (not scalar fallbacks) and give numpy's results, at group sizes with and
without a scalar tail. The kernels are tests/host/vector_loop_shapes.cl."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import kernelkit

SOURCE = Path(__file__).with_name("vector_loop_shapes.cl")
KERNELS = ("steps_to_one", "first_match", "nested_trips", "loop_in_branch", "countdown_in_branch",
           "private_digits")
SIZES = [(64, 16), (37, None), (48, 24)]


@functools.cache
def program() -> kernelkit.Program:
    return kernelkit.Program(SOURCE.read_text(), ["-cl-wfv=always"]).build()


def launch(name: str, args, sizes):
    n, local = sizes
    program().kernel(name)(*args, global_size=(n,), local_size=(local,) if local else None)


def test_divergent_loops_are_vectorised():
    p = program()
    assert "not vectorised" not in p.build_log, p.build_log
    for name in KERNELS:
        assert p._binary.kernel(name).vector_width > 1, name


def _collatz(n: int) -> int:
    s = 0
    while n != 1 and s < 500:
        n = 3 * n + 1 if n & 1 else n // 2
        s += 1
    return s


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_data_dependent_trip_count(sizes):
    n = sizes[0]
    start = np.random.default_rng(n).integers(0, 3000, n).astype(np.uint32)
    steps = np.full(n, -7, np.int32)
    launch("steps_to_one", (start, steps), sizes)
    np.testing.assert_array_equal(steps, [_collatz(int(v) + 1) for v in start])


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_break_and_return_exits(sizes):
    n = sizes[0]
    rng = np.random.default_rng(n + 1)
    a = rng.permutation(n * 2).astype(np.int32) - 3     # some negatives, each value once
    out = np.full(n, 99, np.int32)
    launch("first_match", (a, out, np.int32(len(a)), np.int32(5)), sizes)
    expected = []
    for gid in range(n):
        value = -1
        for i in range(len(a)):
            if a[i] == gid + 5:
                value = i
                break
            if a[i] < 0 and i > gid:
                value = -2 - i
                break
        expected.append(value)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_nested_divergent_loops(sizes):
    n = sizes[0]
    count = np.random.default_rng(n + 2).integers(0, 12, n).astype(np.int32)
    out = np.zeros(n, np.float32)
    launch("nested_trips", (count, out), sizes)
    expected = [sum(i * j + 1 for i in range(count[g]) for j in range(i % 4 + (g & 1) + 1)) for g in range(n)]
    np.testing.assert_array_equal(out, np.array(expected, np.float32))


@pytest.mark.parametrize("sizes", [(64, 16), (40, 8), (48, 24)], ids=str)
def test_loops_under_divergent_control(sizes):
    n, local = sizes
    x = np.random.default_rng(n + 3).random(n, dtype=np.float32)
    y = np.zeros(n, np.float32)
    launch("loop_in_branch", (x, y, np.int32(n)), sizes)
    lid = np.arange(n) % local
    uniform = np.float32(sum(np.float64(x[k]) * (k + 1) for k in range(n)))
    per_item = np.array([-sum(np.float64(x[(g + k) % n]) for k in range(g % 5 + 1)) for g in range(n)], np.float32)
    np.testing.assert_allclose(y, np.where(lid % 3 == 0, uniform, per_item), rtol=1e-5)


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_divergent_loop_in_a_divergent_branch(sizes):
    n = sizes[0]
    x = np.random.default_rng(n + 4).integers(0, 50, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    launch("countdown_in_branch", (x, out), sizes)
    expected = []
    for g in range(n):
        acc = 100
        if g % 2 == 0:
            for k in range(x[g] % 7, 0, -1):
                acc = acc * 3 + (k ^ g)
        expected.append(acc)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_private_array_per_lane(sizes):
    n = sizes[0]
    x = np.random.default_rng(n + 5).integers(0, 1 << 31, n).astype(np.uint32)
    out = np.zeros(n, np.uint32)
    launch("private_digits", (x, out), sizes)
    np.testing.assert_array_equal(out, [int(str(int(v))[::-1]) % 2**32 for v in x])
