"""The float math builtins the vISA target computes in float only (kernelkit/targets/visa/
float_math.cl: no double, which TGLLP/DG2/ICLLP lack), run on the vISA simulator, against numpy's
double-precision functions within OpenCL C 3.0 s7.4's ulp limits (the table of tests/clc/
test_math.py). Inputs: random bit patterns (every exponent: huge arguments of sin/cos/tan need the
exact reduction by pi/2), the ranges where the functions are not flat, and the special values of
C99 Annex F (zeros, infinities, NaN, overflow and underflow edges)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import ROOT, require_tool

import kernelkit

sys.path.insert(0, str(ROOT / "tests" / "clc"))
from test_math import ULP_LIMITS  # noqa: E402

from tests.visa.finalizer import finalize_binary  # noqa: E402
from tests.visa.float_ulps import ulps  # noqa: E402

UNARY = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "exp": np.exp, "exp2": np.exp2, "exp10": lambda x: 10.0 ** x,
         "expm1": np.expm1, "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "atan": np.arctan, "tanh": np.tanh,
         "sinh": np.sinh, "cosh": np.cosh, "rsqrt": lambda x: 1 / np.sqrt(x)}
BINARY = {"pow": np.power, "atan2": np.arctan2, "hypot": np.hypot, "fmod": np.fmod}
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -3.0, 1.5, 1e-30, -1e-30,
                    3.4e38, -3.4e38, 88.72, 88.73, 89.4, -87.3, -103.9, -104.0, 127.9, 128.0, -149.0, -150.0,
                    38.5, -45.0, 9.1, 10.0, 0.34, 0.35, 1.5707964, 3.1415927, 1e4, 1e8, 1.1754944e-38], np.float32)
N = 256


def _inputs(name: str, rng: np.random.Generator) -> list[np.ndarray]:
    def some(n: int, lo: float, hi: float) -> np.ndarray:
        return rng.uniform(lo, hi, n).astype(np.float32)

    bits = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x = np.concatenate([bits, SPECIAL, some(N, -10, 10), some(N // 2, -100, 100)])
    if name not in BINARY:
        return [x]
    second = np.concatenate([rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32),
                             rng.permutation(SPECIAL), some(N, -4, 4), some(N // 2, -40, 40)])
    if name == "pow":          # also every special value as exponent of every special base
        x = np.concatenate([x, np.repeat(SPECIAL, len(SPECIAL))])
        second = np.concatenate([second, np.tile(SPECIAL, len(SPECIAL))])
    return [x, second]


def _source() -> str:
    out = [f"kernel void f_{n}(global const float *x, global float *y) {{ size_t i = get_global_id(0); "
           f"y[i] = {n}(x[i]); }}" for n in UNARY]
    out += [f"kernel void f_{n}(global const float *x, global const float *z, global float *y) {{ "
            f"size_t i = get_global_id(0); y[i] = {n}(x[i], z[i]); }}" for n in BINARY]
    out.append("kernel void f_vector(global const float4 *x, global float4 *y) { size_t i = get_global_id(0); "
               "y[i] = sin(x[i]) + exp(x[i] * 0.25f) + pow(fabs(x[i]), (float4)(0.5f, 1.5f, -2.0f, 3.0f)); }")
    return "\n".join(out)


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(_source()).build("visa:tgllp")


@pytest.mark.parametrize("name", [*UNARY, *BINARY])
def test_float_builtin_within_the_spec_ulp_limit(program, name):
    rng = np.random.default_rng(12)
    args = _inputs(name, rng)
    y = np.zeros_like(args[0])
    with np.errstate(all="ignore"):        # NaN and infinite inputs
        getattr(program, f"f_{name}")(*args, y, global_size=len(y))
        want = (UNARY | BINARY)[name](*(a.astype(np.float64) for a in args))
        err = ulps(y, want)
    worst = int(np.argmax(err))
    where = ", ".join(repr(a[worst]) for a in args)
    assert err[worst] <= ULP_LIMITS[name], f"{name}({where}) = {y[worst]!r}, want {want[worst]!r}: {err[worst]:.2f} ulp"


def test_vector_overloads_apply_the_scalar_functions():
    program = kernelkit.Program(_source()).build("visa:dg2")
    x = np.random.default_rng(5).uniform(-20, 20, (64, 4)).astype(np.float32)
    y = np.zeros_like(x)
    program.f_vector(x, y, global_size=64)
    d = x.astype(np.float64)
    want = np.sin(d) + np.exp(d * 0.25) + np.abs(d) ** np.array([0.5, 1.5, -2.0, 3.0])
    np.testing.assert_allclose(y, want, rtol=4e-6, atol=4e-6)


@pytest.mark.parametrize("platform", ["tgllp", "skl"])
def test_genx_ir_finalizes_the_float_library(platform):
    require_tool("GenX_IR")
    from kernelkit.targets.visa.module import compile_visa

    binary = compile_visa(_source(), platform)
    assert not [k.error for k in binary.kernels if k.error]
    finalize_binary(binary.isa(), platform.upper())
