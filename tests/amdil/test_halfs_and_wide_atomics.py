"""vload_half/vstore_half (every rounding mode, vector and aligned forms) on AMD IL devices
against numpy's binary16 conversions, and 64-bit atomics refused on devices without them."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.errors import CompileError
from kernelkit.mux.registry import build_binary
from kernelkit.mux.result import MuxError

pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")

HALVES = """
kernel void widen(global const half *in, global float *one, global float4 *four,
                  global float4 *three) {
    size_t i = get_global_id(0);
    one[i] = vload_half(i, in);
    four[i] = vload_half4(i, in);
    three[i] = (float4)(vloada_half3(i, in), 0.0f);
}
kernel void narrow(global const float *in, global half *out, local half *tmp) {
    size_t i = get_global_id(0), n = get_global_size(0), l = get_local_id(0);
    float x = in[i];
    vstore_half(x, i, out);
    vstore_half_rte(x, i + n, out);
    vstore_half_rtz(x, i + 2 * n, out);
    vstore_half_rtp(x, i + 3 * n, out);
    vstore_half_rtn(x, i + 4 * n, out);
    vstore_half(x * 2.0f, l, tmp);
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore_half(vload_half(get_local_size(0) - 1 - l, tmp), 5 * n + i, out);
}
kernel void narrow4(global const float4 *in, global half *out) {
    size_t i = get_global_id(0);
    vstore_half4_rtz(in[i], i, out);
    vstorea_half3(in[i].xyz, i, out + 4 * get_global_size(0));
}
"""


def directed(x: np.ndarray, mode: str) -> np.ndarray:
    """binary32 -> binary16 bits rounded toward zero / up / down (numpy rounds to nearest): the
    nearest half, moved one step where it lies on the wrong side of x."""
    h = x.astype(np.float16)
    back = h.astype(np.float32)
    bits = h.view(np.uint16).astype(np.int64)
    wrong = {"rtz": np.abs(back) > np.abs(x), "rtp": back < x, "rtn": back > x}[mode]
    away = {"rtz": False, "rtp": x > 0, "rtn": x < 0}[mode]
    step = np.where(away, 1, -1)
    return np.where(np.isfinite(x) & wrong, bits + step, bits).astype(np.uint16)


@pytest.fixture(scope="module")
def floats() -> np.ndarray:
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(256) * np.float32(10.0) ** rng.integers(-9, 6, 256)).astype(np.float32)
    x[:6] = [0.0, -0.0, 65520.0, -1e9, 1e-10, -6e-8]
    return x


@pytest.mark.parametrize("device", ["rv770", "juniper"])
def test_vload_half_widens_as_numpy(device):
    bits = np.random.default_rng(1).integers(0, 0x7C00, 1024).astype(np.uint16)
    bits[::7] |= 0x8000
    halves = bits.view(np.float16)
    prog = kernelkit.Program(HALVES).build(f"amdil:{device}")
    one = np.zeros(64, np.float32)
    four = np.zeros((64, 4), np.float32)
    three = np.zeros((64, 4), np.float32)
    prog.widen(halves, one, four, three, global_size=64, local_size=32)
    np.testing.assert_array_equal(one, halves[:64].astype(np.float32))
    np.testing.assert_array_equal(four, halves[:256].astype(np.float32).reshape(64, 4))
    np.testing.assert_array_equal(three[:, :3], halves[:256].astype(np.float32).reshape(64, 4)[:, :3])


@pytest.mark.parametrize("device", ["rv770", "cayman"])
def test_vstore_half_rounds_as_each_mode_says(device, floats):
    prog = kernelkit.Program(HALVES).build(f"amdil:{device}")
    n = len(floats)
    stored = np.zeros(6 * n, np.float16)
    prog.narrow(floats, stored, kernelkit.LocalMemory(2 * 64), global_size=n, local_size=64)
    out = stored.view(np.uint16)
    nearest = floats.astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(out[:n], nearest)
    np.testing.assert_array_equal(out[n:2 * n], nearest)
    np.testing.assert_array_equal(out[2 * n:3 * n], directed(floats, "rtz"))
    np.testing.assert_array_equal(out[3 * n:4 * n], directed(floats, "rtp"))
    np.testing.assert_array_equal(out[4 * n:5 * n], directed(floats, "rtn"))
    doubled = (floats * np.float32(2)).astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(out[5 * n:], doubled.reshape(-1, 64)[:, ::-1].reshape(-1))
    four = floats.reshape(-1, 4)
    stored4 = np.zeros(n + n, np.float16)
    prog.narrow4(four, stored4, global_size=n // 4, local_size=16)
    out4 = stored4.view(np.uint16)
    np.testing.assert_array_equal(out4[:n], directed(floats, "rtz"))
    aligned = out4[n:].reshape(-1, 4)
    np.testing.assert_array_equal(aligned[:, :3], four[:, :3].astype(np.float16).view(np.uint16))


def test_the_conversions_are_ils_own():
    text = build_binary(HALVES, "amdil:juniper").decode()
    for op in ("f162f", "f2f16_near", "f2f16", "f2f16_plus_inf", "f2f16_neg_inf"):
        assert f"\n{op} " in text, op


@pytest.mark.parametrize("device", ["rv770", "juniper", "cayman"])
def test_64_bit_atomics_are_refused_naming_the_device(device):
    src = """#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
    kernel void k(global long *c) { atom_add(c, 1L); }"""
    with pytest.raises((CompileError, MuxError), match=rf"64-bit atomics.*{device}"):
        build_binary(src, f"amdil:{device}")


def test_64_bit_integers_become_floats_rounded_once():
    """(float) of a long/ulong: correctly rounded like the host's conversion (numpy), also where
    hi * 2^32 + lo in floats would round twice (e.g. -3 = 0xFFFFFFFF:FFFFFFFD)."""
    src = """kernel void k(global const long *a, global const ulong *b, global float *fa,
                           global float *fb) {
        size_t i = get_global_id(0); fa[i] = (float)a[i]; fb[i] = (float)b[i]; }"""
    rng = np.random.default_rng(5)
    a = rng.integers(-2**63, 2**63 - 1, 512, dtype=np.int64)
    a[:8] = [-3, 3, 0, -1, 2**63 - 1, -2**63, (1 << 40) + 1, -(1 << 53) - 1]
    a[8:300] >>= rng.integers(0, 63, 292)
    b = a.view(np.uint64).copy()
    b[:4] = [2**64 - 1, 2**64 - 3, 1 << 63, (1 << 63) + (1 << 39) + 1]
    for device in ("rv770", "juniper"):
        prog = kernelkit.Program(src).build(f"amdil:{device}")
        fa, fb = np.zeros(512, np.float32), np.zeros(512, np.float32)
        prog.k(a, b, fa, fb, global_size=512, local_size=64)
        np.testing.assert_array_equal(fa, a.astype(np.float32))
        np.testing.assert_array_equal(fb, b.astype(np.float32))
