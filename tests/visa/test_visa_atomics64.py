"""64-bit atomics on __global memory (cl_khr_int64_base_atomics / _extended_atomics: atom_* on
long/ulong; OpenCL C 2.0 atomic_fetch_* on atomic_long), as IGC emits them (``svm_atomic.<op>.64``,
read from ``ocloc compile -device skl|tgllp|dg2`` dumps), run on the vISA simulator against numpy;
GenX_IR finalizes them on SKL, ICLLP, TGLLP and DG2. On __local memory they are refused clearly."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from kernelkit.errors import CompileError
from tests.visa.finalizer import finalize_binary

SOURCE = """
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void wide(global long *s, global ulong *u, global long *tickets, global long *swapped) {
  long i = (long)get_global_id(0);
  atom_add(s, i << 33);
  atom_max(s + 1, i - 100);
  atom_min(s + 2, 7 - i);
  atom_xor(u, (ulong)i << 40 | (ulong)i);
  atom_min(u + 1, (ulong)i + 0x100000000UL);
  atom_or(u + 2, 1UL << (i & 63));
  tickets[i] = atom_inc(s + 3);
  swapped[i] = atom_cmpxchg(s + 4, i - 1, i);
}
"""
LOCAL = """
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void on_local(global long *out, local long *x) { out[get_global_id(0)] = atom_add(x, 1L); }
"""
C11 = """
kernel void c11(global atomic_long *a, global long *old) {
  size_t i = get_global_id(0);
  old[i] = atomic_fetch_add(a, ((long)i + 1) << 35);
  atomic_fetch_max(a + 1, (long)i - 40);
}
"""
N = 96


@pytest.mark.parametrize("platform", ["tgllp", "skl"])
def test_atom_builtins_on_long(platform):
    program = kernelkit.Program(SOURCE).build(f"visa:{platform}")
    s = np.array([1, -(2**40), 2**40, 0, 0], np.int64)
    u = np.array([0, 2**63, 0], np.uint64)
    tickets, swapped = np.zeros(N, np.int64), np.zeros(N, np.int64)
    program.wide(s, u, tickets, swapped, global_size=N, local_size=32)
    i = np.arange(N, dtype=np.int64)
    assert s[0] == 1 + (i << 33).sum()
    assert s[1] == max(-(2**40), (i - 100).max()) and s[2] == min(2**40, (7 - i).min())
    assert u[0] == np.bitwise_xor.reduce((i.astype(np.uint64) << np.uint64(40)) | i.astype(np.uint64))
    assert u[1] == 2**32 and u[2] == np.bitwise_or.reduce(np.uint64(1) << (i.astype(np.uint64) & np.uint64(63)))
    assert s[3] == N and sorted(tickets) == list(range(N))
    # cmpxchg(expected i - 1, new i): only work-item 0 finds its expected value (-1) unless 0 was
    # written first; the old values are the values present: each is 0 or some i
    assert set(swapped) <= set(range(N)) | {0}


def test_c11_fetch_on_atomic_long():
    program = kernelkit.Program(C11, ["-cl-std=CL2.0"]).build("visa:dg2")
    a, old = np.array([5, -(2**50)], np.int64), np.zeros(N, np.int64)
    program.c11(a, old, global_size=N)
    contributions = (np.arange(N, dtype=np.int64) + 1) << 35
    assert a[0] == 5 + contributions.sum() and a[1] == N - 1 - 40
    # the old values are the running sums in some order of the work-items: their steps are the contributions
    steps = np.diff(np.append(np.sort(old), a[0]))
    assert np.sort(old)[0] == 5 and sorted(steps) == sorted(contributions)


def test_64_bit_atomics_on_local_memory_are_refused():
    from kernelkit.targets.visa.module import compile_visa

    with pytest.raises(CompileError, match="on_local: .*64-bit atomics on __local memory are not supported"):
        compile_visa(LOCAL, "tgllp").kernel("on_local")


@pytest.mark.parametrize("platform", ["SKL", "ICLLP", "TGLLP", "DG2"])
def test_genx_ir_finalizes_64_bit_atomics(platform):
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    finalize_binary(compile_visa(SOURCE, platform.lower()).isa(), platform)
