"""Kernels with __local atomics are vectorised (issue 10, point 2): the host lowers those atomics
to plain read-modify-writes, which the vectoriser turns back into atomics for the W-lane copy so
that they run once per lane in lane order (`passes.vectorise.restore_local_atomics`); checked
against numpy, tickets in work-item order within each group. The kernels are
tests/host/vector_local_atomics.cl."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import kernelkit

SOURCE = Path(__file__).with_name("vector_local_atomics.cl")


@functools.cache
def program() -> kernelkit.Program:
    return kernelkit.Program(SOURCE.read_text(), ["-cl-wfv=always"]).build()


def test_local_atomic_kernels_are_vectorised():
    p = program()
    assert "not vectorised" not in p.build_log, p.build_log
    for name in ("local_histogram", "local_extremes"):
        assert p._binary.kernel(name).vector_width > 1, name


@pytest.mark.parametrize("n,groups,local", [(1000, 4, 32), (333, 2, 64)])
def test_local_histogram(n, groups, local):
    data = np.random.default_rng(n).integers(0, 1 << 20, n).astype(np.uint32)
    bins = np.zeros(16, np.uint32)
    program().kernel("local_histogram")(data, bins, np.int32(n), global_size=(groups * local,), local_size=(local,))
    np.testing.assert_array_equal(bins, np.bincount(data % 16, minlength=16))


@pytest.mark.parametrize("groups,local", [(3, 32), (2, 48)])
def test_local_min_max_and_tickets(groups, local):
    n = groups * local
    x = np.random.default_rng(local).integers(-1000, 1000, n).astype(np.int32)
    out = np.zeros(3 * groups, np.int32)
    ticket = np.zeros(n, np.int32)
    program().kernel("local_extremes")(x, out, ticket, global_size=(n,), local_size=(local,))
    g = x.reshape(groups, local)
    chosen = g % 3 == 0
    np.testing.assert_array_equal(out.reshape(groups, 3), np.stack([g.min(1), g.max(1), chosen.sum(1)], 1))
    expected = np.where(chosen, np.cumsum(chosen, 1) - 1, -1)     # work-item order within a group
    np.testing.assert_array_equal(ticket.reshape(groups, local), expected)
