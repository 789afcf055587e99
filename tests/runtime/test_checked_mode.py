"""Checked mode checks struct copies (llvm.memcpy) and OpenCL 2.0 generic pointers (issue 19.3):
an out-of-bounds access is a LaunchError naming the argument, the process heap is untouched, and
in-bounds private memory reached through a generic pointer is allowed. Oracle: numpy for the
in-bounds results; the buffers' sizes for the violations."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""
typedef struct { float v[16]; } small;
typedef struct { float v[4096]; } huge;                 // larger than the checker's sink
kernel void copy(global small *dst, global const small *src, int shift) {
  dst[get_global_id(0) + shift] = src[get_global_id(0)];
}
kernel void copy_huge(global huge *dst, global const huge *src, int shift) { dst[shift] = src[0]; }
void put(int *p, int i, int v) { p[i] = v; }             // a generic pointer parameter
int get(const int *p, int i) { return p[i]; }
kernel void via_generic(global int *a, int shift) {
  int priv[4] = {0, 0, 0, 0};
  put(priv, get_global_id(0) & 3, 5);                    // private memory through a generic pointer
  put(a, get_global_id(0) + shift, get(priv, get_global_id(0) & 3));
}
kernel void dma(global const float *in, global float *out, local float *tile, int extra, int stride) {
  size_t g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + g * n, n + extra, 0);            // 1-D read
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e2 = async_work_group_strided_copy(out + g * n, tile, n / 2, stride, 0);   // 2-D write
  wait_group_events(1, &e2);
}
kernel void atomics(global int *counts, local int *hist, int where, int shift) {
  size_t l = get_local_id(0), g = get_global_id(0);
  int k = g == 5 ? shift : 0;
  hist[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&hist[l + (where == 0 ? k : 0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&counts[g + (where == 1 ? k : 0)], hist[l]);
  atomic_fetch_add_explicit((volatile global atomic_int *)&counts[g + (where == 2 ? k : 0)], 10,
                            memory_order_relaxed);
}
constant int first[4] = {1, 2, 3, 4};
constant int second[4] = {5, 6, 7, 8};
kernel void variables(global int *out, int k) {
  local int a[8], b[8];
  size_t l = get_local_id(0);
  a[l] = l;
  b[l] = 100 + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = first[l == 3 ? k : l & 3] * 1000 + a[l == 5 ? k * 3 : l] + b[l];
}
kernel void two_buffers(global int *a, global int *b, int shift) {
  a[get_global_id(0) + shift] = 1;
  b[get_global_id(0)] += 2;
}
kernel void via_generic_local(global int *a, local int *t, int shift) {
  put(t, get_local_id(0) + shift, 7);
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[get_local_id(0)];
}
"""


@functools.cache
def prog() -> kernelkit.Program:
    return kernelkit.Program(SRC, ["-cl-std=CL2.0"]).build()


SMALL = np.dtype([("v", np.float32, 16)])
HUGE = np.dtype([("v", np.float32, 4096)])


def test_struct_copies_are_checked():
    src = np.zeros(4, SMALL)
    src["v"] = np.arange(64, dtype=np.float32).reshape(4, 16)
    dst = np.zeros(4, SMALL)
    prog().kernel("copy")(dst, src, np.int32(0), global_size=4, check=True)
    np.testing.assert_array_equal(dst["v"], src["v"])
    guard = np.zeros(5, SMALL)         # dst is the first 4 elements; the 5th must stay untouched
    dst = guard[:4]
    with pytest.raises(LaunchError, match=r"copy: out-of-bounds write of 64 bytes .* work-item \(3, 0, 0\).*"
                                          r"0 bytes past the end of argument 0 'dst' \(small\*, 256 bytes\)"):
        prog().kernel("copy")(dst, src, np.int32(1), global_size=4, check=True)
    np.testing.assert_array_equal(guard["v"][4], 0)
    big_src, big_dst = np.ones(1, HUGE), np.zeros(1, HUGE)
    with pytest.raises(LaunchError, match=r"copy_huge: out-of-bounds write of 16384 bytes"):
        prog().kernel("copy_huge")(big_dst, big_src, np.int32(1), global_size=1, check=True)


def test_generic_pointers_are_checked_and_private_memory_through_them_is_allowed():
    a = np.zeros(8, np.int32)
    prog().kernel("via_generic")(a, np.int32(0), global_size=8, check=True)
    np.testing.assert_array_equal(a, 5)
    with pytest.raises(LaunchError, match=r"via_generic: out-of-bounds write of 4 bytes .* work-item \(6, 0, 0\).*"
                                          r"past the end of argument 0 'a'"):
        prog().kernel("via_generic")(a, np.int32(2), global_size=8, check=True)
    out = np.zeros(4, np.int32)
    prog().kernel("via_generic_local")(out, kernelkit.LocalMemory(16), np.int32(0), global_size=4, local_size=4,
                                    check=True)
    np.testing.assert_array_equal(out, 7)
    with pytest.raises(LaunchError, match=r"via_generic_local: out-of-bounds write .* __local argument \(16 bytes\)"):
        prog().kernel("via_generic_local")(out, kernelkit.LocalMemory(16), np.int32(1), global_size=4, local_size=4,
                                        check=True)


