"""Float-only length/distance/normalize (kernelkit/targets/visa/float_geometric.cl): math.cl's
math_vector builds and runs on tgllp/dg2 (no fp64) and skl, and the three functions match
numpy's double-precision results, also where the float sum of squares would overflow or underflow
and for infinite and zero vectors (OpenCL C 3.0 s6.15.6)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import kernelkit
from kernelkit.targets.visa.module import compile_visa
from tests.conftest import require_tool
from tests.visa.finalizer import finalize_text

MATH = Path(__file__).parents[1] / "corpus" / "math.cl"
GEOMETRIC = """
kernel void geo(global const float4 *a, global const float4 *b, global float *len, global float *dist,
                global float4 *unit, global float *len2, global float2 *unit2) {
  size_t i = get_global_id(0);
  len[i] = length(a[i]);
  dist[i] = distance(a[i], b[i]);
  unit[i] = normalize(a[i]);
  len2[i] = length(a[i].xy);
  unit2[i] = normalize(a[i].zw);
}
"""


def _unit(v: np.ndarray) -> np.ndarray:
    """OpenCL's normalize in double: infinite elements -> +-1, others 0; zero vectors unchanged."""
    v = v.astype(np.float64)
    inf = np.isinf(v)
    v = np.where(inf.any(-1, keepdims=True), np.where(inf, np.copysign(1.0, v), 0.0), v)
    n = np.sqrt((v * v).sum(-1, keepdims=True))
    return np.where(n == 0, v, v / np.where(n == 0, 1, n))


@pytest.mark.parametrize("platform", ["tgllp", "dg2"])
def test_length_distance_normalize_in_float(platform):
    rng = np.random.default_rng(7)
    a = rng.uniform(-10, 10, (32, 4)).astype(np.float32)
    a[0] = [3e30, -4e30, 1e30, 2e30]          # sum of squares overflows float
    a[1] = [3e-30, 4e-30, 0, -1e-30]          # sum of squares underflows to subnormals
    a[2] = [np.inf, 1, -np.inf, 2]            # infinite elements
    a[3] = 0
    a[4] = [1e-40, 0, 0, 1e-40]               # subnormal elements
    b = rng.uniform(-10, 10, (32, 4)).astype(np.float32)
    len_, dist, len2 = (np.zeros(32, np.float32) for _ in range(3))
    unit, unit2 = np.zeros((32, 4), np.float32), np.zeros((32, 2), np.float32)
    program = kernelkit.Program(GEOMETRIC).build(f"visa:{platform}")
    program.kernel("geo")(a, b, len_, dist, unit, len2, unit2, global_size=32)
    a64 = a.astype(np.float64)
    np.testing.assert_allclose(len_, np.sqrt((a64 * a64).sum(-1)).astype(np.float32), rtol=4e-7)
    np.testing.assert_allclose(len2, np.sqrt((a64[:, :2] ** 2).sum(-1)).astype(np.float32), rtol=4e-7)
    d = a64 - b.astype(np.float64)
    np.testing.assert_allclose(dist, np.sqrt((d * d).sum(-1)).astype(np.float32), rtol=4e-7)
    np.testing.assert_allclose(unit, _unit(a).astype(np.float32), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(unit2, _unit(a[:, 2:]).astype(np.float32), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("platform", ["tgllp", "dg2", "skl"])
def test_corpus_math_vector_without_fp64(platform):
    rng = np.random.default_rng(3)
    a, b = (rng.uniform(-2, 2, (16, 4)).astype(np.float32) for _ in range(2))
    dots, n = np.zeros(16, np.float32), np.zeros((16, 4), np.float32)
    program = kernelkit.Program(MATH.read_text()).build(f"visa:{platform}")
    program.kernel("math_vector")(a, b, dots, n, global_size=16)
    p, q = a.astype(np.float64), b.astype(np.float64)
    norm = lambda v: np.sqrt((v * v).sum(-1))      # noqa: E731
    np.testing.assert_allclose(dots, (p * q).sum(-1) + norm(p) + norm(p - q), rtol=1e-5, atol=1e-5)
    shifted = p + [1, 0, 0, 0]
    cross = np.concatenate([np.cross(p[:, :3], q[:, :3]), np.zeros((16, 1))], 1)
    t = np.clip((q + 1) / 2, 0, 1)
    expected = shifted / norm(shifted)[:, None] + cross + np.clip(q, -1, 1) + p + (q - p) * 0.25 \
        + (p >= 0) + t * t * (3 - 2 * t)
    np.testing.assert_allclose(n, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("platform, genx", [("tgllp", "TGLLP"), ("dg2", "DG2"), ("icllp", "ICLLP"),
                                             ("skl", "SKL")])
def test_finalizer_accepts_float_geometric(platform, genx):
    require_tool("GenX_IR")
    for source in (GEOMETRIC, MATH.read_text()):
        for kernel in compile_visa(source, platform).kernels:
            if kernel.signature.name == "math_double" and platform != "skl":
                assert kernel.error and "uses double, which" in kernel.error and "does not support" in kernel.error
                continue
            assert kernel.error is None, kernel.error
            finalize_text(kernel.text, genx)
