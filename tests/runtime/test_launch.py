"""The Python API and the execution model: NDRanges, barriers, launch and argument errors,
checked mode, binaries, threads. Oracles: numpy and the OpenCL rules quoted in each test."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""
kernel void ids(global ulong *out) {
  size_t i = get_global_linear_id();
  out[i * 8 + 0] = get_global_id(0); out[i * 8 + 1] = get_global_id(1); out[i * 8 + 2] = get_global_id(2);
  out[i * 8 + 3] = get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2);
  out[i * 8 + 4] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
  out[i * 8 + 5] = get_local_size(0) + 100 * get_local_size(1) + 10000 * get_local_size(2);
  out[i * 8 + 6] = get_enqueued_local_size(0);
  out[i * 8 + 7] = get_work_dim() + 10 * get_num_groups(0);
}

static void helper_barrier(local int *t) { barrier(CLK_LOCAL_MEM_FENCE); }

kernel void barrier_shapes(global int *out, local int *t, int rounds) {
  int lid = get_local_id(0), n = get_local_size(0);
  int acc = 0;
  t[lid] = lid;
  for (int r = 0; r < rounds; ++r) {          // barrier inside a loop
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += t[(lid + 1) % n];
    helper_barrier(t);                         // barrier inside a called function
    t[lid] = acc;
  }
  if (rounds > 1) {                            // barrier inside a uniformly taken branch
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += t[n - 1 - lid];
  }
  out[get_global_id(0)] = acc;
}

kernel void static_local(global float *out) {
  local float tile[64];
  int lid = get_local_id(0);
  tile[lid] = (float)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[63 - lid];
}

kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global int *a) { a[get_global_id(0)] = 1; }

kernel void scalars(global float *out, float f, int i, uchar c, float4 v, double d) {
  out[0] = f; out[1] = i; out[2] = c; out[3] = v.w; out[4] = (float)d;
}

kernel void oob(global int *a, int shift) { a[get_global_id(0) + shift] = 1; }

kernel void atom(global int *c, global long *l, local int *tmp) {
  if (get_local_id(0) == 0) tmp[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&tmp[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add(c, tmp[0]);
  atom_add(l, 3L);
}
"""


@functools.cache
def prog(std: str = "CL2.0") -> kernelkit.Program:
    return kernelkit.Program(SRC, [f"-cl-std={std}"]).build()


