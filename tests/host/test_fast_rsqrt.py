"""1.0f / sqrt(x) from the rsqrt estimate + one Newton-Raphson step (targets/host/passes/fast_rsqrt.py):
the results stay within OpenCL's allowance for a 3-ulp sqrt followed by a 2.5-ulp division
(OpenCL C 3.0 s7.4), checked against numpy in float64 on every normal mantissa of two binades (the
estimate and the arithmetic scale exactly by powers of four, so that covers every normal input),
on denormals and on the special values; -cl-fp32-correctly-rounded-divide-sqrt gives numpy's
correctly rounded float32 results."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.targets.host.cpu import host_cpu
from kernelkit.targets.host.passes import fast_rsqrt

VECTOR = """
kernel void inv_sqrt(global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = 1.0f / sqrt(x[i]);
}"""

# a scalar site inside a loop of the kernel (rewritten with the scalar estimate under -cl-wfv=never)
LOOPED = """
kernel void inv_sqrt_rows(global const float *x, global float *y, int rows) {
  size_t i = get_global_id(0), n = get_global_size(0);
  for (int r = 0; r < rows; ++r)
    y[r * n + i] = 1.0f / sqrt(x[r * n + i]);
}"""

pytestmark = pytest.mark.skipif("sse" not in host_cpu().features, reason="x86 without SSE: the pass does nothing")


def ulp32(v: np.ndarray) -> np.ndarray:
    """float32 ulp at each |v| (float64 values), ulp of the smallest normal below it."""
    a = np.abs(v)
    e = np.floor(np.log2(np.maximum(a, np.finfo(np.float32).tiny)))
    return np.exp2(e - 23)


def allowed(x: np.ndarray, result: np.ndarray) -> np.ndarray:
    """Could a sqrt within 3 ulp followed by a division within 2.5 ulp give ``result`` for ``x``?
    (finite positive x)"""
    s = np.sqrt(x.astype(np.float64))
    s_lo, s_hi = s - fast_rsqrt.SQRT_ULP * ulp32(s), s + fast_rsqrt.SQRT_ULP * ulp32(s)
    q_lo, q_hi = 1.0 / s_hi, 1.0 / s_lo
    r = result.astype(np.float64)
    return (r >= q_lo - fast_rsqrt.DIVIDE_ULP * ulp32(q_lo)) & (r <= q_hi + fast_rsqrt.DIVIDE_ULP * ulp32(q_hi))


ON = "-cl-rsqrt-estimate=always"


def run(source: str, kernel: str, x: np.ndarray, options=(), rows: int | None = None, mode=ON):
    prog = kernelkit.Program(source, ["-cl-std=CL1.2", *([mode] if mode else []), *options]).build()
    y = np.zeros_like(x)
    if rows is None:
        prog.kernel(kernel)(x, y, global_size=(x.size,), local_size=(256,))
    else:
        prog.kernel(kernel)(x, y, np.int32(rows), global_size=(x.size // rows,), local_size=(256,))
    return y, prog


def special_inputs() -> np.ndarray:
    f = np.finfo(np.float32)
    denormals = np.frombuffer(np.arange(1, 1 << 23, 4099, dtype=np.uint32).tobytes(), np.float32)
    values = [0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -f.tiny, -1e-42, f.tiny, f.max, f.smallest_subnormal,
              np.nextafter(f.tiny, 0, dtype=np.float32), 1.0, 4.0, 0.25, 1e-30, 1e30, 3e38, 1.1754942e-38]
    out = np.concatenate([np.array(values, np.float32), denormals])
    return np.resize(out, (out.size + 255) // 256 * 256)


def check_specials(x: np.ndarray, y: np.ndarray) -> None:
    with np.errstate(divide="ignore", invalid="ignore"):
        exact = 1.0 / np.sqrt(x.astype(np.float64))
    pos = np.isfinite(x) & (x > 0)
    bad = pos & ~allowed(x, y)
    assert not bad.any(), f"outside the bound: x={x[bad][:5]} got {y[bad][:5]} exact {exact[bad][:5]}"
    rest = ~pos
    # special values exactly as sqrt-then-divide: +-0 -> +-inf, +inf -> 0, negative/NaN -> NaN
    np.testing.assert_array_equal(y[rest], exact[rest].astype(np.float32))


def exhaustive_two_binades() -> np.ndarray:
    return np.frombuffer(np.arange(0x3F800000, 0x40800000, dtype=np.uint32).tobytes(), np.float32)  # [1, 4)


def test_every_mantissa_of_two_binades_within_the_opencl_bound():
    x = exhaustive_two_binades()
    y, prog = run(VECTOR, "inv_sqrt", x, ["-cl-wfv=always"])
    assert prog._binary.kernel("inv_sqrt").vector_width > 1
    ok = allowed(x, y)
    assert ok.all(), f"{(~ok).sum()} inputs outside the bound, e.g. x={x[~ok][:3]} -> {y[~ok][:3]}"
    # the estimate path really ran: its results are not all the correctly rounded ones
    rounded = np.float32(1.0) / np.sqrt(x)
    assert (y != rounded).any()


def test_special_values_and_denormals():
    x = special_inputs()
    y, _ = run(VECTOR, "inv_sqrt", x, ["-cl-wfv=always"])
    check_specials(x, y)


def test_scalar_sites_in_loops_and_random_inputs():
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 0x7F800000, 1 << 16, dtype=np.uint32)   # every positive finite float
    x = np.concatenate([bits.view(np.float32), special_inputs()])
    x = np.resize(x, (x.size + 1023) // 1024 * 1024)
    for options in (["-cl-wfv=never"], ["-cl-wfv=auto"]):
        y, _ = run(LOOPED, "inv_sqrt_rows", x, options, rows=4)
        check_specials(x, y)
        rounded = np.float32(1.0) / np.sqrt(x[x > 0])
        assert (y[x > 0] != rounded).any(), options


def test_correctly_rounded_option_and_the_default_turn_it_off():
    rng = np.random.default_rng(9)
    x = rng.random(1 << 14, dtype=np.float32) * np.float32(100.0)
    for source, kernel, rows in ((VECTOR, "inv_sqrt", None), (LOOPED, "inv_sqrt_rows", 4)):
        for mode, off in ((ON, [fast_rsqrt.OFF_OPTION]), (ON, ["-cl-rsqrt-estimate=never"]), (None, [])):
            y, _ = run(source, kernel, x, ["-cl-wfv=always", *off], rows=rows, mode=mode)
            np.testing.assert_array_equal(y, np.float32(1.0) / np.sqrt(x))
    with pytest.raises(kernelkit.CompileError, match="-cl-rsqrt-estimate=never\\|always"):
        kernelkit.Program(VECTOR, ["-cl-rsqrt-estimate=sometimes"]).build()


def test_sites_need_both_allowances():
    from kernelkit import ir

    text = """
