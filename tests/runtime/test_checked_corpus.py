"""Checked mode changes no result (issue 19.3): every corpus kernel with a run entry, launched
checked and unchecked on the same inputs, writes the same buffers and prints the same output,
and a kernel with private arrays, private structs and generic pointers to them gives numpy's
results checked. Oracle: the unchecked launch (itself tested against numpy in
tests/host/test_corpus_numpy.py) and numpy."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit
from tests.host.corpus_harness import Case, cases, make_args

CASES = cases()


@functools.cache
def program(file: str, cl_std: str) -> kernelkit.Program:
    return kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}"]).build()


def _arguments(case: Case) -> list:
    values, _ = make_args(case)
    for i, (arg, value) in enumerate(zip(case.kernel["args"], values, strict=True)):
        if value is None:    # a by-value struct: zero bytes of its size
            values[i] = np.zeros(1, np.dtype([("bytes", np.uint8, arg["size"])]))[0]
    return values


@pytest.mark.parametrize("file", sorted({c.file for c in CASES}))
def test_corpus_kernels_give_the_same_results_checked(file):
    for case in (c for c in CASES if c.file == file):
        prog = program(case.file, case.cl_std)
        results = []
        for check in (False, True):
            values = _arguments(case)
            printed = prog.kernel(case.name)(*values, global_size=case.run["global"],
                                             local_size=case.run.get("local"), check=check)
            results.append(([v for v in values if isinstance(v, np.ndarray) and v.ndim], printed))
        (plain, plain_out), (checked, checked_out) = results
        for a, b in zip(plain, checked, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=case.id)
        assert plain_out == checked_out, case.id


PRIVATE = r"""
typedef struct { float v[4]; int n; } acc_t;
void push(acc_t *acc, float x) { acc->v[acc->n++ & 3] = x; }     // generic pointer to a private struct
kernel void private_work(global const float *in, global float *out, global int *order, int n) {
  size_t g = get_global_id(0);
  float window[8];
  int idx[8];
  for (int k = 0; k < 8; ++k) { window[k] = in[(g + k) % n]; idx[k] = k; }
  for (int a = 1; a < 8; ++a)                                    // insertion sort of the window
    for (int b = a; b > 0 && window[idx[b - 1]] > window[idx[b]]; --b) {
      int t = idx[b]; idx[b] = idx[b - 1]; idx[b - 1] = t;
    }
  acc_t acc = {{0, 0, 0, 0}, 0};
  for (int k = 0; k < 6; ++k) push(&acc, window[idx[k]]);
  acc_t copy = acc;                                               // a private struct copy
  out[g] = copy.v[0] + copy.v[1] + copy.v[2] + copy.v[3];
  order[g] = idx[0] * 10 + idx[7];
}
"""


@pytest.mark.parametrize("options", [["-cl-std=CL2.0"], ["-cl-std=CL2.0", "-cl-opt-disable"]])
def test_private_arrays_and_structs_give_numpys_results_checked(options):
    n = 37
    rng = np.random.default_rng(7)
    data = rng.permutation(n).astype(np.float32)
    prog = kernelkit.Program(PRIVATE, options).build()
    outs = []
    for check in (True, False):
        out, order = np.zeros(n, np.float32), np.zeros(n, np.int32)
        prog.kernel("private_work")(data, out, order, np.int32(n), global_size=n, check=check)
        outs.append((out, order))
    windows = data[(np.arange(n)[:, None] + np.arange(8)) % n]
    ranks = np.argsort(windows, axis=1, kind="stable")
    pushed = np.take_along_axis(windows, ranks, axis=1)[:, :6]
    # pushes 0..5 go to slots 0,1,2,3,0,1: slots 0 and 1 keep pushes 4 and 5
    expected = pushed[:, 4] + pushed[:, 5] + pushed[:, 2] + pushed[:, 3]
    for out, order in outs:
        np.testing.assert_array_equal(out, expected)
        np.testing.assert_array_equal(order, ranks[:, 0] * 10 + ranks[:, 7])
