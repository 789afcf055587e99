"""Kernels with barriers vectorised (issue 10, point 2): the W-lane copy is one coroutine per packet of
W work-items (the barrier runs once per packet); work-groups whose size along x is not a multiple of
W run one coroutine per work-item, also within one launch (OpenCL 2.0 remainder groups). Divergent
regions inside them take BOSCC's paths (all lanes, no lane, some lanes of a packet). Oracle: numpy."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import kernelkit
from kernelkit.targets.host.passes.vectorise import host_vector_width, packet_width

W = packet_width(host_vector_width(), has_barriers=True, uses_sub_groups=False)

HERE = Path(__file__).resolve().parent
# the README's work-group reduction and the bounds-guarded 8x8-tiled sgemm of the divergence tests
REDUCE = (HERE.parents[1] / "examples" / "reduce.cl").read_text()
GUARDED_SGEMM = (HERE / "divergent_barriers.cl").read_text()

# values live across barriers in both directions, a packet-varying loop bound between barriers
SCAN = """
kernel void scan(global const int *in, global int *out, local int *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  int mine = in[gid];
  tmp[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = 1; off < n; off <<= 1) {
    int v = lid >= off ? tmp[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = tmp[lid] - mine + (int)lid;
}"""


@functools.cache
def program(src: str, mode: str) -> kernelkit.Program:
    return kernelkit.Program(src, ["-cl-std=CL2.0", f"-cl-wfv={mode}"]).build()


def test_packet_width():
    """Below AVX-512, kernels with barriers get two registers per lane vector; sub-group kernels keep
    the native width (their sub-group size)."""
    assert packet_width(8, True, False) == 16 and packet_width(4, True, False) == 8
    assert packet_width(16, True, False) == 16
    assert packet_width(8, True, True) == 8 and packet_width(8, False, False) == 8
    # kernels with loops: two registers too, unless they use sub-groups or have AVX-512
    assert packet_width(8, False, False, True) == 16 and packet_width(8, False, True, True) == 8
    assert packet_width(16, False, False, True) == 16


def test_barrier_kernels_are_vectorised():
    for src, name in ((REDUCE, "reduce_sum"), (GUARDED_SGEMM, "sgemm_guarded"), (SCAN, "scan")):
        prog = program(src, "auto")
        assert prog._binary.kernel(name).vector_width == W, prog.build_log
        assert prog._binary.kernel(name).coroutine
        assert program(src, "never")._binary.kernel(name).vector_width == 1


@pytest.mark.parametrize("local", [W, 4 * W, 64, 2, 4 * W + 4])
def test_reduce(local):
    groups = 5
    data = np.random.default_rng(local).random(groups * local, dtype=np.float32)
    out = np.zeros(groups, np.float32)
    program(REDUCE, "auto").kernel("reduce_sum")(data, out, kernelkit.LocalMemory(4 * local),
                                                 global_size=(groups * local,), local_size=(local,))
    # the tree adds pairs n/2 apart: for n not a power of two it sums only part of the group
    ref = data.reshape(groups, local).astype(np.float64)
    n = local
    while n > 1:
        s = n // 2
        ref[:, :s] += ref[:, s:2 * s]
        n = s
    np.testing.assert_allclose(out, ref[:, 0], rtol=1e-5)


@pytest.mark.parametrize("M,N,K", [(19, 21, 13), (16, 16, 16), (5, 33, 9)])
def test_guarded_sgemm_with_partial_tiles(M, N, K):
    rng = np.random.default_rng(M * N)
    A = rng.random((M, K), dtype=np.float32)
    B = rng.random((K, N), dtype=np.float32)
    C = np.zeros((M, N), np.float32)
    gx, gy = -(-N // 8) * 8, -(-M // 8) * 8
    program(GUARDED_SGEMM, "auto").kernel("sgemm_guarded")(np.int32(M), np.int32(N), np.int32(K), A, B, C,
                                                          global_size=(gx, gy), local_size=(8, 8))
    np.testing.assert_allclose(C, A.astype(np.float64) @ B.astype(np.float64), rtol=1e-5)


@pytest.mark.parametrize("local,total", [(2 * W, 10 * W), (2 * W, 10 * W + 3), (16, 16 * 3 + W)])
def test_scan_with_remainder_groups(local, total):
    """OpenCL 2.0 non-uniform work-groups: the last group is smaller (a multiple of W or not)."""
    data = np.random.default_rng(total).integers(-9, 9, total).astype(np.int32)
    out = np.zeros(total, np.int32)
    program(SCAN, "auto").kernel("scan")(data, out, kernelkit.LocalMemory(4 * local),
                                         global_size=(total,), local_size=(local,))
    ref = np.empty(total, np.int64)
    for start in range(0, total, local):
        block = data[start:start + local].astype(np.int64)
        ref[start:start + len(block)] = np.cumsum(block) - block + np.arange(len(block))
    np.testing.assert_array_equal(out, ref)


# values live across barriers in every work-item of a 3-D group: packets of different rows (y, z)
# keep theirs in frames of their own
ROWS = """
kernel void rows(global const int *in, global int *out, local int *tmp) {
  size_t nx = get_local_size(0), ny = get_local_size(1), n = nx * ny * get_local_size(2);
  size_t l = (get_local_id(2) * ny + get_local_id(1)) * nx + get_local_id(0);
  size_t g = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  int mine = in[g];
  tmp[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  int other = tmp[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = other * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[n - 1 - l] + mine * 7 + (int)l;
}"""


@pytest.mark.parametrize("local,groups", [((W, 3, 2), (2, 2, 3)), ((2 * W, 2, 1), (3, 1, 2)), ((W // 2, 3, 1), (2, 2, 1))],
                         ids=str)
def test_packets_of_every_row_keep_their_values(local, groups):
    prog = program(ROWS, "auto")
    assert prog._binary.kernel("rows").vector_width == W and prog._binary.kernel("rows").coroutine
    size = tuple(a * b for a, b in zip(local, groups, strict=True))
    data = np.random.default_rng(sum(size)).integers(-999, 999, size[::-1]).astype(np.int32)
    out = np.zeros_like(data)
    prog.kernel("rows")(data, out, kernelkit.LocalMemory(4 * int(np.prod(local))), global_size=size, local_size=local)
    z, y, x = np.indices(size[::-1])
    lin = ((z % local[2]) * local[1] + y % local[1]) * local[0] + x % local[0]
    np.testing.assert_array_equal(out, data.astype(np.int64) * 10 + lin)


# uint local ids: under `lid >= off` the lanes below off compute lid - off as `sub nuw` (poison there,
# 2^32 - k if computed): the packet's contiguous masked load takes its base from the first active lane
UINT_SCAN = SCAN.replace("size_t lid = get_local_id(0), n = get_local_size(0), gid",
                         "uint lid = get_local_id(0), n = get_local_size(0); size_t gid").replace(
    "for (size_t off", "for (uint off")


@pytest.mark.parametrize("local,total", [(256, 1024), (2 * W, 6 * W), (W, 3 * W)])
def test_scan_with_uint_ids(local, total):
    prog = program(UINT_SCAN, "auto")
    assert "uint lid" in UINT_SCAN and prog._binary.kernel("scan").vector_width == W
    data = np.random.default_rng(total).integers(-9, 9, total).astype(np.int32)
    out = np.zeros(total, np.int32)
    prog.kernel("scan")(data, out, kernelkit.LocalMemory(4 * local), global_size=(total,), local_size=(local,))
    block = data.reshape(-1, local).astype(np.int64)
    ref = np.cumsum(block, axis=1) - block + np.arange(local)
    np.testing.assert_array_equal(out, ref.reshape(-1))