def reference_ids(global_size, local_size, offset):
    gs = list(global_size) + [1] * (3 - len(global_size))
    ls = list(local_size) + [1] * (3 - len(local_size))
    off = list(offset) + [0] * (3 - len(offset))
    rows = np.zeros((gs[0] * gs[1] * gs[2], 8), np.uint64)
    for z in range(gs[2]):
        for y in range(gs[1]):
            for x in range(gs[0]):
                lin = x + gs[0] * (y + gs[1] * z)
                g = [x // ls[0], y // ls[1], z // ls[2]]
                loc = [x % ls[0], y % ls[1], z % ls[2]]
                size = [min(ls[d], gs[d] - g[d] * ls[d]) for d in range(3)]
                rows[lin] = [x + off[0], y + off[1], z + off[2], loc[0] + 100 * loc[1] + 10000 * loc[2],
                             g[0] + 100 * g[1] + 10000 * g[2], size[0] + 100 * size[1] + 10000 * size[2],
                             ls[0], len(global_size) + 10 * -(-gs[0] // ls[0])]
    return rows


@pytest.mark.parametrize("gsize,lsize,offset", [
    ((64,), (16,), (0,)), ((40, 6), (8, 3), (5, 7)), ((6, 4, 5), (3, 2, 5), (1, 2, 3)),
    ((30,), (8,), (0,)),            # non-uniform work-groups (OpenCL 2.0)
    ((10, 7, 3), (4, 4, 2), (0, 0, 9)),
])
def test_work_item_functions(gsize, lsize, offset):
    out = np.zeros(int(np.prod(gsize)) * 8, np.uint64)
    prog().kernel("ids")(out, global_size=gsize, local_size=lsize, global_offset=offset)
    np.testing.assert_array_equal(out.reshape(-1, 8), reference_ids(gsize, lsize, offset))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("rounds", [0, 1, 3])
def test_barriers_in_loops_branches_and_calls(rounds, threads):
    n, groups = 16, 6
    out = np.zeros(n * groups, np.int32)
    prog().kernel("barrier_shapes")(out, kernelkit.LocalMemory(4 * n), np.int32(rounds),
                                    global_size=n * groups, local_size=n, threads=threads)
    t = np.arange(n)
    acc = np.zeros(n, np.int64)
    for _ in range(rounds):
        acc = acc + t[(np.arange(n) + 1) % n]
        t = acc.copy()
    if rounds > 1:
        acc = acc + t[n - 1 - np.arange(n)]
    np.testing.assert_array_equal(out, np.tile(acc, groups))


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_static_local_memory_is_per_work_group(threads):
    out = np.zeros(64 * 8, np.float32)
    prog().kernel("static_local")(out, global_size=64 * 8, local_size=64, threads=threads)
    np.testing.assert_array_equal(out, np.arange(512, dtype=np.float32).reshape(8, 64)[:, ::-1].reshape(-1))


def test_atomics_global_local_32_and_64_bit_across_threads():
    c = np.zeros(1, np.int32)
    long_ = np.zeros(1, np.int64)
    prog().kernel("atom")(c, long_, kernelkit.LocalMemory(4), global_size=4096, local_size=64, threads=4)
    assert c[0] == 4096 and long_[0] == 3 * 4096


def test_scalar_and_vector_arguments():
    out = np.zeros(5, np.float32)
    prog().kernel("scalars")(out, np.float32(1.5), np.int32(-7), np.uint8(200),
                             np.array([1, 2, 3, 4], np.float32), np.float64(0.25), global_size=1)
    np.testing.assert_array_equal(out, [1.5, -7, 200, 4, 0.25])


def test_argument_errors_name_the_argument():
    k = prog().kernel("scalars")
    good = [np.zeros(5, np.float32), np.float32(1), np.int32(1), np.uint8(1), np.zeros(4, np.float32),
            np.float64(1)]
    with pytest.raises(TypeError, match=r"takes 6 argument"):
        k(*good[:5], global_size=1)
    with pytest.raises(TypeError, match=r"argument 1 \(f: float\).*float32.*float64"):
        k(good[0], np.float64(1), *good[2:], global_size=1)
    with pytest.raises(ValueError, match=r"argument 4 \(v: float4\).*4 element"):
        k(*good[:4], np.zeros(2, np.float32), good[5], global_size=1)
    with pytest.raises(TypeError, match=r"argument 0 \(out: float\*\).*numpy array"):
        k([0.0] * 5, *good[1:], global_size=1)
    with pytest.raises(ValueError, match=r"argument 3 \(c: uchar\).*does not fit"):
        k(good[0], good[1], good[2], 300, *good[4:], global_size=1)
    with pytest.raises(TypeError, match=r"__local pointer: pass kernelkit.LocalMemory"):
        prog().kernel("atom")(np.zeros(1, np.int32), np.zeros(1, np.int64), np.zeros(4, np.int32), global_size=1)


def test_launch_errors_are_opencl_like():
    a = np.zeros(64, np.int32)
    k = kernelkit.Program("kernel void oob(global int *a, int s) { a[get_global_id(0) + s] = 1; }",
                          ["-cl-std=CL1.2"]).build().kernel("oob")
    with pytest.raises(LaunchError, match="CL_INVALID_GLOBAL_WORK_SIZE"):
        k(a, np.int32(0), global_size=0)
    with pytest.raises(LaunchError, match="CL_INVALID_WORK_GROUP_SIZE"):
        k(a, np.int32(0), global_size=64, local_size=0)
    with pytest.raises(LaunchError, match="not a multiple of local_size.*OpenCL C 2.0"):
        k(a, np.int32(0), global_size=60, local_size=8)
    with pytest.raises(LaunchError, match="exceeds the device maximum"):
        k(a, np.int32(0), global_size=8192, local_size=8192)
    with pytest.raises(LaunchError, match="CL_INVALID_WORK_DIMENSION"):
        k(a, np.int32(0), global_size=(4, 4, 4, 4))
    with pytest.raises(LaunchError, match=r"reqd_work_group_size\(8, 1, 1\)"):
        prog().kernel("fixed")(a, global_size=64, local_size=16)
    prog().kernel("fixed")(a, global_size=64)  # default local size = the required one
    assert a.sum() == 64


def test_checked_mode_names_kernel_work_item_and_address(monkeypatch):
    a = np.zeros(16, np.int32)
    k = prog().kernel("oob")
    k(a, np.int32(0), global_size=16, check=True)
    with pytest.raises(LaunchError, match=r"oob: out-of-bounds write of 4 bytes at address 0x[0-9a-f]+ by "
                                          r"work-item \(13, 0, 0\).*past the end of argument 0 'a'"):
        k(a, np.int32(3), global_size=16, check=True)
    monkeypatch.setenv("KERNELKIT_CHECK", "1")
    with pytest.raises(LaunchError, match="out-of-bounds"):
        k(a, np.int32(-1), global_size=16)


def test_binary_round_trip_without_recompiling(monkeypatch):
    data = prog().binary
    import kernelkit.targets.host.codegen as codegen

    monkeypatch.setattr(codegen, "compile_host", lambda *a, **k: pytest.fail("recompiled"))
    again = kernelkit.Program.from_binary(data)
    assert again.kernel_names == prog().kernel_names
    out = np.zeros(64, np.float32)
    again.kernel("static_local")(out, global_size=64, local_size=64)
    np.testing.assert_array_equal(out, np.arange(64, dtype=np.float32)[::-1])


def test_binary_reader_rejects_corruption():
    from kernelkit.errors import FormatError
    from kernelkit.targets.host.binary import read_host_binary

    data = prog().binary
    rng = np.random.default_rng(3)
    for cut in (0, 4, 8, 9, 40, len(data) // 2, len(data) - 1):
        with pytest.raises(FormatError):
            read_host_binary(data[:cut])
    for _ in range(40):
        bad = bytearray(data)
        for pos in rng.integers(8, min(len(bad), 400), 4):
            bad[pos] ^= 0xFF
        try:
            read_host_binary(bytes(bad))
        except FormatError:
            pass


def test_threads_environment(monkeypatch):
    from kernelkit.runtime.launch import thread_count

    monkeypatch.setenv("KERNELKIT_THREADS", "3")
    assert thread_count() == 3
    monkeypatch.setenv("KERNELKIT_THREADS", "zero")
    with pytest.raises(ValueError, match="KERNELKIT_THREADS"):
        thread_count()


DMA_SRC = r"""
kernel void dma(global const float *in, global float *out, local float *tile) {
  size_t g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[n - 1 - get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e2 = async_work_group_strided_copy(out + g * n, tile, n / 2, 2, 0);
  wait_group_events(1, &e2);
  prefetch(in, 4);
}
kernel void sub_groups(global int *out) {
  int v = get_global_id(0);
  out[v] = sub_group_reduce_add(v) + 1000 * get_sub_group_size() + 10 * sub_group_scan_exclusive_add(v)
         + 100000 * get_num_sub_groups() + 10000 * (sub_group_broadcast(v, 0) == v) + 0 * get_sub_group_id();
}
"""


def test_async_copies_and_trivial_sub_groups():
    """OpenCL C 3.0 s6.15.13 async copies (via __mux_dma_*); spec 003 sub-groups of size 1."""
    p = kernelkit.Program(DMA_SRC, ["-cl-std=CL2.0"]).build()
    a = np.arange(32, dtype=np.float32)
    out = np.zeros(32, np.float32)
    p.kernel("dma")(a, out, kernelkit.LocalMemory(64), global_size=32, local_size=16)
    expect = a.reshape(2, 16)[:, ::-1].copy()
    expect[:, 0::2] = a.reshape(2, 16)[:, :8]
    np.testing.assert_array_equal(out, expect.reshape(-1))
    o = np.zeros(8, np.int32)
    p.kernel("sub_groups")(o, global_size=8, local_size=4)
    np.testing.assert_array_equal(o, np.arange(8) + 1000 + 400000 + 10000)


def test_program_globals_stay_shared_when_static_locals_need_copies():
    """Static __local variables are copied per thread; program-scope __global variables must not be."""
    src = r"""
    global int total = 0;
    kernel void add(global const int *v) {
      local int t[4];
      t[get_local_id(0)] = v[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) atomic_add(&total, t[0] + t[1] + t[2] + t[3]);
    }
    kernel void read(global int *out) { out[0] = total; }
    """
    p = kernelkit.Program(src, ["-cl-std=CL2.0"]).build()
    v = np.arange(64, dtype=np.int32)
    p.kernel("add")(v, global_size=64, local_size=4, threads=4)
    out = np.zeros(1, np.int32)
    p.kernel("read")(out, global_size=1)
    assert out[0] == v.sum()


PRIVATE_SRC = r"""
kernel void private_across_barrier(global int *out, local int *t, int k) {
  int p[8];                                   // a private array live across the barriers
  int lid = get_local_id(0);
  for (int i = 0; i < 8; ++i) p[i] = lid * i;
  t[lid] = p[k & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[(lid + k) & 7] += t[(lid + 1) % get_local_size(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  double4 v = (double4)(lid, 1, 2, 3);        // a 32-byte value live across a barrier
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = p[(lid + k) & 7] + (int)v.x;
}
"""


@pytest.mark.parametrize("k", [0, 3])
def test_private_arrays_and_wide_values_live_across_barriers(k):
    """Frames that cannot be re-laid out (array indexed at run time, 32-byte values) still work."""
    n, groups = 16, 3
    out = np.zeros(n * groups, np.int32)
    kernelkit.Program(PRIVATE_SRC, ["-cl-std=CL2.0"]).build().kernel("private_across_barrier")(
        out, kernelkit.LocalMemory(4 * n), np.int32(k), global_size=n * groups, local_size=n)
    lid = np.arange(n)
    t = lid * (k & 7)
    expect = lid * ((lid + k) & 7) + t[(lid + 1) % n] + lid
    np.testing.assert_array_equal(out, np.tile(expect, groups))