def test_async_work_group_copies_are_checked():
    """OpenCL C 6.15.13: async_work_group_copy copies num_gentypes elements; the strided form writes
    num elements dst_stride apart. Oracle: numpy slicing of the same copies."""
    a = np.arange(32, dtype=np.float32)
    out = np.zeros(32, np.float32)
    k = prog().kernel("dma")
    k(a, out, kernelkit.LocalMemory(64), np.int32(0), np.int32(2), global_size=32, local_size=16, check=True)
    want = np.zeros(32, np.float32)
    want.reshape(2, 16)[:, 0::2] = a.reshape(2, 16)[:, :8]
    np.testing.assert_array_equal(out, want)
    with pytest.raises(LaunchError, match=r"dma: out-of-bounds write of 80 bytes .* __local argument \(64 bytes\)"):
        k(a, out, kernelkit.LocalMemory(64), np.int32(4), np.int32(2), global_size=32, local_size=16, check=True)
    guard = np.zeros(40, np.float32)   # out is the first 32: group 1 writes 8 floats 3 apart from 16 -> 37
    with pytest.raises(LaunchError, match=r"dma: out-of-bounds write of 88 bytes .* argument 1 'out'"):
        k(a, guard[:32], kernelkit.LocalMemory(64), np.int32(0), np.int32(3), global_size=32, local_size=16,
          check=True)
    assert not guard[32:].any()


def test_a_pointer_may_not_stray_from_its_buffer_into_the_next():
    """a and b are adjacent views of one array: a[8] is b[0]. Oracle: the layout of the views."""
    both = np.zeros(16, np.int32)
    a, b = both[:8], both[8:]
    prog().kernel("two_buffers")(a, b, np.int32(0), global_size=8, check=True)
    np.testing.assert_array_equal(both, [1] * 8 + [2] * 8)
    with pytest.raises(LaunchError, match=r"two_buffers: out-of-bounds write of 4 bytes .* work-item \(7, 0, 0\) "
                                          r"\(global id\) in global memory: offset 32: 0 bytes past the end of "
                                          r"argument 0 'a' \(int\*, 32 bytes\)"):
        prog().kernel("two_buffers")(a, b, np.int32(1), global_size=8, check=True)
    np.testing.assert_array_equal(both, [1] * 8 + [4] * 8)    # b[0] was not written by a[8]


@pytest.mark.parametrize("where, space, what", [
    (0, "local", r"__local argument \(32 bytes\)"),                          # atomic_inc
    (1, "global", r"argument 0 'counts' \(int\*, 32 bytes\)"),              # atomic_add
    (2, "generic", r"argument 0 'counts' \(int\*, 32 bytes\)"),     # atomic_fetch_add_explicit: generic pointer
])
def test_atomic_builtins_are_checked(where, space, what):
    """OpenCL's atomic builtins are calls until the host defines them: their pointers are checked.
    Oracle: counts and hist hold 8 ints; work-item 5 adds 3 to its index."""
    guard = np.zeros(9, np.int32)
    counts = guard[:8]
    launch = functools.partial(prog().kernel("atomics"), counts, kernelkit.LocalMemory(32), np.int32(where),
                               global_size=8, local_size=8, check=True)
    launch(np.int32(0))
    np.testing.assert_array_equal(counts, 11)
    with pytest.raises(LaunchError, match=rf"atomics: out-of-bounds write of 4 bytes .* work-item \(5, 0, 0\) "
                                          rf"\(global id\) in {space} memory: offset 32: 0 bytes past the end of {what}"):
        launch(np.int32(3))
    assert guard[8] == 0


@pytest.mark.parametrize("k, message", [
    (0, None),
    (4, r"work-item \(3, 0, 0\) \(global id\) in constant memory: offset 16 of program variable 'first' "
        r"\(\[4 x i32\]\) \(16 bytes\)"),
    (-5, r"work-item \(3, 0, 0\) \(global id\) in constant memory: offset -20 of program variable 'first'"),
])
def test_program_variables_bound_their_pointers(k, message):
    """A read past a __constant table or a static __local array is not one of its neighbours.
    Oracle: the sizes in the source."""
    out = np.zeros(8, np.int32)
    launch = functools.partial(prog().kernel("variables"), out, np.int32(k), global_size=8, local_size=8,
                               check=True)
    if message is None:
        launch()
        lid = np.arange(8)
        firsts = np.array([1, 2, 3, 4])[np.where(lid == 3, 0, lid & 3)]
        np.testing.assert_array_equal(out, firsts * 1000 + np.where(lid == 5, 0, lid) + 100 + lid)
    else:
        with pytest.raises(LaunchError, match=r"variables: out-of-bounds read of 4 bytes .*" + message):
            launch()


def test_static_local_array_bounds_its_pointers():
    """k = 3: work-item 5 reads a[9] of a static __local int a[8] (b[1] would be next to it)."""
    out = np.zeros(8, np.int32)
    with pytest.raises(LaunchError, match=r"variables: out-of-bounds read of 4 bytes .* work-item \(5, 0, 0\) "
                                          r"\(global id\) in local memory: offset 36 of program variable '[\w.]*a' "
                                          r"\(\[8 x i32\]\) \(32 bytes\)"):
        prog().kernel("variables")(out, np.int32(3), global_size=8, local_size=8, check=True)