define void @k(ptr %p, <8 x float> %v) {
  %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %v), !fpmath !0
  %a = fdiv <8 x float> splat (float 1.0), %s, !fpmath !1
  %t = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %v)
  %b = fdiv <8 x float> splat (float 1.0), %t, !fpmath !1
  %c = fdiv <8 x float> splat (float 2.0), %s, !fpmath !1
  store <8 x float> %a, ptr %p
  store <8 x float> %b, ptr %p
  store <8 x float> %c, ptr %p
  ret void
}
declare <8 x float> @llvm.sqrt.v8f32(<8 x float>)
!0 = !{float 3.0}
!1 = !{float 2.5}
"""
    module = ir.parse(text)
    sites = fast_rsqrt.reciprocal_sqrt_sites(module.get_function("k"))
    assert [d.name for d, _ in sites] == ["a"]
    assert fast_rsqrt.lower_reciprocal_sqrts(module, ["k"], ["sse", "avx"]) == 1
    out = str(module)
    assert "llvm.x86.avx.rsqrt.ps.256" in out and "%b = fdiv" in out
    # the division of %a is left only on the path of the packets with special lanes
    blocks = {i.name: i.parent.name for i in module.get_function("k").instructions() if i.opcode == "fdiv"}
    assert blocks["a"].startswith("rsqrt.exact") and not blocks["b"].startswith("rsqrt.exact")
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], [ON, fast_rsqrt.OFF_OPTION]) == text
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], []) == text
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], ["-cl-rsqrt-estimate=never", ON]) != text
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], [ON, "-cl-rsqrt-estimate=never"]) == text
    assert "rsqrt" in fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], [ON])
